-- [S1] [S2] [S3] [S4] movement and the end of a phase
local C = require("rules.common")

-- [S9] an out-of-supply unit moves at half its allowance, rounded down
local function allowance(u)
  if u.flags.oos then return u.movement // 2 end
  return u.movement
end

local function field_for(u)
  local ut = kessel.game.unit_type(u.type)
  local enemies = kessel.units.occupied(C.other(u.side))
  return kessel.paths.field{
    from = u.hex, budget = allowance(u), class = ut.class, side = u.side,
    stop = { { set = C.enemy_zoc(u.side), rule = "S4", message = "entered an enemy zone of control" } },
    forbid = { { set = enemies, rule = "S4", message = "hex holds enemy units" } },
    cannot_leave = u.flags.moved and { rule = "S2", message = "already moved this phase" } or nil,
  }
end

-- whether a unit may move at all now, before any destination is looked at
local function may_move(u)
  local waiting = C.waiting_reason()
  if waiting then return waiting end
  if u.location ~= "map" then return { rule = "S2", message = u.id .. " is not on the map" } end
  if u.side ~= C.phasing() or not C.step_is("move") then
    return { rule = "S1", message = "only the phasing side moves, in its movement phase" }
  end
  if u.flags.moved then return { rule = "S2", message = u.id .. " already moved this phase" } end
end

local function refusal(a)
  local u = type(a.unit) == "string" and kessel.units.get(a.unit)
  if not u then return { rule = "S2", message = "no such unit: " .. C.shown(a.unit) } end
  local why = may_move(u)
  if why then return why end
  if type(a.path) ~= "table" or #a.path == 0 then return { rule = "S2", message = "a move needs a path" } end
  -- the unit goes by the cheapest way to the last hex, but every hex named must be one of the map
  -- (a path of junk before a good last hex was taken as that hex alone)
  local seen = {}
  for _, h in ipairs(a.path) do
    if type(h) ~= "string" or not kessel.hex.valid(h) then
      return { rule = "S2", message = C.shown(h) .. " is not a hex of this map" }
    end
    if seen[h] then return { rule = "S2", message = "the path names " .. h .. " twice" } end
    seen[h] = true
  end
  local dest = a.path[#a.path]
  -- the unit goes to the last hex: one where it stands is no move (it failed when applied)
  if dest == u.hex then return { rule = "S2", message = u.id .. " is already in " .. dest .. ": a move ends in another hex" } end
  local f = field_for(u)
  if f:cost(dest) == nil then
    local no = f:why_not(dest)
    -- the search's own reasons (out of reach with the MP left, no way in) cite no case: S2's
    return { rule = no.rule or "S2", message = "cannot reach " .. dest .. ": " .. no.message }
  end
  if C.count_at(dest) >= C.STACK_LIMIT then
    return { rule = "S3", message = "hex " .. dest .. " already holds " .. C.STACK_LIMIT .. " units" }
  end
end

kessel.action{
  kind = "move", rule = "S2", description = "move one unit to a hex it can reach",
  validate = refusal,
  apply = function(a)
    local u = kessel.units.get(a.unit)
    local f = field_for(u)
    local dest = a.path[#a.path]
    kessel.emit.move(u.id, f:path(dest), f:cost(dest))
    kessel.emit.flag(u.id, "moved")
  end,
  enumerate = function(side)
    local out = {}
    if C.not_theirs(side) or C.pending() or not C.step_is("move") then return out end
    for _, u in ipairs(kessel.units.all{ side = C.phasing(), location = "map" }) do
      if not u.flags.moved then
        for _, h in ipairs(field_for(u):hexes()) do
          if C.count_at(h) < C.STACK_LIMIT then out[#out + 1] = { unit = u.id, path = { h } } end
        end
      end
    end
    return out
  end,
}

kessel.action{
  kind = "end_phase", rule = "S1", description = "end the current phase",
  validate = function()
    if kessel.game.finished() then return { rule = "S1", message = "the game is over" } end
    return C.waiting_reason()
  end,
  apply = function()
    kessel.emit.clear_flag("moved")
    kessel.emit.clear_flag("attacked")
    kessel.emit.clear_flag("defended")
    kessel.emit.advance()
  end,
  enumerate = function(side)
    if C.not_theirs(side) or C.pending() or kessel.game.finished() then return {} end
    return { {} }
  end,
}

-- [S3] the set-up keeps the stacking limit too
kessel.on("check", function()
  local problems, count = {}, {}
  for _, u in ipairs(kessel.units.all{ location = "map" }) do
    count[u.hex] = (count[u.hex] or 0) + 1
    if count[u.hex] > C.STACK_LIMIT then
      problems[#problems + 1] = { unit = u.id,
        message = "unit `" .. u.id .. "` is a third unit in hex " .. u.hex .. " [S3]" }
    end
  end
  return problems
end)

-- the editor's play-test asks this for the MP it shades (with the supply halving of [S9])
kessel.queries.declare{
  id = "reach", rule = "S2",
  description = "Where a unit can move now, with the MP each destination costs",
  params = { units = { type = "units", description = "the unit that would move (the first is used)" } },
  fn = function(args)
    local movers, refused, reachable = {}, {}, {}
    for i, id in ipairs(args.units) do
      local why = may_move(kessel.units.get(id))
      if why then
        refused[#refused + 1] = { unit = id, rule = why.rule, message = why.message }
      elseif i == 1 then
        movers[#movers + 1] = id
      else
        refused[#refused + 1] = { unit = id, rule = "S2", message = "units move one at a time" }
      end
    end
    if #movers == 1 then
      local f = field_for(kessel.units.get(movers[1]))
      for _, h in ipairs(f:hexes()) do reachable[#reachable + 1] = { hex = h, cost = f:cost(h) } end
    end
    return { movers = movers, refused = refused, reachable = reachable }
  end,
}

return { field_for = field_for, allowance = allowance }
