-- A tiny computer player: pick one of the retreats offered; else attack at 2-1 or better; else
-- move a unit closer to a city (the Crown to the nearest it does not hold, the League to the
-- nearest it holds); else end the phase.
local V = require("rules.victory")
local combat = require("rules.combat")

local function nearest(hex, cities)
  local best
  for _, h in ipairs(cities) do
    local d = kessel.hex.distance(hex, h)
    if best == nil or d < best then best = d end
  end
  return best
end

local function goals(side)
  local owners, theirs, ours = V.owners(), {}, {}
  for _, o in ipairs(kessel.scenario.objectives()) do
    local list = owners[o.name] == side and ours or theirs
    for _, h in ipairs(o.hexes) do list[#list + 1] = h end
  end
  if side == "crown" then return theirs end
  return ours
end

kessel.on("ai", function(legal, kinds, view, level, tiebreak, side)
  local retreats = legal("retreat")
  if #retreats > 0 then return retreats[tiebreak(#retreats)] end
  local best, best_score = {}, 0
  local function offer(a, score)
    if score > best_score then best, best_score = { a }, score
    elseif score == best_score and score > 0 then best[#best + 1] = a end
  end
  for _, a in ipairs(legal("attack")) do
    local r = combat.assess(a.units, a.target)
    if r.odds.column >= 3 then offer(a, 100 + r.odds.column) end
  end
  if #best == 0 and side then
    local cities = goals(side)
    for _, a in ipairs(legal("move")) do
      if #cities > 0 then
        local from = kessel.units.get(a.unit).hex
        offer(a, nearest(from, cities) - nearest(a.path[#a.path], cities))
      end
    end
  end
  if #best > 0 then return best[tiebreak(#best)] end
  local ends = legal("end_phase")
  return ends[1]
end)
