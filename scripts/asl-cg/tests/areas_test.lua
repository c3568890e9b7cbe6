-- RePh 9.605 Setup Area Determination (rules/areas.lua): No Man's Land, Setup Areas, Isolation,
-- Uncontrolled Territory, surrounded hexes, the 9.6056 chart.
local T = require("testing.cg")
local expect = T.expect
local A = require("rules.areas")

local function ctrl(side, hex) return { kind = "control", side = side, at = hex } end
local function areas(side) return kessel.game.var("setup_areas").areas[side] end
local function cls(hex) return kessel.game.var("setup_areas").hexes[hex] end

-- [9.605] a side's Setup Area is every non-Strategic Location within two hexes of a Strategic
-- Location it Controls; the rest is Uncontrolled Territory [9.6053]
kessel.test("case_9.605_setup_areas_within_two_hexes", function()
  T.setup{ step = "setup_areas", map = { tags = { strategic = { "C3", "J10" } } },
    markers = { ctrl("german", "C3"), ctrl("british", "J10") } }
  T.resolve()
  expect.eq(#areas("german"), 1)
  expect.eq(#areas("german")[1].hexes, #kessel.hex.range("C3", 2))
  expect.eq(cls("C3"), "german")
  expect.eq(cls("E3"), "german", "two hexes away")
  expect.eq(cls("F3"), "ut", "three hexes away")
  expect.eq(cls("J10"), "british")
end)

-- [9.6051] a non-Strategic Location within two hexes of both sides' Strategic Locations is No
-- Man's Land; a Strategic Location never is
kessel.test("case_9.6051_no_mans_land", function()
  T.setup{ step = "setup_areas", map = { tags = { strategic = { "E5", "H5" } } }, markers = { ctrl("german", "E5"), ctrl("british", "H5") } }
  local ev = T.resolve()
  expect.eq(cls("F5"), "nml")
  expect.eq(cls("G5"), "nml")
  expect.eq(cls("E5"), "german")
  expect.eq(cls("H5"), "british")
  expect.eq(cls("D5"), "german")
  local rec = T.record(ev, "setup_areas")
  local nml = table.concat(rec.no_mans_land, ",")
  expect.truthy(nml:find("F5", 1, true) and not nml:find("E5", 1, true))
end)

-- [9.605 EX] Control by both sides in one hex (Z15): the hex is in the German area, the British
-- first-level Location is a Setup Area of its own, and Isolated [9.6057]
kessel.test("case_9.605_example_z15_split_control_upper_level_isolated", function()
  T.setup{ step = "setup_areas", map = { tags = { strategic = { "F6" } }, areas = { L1 = { "L1", "L2" } } },
    units = { T.squad("b", "british", "6-4-8", "F6", { vars = { level = 1 } }), T.squad("g", "german", "4-6-7", "F6") },
    vars = { entry_areas = { british = { L1 = true }, german = { L1 = true } } },
    valued = { { kind = "control", side = "british", hex = "F6", value = { level = 1 } } } }
  kessel.emit.create_marker{ kind = "control", side = "german", hex = "F6", value = { level = 0 } }
  T.resolve()
  expect.eq(cls("F6"), "german")
  local up = areas("british")[1]
  expect.eq(up.level, 1)
  expect.eq(up.isolated, true)
  expect.eq(T.unit("b").vars.reph.status, "isolated")
  expect.eq(T.unit("b").vars.isolated, true)
  expect.eq(T.unit("g").vars.reph.status, "retained")
end)

-- [9.6052] an area that cannot trace Uncontrolled/friendly hexes to an Eligible Entry Area is
-- Isolated; one that can is not
kessel.test("case_9.6052_isolation_by_path_to_entry_area", function()
  -- British C3 is walled off from the entry area by German-held ground between
  T.setup{ step = "setup_areas", map = { columns = 12, rows = 6, tags = { strategic = { "B3", "F1", "F3", "F5", "K3" } },
      areas = { L3 = { "L3", "L4" } } },
    markers = { ctrl("british", "B3"), ctrl("german", "F1"), ctrl("german", "F3"), ctrl("german", "F5"), ctrl("british", "K3") },
    vars = { entry_areas = { british = { L3 = true } } } }
  T.resolve()
  local list = areas("british")
  expect.eq(#list, 2)
  expect.eq(list[1].isolated, true, "the west British area is cut off")
  expect.eq(list[2].isolated, false, "the east one touches its Entry Area")
end)

-- [9.6052] British units trace to a landed, un-wrecked glider; a wrecked glider does not count
kessel.test("case_9.6052_glider_breaks_isolation", function()
  local function run(wrecked)
    T.setup{ step = "setup_areas", map = { tags = { strategic = { "C3" } } }, markers = { ctrl("british", "C3") },
      valued = { { kind = "glider", side = "british", hex = "H8", value = { wrecked = wrecked } } } }
    T.resolve()
    return areas("british")[1].isolated
  end
  expect.eq(run(false), false)
  expect.eq(run(true), true)
end)

-- [9.6053] a unit in Uncontrolled Territory is Retained into the nearest friendly Setup Area; one
-- with no such path must Escape
kessel.test("case_9.6053_uncontrolled_territory_retained_to_nearest_area", function()
  T.setup{ step = "setup_areas", map = { tags = { strategic = { "C3" } } }, markers = { ctrl("british", "C3") },
    units = { T.squad("b", "british", "6-4-8", "H3"), T.squad("g", "german", "4-6-7", "J9") } }
  local ev = T.resolve()
  -- "(even if Isolated)": area A reaches no Entry Area here, so b is Retained into it Isolated
  expect.eq(T.unit("b").vars.reph.status, "isolated")
  expect.eq(T.unit("b").vars.isolated, true)
  T.has_note(ev, "b in Uncontrolled Territory is Retained into Setup Area A, which is Isolated: so is it")
  expect.eq(T.unit("b").vars.reph.area, "A")
  expect.eq(kessel.hex.distance(T.unit("b").hex, "C3"), 2, "moved to the nearest hex of the area")
  expect.eq(T.unit("g").vars.reph.status, "must_escape", "no German area or Entry Area to go to")
  T.has_note(ev, "[9.6053] g is in Uncontrolled Territory with no path to a friendly area: it must attempt Escape (9.606)")
  T.has_note(ev, "[9.6053]")
end)

-- [9.6054] Uncontrolled Territory enclosed by one side's Setup Area joins it
kessel.test("case_9.6054_surrounded_hexes_join_the_area", function()
  local ring = kessel.hex and nil
  T.setup{ step = "setup_areas", map = { columns = 13, rows = 13 } }
  ring = kessel.hex.ring("G7", 3)
  local markers = {}
  for _, h in ipairs(ring) do markers[#markers + 1] = ctrl("german", h) end
  T.setup{ step = "setup_areas", map = { columns = 13, rows = 13, tags = { strategic = ring } }, markers = markers }
  local ev = T.resolve()
  expect.eq(cls("G7"), "german", "the centre is three hexes from every Strategic Location, but enclosed")
  T.has_note(ev, "[9.6054]")
end)

-- [9.6056] the chart: enemy area and No Man's Land mean Escape; an Immobile vehicle without MA
-- in No Man's Land is abandoned; a functioning Gun is a Strategic Location and stays
kessel.test("case_9.6056_chart_for_units_outside_friendly_areas", function()
  T.setup{ step = "setup_areas", map = { tags = { strategic = { "E5", "H5" } }, areas = { A9 = { "A9", "A10" } } },
    markers = { ctrl("german", "E5"), ctrl("british", "H5") }, vars = { entry_areas = { german = { A9 = true } } },
    units = { T.squad("g_in_b", "german", "4-6-7", "I5"), T.squad("g_nml", "german", "4-6-7", "F5"),
      T.vehicle("wreck", "german", "PzKpfw IVH", "G5", { vars = { immobile = true, ma_disabled = true } }),
      T.gun("pak", "german", "75L AT", "B9") } }
  T.resolve()
  expect.eq(T.unit("g_in_b").vars.reph.status, "must_escape")
  expect.eq(T.unit("g_nml").vars.reph.status, "must_escape")
  expect.eq(T.unit("wreck").vars.abandoned, true)
  expect.eq(T.unit("pak").vars.reph.status, "retained", "its own Location is a German Strategic Location")
  expect.truthy(A.strategic()["B9@0"], "a functioning Gun makes a Strategic Location")
end)

-- [9.6058] before Night II, German units on No Move stay put (but not on free-movement hexes)
kessel.test("case_9.6058_no_move_before_night_ii", function()
  T.setup{ step = "setup_areas", map = { tags = { strategic = { "C3" }, free_movement = { "D3" } } }, markers = { ctrl("german", "C3") },
    units = { T.squad("g1", "german", "4-6-7", "C3", { vars = { no_move = true } }),
      T.squad("g2", "german", "4-6-7", "D3", { vars = { no_move = true } }) }, vars = { next_date = "night_ii" } }
  T.resolve()
  expect.eq(T.unit("g1").vars.fixed, true)
  expect.eq(T.unit("g2").vars.fixed, nil)
end)

-- [9.605] Control without a marker: the only side with Personnel in a Strategic Location
kessel.test("case_9.605_control_by_sole_occupation", function()
  T.setup{ step = "setup_areas", map = { tags = { strategic = { "C3", "H8" } } },
    units = { T.squad("g", "german", "4-6-7", "C3"), T.squad("g2", "german", "4-6-7", "H8"), T.squad("b", "british", "6-4-8", "H8") } }
  expect.eq(A.controller("C3", 0), "german")
  expect.eq(A.controller("H8", 0), nil, "disputed")
  T.resolve()
  expect.eq(cls("C4"), "german")
  expect.eq(cls("H9"), "ut")
end)

-- [9.6057] an upper-level Location is not Isolated when its building reaches a friendly-Controlled
-- ground-level Location of a non-Isolated friendly area
kessel.test("case_9.6057_upper_level_path_through_the_building", function()
  T.setup{ step = "setup_areas", map = { tags = { strategic = { "F6", "F7", "F8" } }, areas = { L1 = { "L1", "L2" } },
      places = { { name = "Manor", kind = "building", hexes = { "F6", "F7" } } }, terrain = { F6 = "stone_building", F7 = "stone_building" } },
    units = { T.squad("b", "british", "6-4-8", "F6", { vars = { level = 1 } }), T.squad("g", "german", "4-6-7", "F6"),
      T.squad("b2", "british", "6-4-8", "F7"), T.squad("b3", "british", "6-4-8", "F8") },
    vars = { entry_areas = { british = { L1 = true } } },
    valued = { { kind = "control", side = "british", hex = "F6", value = { level = 1 } } } }
  kessel.emit.create_marker{ kind = "control", side = "german", hex = "F6", value = { level = 0 } }
  T.resolve()
  local up
  for _, a in ipairs(areas("british")) do if a.level then up = a end end
  expect.eq(up.isolated, false, "F7's ground level is British and not Isolated")
  expect.eq(T.unit("b").vars.reph.status, "retained")
end)
