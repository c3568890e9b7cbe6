-- Supply [11.1] [11.2] [11.3] [13.44], WBC09 #8 and #13.
local expect = kessel.expect

local function pz(id, at, extra)
  local u = { id = id, name = id, side = "german", type = "panzer", faces = { "4-4-10", "2-2-10" }, at = at }
  for k, v in pairs(extra or {}) do u[k] = v end
  return u
end
local function inf(id, at) return { id = id, name = id, side = "german", type = "infantry", faces = { "9-9-7" }, at = at } end
local function rifle(id, at, extra)
  local u = { id = id, name = id, side = "soviet", type = "rifle", faces = { "3-3-6" }, at = at }
  for k, v in pairs(extra or {}) do u[k] = v end
  return u
end
local function leader(id, at, rating, extra)
  local u = { id = id, name = id, side = "soviet", type = "leader", faces = { "0-" .. rating .. "-10" }, attrs = { rating = rating }, at = at }
  for k, v in pairs(extra or {}) do u[k] = v end
  return u
end

-- a 32x5 strip: road 0103..0503 joined to the source 0103
local function strip(units, extra)
  local spec = {
    map = { columns = 32, rows = 5,
      links = { { kind = "road", path = { "0103", "0203", "0303", "0403", "0503" } } },
      tags = { road_supply_source = { "0103" } } },
    units = units, step = "german_movement", turn = 5,
  }
  for k, v in pairs(extra or {}) do spec[k] = v end
  kessel.setup(spec)
end

-- Rule 11.1
kessel.test("case_11_1_german_within_20_hexes_of_supply_road", function()
  local S = require("rules.supply")
  strip{ pz("near", "2503"), pz("far", "2603") }
  expect.truthy(S.in_supply("near", "combat"), "20 hexes from 0503")
  local ok, why = S.in_supply("far", "combat")
  expect.falsy(ok, "21 hexes from the road, 25 MP from the edge")
  expect.truthy(why:find("11.1", 1, true), why)
end)

-- Rule 11.1
kessel.test("case_11_1_enemy_zoc_cuts_the_road_unless_negated", function()
  local S = require("rules.supply")
  -- a Soviet unit next to 0303 puts the road in its ZOC: the road beyond is cut
  strip{ pz("g", "2403"), rifle("r", "0302") }
  expect.falsy(S.in_supply("g", "combat"))
  strip{ pz("g", "2403"), rifle("r", "0302"), inf("friend", "0303") }
  expect.truthy(S.in_supply("g", "combat"), "a German unit negates the ZOC")
end)

-- Rule 13.44
kessel.test("case_13_44_soviet_interdiction_blocks_german_supply", function()
  local S = require("rules.supply")
  strip({ pz("g", "2403") }, { markers = { { kind = "soviet_interdiction", side = "soviet", at = "0303" } } })
  expect.falsy(S.in_supply("g", "combat"))
  strip({ pz("g", "2403") }, { markers = { { kind = "air_interdiction", side = "german", at = "0303" } } })
  expect.truthy(S.in_supply("g", "combat"), "German markers don't affect German supply")
end)

