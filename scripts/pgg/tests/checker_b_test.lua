-- Rule situations an outside checker built from the reference material and docs/lua-api.md alone
-- ("A PGG position of your own"), played through kessel.setup, kessel.act and the PGG queries.
-- Each asserts what the reference demands; the few that found a gap in the API name it.
local expect = kessel.expect

local function inf(id, at, extra)
  local u = { id = id, side = "german", type = "infantry", faces = { "9-9-7", "4-4-7", "2-2-7", "1-1-7" }, at = at }
  for k, v in pairs(extra or {}) do u[k] = v end
  return u
end
local function pz(id, at, formation)
  return { id = id, side = "german", type = "panzer", faces = { "4-4-10", "2-2-10" }, at = at, formation = formation }
end
local function rmot(id, at, formation)
  return { id = id, side = "german", type = "rifle_mot", faces = { "2-2-10", "1-1-10" }, at = at, formation = formation }
end
local function cavalry(id, at)
  return { id = id, side = "german", type = "cavalry", faces = { "4-4-5", "2-2-5" }, formation = "1cav", at = at }
end
local function rifle(id, at, face) return { id = id, side = "soviet", type = "rifle", faces = { face or "2-2-6" }, at = at } end
local function untried(id, at) return { id = id, side = "soviet", type = "rifle", hidden = true, pool = "rifle", at = at } end
local function leader(id, at, rating)
  return { id = id, side = "soviet", type = "leader", faces = { "0-" .. rating .. "-10" }, attrs = { rating = rating }, at = at }
end
local function supplied(id) return kessel.queries.ask("supply", { unit = id }).in_supply end
local function odds(units, targets, overrun)
  return kessel.queries.ask("odds", { units = units, targets = targets, overrun = overrun })
end
local function where(id) local u = kessel.units.get(id) return u.hex or u.location end
local function end_phases_until(step_id)
  repeat expect.accepted(kessel.act{ kind = "end_phase" }) until kessel.game.step().id == step_id
end

-- [11.1] The 20 hexes to the supply road are hexes of the line, not of a ruler: a lake wall (open
-- only at row 5) makes a unit 20 hexes from the road's end as the crow flies trace further, and it
-- is out of supply (24 MP from the west edge as well); a unit next to a Soviet unit still traces
-- out of its own hex.
kessel.test("case_11_1_twenty_hexes_to_the_road_are_counted_along_the_line", function()
  local lakes = {}
  for r = 1, 4 do lakes[string.format("10%02d", r)] = "lake" end
  kessel.setup{
    map = { columns = 30, rows = 5, terrain = lakes, links = { { kind = "road", path = { "0101", "0201", "0301" } } },
      tags = { road_supply_source = { "0101" } } },
    turn = 5, step = "german_combat",
    units = { inf("g", "2301"), inf("adj", "1502"), rifle("s", "1602"), leader("l", "2805", 2) },
  }
  expect.eq(kessel.hex.distance("0301", "2301"), 20, "20 as the crow flies")
  expect.eq(supplied("g"), false, "the line round the lake is longer than 20")
  expect.eq(supplied("adj"), true, "a unit in an enemy ZOC traces out of its own hex")
end)

-- [11.2] [10.35] The same for the Soviet line of communication: a unit 3 hexes from a rating-3
-- leader as the crow flies, with a lake between, is out of his reach and out of supply.
kessel.test("case_11_2_line_of_communication_counted_along_its_path_round_a_lake", function()
  kessel.setup{
    map = { columns = 12, rows = 5, terrain = { ["0602"] = "lake", ["0603"] = "lake", ["0604"] = "lake" } },
    turn = 5, step = "soviet_combat",
    units = { leader("l", "0703", 3), rifle("r", "0403"), rifle("near", "0502") },
  }
  expect.eq(kessel.hex.distance("0703", "0403"), 3)
  expect.eq(supplied("r"), false, "round the lake is more than 3")
  expect.eq(supplied("near"), true, "0502 is 3 hexes round the lake, by 0702 and 0601")
end)

