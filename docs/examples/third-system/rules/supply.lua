-- [S9] supply and [S10] reinforcements, both at the start of a side's movement phase
local C = require("rules.common")

local function edge_hexes(side)
  local out = {}
  for _, h in ipairs(kessel.map.hexes()) do
    if kessel.map.on_edge(h, C.EDGE[side]) then out[#out + 1] = h end
  end
  return out
end

-- [S9] the hexes of `side` with a line of at most SUPPLY_RANGE hexes to its own map edge, not into
-- an enemy zone of control where no friendly unit stands (a zone holds its units' own hexes, so
-- the line never enters an enemy unit either). One search for the whole side, backwards from
-- the edge, not one per unit.
local function supplied_costs(side)
  local friends = kessel.hexset(kessel.units.occupied(side))
  local blocked = C.enemy_zoc(side):minus(friends)
  return kessel.paths.trace_costs{
    target = edge_hexes(side), budget = C.SUPPLY_RANGE, passage = { blocked = blocked },
  }
end

local function in_supply(u, costs)
  return u.location == "map" and (costs or supplied_costs(u.side))[u.hex] ~= nil
end

-- [S10] reinforcements due by this turn come on in their area: each on the first hex (map order)
-- with no enemy unit and room under the stacking limit; one that finds none waits a turn
local function bring_on(side)
  for _, u in ipairs(kessel.units.all{ side = side, location = "pending" }) do
    if u.enter_turn and u.enter_turn <= kessel.game.turn() and u.enter_area then
      local placed = false
      for _, h in ipairs(kessel.map.area(u.enter_area) or {}) do
        if C.count_at(h, C.other(side)) == 0 and C.count_at(h) < C.STACK_LIMIT then
          kessel.emit.place(u.id, h)
          placed = true
          break
        end
      end
      if not placed then kessel.emit.note("S10", u.id .. " finds no room in area " .. u.enter_area .. " and waits") end
    end
  end
end

-- [S9] judge supply for every unit of the side, marking those out of it
local function judge(side)
  local costs = supplied_costs(side)
  for _, u in ipairs(kessel.units.all{ side = side, location = "map" }) do
    local ok = costs[u.hex] ~= nil
    if ok and u.flags.oos then kessel.emit.flag(u.id, "oos", false)
    elseif not ok and not u.flags.oos then
      kessel.emit.flag(u.id, "oos")
      kessel.emit.note("S9", u.id .. " at " .. u.hex .. " is out of supply")
    end
  end
end

local function movement_starts()
  local step = kessel.game.step()
  if step.side == nil or not C.step_is("move") then return end
  bring_on(step.side)
  judge(step.side)
end

kessel.on("step_start", movement_starts)
-- the game's first step is never advanced into, so the set-up runs it once
kessel.on("setup", movement_starts)

kessel.queries.declare{
  id = "supply", rule = "S9",
  description = "Whether a unit has a line to its own map edge now, and whether it is marked out of supply",
  params = { unit = { type = "unit", description = "the unit asked about" } },
  fn = function(args)
    local u = kessel.units.get(args.unit)
    return { in_supply = in_supply(u), marked_out_of_supply = u.flags.oos == true,
      edge = C.EDGE[u.side], range = C.SUPPLY_RANGE }
  end,
}

return { in_supply = in_supply, judge = judge }
