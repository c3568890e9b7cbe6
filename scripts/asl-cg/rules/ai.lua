-- A computer player for the Refit Phase, good enough to play it headless: it buys the RG it can
-- afford in a fixed order of preference (cheapest Entry Arrow), spends FPP on 1S foxholes (unspent
-- FPP are forfeit [9.619]) and sets them up in 9.620, leaves Isolated units in place, and otherwise ends the step (what
-- must happen then, e.g. every compulsory Escape, is resolved by `end_step`).
local PREFERENCE = { V3 = 1, I5 = 2, I4 = 3, V5 = 4, V4 = 5, V6 = 6, V2 = 7, V1 = 8, V8 = 9, V9 = 10, V7 = 11, V11 = 12, V10 = 13, M1 = 14 }

local AI = {}

-- picks one of the actions `legal(kind)` lists (the engine's ai hook protocol)
-- a scenario whose rules play the CG scenario itself (the main sequence) set this to a function
-- of `legal` returning their choice, or nil to begin the Refit Phase when it is time
AI.scenario_player = nil

function AI.choose(legal)
  if kessel.game.step().mode ~= require("rules.sequence").mode() and AI.scenario_player then
    local a = AI.scenario_player(legal)
    if a then return a end
  end
  local best, score
  for _, a in ipairs(legal("buy_rg")) do
    local s = (PREFERENCE[a.rg] or 99) * 100
    s = s + (require("rules.purchase").entry_cost(a.entry) or 0)
    if score == nil or s < score then best, score = a, s end
  end
  if best then return best end
  for _, a in ipairs(legal("buy_fortification")) do
    if a.item == "foxhole_1s" then return a end
  end
  -- what it bought is set up [9.62022]: the Location listed first (mines nearest the enemy,
  -- foxholes with its squads)
  local units = legal("set_up_unit")
  if units[1] then return units[1] end
  local placing = legal("set_up_fortification")
  if placing[1] then return placing[1] end
  -- a set-up turn with nothing it wants to set up is ended [9.62021] [9.62022]
  local finish = legal("finish_setup")
  if finish[1] then return finish[1] end
  -- a turn that may not end while a Location stands over the stacking limit [A5.1]: a unit of it
  -- is set up where there is room
  local setup = require("rules.commencement")
  for _, a in ipairs(legal("set_up_retained")) do
    if setup.relieves(a) then return a end
  end
  local e = legal("end_step")
  if e[1] then return e[1] end
  -- a scenario that ended (no rules of its own to play it): the Refit Phase begins
  return legal("start_refit")[1]
end

kessel.on("ai", function(legal) return AI.choose(legal) end)

return AI
