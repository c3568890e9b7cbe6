-- Helpers the rule files share. No game state is kept here: everything is read from the engine.
local C = {}

C.STACK_LIMIT = 2   -- [S3]
C.SUPPLY_RANGE = 7  -- [S9] hexes to the own map edge
C.EDGE = { crown = "west", league = "east" }  -- [S9] each side's own map edge

-- a value an action gave, in a refusal: a table by its kind (`tostring` gives its address, which
-- changes from run to run)
function C.shown(v)
  if type(v) == "table" then return "a table" end
  return tostring(v)
end

function C.other(side) return side == "crown" and "league" or "crown" end

function C.phasing() return kessel.game.step().side end

function C.step_is(kind) return (kessel.game.step().id or ""):find(kind, 1, true) ~= nil end

-- an enumerator asked for one side lists nothing when the decision is another side's
function C.not_theirs(side)
  local decider = C.decider()
  return side ~= nil and decider ~= nil and side ~= decider
end

-- [S8] a retreat waiting for the defender's choice is the decision of the moment
function C.pending() return kessel.game.var("pending") end

function C.decider()
  local p = C.pending()
  if type(p) == "table" then return p.side end
  return C.phasing()
end

function C.waiting_reason()
  local p = C.pending()
  if type(p) == "table" then
    return { rule = p.rule, message = "a decision is waiting: " .. p.prompt }
  end
end

-- [S4] zones of control: the six hexes around each enemy unit, not across the river unless it is
-- frozen [S12]
function C.zoc_of(side)
  local blocked = {}
  if not kessel.game.option("frozen_river") then blocked = { "river" } end
  return kessel.paths.zoc{ hexes = kessel.units.occupied(side), blocked_by = blocked }
end

function C.enemy_zoc(side) return C.zoc_of(C.other(side)) end

function C.count_at(hex, side)
  local n = 0
  for _, u in ipairs(kessel.units.at(hex)) do
    if side == nil or u.side == side then n = n + 1 end
  end
  return n
end

-- [S7] one step lost: the unit flips, or is eliminated when it had one step left
function C.lose_step(id)
  local u = kessel.units.get(id)
  if u.steps_left > 1 then
    kessel.emit.step(id, u.step + 1)
  else
    kessel.emit.eliminate(id)
  end
end

return C
