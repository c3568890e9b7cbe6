-- RePh step 9.620 Scenario Commencement (PB): who sets up and moves first [9.62023]; Isolated
-- units set up first and suffer Ammunition Shortage [9.62021]; the others after [9.62022].
local C = require("rules.common")
local S = require("rules.sequence")
local A = require("rules.areas")
local P = require("rules.purchase")
local M = {}

-- [9.6202] The new Fortifications a side bought in 9.619 are set up now, with its units: in a
-- Location of a Setup Area of its side [9.62022] (an Isolated one's first [9.62021]), never mines in
-- an Isolated Location [9.619] note f, the hex going on the CG Roster [9.62022]. 9.619 records the
-- type (and a mine's strength) of each purchase; its Location is chosen here, unless the purchase
-- named it (`buy_fortification{ hex = }`). Before, nothing placed a Fortification bought: mines
-- and foxholes bought without a hex (as the computer player bought them) never came into play,
-- and note f was never checked for them.

-- a purchase's placed count of a foxhole is one counter each; a mine purchase is its factors
local function is_mine(item) return item == "ap_mine" or item == "at_mine" end
-- a value as a refusal shows it: a table is "a table", not its address
local function shown(v) if type(v) == "table" then return "a table" end return tostring(v) end

-- the side's purchases of this CG Date that set up in a Location and have none yet, by item:
-- { item = { count = n, entries = { index, ... } } }
function M.unplaced(side)
  local out, date = {}, C.var("date")
  for i, f in ipairs(C.fortifications(side)) do
    if f.date == date and P.SET_UP[f.item] and f.hex == nil then
      local t = out[f.item] or { count = 0, entries = {} }
      t.count = t.count + (f.count or 1)
      t.entries[#t.entries + 1] = i
      out[f.item] = t
    end
  end
  return out
end

-- the ground-level Locations where the side may set up an item, in map order: those
-- `P.location_problem` passes, found from one read of the Setup Areas (a read per hex ran past the
-- time a call is given)
function M.locations(side, item)
  local st = A.stored()
  local area_of
  if st then
    area_of = {}
    for _, area in ipairs(st.areas[side] or {}) do
      if not area.level then
        for _, h in ipairs(area.hexes) do if area_of[h] == nil then area_of[h] = area end end
      end
    end
  end
  local barred = {}
  if is_mine(item) then
    for _, u in ipairs(C.on_map()) do if u.vars.isolated and u.hex then barred[u.hex] = true end end
  end
  local out = {}
  for _, h in ipairs(kessel.map.hexes()) do
    local area = area_of and area_of[h]
    local ok = area_of == nil or area ~= nil
    if ok and is_mine(item) and (barred[h] or (area and area.isolated)) then ok = false end
    if ok then out[#out + 1] = h end
  end
  return out
end

local USAGE = "set_up_fortification{ item = <a Fortification bought on this CG Date>, hex = <a Location of your Setup Area>, count = <how many (foxholes) or factors (mines); all a mine purchase has, 1 foxhole, if left out>, level = <0, the ground-level Location, if left out> }"

function M.validate_set_up(a)
  local why = S.only_in("commencement", "9.62022")
  if why then return why end
  local side = a.side
  if side ~= C.sides()[1] and side ~= C.sides()[2] then
    return C.refuse("9.62022", "side is " .. C.sides()[1] .. " or " .. C.sides()[2] .. ": each side sets up its own Fortifications")
  end
  local need = C.missing(a, "9.62022", { "item", "hex" }, USAGE)
  if need then return need end
  if not P.SET_UP[a.item] then
    return C.refuse("9.62022", "`" .. shown(a.item) .. "` is not set up in a Location (those that are: "
      .. table.concat(C.sorted_keys(P.SET_UP), ", ") .. "; \"?\" and HIP go with their units)")
  end
  if type(a.hex) ~= "string" or not kessel.hex.valid(a.hex) then
    return C.refuse("9.62022", "`" .. shown(a.hex) .. "` is not a hex of this map")
  end
  local left = (M.unplaced(side)[a.item] or { count = 0 }).count
  if left == 0 then
    return C.refuse("9.62022", "the " .. side .. " has no " .. a.item .. " bought on this CG Date left to set up")
  end
  local lp = P.level_problem(a.item, a.level, "9.62022")
  if lp then return lp end
  local n = a.count
  if n == nil then n = is_mine(a.item) and left or 1 end
  if type(n) ~= "number" or n ~= math.floor(n) or n < 1 or n > left then
    return C.refuse("9.62022", string.format("count is a whole number from 1 to %d (the %s left to set up), not %s", left, a.item, shown(a.count)))
  end
  why = P.location_problem(side, a.item, a.hex, 0)
  if why then return why end
  return nil, n
end

-- takes n of the item's unplaced purchases for the hex, splitting a purchase when it has more
local function assign(side, item, hex, n)
  local list = C.copy(C.fortifications(side))
  local out = {}
  for _, i in ipairs(M.unplaced(side)[item].entries) do
    if n == 0 then break end
    local f = list[i]
    local have = f.count or 1
    local take = math.min(n, have)
    if take == have then
      f.hex = hex
    else
      local part = C.copy(f)
      part.count, part.hex = take, hex
      part.cost = f.cost and f.cost * take / have
      f.count = have - take
      f.cost = f.cost and f.cost - part.cost
      out[#out + 1] = part
    end
    n = n - take
  end
  for _, f in ipairs(out) do list[#list + 1] = f end
  return list
end

kessel.action{
  kind = "set_up_fortification", rule = "9.62022",
  description = "set up a Fortification bought in 9.619 in a Location of your Setup Area",
  -- where a side puts its mines is its secret (they are hidden once placed); the foxholes show when
  -- they are placed, at the end of the step
  secret = true,
  validate = function(a) return (M.validate_set_up(a)) end,
  apply = function(a)
    local _, n = M.validate_set_up(a)
    kessel.emit.var("fortifications_" .. a.side, assign(a.side, a.item, a.hex, n), { secret_to = a.side })
    C.note("9.62022", string.format("%s sets up %s x%d in %s", a.side, a.item, n, a.hex), { secret_to = a.side })
  end,
  -- each Location a side may use, those nearest the enemy first for mines, and for foxholes those
  -- holding its squads and the fewest foxholes first (the computer player takes the first)
  enumerate = function(side)
    local s = S.current()
    if not s or s.id ~= "commencement" or kessel.game.finished() then return {} end
    local out = {}
    for _, sd in ipairs(side and { side } or C.sides()) do
      local todo = M.unplaced(sd)
      for _, item in ipairs(C.sorted_keys(todo)) do
        local scored = {}
        local enemy, own, holes = {}, {}, {}
        for _, u in ipairs(C.on_map()) do
          if u.hex and u.side == C.other(sd) then enemy[#enemy + 1] = u.hex end
          if u.hex and u.side == sd and u.type == "squad" then own[u.hex] = true end
        end
        -- the foxholes there already, on the map or set up in this step, so that they spread
        for _, m in ipairs(kessel.markers.all{ kind = "foxhole", placed = true }) do holes[m.hex] = (holes[m.hex] or 0) + 1 end
        for _, f in ipairs(C.fortifications(sd)) do
          if P.SET_UP[f.item] == "foxhole" and f.hex and not f.placed then holes[f.hex] = (holes[f.hex] or 0) + (f.count or 1) end
        end
        for _, h in ipairs(M.locations(sd, item)) do
          local score
          if is_mine(item) then
            score = 99
            for _, e in ipairs(enemy) do score = math.min(score, kessel.hex.distance(h, e)) end
          else
            score = 2 * (holes[h] or 0) + (own[h] and 0 or 1)
          end
          scored[#scored + 1] = { h = h, score = score }
        end
        table.sort(scored, function(x, y) if x.score ~= y.score then return x.score < y.score end return x.h < y.h end)
        for _, c in ipairs(scored) do out[#out + 1] = { kind = "set_up_fortification", side = sd, item = item, hex = c.h } end
      end
    end
    return out
  end,
}

-- the step ends once each side has set up every new Fortification that has a Location to go to;
-- the sender is told what is its own to set up, and of the other side only that it is not done
S.block("commencement", function(a)
  for _, side in ipairs(C.sides()) do
    local todo = M.unplaced(side)
    local items = {}
    for _, item in ipairs(C.sorted_keys(todo)) do
      if #M.locations(side, item) > 0 then items[#items + 1] = item .. " x" .. todo[item].count end
    end
    if #items > 0 then
      if a and a.side and a.side ~= side then
        return C.refuse("9.62022", "the " .. side .. " has not finished setting up its new Fortifications")
      end
      return C.refuse("9.62022", "the " .. side .. " sets up its new Fortifications before the step ends: "
        .. table.concat(items, ", ") .. " (" .. USAGE .. ")")
    end
  end
end)

-- each new Fortification with a Location becomes its marker: a foxhole in the open, a minefield
-- hidden from the other side [9.602] [9.6073], its strength the factors bought; one left with no
-- Location to go to (every Location of the side's areas barred) is not set up, and its owner told
local SIZE = { foxhole_3s = "3S", foxhole_2s = "2S", foxhole_1s = "1S" }
function M.place_new(side, date)
  local list = C.copy(C.fortifications(side))
  local changed = false
  for _, f in ipairs(list) do
    if f.date == date and P.SET_UP[f.item] and not f.placed then
      if f.hex then
        local ids = {}
        if is_mine(f.item) then
          ids[1] = kessel.emit.create_marker{ kind = f.item, side = side, hex = f.hex,
            value = { owner = side, strength = f.count or 1, hidden = true }, hidden_from = true }
        else
          for _ = 1, f.count or 1 do
            ids[#ids + 1] = kessel.emit.create_marker{ kind = "foxhole", side = side, hex = f.hex,
              value = { owner = side, size = SIZE[f.item] } }
          end
          C.note("9.62022", string.format("%s %s foxhole x%d set up in %s", side, SIZE[f.item], f.count or 1, f.hex))
        end
        f.placed, f.markers = true, ids
        C.record("fortification_setup", "9.62022", { side = side, item = f.item, count = f.count or 1, hex = f.hex, markers = ids },
          { secret_to = side })
      else
        C.note("9.62022", string.format("%s x%d has no Location of the %s Setup Areas to set up in: not set up", f.item, f.count or 1, side),
          { secret_to = side })
        f.placed = false
      end
      changed = true
    end
  end
  if changed then kessel.emit.var("fortifications_" .. side, list, { secret_to = side }) end
end

function M.order(date)
  local ok, first = pcall(kessel.tables.cell, "setup_move", date or "", "sets_up_first")
  if not ok then return nil end
  return { sets_up_first = first, moves_first = kessel.tables.cell("setup_move", date, "moves_first") }
end

S.on_end("commencement", function()
  local date = C.var("date")
  local o = M.order(date)
  if o then
    kessel.emit.var("sets_up_first", o.sets_up_first)
    kessel.emit.var("moves_first", o.moves_first)
    C.note("9.62023", string.format("%s: the %s set up first; the %s move first", date, o.sets_up_first, o.moves_first))
  end
  -- "Each unit/Equipment piece set up in an Isolated Location": a Weapon too (one held by an
  -- Isolated unit, mounted on an Isolated vehicle, or lying in an Isolated Setup Area: C.weapon_isolated)
  local isolated = {}
  for _, u in ipairs(C.on_map()) do
    local weapon = u.type == "sw" or u.type == "gun" or C.vehicular(u)
    if u.vars.isolated or (weapon and C.weapon_isolated(u)) then
      isolated[#isolated + 1] = u.id
      kessel.emit.unit_var(u.id, "ammo_shortage", true)
    end
  end
  C.record("commencement", "9.620", { date = date, sets_up_first = o and o.sets_up_first, moves_first = o and o.moves_first,
    isolated = isolated })
  -- each side's new Fortifications set up [9.62021] [9.62022], and its own record of them (9.619's
  -- secret), with their Locations
  for _, side in ipairs(C.sides()) do
    M.place_new(side, date)
    local bought = {}
    for _, f in ipairs(C.fortifications(side)) do if f.date == date then bought[#bought + 1] = f end end
    if #bought > 0 then C.record("fortifications", "9.62022", { side = side, date = date, bought = bought }, { secret_to = side }) end
  end
  if #isolated > 0 then
    C.note("9.62021", "Isolated units set up first in their Setup Area, with Ammunition Shortage (A19.131): " .. table.concat(isolated, ", "))
  end
  C.note("9.6201", "a PB CG scenario has no Victory Conditions of its own")
  -- an Initial Scenario's "!" steps are done: the next RePh is a whole one
  if kessel.game.var("initial_reph") ~= nil then kessel.emit.var("initial_reph", nil) end
end)

return M
