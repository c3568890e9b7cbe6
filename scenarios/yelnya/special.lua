-- Special rule Y1: the Desna bridge east of Yelnya is down. No unit crosses between 3020 and 3120
-- on turns 1 and 2: not by a move, an overrun, a retreat or an advance after combat (no railway
-- crosses there, so a rail move never does).
local Y1 = { rule = "Y1", message = "the Desna bridge east of Yelnya is down until turn 3" }
local BRIDGE = { ["3020"] = "3120", ["3120"] = "3020" }

-- (an action's fields are checked here before they are read: the rules' own validator, which
-- refuses a malformed action, runs after this rule)
local function crosses(from, path)
  if type(path) ~= "table" then return false end
  local prev = from
  for _, h in ipairs(path) do
    if BRIDGE[prev] == h then return true end
    prev = h
  end
  return false
end

local function any_unit_crosses(a, path)
  if type(a.units) ~= "table" then return false end
  for _, id in ipairs(a.units) do
    local u = kessel.units.get(id)
    if u and u.hex and crosses(u.hex, path) then return true end
  end
  return false
end

-- A move given by its destination alone (the editor and the computer player give it so) goes the
-- cheapest way there, which only the movement module knows: ask it for each unit's path. `fields`
-- keeps the stacks' movement fields while the legal moves are listed, one field a stack.
local movement = require("rules.movement")
local function move_crosses(a, fields)
  local ids, path = a.units or { a.unit }, a.path
  if type(ids) ~= "table" or type(path) ~= "table" or #ids == 0 then return false end
  for _, id in ipairs(ids) do
    if type(id) ~= "string" or not kessel.units.get(id) then return false end
  end
  local first = kessel.units.get(ids[1])
  if first.location ~= "map" then
    -- a reinforcement: its entry hex, then its way on, as the move will take it
    local plan = movement.plan(a)
    if not plan then return false end
    for _, leg in pairs(plan.legs) do
      if crosses(plan.from, leg.path) then return true end
    end
    return false
  end
  if #path ~= 1 or kessel.hex.adjacent(first.hex, path[1]) then return crosses(first.hex, path) end
  for _, id in ipairs(ids) do
    if kessel.units.get(id).hex ~= first.hex then return false end
  end
  local key = table.concat(ids, " ")
  local field = fields and fields[key]
  if not field then
    field = movement.field(ids)
    if fields then fields[key] = field end
  end
  for _, id in ipairs(ids) do
    local way = field:field_of(kessel.units.get(id)):path(path[1])
    if crosses(first.hex, way) then return true end
  end
  return false
end

local crossing = {
  move = move_crosses,
  overrun = function(a) return any_unit_crosses(a, { a.target }) end,
  advance = function(a) return any_unit_crosses(a, a.path) end,
  retreat = function(a) return any_unit_crosses(a, a.path) end,
}

for kind, crosses_bridge in pairs(crossing) do
  local base = kessel.action_handlers(kind)
  local function bridge_down(a, fields)
    if kessel.game.turn() <= 2 and crosses_bridge(a, fields) then return Y1 end
    return nil
  end
  kessel.action{
    kind = kind, rule = base.rule, description = base.description, secret = base.secret,
    validate = function(a)
      return bridge_down(a) or base.validate(a)
    end,
    apply = base.apply,
    -- the legal actions (the editor and the AI choose from them) leave out what the rule forbids
    enumerate = function(side)
      local out, fields = {}, {}
      for _, a in ipairs(base.enumerate(side) or {}) do
        if not bridge_down(a, fields) then out[#out + 1] = a end
      end
      return out
    end,
  }
end
