-- [S11] cities change hands when a unit enters them; the Crown scores the objectives it holds
local C = require("rules.common")

-- at the start a city belongs to the side its objective is not for: the defender
local function start_owner(o)
  if o.side then return C.other(o.side) end
end

local function owners()
  local held = kessel.game.var("owners")
  local out = {}
  for _, o in ipairs(kessel.scenario.objectives()) do
    out[o.name] = (type(held) == "table" and held[o.name]) or start_owner(o)
  end
  return out
end

local function objective_at(hex)
  for _, o in ipairs(kessel.scenario.objectives()) do
    for _, h in ipairs(o.hexes) do if h == hex then return o end end
  end
end

local function entered(unit, hex)
  local o = hex and objective_at(hex)
  if not o then return end
  local u = kessel.units.get(unit)
  local now = owners()
  if now[o.name] ~= u.side then
    local held = kessel.game.var("owners")
    local copy = {}
    if type(held) == "table" then for k, v in pairs(held) do copy[k] = v end end
    copy[o.name] = u.side
    kessel.emit.var("owners", copy)
    kessel.emit.note("S11", o.name .. " passes to " .. u.side)
  end
end

kessel.on("event:moved", function(e) entered(e.unit, e.to) end)
kessel.on("event:placed", function(e) entered(e.unit, e.hex) end)

-- [S11] the score: VP of each objective held by the side it is for
local function score()
  local now = owners()
  local vp, lines = {}, {}
  for _, s in ipairs(kessel.game.sides()) do vp[s] = 0 end
  for _, o in ipairs(kessel.scenario.objectives()) do
    if o.side and now[o.name] == o.side then vp[o.side] = vp[o.side] + o.vp end
    lines[#lines + 1] = { name = o.name, vp = o.vp, side = o.side, held_by = now[o.name] }
  end
  local level
  for _, l in ipairs(kessel.scenario.levels()) do
    if l.max == nil or vp.crown <= l.max then level = l.name; break end
  end
  return { vp = vp, objectives = lines, level = level }
end

kessel.on("result", function()
  local s = score()
  local control = {}
  for _, o in ipairs(s.objectives) do control[o.name] = o.held_by end
  return { level = s.level, scores = s.vp, control = control }
end)

kessel.queries.declare{
  id = "score", rule = "S11",
  description = "Who holds each objective city now, the VP and the level if the game ended now",
  fn = function() return score() end,
}

return { owners = owners, score = score }