-- Rule 11.1 + WBC09 #8
kessel.test("case_11_1_wbc09_08_mp_method_by_unit_type", function()
  local S = require("rules.supply")
  -- a road with no supply source: only the MP method; 24 road hexes from the west edge
  local road = {}
  for c = 1, 30 do road[#road + 1] = string.format("%02d03", c) end
  local spec = { map = { columns = 32, rows = 5, links = { { kind = "road", path = road } } },
    units = { pz("g", "2503") }, step = "german_movement", turn = 5 }
  kessel.setup(spec)
  expect.truthy(S.in_supply("g", "combat"), "standard [11.1]: 12 MP at the motorized road rate")
  spec.options = { wbc09_08_supply_mp_by_unit_type = true }
  kessel.setup(spec)
  expect.truthy(S.in_supply("g", "combat"), "WBC09 #8: the same")
  -- an infantry division pays 1 MP a road hex: 24 MP is too far
  spec.units = { { id = "i", side = "german", type = "infantry", faces = { "9-9-7" }, at = "2503" } }
  spec.options = nil
  kessel.setup(spec)
  expect.falsy(S.in_supply("i", "combat"), "infantry: 24 MP")
  spec.units[1].at = "2003"
  kessel.setup(spec)
  expect.truthy(S.in_supply("i", "combat"), "infantry: 19 MP")
end)

-- Rule 11.2
kessel.test("case_11_2_soviet_loc_within_leader_rating", function()
  local S = require("rules.supply")
  strip({ leader("l", "2803", 2), rifle("in", "2603"), rifle("out", "2503") }, { step = "soviet_movement" })
  expect.truthy(S.in_supply("in", "combat"))
  expect.falsy(S.in_supply("out", "combat"), "3 hexes from a rating-2 leader")
  expect.truthy(S.in_supply("l", "combat"))
end)

-- Rule 11.2
kessel.test("case_11_2_leader_needs_line_to_east_edge", function()
  local S = require("rules.supply")
  -- German units across the strip east of the leader
  kessel.setup{ map = { columns = 12, rows = 3 }, step = "soviet_movement", turn = 5,
    units = { leader("l", "0502", 3), rifle("r", "0402"), pz("a", "0801"), pz("b", "0802"), pz("c", "0803") } }
  expect.falsy(S.in_supply("r", "combat"))
  -- a disrupted leader supplies nobody
  kessel.setup{ map = { columns = 12, rows = 3 }, step = "soviet_movement", turn = 5,
    units = { leader("l", "0502", 3, { flags = { "disrupted" } }), rifle("r", "0402") } }
  expect.falsy(S.in_supply("r", "combat"))
  kessel.setup{ map = { columns = 12, rows = 3 }, step = "soviet_movement", turn = 5,
    units = { leader("l", "0502", 3), rifle("r", "0402") } }
  expect.truthy(S.in_supply("r", "combat"))
end)

-- Rules 11.1 11.2 15: the supply edges are the scenario's (`german_supply_edges`,
-- `soviet_supply_edges`; an inline position gives them as game vars), the campaign's west and east
-- by default. A cut of the front where the German is supplied from the north could only say so
-- with a road_supply_source tag before.
kessel.test("case_11_1_11_2_supply_edges_are_the_scenarios", function()
  local S, V, L = require("rules.supply"), require("rules.victory"), require("rules.leaders")
  -- 40x12 of clear with a lake down column 30: a German infantry unit in 2502 (24 MP from the
  -- west edge, 1 from the north edge), a German-held objective hex 2503 (no lake west of it),
  -- a Soviet leader in 2011 with a rifle next to him (the lake cuts him off from the east edge; the
  -- south edge is one hex away)
  local lake = {}
  for r = 1, 12 do lake[string.format("30%02d", r)] = "lake" end
  local function board(vars)
    kessel.setup{ map = { columns = 40, rows = 12, terrain = lake }, step = "german_movement", turn = 5, vars = vars,
      units = { inf("g", "2502"), leader("l", "2011", 2), rifle("r", "2111") } }
  end
  board(nil)
  local ok, why = S.in_supply("g", "combat")
  expect.falsy(ok, "the campaign's west edge is 24 MP away")
  expect.falsy(S.in_supply("r", "combat"), "the lake cuts his leader off from the east edge")
  expect.falsy(L.line_to_east(kessel.units.get("l")), "[10.4] no line to the east edge")
  board{ german_supply_edges = { "north" }, soviet_supply_edges = { "south" } }
  ok, why = S.in_supply("g", "combat")
  expect.truthy(ok, "1 MP from the north edge")
  expect.truthy(why:find("from the north edge", 1, true), why)
  expect.truthy(S.in_supply("r", "combat"), "his leader's line runs to the south edge")
  expect.truthy(L.line_to_east(kessel.units.get("l")), "[10.4] reads the same edge")
  expect.truthy(V.line_west("2503"), "[15] the city's line runs to the German's edge")
  board{ german_supply_edges = { "east", "west" } }
  ok, why = S.in_supply("g", "combat")
  expect.falsy(ok, "the lake is in the way east, the west edge 24 MP away")
  expect.truthy(why:find("the east or west edge", 1, true), why)
end)