-- [11.1] [6.7] The MP method by the unit's own type: the cavalry pays 1 a road hex, as infantry
-- does (a motorized unit 1/2): 20 road hexes from the west edge is in supply, 21 is not.
kessel.test("case_11_1_cavalry_traces_mp_supply_at_one_a_road_hex", function()
  local road = {}
  for c = 1, 40 do road[#road + 1] = string.format("%02d02", c) end
  kessel.setup{
    map = { columns = 40, rows = 3, links = { { kind = "road", path = road } } },
    turn = 5, step = "german_combat",
    units = { cavalry("c20", "2102"), cavalry("c21", "2202"), pz("p39", "4002", "7pz") },
  }
  expect.eq(supplied("c20"), true)
  expect.eq(supplied("c21"), false)
  expect.eq(supplied("p39"), true, "39 road hexes at 1/2 are 19.5 MP")
end)

-- [13.4] The three Soviet uses a game are counted by the game variable `soviet_interdiction_used`,
-- not by the markers in the box: the marker placed on turn 5 comes back when the German player-turn
-- ends, yet after the uses of turns 5 and 6 (one made before) a fourth is refused.
kessel.test("case_13_4_three_uses_a_game_counted_across_turns_while_the_marker_comes_back", function()
  kessel.setup{
    map = { columns = 30, rows = 3 }, turn = 5, step = "soviet_interdiction",
    units = { inf("g", "1002"), rifle("s", "1502"), leader("l", "2002", 5) },
    vars = { soviet_interdiction_used = 1 },
    markers = { { kind = "soviet_interdiction", side = "soviet", count = 3 } },
  }
  expect.accepted(kessel.act{ kind = "place_marker", hex = "1102" })
  expect.refused(kessel.act{ kind = "place_marker", hex = "1103" })
  end_phases_until("soviet_movement")
  expect.eq(kessel.game.turn(), 6)
  expect.eq(#kessel.markers.all{ kind = "soviet_interdiction", placed = true }, 0, "removed at the end of the German player-turn")
  end_phases_until("soviet_interdiction")
  expect.accepted(kessel.act{ kind = "place_marker", hex = "1102" })
  end_phases_until("soviet_movement")
  end_phases_until("soviet_interdiction")
  local ok, reasons = kessel.act{ kind = "place_marker", hex = "1102" }
  expect.refused(ok, reasons, "13.4", "three times")
end)

-- [11.3] A German unit cut off at the start of its Movement Phase moves on half its MA; in the
-- Combat Phase its supply is judged at the instant of its own attack: once an earlier attack has
-- destroyed the Soviet unit whose zone closed the only gap in a lake wall, it attacks at full
-- strength.
kessel.test("case_11_3_cut_off_at_the_phase_start_attacks_whole_once_an_earlier_attack_reopens_the_line", function()
  kessel.setup{
    map = { columns = 12, rows = 5, terrain = { ["0501"] = "lake", ["0502"] = "lake", ["0504"] = "lake", ["0505"] = "lake" } },
    turn = 5, step = "german_movement", run_step_start = true,
    units = { pz("p", "0703", "7pz"), rifle("s", "0603"), leader("l", "0903", 2), inf("g9", "0503"), rifle("t", "0803") },
  }
  expect.eq(supplied("p"), false)
  expect.eq(kessel.queries.ask("mp_left", { unit = "p" }).allowance, 5, "10 halved")
  end_phases_until("german_combat")
  expect.eq(odds({ "p" }, { "0803" }).attack, 2, "still cut off: 4 halved")
  kessel.inject_dice{ 1 }   -- 9 against s (2, halved out of supply: 1): 9-1, a 1 is De
  expect.accepted(kessel.act{ kind = "attack", units = { "g9" }, targets = { "0603" } })
  expect.accepted(kessel.act{ kind = "advance", skip = true })
  expect.eq(where("s"), "eliminated")
  expect.eq(supplied("p"), true)
  expect.eq(odds({ "p" }, { "0803" }).attack, 4, "in supply at the instant of this attack")
end)

-- [10.36] A leader adds his rating to an attack only when he is named among its units (the `odds`
-- query's `units`, an `attack`'s `units`): left out, he adds nothing; named, he adds up to his
-- rating, capped at the strength of his own hex's attackers.
kessel.test("case_10_36_a_leader_adds_only_when_named_in_the_attack", function()
  kessel.setup{
    map = { columns = 12, rows = 5 }, turn = 5, step = "soviet_combat",
    units = { leader("l", "0503", 5), rifle("a", "0503"), rifle("b", "0602", "4-4-6"), inf("g", "0603", { step = 3 }) },
  }
  expect.eq(odds({ "a" }, { "0603" }).attack, 2, "not named: no bonus")
  expect.eq(odds({ "a", "l" }, { "0603" }).attack, 4, "2 + the bonus capped at 2")
  expect.eq(odds({ "a", "b", "l" }, { "0603" }).attack, 8, "b is not in his hex: the cap stays 2")
  kessel.inject_dice{ 6 }
  expect.accepted(kessel.act{ kind = "attack", units = { "a", "b", "l" }, targets = { "0603" } })
  local c = kessel.log.records{ kind = "combat", last = 1 }[1].fields
  expect.eq(c.attack, 8)
end)

-- [6.5] [12.2] The `odds` query answers for an overrun when asked with `overrun = true`: the attack
-- halved after every other modifier (an intact panzer division, 16, overruns at 8), the column
-- the overrun's roll is made on, and the overrun's refusals (a Movement Phase, one hex); against
-- face-down defenders the range they may prove is taken at the halved strength. Without the flag
-- the answer is the Combat Phase attack's, which a checker in a Movement Phase would misread.
kessel.test("case_6_5_the_odds_query_for_an_overrun_checks_it_as_an_overrun", function()
  local function position(step, face_down)
    local units = { pz("p1", "0403", "7pz"), rmot("p2", "0403", "7pz"), rmot("p3", "0403", "7pz"), leader("l", "0803", 4) }
    if face_down then
      units[#units + 1] = untried("u1", "0503")
      units[#units + 1] = untried("u2", "0503")
    else
      units[#units + 1] = rifle("s", "0402")
    end
    kessel.setup{ map = { columns = 12, rows = 5 }, turn = 5, step = step, run_step_start = true,
      pools = { rifle = { "0-0-6", "3-3-6" } }, units = units }
  end
  position("german_movement")
  local o = odds({ "p1", "p2", "p3" }, { "0402" }, true)
  expect.eq(o.attack, 8, "16 integrated, halved [6.5]")
  expect.eq(o.defence, 2)
  expect.eq(o.label, "4-1")
  expect.eq(o.legal, true)
  local halved = false
  for _, m in ipairs(o.attack_modifiers) do if m.rule == "6.5" then halved = true end end
  expect.truthy(halved, "a 6.5 line says the attack is halved")
  local plain = odds({ "p1", "p2", "p3" }, { "0402" })
  expect.eq(plain.attack, 16, "without the flag: the attack of a Combat Phase")
  expect.eq(plain.legal, false, "and no attack is made in a Movement Phase")
  -- face down: 8 against a dud and a 3-3-6, which take distinct counters: 3 either way
  position("german_movement", true)
  local r = odds({ "p1", "p2", "p3" }, { "0503" }, true)
  expect.eq(r.exact, false)
  expect.eq(r.worst.label, "2-1")
  expect.eq(r.best.label, "2-1")
  kessel.inject_dice{ 1, 1, 6 }   -- the two draws, then the roll
  expect.accepted(kessel.act{ kind = "overrun", units = { "p1", "p2", "p3" }, target = "0503" })
  local c = kessel.log.records{ kind = "combat", last = 1 }[1].fields
  expect.eq(c.odds, "2-1", "the column the query gave")
  -- the overrun's own refusals
  position("german_movement")
  local two = odds({ "p1", "p2", "p3" }, { "0402", "0404" }, true)
  expect.eq(two.legal, false)
  expect.eq(two.reasons[1].rule, "6.5")
  position("german_combat")
  local late = odds({ "p1", "p2", "p3" }, { "0402" }, true)
  expect.eq(late.legal, false)
  expect.refused(late.legal, late.reasons, "6.5", "Movement Phase")
end)

-- [6.5] The overrun odds query asked what no overrun could be: each is refused with its case (or,
-- a flag that is no boolean, an error naming the parameter), never answered as a legal overrun, and
-- asking changes nothing.
kessel.test("case_6_5_the_odds_query_for_an_overrun_refuses_what_no_overrun_could_be", function()
  kessel.setup{ map = { columns = 12, rows = 5 }, turn = 5, step = "german_movement", run_step_start = true,
    units = { pz("p1", "0403", "7pz"), rmot("p2", "0403", "7pz"), pz("p4", "0203", "9pz"),
      { id = "gl", side = "german", type = "leader", faces = { "0-3-10" }, attrs = { rating = 3 }, at = "0403" },
      rifle("s", "0402"), rifle("s2", "0703"), leader("l", "0803", 4) } }
  local hash = kessel.state_hash()
  local function refused(units, targets, case, text)
    local o = odds(units, targets, true)
    expect.eq(o.legal, false, table.concat(units, ",") .. " → " .. table.concat(targets, ","))
    expect.refused(o.legal, o.reasons, case, text)
  end
  local plain = odds({ "p1", "p2" }, { "0402" }, true)
  expect.eq(plain.legal, true, "the plain overrun is legal")
  refused({ "p1", "p1" }, { "0402" }, "6.5", "names p1 twice")
  refused({ "p1", "p2" }, { "0402", "0404" }, "6.5", "one hex")
  refused({ "p1", "p4" }, { "0402" }, "6.5", "from one hex")
  refused({ "gl" }, { "0402" }, "6.5", "combat units")
  refused({ "s2" }, { "0403" }, "6.5", "phasing player")
  refused({ "p1", "p2" }, { "0403" }, "6.5", "0403 holds no Soviet unit for the German to overrun")
  for _, flag in ipairs({ "yes", 1 }) do
    local ok, err = pcall(kessel.queries.ask, "odds", { units = { "p1" }, targets = { "0402" }, overrun = flag })
    expect.falsy(ok, "overrun = " .. tostring(flag))
    expect.truthy(tostring(err):find("`overrun`", 1, true), tostring(err))
  end
  expect.eq(kessel.state_hash(), hash, "asking changes nothing")
end)

-- [10.4] An evacuation names its leader as `leader`: one that names none (or names him under
-- another field) is told so, not that "nil" is no leader.
kessel.test("case_10_4_an_evacuation_naming_no_leader_is_told_the_field", function()
  kessel.setup{
    map = { columns = 12, rows = 5, areas = { X = { "1203" } } }, turn = 5, step = "soviet_movement",
    options = { leader_evacuation = true }, vars = { evacuation_area = "X" },
    units = { leader("l", "0303", 4), inf("g1", "0501"), inf("g2", "0503"), inf("g3", "0505") },
  }
  local ok, reasons = kessel.act{ kind = "evacuate", unit = "l" }
  expect.refused(ok, reasons, "10.4", "evacuate{leader=")
  expect.accepted(kessel.act{ kind = "evacuate", leader = "l" })
end)

-- [11.1] On a map that tags no road-supply source, the supply answer says there is none rather
-- than naming an empty road ("a road to , nor").
kessel.test("case_11_1_supply_answer_on_a_map_with_no_supply_road_says_so", function()
  kessel.setup{ map = { columns = 30, rows = 3 }, turn = 5, step = "german_combat", units = { inf("g", "2502") } }
  local s = kessel.queries.ask("supply", { unit = "g" })
  expect.eq(s.in_supply, false)
  expect.falsy(s.why:find("road to ,", 1, true), s.why)
  expect.truthy(s.why:find("road_supply_source", 1, true), s.why)
end)

-- [15] A position set up mid-game gives who owns a city left empty (`city_owner`) and what the
-- German held at the end of his last player-turn (`german_held`), as docs/lua-api.md says: a
-- motorized regiment leaves Orsha, which stays German (the last through it, with a line west);
-- a Soviet division walks in next turn and the end of the Soviet player-turn scores the
-- recapture. Without `city_owner` the hex it leaves belongs to nobody.
kessel.test("case_15_a_position_set_mid_game_gives_city_owners_and_what_the_german_held", function()
  local function position(vars)
    kessel.setup{
      map = { columns = 12, rows = 3, places = { { name = "Orsha", kind = "major_city", hexes = { "0602" } } } },
      turn = 5, step = "german_mech_movement", vars = vars,
      objectives = { { name = "Orsha", hexes = { "0602" }, vp = 5 } },
      units = { { id = "m", side = "german", type = "motorized", faces = { "3-3-10", "2-2-10" }, formation = "14mot", at = "0602" },
        rifle("r", "0902", "3-3-6"), leader("l", "1002", 3) },
    }
    expect.accepted(kessel.act{ kind = "move", units = { "m" }, path = { "0502", "0402" } })
  end
  position(nil)
  expect.eq(kessel.queries.ask("score").german_vp, 0, "nobody's: the set-up said nothing of it")
  position({ city_owner = { ["0602"] = "german" } })
  expect.eq(kessel.queries.ask("score").german_vp, 5)
  end_phases_until("soviet_movement")
  expect.eq(kessel.game.var("german_held")[1], "Orsha", "recorded at the end of the German player-turn")
  expect.accepted(kessel.act{ kind = "move", units = { "r" }, path = { "0802", "0702", "0602" } })
  end_phases_until("german_movement")
  local s = kessel.queries.ask("score")
  expect.eq(s.soviet_vp, 2)
  expect.eq(s.recaptures[1].city, "Orsha")
  -- the same from a Soviet Movement Phase set up with both variables
  kessel.setup{
    map = { columns = 12, rows = 3, places = { { name = "Orsha", kind = "major_city", hexes = { "0602" } } } },
    turn = 6, step = "soviet_movement", vars = { city_owner = { ["0602"] = "german" }, german_held = { "Orsha" } },
    objectives = { { name = "Orsha", hexes = { "0602" }, vp = 5 } },
    units = { rifle("r", "0802", "3-3-6"), leader("l", "1002", 3), inf("g", "0102") },
  }
  expect.accepted(kessel.act{ kind = "move", units = { "r" }, path = { "0702", "0602" } })
  end_phases_until("german_movement")
  expect.eq(kessel.queries.ask("score").soviet_vp, 2)
end)

-- [13.3] [6.3] A German air marker on a rail hex costs a Soviet unit entering it by ordinary
-- movement the usual +1 (the +4 is the rail move's), and a rail move may not start in a hex of an
-- enemy zone.
kessel.test("case_13_3_a_marked_rail_hex_entered_on_foot_costs_one_more", function()
  local rail = {}
  for c = 1, 20 do rail[#rail + 1] = string.format("%02d02", c) end
  kessel.setup{
    map = { columns = 20, rows = 4, links = { { kind = "railway", path = rail } } },
    turn = 5, step = "soviet_movement", run_step_start = true,
    units = { rifle("a", "1202"), leader("l", "1302", 4), rifle("z", "0502"), leader("l2", "0602", 3), inf("g", "0401") },
    markers = { { kind = "air_interdiction", side = "german", at = "1102" } },
  }
  expect.accepted(kessel.act{ kind = "move", units = { "a" }, path = { "1102" } })
  expect.eq(kessel.queries.ask("mp_left", { unit = "a" }).spent, 2, "1 for the clear hex, 1 for the marker")
  local ok, reasons = kessel.act{ kind = "rail_move", units = { "z" }, path = { "0602", "0702", "0802" } }
  expect.refused(ok, reasons, "6.3", "may not start in an enemy ZOC")
end)
