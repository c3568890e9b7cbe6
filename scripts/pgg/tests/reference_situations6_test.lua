-- Situations from the reference material, sixth tester pass (round 5b): the less-visited rule
-- sections (leaders [10], air interdiction [13], disruption [6.6], untried units [12], the set-up
-- [5] and the first turn [5.2]) and the game's data. Each test works out by hand what the cited
-- cases demand and checks what the engine does and which case it names.
local expect = kessel.expect

local function rifle(id, at, face) return { id = id, name = id, side = "soviet", type = "rifle", faces = { face or "3-3-6" }, at = at } end
local function pz(id, at, face) return { id = id, name = id, side = "german", type = "panzer", formation = "F" .. id, faces = { face or "4-4-10", "2-2-10" }, at = at } end

-- A 45x5 strip with Smolensk in 2202 and 2203 (an objective), a supply road at the west edge and
-- the interdiction markers of both sides off the map.
local function strip(units, step, turn, extra)
  local spec = { map = { columns = 45, rows = 5,
      places = { { name = "Smolensk", kind = "major_city", hexes = { "2202", "2203" } } },
      tags = { road_supply_source = { "0103" } },
      links = { { kind = "road", path = { "0103", "0203", "0303" } } } },
    units = units, step = step, turn = turn,
    vars = { objectives = { { name = "Smolensk", vp = 25, hexes = { "2202", "2203" } } } },
    markers = { { kind = "air_interdiction", side = "german", count = 3 }, { kind = "soviet_interdiction", side = "soviet", count = 3 } } }
  for k, v in pairs(extra or {}) do
    if k == "vars" then for vk, vv in pairs(v) do spec.vars[vk] = vv end else spec[k] = v end
  end
  kessel.setup(spec)
end

local function end_phases(n)
  for _ = 1, n do expect.accepted(kessel.act{ kind = "end_phase" }) end
end

-- [13.2] German air markers may go east of column 40 one turn after the German holds Smolensk;
-- "if Smolensk is recaptured, the situation reverts to the original restrictions". The German has
-- held it since turn 5 (east open on turn 6). On turn 6 a Soviet rifle passes through 2202: the
-- Soviet is the last to pass through, Smolensk is recaptured [15] and the limit returns. German
-- panzers re-enter both hexes in the German Movement Phase of turn 6; at the Air Interdiction
-- Phase of turn 6 the German holds it again, but only from this turn: east of column 40 opens on
-- turn 7, not at once.
kessel.test("case_13_2_smolensk_recaptured_in_the_soviet_turn_resets_the_wait", function()
  strip({ rifle("r", "2302"), pz("a", "1802"), pz("b", "1803") }, "soviet_movement", 6,
    { vars = { smolensk_held_since = 5, city_owner = { ["2202"] = "german", ["2203"] = "german" } } })
  expect.accepted(kessel.act{ kind = "move", units = { "r" }, path = { "2202", "2201", "2301" } })
  end_phases(3)   -- Soviet Movement, Combat, Disruption Removal
  end_phases(1)   -- Soviet Interdiction: the end of the Soviet player-turn
  expect.eq(kessel.game.step().id, "german_movement")
  expect.eq(kessel.game.var("smolensk_held_since"), nil, "recaptured: the limit is back")
  expect.accepted(kessel.act{ kind = "move", units = { "a" }, path = { "1902", "2002", "2102", "2202" } })
  expect.accepted(kessel.act{ kind = "move", units = { "b" }, path = { "1903", "2003", "2103", "2203" } })
  end_phases(4)   -- German Movement, Combat, Mechanized Movement, Disruption Removal
  expect.eq(kessel.game.step().id, "german_air_interdiction")
  expect.eq(kessel.game.var("smolensk_held_since"), 6, "held again, from turn 6")
  local ok, why = kessel.act{ kind = "place_marker", hex = "4103" }
  expect.refused(ok, why, "13.2", "column 40")
  expect.accepted(kessel.act{ kind = "place_marker", hex = "4003" })
end)

-- [13.2] The same turn without the Soviet recapture: the German holds Smolensk throughout, the
-- wait counted from turn 5 stands and markers go east of column 40 on turn 6.
kessel.test("case_13_2_smolensk_kept_keeps_the_east_open", function()
  strip({ rifle("r", "2402"), pz("a", "2202"), pz("b", "2203") }, "soviet_movement", 6,
    { vars = { smolensk_held_since = 5, city_owner = { ["2202"] = "german", ["2203"] = "german" } } })
  end_phases(4)
  expect.eq(kessel.game.var("smolensk_held_since"), 5)
  end_phases(4)
  expect.eq(kessel.game.step().id, "german_air_interdiction")
  expect.accepted(kessel.act{ kind = "place_marker", hex = "4103" })
end)

