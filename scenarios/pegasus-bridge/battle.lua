-- The CG scenario's fighting, as a STAND-IN so that the campaign example plays headless: each
-- side in turn moves its men a hex and fires with a small table. These are not the ASL rules (the
-- tactical game is not part of scripts/asl-cg); their cases are this file's own, "PBX-1".."PBX-4".
-- When the last turn ends, the Refit Phase of scripts/asl-cg begins (`start_refit`, [9.6]).
--
--   PBX-1  Each game-turn the Germans act, then the British (the Dawn and Day I rows of the
--          setup/move table [9.62023] both have the Germans moving first).
--   PBX-2  A man (squad, leader, hero, crew) may move once a turn to an adjacent hex that is not
--          water and holds no enemy.
--   PBX-3  A squad may fire once a turn at an enemy-held hex within 3 hexes: 2d6, minus 1 for a
--          firepower of 6 or more, plus the leader's modifier of a leader with it, plus 2 for a
--          stone building, 1 for a wooden one or woods: 3 or less kills one man there (a squad if
--          there is one), 4 or 5 is a casualty reduction (a squad becomes its half-squad, anyone
--          else dies), more does nothing.
--   PBX-4  Men lost in the fight count as casualty VP for the Refit Phase (`cvp_lost`, [9.6162]).
--   PBX-5  Counters waiting off the map for an Entry or Setup Area of this map (reinforcements and
--          Reinforcement Groups bought in the last Refit Phase, [9.6151] [9.6178]) enter in
--          their side's turn, in a hex of that area that holds no enemy.

local C = require("rules.common")
local S = require("rules.sequence")
local AI = require("rules.ai")
local P = require("rules.purchase")

kessel.sequence{
  { id = "german_turn", name = "German turn (stand-in)", side = "german", rule = "PBX-1" },
  { id = "british_turn", name = "British turn (stand-in)", side = "british", rule = "PBX-1" },
}
S.main_steps = 2

local MAX_RANGE = 3
local MEN = { squad = true, leader = true, hero = true, crew = true }
local COVER = { stone_building = 2, wooden_building = 1, woods = 1 }

local function fighting() return kessel.game.step().mode ~= "refit" and not kessel.game.finished() end
local function phasing() return kessel.game.step().side end
local last_step = S.scenario_over
local function refuse(case, text) return { rule = case, message = text .. " [" .. case .. "]" } end

