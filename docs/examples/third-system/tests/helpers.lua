-- Shared by the test files: a small map with the Sallow's grid (CCRR, even columns lower).
local H = {}

-- the river along the whole boundary of column 04 (even) and 05: 04rr/05rr and 04rr/05(rr+1)
function H.river_sides(rows)
  local out = {}
  for r = 1, rows do
    out[#out + 1] = { string.format("04%02d", r), string.format("05%02d", r), "river" }
    if r < rows then out[#out + 1] = { string.format("04%02d", r), string.format("05%02d", r + 1), "river" } end
  end
  return out
end

-- an 8 x 6 valley (`columns` makes it wider): the river between columns 04 and 05, a road along row 03 over it, forest at
-- 0302, hills at 0602, a town at 0604
function H.valley(spec)
  kessel.setup{
    map = {
      columns = spec.columns or 8, rows = 6,
      terrain = { ["0302"] = "forest", ["0602"] = "hills", ["0604"] = "town" },
      hexsides = H.river_sides(6),
      links = { { kind = "road", path = { "0103", "0203", "0303", "0403", "0503", "0603", "0703", "0803" } } },
      areas = spec.areas,
    },
    units = spec.units,
    step = spec.step or "crown_move",
    turn = spec.turn,
    last_turn = spec.last_turn or 6,
    options = spec.options,
    run_step_start = spec.run_step_start,
    objectives = spec.objectives,
    levels = spec.levels,
  }
end

function H.inf(id, side, at, step)
  local faces = side == "crown" and { "4-4-4", "2-2-4" } or { "3-4-4", "1-2-4" }
  return { id = id, side = side, type = "infantry", faces = faces, at = at, step = step }
end

function H.arm(id, side, at, step)
  local faces = side == "crown" and { "6-3-6", "3-2-6" } or { "5-3-6", "2-2-6" }
  return { id = id, side = side, type = "armour", faces = faces, at = at, step = step }
end

return H