-- [5.1] [13.2] The pre-game order is the Soviet set-up, then the German's initial air markers,
-- then the first Soviet move. A Soviet player who tries to move (or asks `mp_left`) while his own
-- set-up is still open is told to finish the set-up (end_setup), not that the German must place
-- his markers: the German cannot place them yet. Once the set-up is over the German's markers are
-- what holds the move up; once the German is done the move is accepted.
kessel.test("case_5_1_a_move_during_the_setup_names_the_setup_first", function()
  local function leader(id, at, rating) return { id = id, name = id, side = "soviet", type = "leader", faces = { "0-" .. rating .. "-10" }, attrs = { rating = rating }, at = at } end
  kessel.setup{ map = { columns = 8, rows = 8, areas = { S13 = { "0104", "0105", "0106" } } },
    units = { leader("rem", "0104", 4), rifle("r1", "0104"), rifle("r2", "0105"), rifle("other", "0404"), leader("sup", "0706", 5) },
    markers = { { kind = "air_interdiction", side = "german", count = 3 } },
    step = "soviet_movement", turn = 1,
    vars = { first_turn_16 = "move", first_turn_19 = "move", setup_areas = { r1 = "S13", r2 = "S13", rem = "S13" } } }
  local ok, why = kessel.act{ kind = "move", units = { "other" }, path = { "0504" } }
  expect.refused(ok, why, "5.1", "end_setup")
  local mp = kessel.queries.ask("mp_left", { unit = "other" })
  expect.eq(mp.may_move, false)
  expect.eq(mp.reason.rule, "5.1", "mp_left names the open set-up")
  expect.accepted(kessel.act{ kind = "end_setup" })
  ok, why = kessel.act{ kind = "move", units = { "other" }, path = { "0504" } }
  expect.refused(ok, why, "13.2", "air interdiction markers")
  expect.accepted(kessel.act{ kind = "end_air_placement" })
  expect.accepted(kessel.act{ kind = "move", units = { "other" }, path = { "0504" } })
end)

-- [5.1] [11.2] [11.3] Supply for movement is judged at the start of the Movement Phase, and on
-- turn 1 the Soviet set-up comes before it: a unit the Soviet arranges into his leader's radius
-- during the set-up moves with its full allowance. A set-up area 0104-0107, the leader (rating 2)
-- in 0104, a rifle placed in 0107 (three hexes away: no line of communication, out of supply, MA
-- 6 halved to 3). The Soviet moves it to 0105 (one hex from the leader) before ending his set-up:
-- it is in supply and has its 6 MP. And the other way: a rifle moved out of the radius has 3.
kessel.test("case_5_1_setup_arrangement_decides_first_turn_supply", function()
  local function leader(id, at, rating) return { id = id, name = id, side = "soviet", type = "leader", faces = { "0-" .. rating .. "-10" }, attrs = { rating = rating }, at = at } end
  kessel.setup{ map = { columns = 8, rows = 8, areas = { S20 = { "0104", "0105", "0106", "0107" } } },
    units = { leader("kur", "0104", 2), rifle("near", "0104"), rifle("far", "0107") },
    markers = { { kind = "air_interdiction", side = "german", count = 3 } },
    step = "soviet_movement", turn = 1,
    vars = { first_turn_16 = "move", first_turn_19 = "move", setup_areas = { kur = "S20", near = "S20", far = "S20" } },
    run_step_start = true }
  expect.eq(kessel.queries.ask("mp_left", { unit = "far" }).allowance, 3, "out of the radius at first")
  expect.eq(kessel.queries.ask("mp_left", { unit = "near" }).allowance, 6)
  expect.accepted(kessel.act{ kind = "setup_place", unit = "far", hex = "0105" })
  expect.accepted(kessel.act{ kind = "setup_place", unit = "near", hex = "0107" })
  expect.accepted(kessel.act{ kind = "end_setup" })
  expect.accepted(kessel.act{ kind = "end_air_placement" })
  local far, near = kessel.queries.ask("mp_left", { unit = "far" }), kessel.queries.ask("mp_left", { unit = "near" })
  expect.eq(far.allowance, 6, "arranged into the radius: in supply [11.2]")
  expect.eq(far.out_of_supply, false)
  expect.eq(near.allowance, 3, "arranged out of the radius: out of supply, MA halved [11.3]")
end)