local function enemies_at(hex, side)
  local out = {}
  for _, u in ipairs(kessel.units.at(hex)) do
    if u.side ~= side and MEN[u.type] then out[#out + 1] = u end
  end
  return out
end

local function own_man(a, case)
  if not fighting() then return nil, refuse(case, "the fighting is over") end
  local u = kessel.units.get(tostring(a.unit or ""))
  if not u or u.location ~= "map" then return nil, refuse(case, "no such unit on the map") end
  if u.side ~= phasing() then return nil, refuse(case, u.id .. " is not of the side whose turn it is") end
  if not MEN[u.type] then return nil, refuse(case, u.id .. " does not move or fire on its own") end
  return u
end

kessel.action{
  kind = "pbx_move", rule = "PBX-2", description = "(stand-in) move a man one hex",
  validate = function(a)
    local u, why = own_man(a, "PBX-2")
    if why then return why end
    if u.flags.pbx_moved then return refuse("PBX-2", u.id .. " has moved this turn") end
    local to = tostring(a.to or "")
    if not kessel.hex.valid(to) or not kessel.hex.adjacent(u.hex, to) then
      return refuse("PBX-2", "a man moves to an adjacent hex")
    end
    if kessel.map.terrain(to) == "water" then return refuse("PBX-2", to .. " is water") end
    if #enemies_at(to, u.side) > 0 then return refuse("PBX-2", to .. " is held by the enemy") end
  end,
  apply = function(a)
    kessel.emit.move(a.unit, { a.to })
    kessel.emit.flag(a.unit, "pbx_moved")
  end,
  enumerate = function()
    if not fighting() then return {} end
    local out = {}
    for _, u in ipairs(kessel.units.all{ side = phasing(), location = "map" }) do
      if MEN[u.type] and not u.flags.pbx_moved then
        for _, n in ipairs(kessel.hex.neighbors(u.hex)) do
          if kessel.map.terrain(n) ~= "water" and #enemies_at(n, u.side) == 0 then
            out[#out + 1] = { kind = "pbx_move", unit = u.id, to = n }
          end
        end
      end
    end
    return out
  end,
}

local function leader_drm(u)
  local best = 0
  for _, o in ipairs(kessel.units.at(u.hex)) do
    if o.side == u.side and o.type == "leader" and o.face and (o.face.drm or 0) < best then best = o.face.drm end
  end
  return best
end

kessel.action{
  kind = "pbx_fire", rule = "PBX-3", description = "(stand-in) a squad fires at an enemy-held hex",
  validate = function(a)
    local u, why = own_man(a, "PBX-3")
    if why then return why end
    if u.type ~= "squad" then return refuse("PBX-3", "only squads fire") end
    if u.flags.pbx_fired then return refuse("PBX-3", u.id .. " has fired this turn") end
    local target = tostring(a.target or "")
    if not kessel.hex.valid(target) or kessel.hex.distance(u.hex, target) > MAX_RANGE then
      return refuse("PBX-3", "the target is a hex within " .. MAX_RANGE .. " hexes")
    end
    if #enemies_at(target, u.side) == 0 then return refuse("PBX-3", "no enemy in " .. target) end
  end,
  apply = function(a)
    local u = kessel.units.get(a.unit)
    kessel.emit.flag(u.id, "pbx_fired")
    local dr = C.DR("pbx fire")
    local fp = (u.face and u.face.firepower or 0) >= 6 and -1 or 0
    local final = dr + fp + leader_drm(u) + (COVER[kessel.map.terrain(a.target)] or 0)
    -- the fire falls on a squad where there is one, else on whoever is there
    local men = enemies_at(a.target, u.side)
    local hit = men[1]
    for _, m in ipairs(men) do
      if m.type == "squad" then hit = m; break end
    end
    C.record("pbx_fire", "PBX-3", { unit = u.id, target = a.target, dr = dr, final = final })
    if final <= 3 then
      C.eliminate(hit.id, "PBX-3", "killed by " .. u.id .. "'s fire, " .. final)
    elseif final <= 5 then
      C.casualty_reduce(hit, "PBX-3")
    else
      C.note("PBX-3", u.id .. " fires at " .. a.target .. ": " .. final .. ", no effect")
    end
  end,
  enumerate = function()
    if not fighting() then return {} end
    local out = {}
    for _, u in ipairs(kessel.units.all{ side = phasing(), location = "map", type = "squad" }) do
      if not u.flags.pbx_fired then
        for _, h in ipairs(kessel.hex.range(u.hex, MAX_RANGE)) do
          if #enemies_at(h, u.side) > 0 then out[#out + 1] = { kind = "pbx_fire", unit = u.id, target = h } end
        end
      end
    end
    return out
  end,
}

-- PBX-5: where a counter waiting off the map may enter (nil: it has no area on this map)
local function entry_hexes(u)
  local area = u.vars.reph and u.vars.reph.area
  local ok, hexes = pcall(kessel.map.area, tostring(area or ""))
  if not ok or not hexes then return nil end
  local out = {}
  for _, h in ipairs(hexes) do
    if #enemies_at(h, u.side) == 0 and kessel.map.terrain(h) ~= "water" then out[#out + 1] = h end
  end
  return out
end

kessel.action{
  kind = "pbx_enter", rule = "PBX-5", description = "(stand-in) bring a counter in at its Entry Area",
  validate = function(a)
    if not fighting() then return refuse("PBX-5", "the fighting is over") end
    local u = kessel.units.get(tostring(a.unit or ""))
    if not u or u.location ~= "pending" or u.side ~= phasing() then
      return refuse("PBX-5", "no counter of this side waits off the map as " .. tostring(a.unit))
    end
    local ok = false
    for _, h in ipairs(entry_hexes(u) or {}) do if h == a.at then ok = true end end
    if not ok then return refuse("PBX-5", tostring(a.at) .. " is not a free hex of its Entry Area") end
  end,
  apply = function(a)
    kessel.emit.place(a.unit, a.at)
    kessel.emit.flag(a.unit, "pbx_moved")
    C.note("PBX-5", a.unit .. " enters at " .. a.at)
  end,
  enumerate = function()
    if not fighting() then return {} end
    local out = {}
    for _, u in ipairs(kessel.units.all{ side = phasing(), location = "pending" }) do
      local hexes = entry_hexes(u)
      if hexes and hexes[1] then out[#out + 1] = { kind = "pbx_enter", unit = u.id, at = hexes[1] } end
    end
    return out
  end,
}

kessel.action{
  kind = "pbx_end", rule = "PBX-1", description = "(stand-in) end this side's turn",
  validate = function()
    if not fighting() then return refuse("PBX-1", "the fighting is over") end
    if last_step() then return refuse("PBX-1", "the last turn is over: the Refit Phase follows (start_refit)") end
  end,
  apply = function()
    kessel.emit.clear_flag("pbx_moved")
    kessel.emit.clear_flag("pbx_fired")
    kessel.emit.advance()
  end,
  enumerate = function()
    if not fighting() or last_step() then return {} end
    return { { kind = "pbx_end" } }
  end,
}

-- PBX-4: men eliminated while fighting are the casualty VP of this CG scenario
kessel.on("event:eliminated", function(e)
  if not fighting() then return end
  local u = kessel.units.get(e.unit)
  local v = u and P.cvp(u) or 0
  if v > 0 then C.set_in("cvp_lost", u.side, C.get_in("cvp_lost", u.side, 0) + v) end
end)

-- The computer's play of the fight: fire at the softest target it can, then move towards the
-- nearest Strategic Location its side does not hold (the British hold what they have), then end.
-- (read when asked: while the rules load, the scenario's map is not there yet)
local function strategic() return kessel.map.tagged("strategic") end

local function held_by(hex)
  for _, u in ipairs(kessel.units.at(hex)) do
    if MEN[u.type] then return u.side end
  end
  return nil
end

local function goal_distance(hex, side)
  local best
  for _, s in ipairs(strategic()) do
    if held_by(s) ~= side then
      local d = kessel.hex.distance(hex, s)
      if best == nil or d < best then best = d end
    end
  end
  return best or 0
end

AI.scenario_player = function(legal)
  if not fighting() then return nil end
  local enter = legal("pbx_enter")[1]
  if enter then return enter end
  local best, score
  for _, a in ipairs(legal("pbx_fire")) do
    local u = kessel.units.get(a.unit)
    local s = (u.face.firepower or 0) * 2 - (COVER[kessel.map.terrain(a.target)] or 0) * 3 - kessel.hex.distance(u.hex, a.target)
    if score == nil or s > score then best, score = a, s end
  end
  if best then return best end
  local side = phasing()
  for _, a in ipairs(legal("pbx_move")) do
    local u = kessel.units.get(a.unit)
    local here = kessel.units.get(a.unit).hex
    local holding = false
    for _, s in ipairs(strategic()) do if s == here then holding = true end end
    -- a man in a Strategic Location stays unless another man of his side is there too
    local company = 0
    for _, o in ipairs(kessel.units.at(here)) do
      if o.side == side and MEN[o.type] then company = company + 1 end
    end
    if not (holding and company < 2) and (side == "german" or not holding) then
      local gain = goal_distance(here, side) - goal_distance(a.to, side)
      if gain > 0 and (score == nil or gain > score) and u.type ~= "leader" then best, score = a, gain end
    end
  end
  if best then return best end
  return legal("pbx_end")[1]
end
