-- Helpers the rule files share.
local M = {}

function M.other(side) return side == "north" and "south" or "north" end

function M.phasing() return kessel.game.step().side end

-- asked for one side, an enumerator lists nothing when the decision is the other side's
function M.not_theirs(side) return side ~= nil and side ~= M.phasing() end

function M.in_step(kind) return kessel.game.step().id:find(kind) ~= nil end

-- [R3] a unit's zone of control is the six hexes around it
function M.enemy_zoc(side)
  return kessel.paths.zoc{ hexes = kessel.units.occupied(M.other(side)) }
end

-- [R4.2] one step lost: the next face, or the dead pile after the last
function M.lose_step(id)
  local u = kessel.units.get(id)
  if u.steps_left > 1 then kessel.emit.step(id, u.step + 1) else kessel.emit.eliminate(id) end
end

return M