-- [10.4] [11.2] [11.3] An evacuated leader comes back at X at the start of the next Soviet
-- Movement Phase, and supply for movement is judged at that start: the units within his rating of
-- X are in supply for the phase. A leader (rating 2) in 0202 is boxed in by three panzers and
-- evacuated on turn 7; a rifle in 0707, one hex from X (0808), has no other leader. On turn 8 the
-- leader is back in 0808 and the rifle moves with its full 6 MP (out of supply it would have 3).
kessel.test("case_10_4_returning_leader_supplies_his_units_for_that_move", function()
  local function leader(id, at, rating) return { id = id, name = id, side = "soviet", type = "leader", faces = { "0-" .. rating .. "-10" }, attrs = { rating = rating }, at = at } end
  kessel.setup{ map = { columns = 8, rows = 8, areas = { X = { "0808" } } }, step = "soviet_movement", turn = 7,
    units = { leader("l", "0202", 2), pz("g1", "0302"), pz("g2", "0203"), pz("g3", "0101"), rifle("r", "0707") },
    options = { leader_evacuation = true } }
  expect.accepted(kessel.act{ kind = "evacuate", leader = "l" })
  end_phases(9)
  expect.eq(kessel.game.turn(), 8)
  expect.eq(kessel.game.step().id, "soviet_movement")
  expect.eq(kessel.units.get("l").hex, "0808", "back at X")
  local mp = kessel.queries.ask("mp_left", { unit = "r" })
  expect.eq(mp.out_of_supply, false, "in the returned leader's radius")
  expect.eq(mp.allowance, 6)
  -- and it began the phase in his command, so it may overrun this phase [6.5] [10.35]
  local in_command = false
  for _, id in ipairs(kessel.game.var("phase_start").command) do if id == "r" then in_command = true end end
  expect.truthy(in_command, "the rifle began the phase in command")
end)

