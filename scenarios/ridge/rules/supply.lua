-- [R6] Supply: at the start of its movement phase, each unit of the phasing side traces a line of
-- at most 5 hexes to its own map edge (North: the north edge, South: the south edge). The line
-- may not enter enemy units, nor enemy zones of control unless a friendly unit stands there.
local C = require("rules.common")

kessel.option{ id = "attrition", type = "bool", default = false,
  description = "Units out of supply at the start of their movement phase lose a step", rule = "R6.3" }

local HOME = { north = "north", south = "south" }

local function edge_hexes(side)
  local out = {}
  for _, h in ipairs(kessel.map.hexes()) do
    if kessel.map.on_edge(h, HOME[side]) then out[#out + 1] = h end
  end
  return out
end

-- every hex of `side` with a supply line (a set), found in one backward search
local function supplied_hexes(side)
  local zoc = C.enemy_zoc(side)
  local friends = kessel.hexset(kessel.units.occupied(side))
  local blocked = zoc:minus(friends)
  local starts = kessel.units.occupied(side)
  return kessel.paths.trace_costs{
    from = starts, target = edge_hexes(side), budget = 5,
    passage = { blocked = kessel.units.occupied(C.other(side)), enter_only = blocked },
  }
end

-- [R6.1] judged at the start of the phasing side's movement phase
local function judge(side)
  local lines = supplied_hexes(side)
  for _, u in ipairs(kessel.units.all{ side = side, location = "map" }) do
    local cut = lines[u.hex] == nil
    kessel.emit.flag(u.id, "unsupplied", cut)
    if cut and kessel.game.option("attrition") then
      kessel.emit.note("R6.3", u.name .. " withers out of supply")
      C.lose_step(u.id)
    end
  end
end

kessel.on("step_start", function()
  local step = kessel.game.step()
  if step.id:find("move") then judge(step.side) end
end)

kessel.queries.declare{
  id = "supply", rule = "R6",
  description = "Whether a unit has a line of supply to its edge now",
  params = { unit = { type = "unit", description = "the unit" } },
  fn = function(args)
    local u = kessel.units.get(args.unit)
    if u.location ~= "map" then return { supplied = false } end
    return { supplied = supplied_hexes(u.side)[u.hex] ~= nil }
  end,
}
