-- Special rule Y1: the Desna bridge east of Yelnya is down. No unit may move from 3020 to 3120
-- or back on turns 1 and 2.
local move = kessel.action_handlers("move")
local base = move.validate

local function crosses_the_bridge(from, path)
  local prev = from
  for _, h in ipairs(path) do
    if (prev == "3020" and h == "3120") or (prev == "3120" and h == "3020") then return true end
    prev = h
  end
  return false
end

local function bridge_down(a)
  if kessel.game.turn() > 2 then return nil end
  for _, id in ipairs(a.units or {}) do
    local u = kessel.units.get(id)
    if u and u.hex and crosses_the_bridge(u.hex, a.path) then
      return { rule = "Y1", message = "the Desna bridge east of Yelnya is down until turn 3" }
    end
  end
  return nil
end

kessel.action{
  kind = "move", rule = move.rule, description = move.description,
  validate = function(a)
    return bridge_down(a) or base(a)
  end,
  apply = move.apply,
  -- the list of legal moves (used by the editor and the AI) must leave out what the rule forbids
  enumerate = function(side)
    local out = {}
    for _, a in ipairs(move.enumerate(side) or {}) do
      if not bridge_down(a) then out[#out + 1] = a end
    end
    return out
  end,
}