-- Rules 11.1 11.2: `check` refuses a supply edge no map has, and a Soviet side with none.
kessel.test("case_11_1_11_2_a_supply_edge_no_map_has_is_a_check_problem", function()
  local C = require("rules.common")
  kessel.setup{ map = { columns = 5, rows = 5 }, step = "german_movement", turn = 5, units = {},
    vars = { german_supply_edges = { "west", "nort" }, soviet_supply_edges = {} } }
  local problems = C.supply_edge_problems()
  expect.eq(#problems, 2, "nort, and the empty Soviet list")
  expect.eq(problems[1].var, "german_supply_edges")
  expect.truthy(problems[1].message:find("`nort`, is no map edge", 1, true), problems[1].message)
  expect.eq(problems[2].var, "soviet_supply_edges")
  expect.truthy(problems[2].message:find("11.2", 1, true), problems[2].message)
  kessel.setup{ map = { columns = 5, rows = 5 }, step = "german_movement", turn = 5, units = {},
    vars = { german_supply_edges = {} } }
  expect.eq(#C.supply_edge_problems(), 1, "no German edge and no supply road")
  kessel.setup{ map = { columns = 5, rows = 5, tags = { road_supply_source = { "0303" } } }, step = "german_movement",
    turn = 5, units = {}, vars = { german_supply_edges = {} } }
  expect.eq(#C.supply_edge_problems(), 0, "a road source alone may supply the German")
  kessel.setup{ map = { columns = 5, rows = 5 }, step = "german_movement", turn = 5, units = {} }
  expect.eq(#C.supply_edge_problems(), 0, "the campaign's edges")
end)

-- Rule 11.2: a scenario whose Soviet units could never be in supply (no leader, or no leader who
-- could ever reach the supply edge) is a `check` problem (S.leader_problems, the check hook's
-- list), a note while it has no objectives yet; before, `kessel check` passed it in silence and
-- every Soviet unit played out of supply.
kessel.test("case_11_2_a_soviet_side_no_leader_could_supply_is_a_check_problem", function()
  local S = require("rules.supply")
  local lake = {}
  for r = 1, 5 do lake[string.format("08%02d", r)] = "lake" end
  local objectives = { { name = "Town", hexes = { "0603" }, vp = 5, side = "german" } }
  local function board(units, terrain, objs)
    kessel.setup{ map = { columns = 12, rows = 5, terrain = terrain, areas = { E = { "1203" }, W = { "0103" } } },
      step = "soviet_movement", turn = 5, units = units, objectives = objs or objectives }
  end
  board{ rifle("r", "0403") }
  local problems = S.leader_problems()
  expect.eq(#problems, 1, "a rifle division and no leader")
  expect.truthy(problems[1].message:find("no leader", 1, true) and problems[1].message:find("11.2", 1, true), problems[1].message)
  board({ rifle("r", "0403"), leader("l", "0503", 3) }, lake)
  problems = S.leader_problems()
  expect.eq(#problems, 1, "the lake down column 08 cuts him off from the east edge for good")
  expect.eq(problems[1].unit, "l")
  board({ rifle("r", "0403"), leader("l", "0503", 3), leader("k", nil, 3, { enter = { turn = 6, area = "E" } }) }, lake)
  expect.eq(#S.leader_problems(), 0, "a leader who comes in east of the lake")
  board({ rifle("r", "0403"), leader("k", nil, 3, { enter = { turn = 6, area = "W" } }) }, lake)
  expect.eq(#S.leader_problems(), 1, "nor one who comes in west of it")
  board({ rifle("r", "0403"), leader("l", "0503", 3) })
  expect.eq(#S.leader_problems(), 0, "a leader with a way east, whatever the Germans do in the game")
  board{ pz("g", "0403") }
  expect.eq(#S.leader_problems(), 0, "no Soviet unit at all: nothing to supply")
  -- a skeleton being filled in, with no objectives yet, may have its first Soviet unit before its
  -- leader (the scenario guide checks after each unit added)
  board({ rifle("r", "0403") }, nil, {})
  problems = S.leader_problems()
  expect.eq(#problems, 1, "no objectives yet: said all the same")
  expect.eq(problems[1].note, true, "as a note, which `kessel check` prints and passes")
  board{ rifle("r", "0403") }
  expect.eq(S.leader_problems()[1].note, false, "with objectives, a problem")
  board({ rifle("r", "0403"), leader("l", "0503", 3) }, lake, {})
  expect.eq(#S.leader_problems(), 1, "a leader cut off for good is a problem all the same")
end)

-- Rule 11.2 + WBC09 #13
kessel.test("case_11_2_wbc09_13_loc_not_through_swamp", function()
  local S = require("rules.supply")
  local spec = { map = { columns = 12, rows = 1, terrain = { ["0501"] = "swamp" } }, step = "soviet_movement", turn = 5,
    units = { leader("l", "0601", 3), rifle("r", "0401") } }
  kessel.setup(spec)
  expect.truthy(S.in_supply("r", "combat"), "standard: the LOC may cross swamp")
  spec.options = { wbc09_13_loc_not_through_swamp = true }
  kessel.setup(spec)
  expect.falsy(S.in_supply("r", "combat"), "WBC09 #13: into but not through swamp")
end)

-- Rule 11.2: friendly units negate enemy ZOC for lines
kessel.test("case_11_2_friendly_units_negate_enemy_zoc", function()
  local S = require("rules.supply")
  local spec = { map = { columns = 12, rows = 1 }, step = "soviet_movement", turn = 5,
    units = { leader("l", "0601", 3), rifle("r", "0401"), pz("g", "0502") } }
  spec.map.rows = 2
  kessel.setup(spec)
  -- 0501 and 0402.. are in the panzer's ZOC; the rifle's own hex is negated, 0501 is not
  local ok = S.in_supply("r", "combat")
  expect.falsy(ok, "0501 in German ZOC")
  table.insert(spec.units, rifle("x", "0501"))
  kessel.setup(spec)
  expect.truthy(S.in_supply("r", "combat"), "a Soviet unit in 0501 negates the ZOC")
end)

-- Rule 11.3
kessel.test("case_11_3_checked_at_start_of_movement_phase", function()
  strip({ pz("far", "2603"), pz("near", "2503", { flags = { "oos" } }) }, { step = "soviet_interdiction" })
  expect.accepted(kessel.act{ kind = "end_phase" })
  expect.eq(kessel.game.step().id, "german_movement")
  local S = require("rules.supply")
  expect.truthy(S.is_oos("far"))
  expect.falsy(S.is_oos("near"), "flag cleared once back in supply")
end)

-- Rule 11.3 / 14: units entering play are in supply for their first player-turn
kessel.test("case_11_3_entering_units_in_supply_first_player_turn", function()
  local S = require("rules.supply")
  strip{ pz("far", "2603", { vars = { entered_turn = 5 } }) }
  expect.truthy(S.in_supply("far", "combat"))
  strip{ pz("far", "2603", { vars = { entered_turn = 4 } }) }
  expect.falsy(S.in_supply("far", "combat"))
end)

-- [11] Supply ------------------------------------------------------------------------------------
do
  local B = require("testing.board8")
  local expect, K, Z, S, L, M, V, pz, rifle, leader, board, attack, choose, retreat, mv, note, end_phases =
    B.expect, B.K, B.Z, B.S, B.L, B.M, B.V, B.pz, B.rifle, B.leader, B.board, B.attack, B.choose, B.retreat, B.mv, B.note, B.end_phases

  -- Rule 11.13: roads carry German supply across rivers.
  kessel.test("case_11_13_road_supply_crosses_rivers", function()
    local road = {}
    for c = 1, 15 do road[#road + 1] = string.format("%02d03", c) end
    local spec = { map = { columns = 40, rows = 5, links = { { kind = "road", path = road } },
        tags = { road_supply_source = { "0103" } },
        hexsides = { { "0802", "0903", "river" }, { "0803", "0903", "river" }, { "0803", "0904", "river" } } },
      units = { pz("g", "3503") }, step = "german_movement", turn = 5 }
    kessel.setup(spec)
    local ok, why = S.in_supply("g", "combat")
    expect.truthy(ok, "20 hexes from 1503, beyond the river on the road: " .. tostring(why))
    expect.truthy(why:find("road", 1, true), why)
  end)

  -- Rule 11.1 / 6.7: a German line of supply may enter swamp but not pass through it, and never
  -- crosses a lake hexside.
  kessel.test("case_11_1_supply_into_not_through_swamp_nor_across_lake", function()
    local function strip(at, terrain, hexsides)
      kessel.setup{ map = { columns = 12, rows = 1, terrain = terrain, hexsides = hexsides },
        units = { pz("g", at) }, step = "german_movement", turn = 5 }
    end
    strip("0501", {})
    expect.truthy(S.in_supply("g", "combat"), "4 MP from the west edge")
    strip("0501", { ["0301"] = "swamp" })
    local ok, why = S.in_supply("g", "combat")
    expect.falsy(ok, "the only line passes through swamp")
    expect.truthy(why:find("11.1", 1, true), why)
    strip("0301", { ["0301"] = "swamp" })
    expect.truthy(S.in_supply("g", "combat"), "a unit in the swamp hex itself is supplied")
    strip("0501", {}, { { "0201", "0301", "lake" } })
    expect.falsy(S.in_supply("g", "combat"), "no line across a lake hexside")
  end)

  -- Rule 11.3 / FAQ: units may stay out of supply indefinitely; nothing eliminates them for it.
  kessel.test("case_11_3_faq_no_elimination_for_lack_of_supply", function()
    kessel.setup{ map = { columns = 30, rows = 3 }, step = "german_movement", turn = 5, units = { pz("g", "2802") } }
    expect.accepted(kessel.act{ kind = "end_phase" })
    end_phases(8) -- through the German turn and a Soviet turn, back to the German Movement Phase
    expect.eq(kessel.game.turn(), 6)
    expect.eq(kessel.game.step().id, "german_movement")
    local g = kessel.units.get("g")
    expect.eq(g.location, "map", "still on the map")
    expect.truthy(g.flags.oos, "and still out of supply")
  end)
end

-- Rule 11.3: a position set straight into a Movement Phase gets the phase's supply judgement only
-- when the set-up asks for the step's start (kessel.setup{ run_step_start = true }).
kessel.test("case_11_3_setup_runs_the_movement_phase_judgement_on_request", function()
  strip{ pz("near", "2503"), pz("far", "2603") }
  expect.eq(kessel.units.get("far").flags.oos, nil, "by default no step_start hook runs")
  strip({ pz("near", "2503"), pz("far", "2603") }, { run_step_start = true })
  expect.eq(kessel.units.get("far").flags.oos, true, "marked out of supply [11.3]")
  expect.eq(kessel.units.get("near").flags.oos, nil)
  expect.eq(kessel.queries.ask("mp_left", { unit = "far" }).allowance, 5, "10 halved")
  expect.eq(#kessel.events(), 0, "the marking is part of the position, not of the log")
  expect.eq(kessel.replay_hash(), kessel.state_hash())
end)