-- [12] [12.2] Neither player knows an untried unit's values until it is committed to combat: the
-- German's view and the Soviet's own view both show a face-down rifle division with no values (a
-- rifle, from the rifle pool) before the attack, and both show the drawn 3-4-6 after it.
kessel.test("case_12_2_nobody_sees_an_untried_value_before_the_reveal_both_do_after", function()
  local B = require("testing.board10")
  B.setup({ B.pz("g", "0303", "8-8-10"), { id = "h", name = "h", side = "soviet", type = "rifle", hidden = true, pool = "rifle", at = "0403" },
    B.leader("l", "0505", 3) }, { step = "german_combat", turn = 5, pools = { rifle = { "3-4-6" } } })
  local function seen(side)
    for _, u in ipairs(kessel.game.view(side).units) do if u.id == "h" then return u end end
  end
  for _, side in ipairs{ "german", "soviet" } do
    local u = seen(side)
    expect.truthy(u.hidden, side .. " sees it face down")
    expect.eq(#u.faces, 0, side .. " sees no values")
    expect.eq(u.kind, "rifle"); expect.eq(u.pool, "rifle")
  end
  kessel.inject_dice{ 1, 3 }   -- the draw, then 8 against 4: 2-1, roll 3: D1/A1
  expect.accepted(kessel.act{ kind = "attack", units = { "g" }, targets = { "0403" } })
  for _, side in ipairs{ "german", "soviet" } do
    local u = seen(side)
    expect.falsy(u.hidden, side .. " sees it face up")
    expect.eq(string.format("%d-%d-%d", u.faces[1].attack, u.faces[1].defence, u.faces[1].movement), "3-4-6", side)
  end
end)

-- [13.3] German air markers have no effect on Soviet supply (the reference manual), nor so on the
-- lines it is made of: German markers on every hex of column 08 of a 10x10 map and on the hex
-- between a leader (rating 2, 0505) and his rifle (0705) leave the leader's line of supply to the
-- east edge and the rifle's line of communication open [11.2]: the rifle is in supply with its 6
-- MP and in command [10.35]; entering a marked hex still costs it 1 MP more [13.3].
kessel.test("case_13_3_german_air_markers_do_not_touch_soviet_supply_or_command", function()
  local B = require("testing.board10")
  local markers = {}
  for r = 1, 10 do markers[#markers + 1] = { kind = "air_interdiction", side = "german", at = string.format("08%02d", r) } end
  markers[#markers + 1] = { kind = "air_interdiction", side = "german", at = "0605" }
  B.setup({ B.leader("l", "0505", 2), B.rifle("r", "0705", "3-3-6"), B.pz("g", "0202") },
    { step = "soviet_movement", turn = 5, markers = markers, run_step_start = true })
  local mp = kessel.queries.ask("mp_left", { unit = "r" })
  expect.eq(mp.out_of_supply, false, "in supply through the marked hexes")
  expect.eq(mp.allowance, 6)
  local s = kessel.queries.ask("supply", { unit = "r" })
  expect.truthy(s.in_supply, tostring(s.why))
  expect.truthy(require("rules.leaders").in_command(kessel.units.get("r")), "in command across the marked hex")
  -- the marker still slows the move into its hex: clear 1 + 1
  expect.accepted(kessel.act{ kind = "move", units = { "r" }, path = { "0805" } })
  expect.eq(kessel.queries.ask("mp_left", { unit = "r" }).left, 4)
end)

-- [6.7] The terrain effects chart, every movement class against every terrain a unit can enter
-- from one hex: a unit in 0502 of a 10x3 map sees forest (0501), swamp (0503), a clear hex across
-- a river hexside (0601), a forest hex along a road (0602: the road rate, not the forest), a major
-- city (0402, clear) and a lake (0401). By the chart: clear and city 1; forest 1 for infantry (and
-- leaders, who move as infantry in forest), 2 for all others; swamp 2; a river +2 for Germans, +1
-- for Soviets; a road ½ for motorized units (and leaders), 1 for infantry and cavalry; lakes closed.
kessel.test("case_6_7_terrain_effects_chart_every_class_and_terrain", function()
  local classes = {
    -- id, side, type, faces, { forest, swamp, river, road, city }
    { "inf", "german", "infantry", { "9-9-7", "4-4-7", "2-2-7", "1-1-7" }, { 1, 2, 3, 1, 1 } },
    { "cav", "german", "cavalry", { "4-4-5", "2-2-5" }, { 2, 2, 3, 1, 1 } },
    { "pz", "german", "panzer", { "4-4-10", "2-2-10" }, { 2, 2, 3, 0.5, 1 } },
    { "mot", "german", "motorized", { "3-3-10", "2-2-10" }, { 2, 2, 3, 0.5, 1 } },
    { "rif", "soviet", "rifle", { "3-3-6" }, { 1, 2, 2, 1, 1 } },
    { "tank", "soviet", "tank", { "4-4-10" }, { 2, 2, 2, 0.5, 1 } },
    { "ldr", "soviet", "leader", { "0-3-10" }, { 1, 2, 2, 0.5, 1 } },
  }
  local hexes = { "0501", "0503", "0601", "0602", "0402" }
  for _, c in ipairs(classes) do
    local function board()
      local u = { id = c[1], name = c[1], side = c[2], type = c[3], faces = c[4], at = "0502" }
      if c[3] == "leader" then u.attrs = { rating = 3 } end
      kessel.setup{ map = { columns = 10, rows = 3,
          terrain = { ["0501"] = "forest", ["0503"] = "swamp", ["0602"] = "forest", ["0401"] = "lake" },
          hexsides = { { "0502", "0601", "river" } },
          links = { { kind = "road", path = { "0502", "0602" } } },
          places = { { name = "City", kind = "major_city", hexes = { "0402" } } } },
        units = { u }, step = c[2] .. "_movement", turn = 7 }
    end
    for i, h in ipairs(hexes) do
      board()
      local ok, ev = kessel.act{ kind = "move", units = { c[1] }, path = { h } }
      expect.accepted(ok, ev)
      expect.eq(ev[1].cost, c[5][i], string.format("%s (%s) entering %s", c[1], c[3], h))
    end
    board()
    local ok, why = kessel.act{ kind = "move", units = { c[1] }, path = { "0401" } }
    expect.refused(ok, why, "6.7", "lake")
    -- the reach query gives the same costs where the step is the cheapest way in (forest, swamp, road)
    local cost = {}
    local reach = kessel.queries.ask("reach", { units = { c[1] } })
    expect.eq(#reach.refused, 0, c[1] .. " may move: " .. tostring(reach.refused[1] and reach.refused[1].message))
    for _, r in ipairs(reach.reachable) do cost[r.hex] = r.cost end
    expect.eq(cost["0503"], c[5][2], c[1] .. ": reach, swamp")
    expect.eq(cost["0602"], c[5][4], c[1] .. ": reach, road")
    expect.eq(cost["0401"], nil, c[1] .. ": reach, lake")
  end
end)
