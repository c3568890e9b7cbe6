-- [S5] [S6] [S7] [S8] combat, its results and the defender's retreat
local C = require("rules.common")

local SHIFT_TERRAIN = { forest = true, hills = true, town = true }  -- [S6] one column left each

-- [S9] an out-of-supply unit attacks at half strength, rounded down
local function attack_of(u)
  if u.flags.oos then return u.attack // 2 end
  return u.attack
end

local function defence_of(hex)
  local total = 0
  for _, u in ipairs(kessel.units.at(hex)) do total = total + (u.defence or 0) end
  return total
end

-- [S6] the column shift of an attack on `target` by `units` (ids), with the reasons for it
local function shifts(units, target)
  local shift, reasons = 0, {}
  local terrain = kessel.map.terrain(target)
  if SHIFT_TERRAIN[terrain] then
    shift = shift - 1
    reasons[#reasons + 1] = { rule = "S6", message = "defender in " .. terrain .. ": one column left" }
  end
  if not kessel.game.option("frozen_river") and #units > 0 then
    local all_across = true
    for _, id in ipairs(units) do
      local u = kessel.units.get(id)
      if not (u and u.hex and kessel.map.has_side(u.hex, target, "river")) then all_across = false end
    end
    if all_across then
      shift = shift - 1
      reasons[#reasons + 1] = { rule = "S6", message = "every attacker is across the river: one column left" }
    end
  end
  return shift, reasons
end

-- [S5] the totals and the column of an attack
local function assess(units, target)
  local att = 0
  for _, id in ipairs(units) do
    local u = kessel.units.get(id)
    if u and u.location == "map" then att = att + attack_of(u) end
  end
  local def = defence_of(target)
  local shift, reasons = shifts(units, target)
  local odds = kessel.tables.odds("crt", att, math.max(def, 1), shift)
  return { attack = att, defence = def, shift = shift, modifiers = reasons, odds = odds }
end

local function refusal(a)
  local waiting = C.waiting_reason()
  if waiting then return waiting end
  if not C.step_is("combat") then return { rule = "S5", message = "attacks are made in the combat phase" } end
  if type(a.units) ~= "table" or #a.units == 0 then return { rule = "S5", message = "an attack needs units" } end
  if type(a.target) ~= "string" or not kessel.hex.valid(a.target) then
    return { rule = "S5", message = "an attack needs a target hex" }
  end
  local reasons, seen = {}, {}
  for _, id in ipairs(a.units) do
    local u = type(id) == "string" and kessel.units.get(id)
    if not u then reasons[#reasons + 1] = { rule = "S5", message = "no such unit: " .. C.shown(id) }
    elseif seen[id] then reasons[#reasons + 1] = { rule = "S5", message = id .. " is named twice" }
    elseif u.side ~= C.phasing() or u.location ~= "map" then
      reasons[#reasons + 1] = { rule = "S5", message = id .. " is not a phasing unit on the map" }
    elseif not kessel.hex.adjacent(u.hex, a.target) then
      reasons[#reasons + 1] = { rule = "S5", message = id .. " is not adjacent to " .. a.target }
    elseif u.flags.attacked then
      reasons[#reasons + 1] = { rule = "S5", message = id .. " already attacked this phase" }
    end
    if type(id) == "string" then seen[id] = true end
  end
  local there = kessel.units.at(a.target)
  if #there == 0 or there[1].side == C.phasing() then
    reasons[#reasons + 1] = { rule = "S5", message = "no enemy unit in " .. a.target }
  elseif there[1].flags.defended then
    reasons[#reasons + 1] = { rule = "S5", message = a.target .. " was already attacked this phase" }
  end
  return reasons
end

-- [S8] where a stack of `n` units of `side` may retreat from `from`
local function retreat_hexes(from, side, n)
  local zoc = C.enemy_zoc(side)
  local out = {}
  for _, h in ipairs(kessel.hex.neighbors(from)) do
    if C.count_at(h, C.other(side)) == 0 and not zoc:has(h) and C.count_at(h) + n <= C.STACK_LIMIT then
      out[#out + 1] = h
    end
  end
  table.sort(out)
  return out
end

-- [S7] the defender's step loss: the unit with the most steps left, the first in the hex on a tie
local function defender_loss(hex)
  local pick
  for _, u in ipairs(kessel.units.at(hex)) do
    if pick == nil or u.steps_left > pick.steps_left then pick = u end
  end
  if pick then C.lose_step(pick.id) end
end

local function start_retreat(hex, side)
  local ids = {}
  for _, u in ipairs(kessel.units.at(hex)) do ids[#ids + 1] = u.id end
  if #ids == 0 then return end
  local hexes = retreat_hexes(hex, side, #ids)
  if #hexes == 0 then
    -- [S8] no way back: each unit loses a step where it stands
    kessel.emit.note("S8", "no retreat from " .. hex .. ": each unit there loses a step")
    for _, id in ipairs(ids) do C.lose_step(id) end
    return
  end
  kessel.emit.var("pending", { kind = "retreat", side = side, rule = "S8", units = ids, from = hex,
    hexes = hexes, prompt = "retreat the stack in " .. hex .. " one hex (" .. table.concat(hexes, ", ") .. ")" })
end

kessel.action{
  kind = "attack", rule = "S5", description = "attack an adjacent enemy hex",
  validate = refusal,
  apply = function(a)
    local r = assess(a.units, a.target)
    local defenders = kessel.units.at(a.target)
    local defending_side = defenders[1].side
    for _, id in ipairs(a.units) do kessel.emit.flag(id, "attacked") end
    for _, d in ipairs(defenders) do kessel.emit.flag(d.id, "defended") end
    local roll = kessel.dice.roll("combat")
    local result = kessel.tables.result("crt", r.odds.column, roll)
    kessel.emit.note("S7", string.format("%d vs %d on %s (shift %d), roll %d: %s",
      r.attack, r.defence, r.odds.label, r.shift, roll, result))
    kessel.emit.record{ kind = "combat", rule = "S7", fields = {
      attackers = a.units, target = a.target, attack = r.attack, defence = r.defence,
      shift = r.shift, odds = r.odds.label, roll = roll, result = result } }
    if result == "AL" or result == "EX" then C.lose_step(a.units[1]) end
    if result == "DL" or result == "EX" or result == "D1R" then defender_loss(a.target) end
    if result == "DR" or result == "D1R" then start_retreat(a.target, defending_side) end
  end,
  enumerate = function(side)
    local out = {}
    if C.not_theirs(side) or C.pending() or not C.step_is("combat") then return out end
    -- every enemy hex next to a unit that has not attacked, by all such units next to it
    local targets, by_target = {}, {}
    for _, u in ipairs(kessel.units.all{ side = C.phasing(), location = "map" }) do
      if not u.flags.attacked then
        for _, n in ipairs(kessel.hex.neighbors(u.hex)) do
          local there = kessel.units.at(n)
          if #there > 0 and there[1].side ~= u.side and not there[1].flags.defended then
            if not by_target[n] then by_target[n] = {}; targets[#targets + 1] = n end
            table.insert(by_target[n], u.id)
            out[#out + 1] = { units = { u.id }, target = n }
          end
        end
      end
    end
    for _, t in ipairs(targets) do
      if #by_target[t] > 1 then out[#out + 1] = { units = by_target[t], target = t } end
    end
    return out
  end,
}

kessel.action{
  kind = "retreat", rule = "S8", description = "retreat the defending stack one hex",
  validate = function(a)
    local p = C.pending()
    if type(p) ~= "table" or p.kind ~= "retreat" then return { rule = "S8", message = "no retreat is waiting" } end
    if a.side ~= p.side then return { rule = "S8", message = "the retreat is " .. p.side .. "'s to choose" } end
    for _, h in ipairs(p.hexes) do if h == a.to then return nil end end
    return { rule = "S8", message = C.shown(a.to) .. " is not a hex the stack may retreat to (" .. table.concat(p.hexes, ", ") .. ")" }
  end,
  apply = function(a)
    local p = C.pending()
    kessel.emit.var("pending", nil)
    for _, id in ipairs(p.units) do
      local u = kessel.units.get(id)
      if u.location == "map" then kessel.emit.move(id, { a.to }, 0) end
    end
  end,
  enumerate = function(side)
    local p = C.pending()
    if type(p) ~= "table" or p.kind ~= "retreat" or (side ~= nil and side ~= p.side) then return {} end
    local out = {}
    for _, h in ipairs(p.hexes) do out[#out + 1] = { to = h } end
    return out
  end,
}

-- the editor's play-test shows this before the roll
kessel.queries.declare{
  id = "odds", rule = "S5",
  description = "The odds of an attack: strengths, column shifts and the chance of each result",
  params = {
    units = { type = "units", description = "the attacking units" },
    targets = { type = "hexes", description = "the defending hex (one)" },
  },
  fn = function(args)
    local target = args.targets[1]
    if not target then return { attack = 0, defence = 0, table = "crt", label = "", distribution = {} } end
    local r = assess(args.units, target)
    return { attack = r.attack, defence = r.defence, table = "crt", label = r.odds.label,
      below = r.odds.below, above = r.odds.above, modifiers = r.modifiers,
      distribution = kessel.tables.distribution("crt", r.odds.column) }
  end,
}

-- `kessel odds A D --flag forest --flag river` with this ruleset
kessel.on("odds", function(attack, defence, flags)
  local shift, mods = 0, {}
  for _, f in ipairs(flags) do
    if f == "forest" or f == "hills" or f == "town" then
      shift = shift - 1
      mods[#mods + 1] = { rule = "S6", message = "defender in " .. f .. ": one column left" }
    elseif f == "river" then
      shift = shift - 1
      mods[#mods + 1] = { rule = "S6", message = "every attacker across the river: one column left" }
    elseif f == "list" then
      mods[#mods + 1] = { message = "flags: forest, hills, town, river" }
    else
      error("unknown odds flag `" .. f .. "` (flags: forest, hills, town, river)")
    end
  end
  return { shift = shift, modifiers = mods }
end)

return { assess = assess, retreat_hexes = retreat_hexes }
