-- Rule tests for victory [15] (rules/victory.lua). Objectives come from game var "objectives" on
-- inline maps (the campaign uses the scenario's).

local expect = kessel.expect
local V = require("rules.victory")

local function inf(id, at, extra)
  local u = { id = id, side = "german", type = "infantry", formation = id, faces = { "9-9-7", "4-4-7", "2-2-7", "1-1-7" }, at = at }
  for k, v in pairs(extra or {}) do u[k] = v end
  return u
end
local function rifle(id, at) return { id = id, side = "soviet", type = "rifle", faces = { "2-2-6" }, at = at } end
local OBJ = { { name = "Smolensk", vp = 25, hexes = { "0403", "0404" } }, { name = "Orsha", vp = 5, hexes = { "0203" } } }

local function setup(units, extra)
  extra = extra or {}
  local vars = { objectives = OBJ }
  for k, v in pairs(extra.vars or {}) do vars[k] = v end
  kessel.setup{ map = { columns = 8, rows = 8 }, units = units, step = extra.step or "german_combat", turn = extra.turn or 7,
    vars = vars, options = extra.options, last_turn = extra.last_turn }
end

-- Rule 15: a city counts when every hex of it is German-held and a line runs to the west edge.
kessel.test("case_15_cities_fully_held_with_line", function()
  setup{ inf("a", "0403"), inf("b", "0404"), inf("c", "0203") }
  local r = V.score()
  expect.eq(r.german_vp, 30)
  setup{ inf("a", "0403"), inf("c", "0203") }
  expect.eq(V.score().german_vp, 5, "Smolensk only half held")
  -- last to pass through: the memory in city_owner counts
  setup({ inf("a", "0403"), inf("c", "0203") }, { vars = { city_owner = { ["0404"] = "german" } } })
  expect.eq(V.score().german_vp, 30)
end)

-- Rule 15: the line to the west edge must be free of Soviet units and ZOC.
kessel.test("case_15_line_to_west_edge", function()
  setup{ inf("c", "0203"), rifle("s1", "0101"), rifle("s2", "0103"), rifle("s3", "0105"), rifle("s4", "0107") }
  expect.eq(V.score().german_vp, 0, "Orsha cut off from the west edge")
  setup{ inf("c", "0203"), rifle("s1", "0101"), rifle("s2", "0103"), rifle("s3", "0105"), rifle("s4", "0107"), inf("x", "0104") }
  expect.eq(V.score().german_vp, 5, "a German unit negates the ZOC in its hex")
end)

-- Options smolensk_vp, soviet_vp_per_division, german_marginal_is_draw, vp_bidding.
kessel.test("case_15_vp_options", function()
  setup({ inf("a", "0403"), inf("b", "0404") }, { options = { smolensk_vp = 20 } })
  expect.eq(V.score().german_vp, 20)
  setup({ inf("a", "0403"), inf("b", "0404"), inf("d", nil, { location = "eliminated" }) },
    { options = { smolensk_vp = 25, soviet_vp_per_division = 1 } })
  expect.eq(V.score().soviet_vp, 1)
  setup({ inf("a", "0403"), inf("b", "0404"), inf("c", "0203"), inf("d", nil, { location = "eliminated" }) },
    { options = { soviet_vp_per_division = 5 }, vars = { swf_count = 10 } })
  local r = V.score()
  expect.eq(r.german_vp, 45, "30 + South-Western Front 5 + 10")
  expect.eq(r.soviet_vp, 5)
  expect.eq(r.level, "Soviet Marginal", "40")
  setup({ inf("a", "0403"), inf("b", "0404"), inf("c", "0203") },
    { options = { german_marginal_is_draw = true, vp_bidding = true, vp_bid = 10 }, vars = { swf_count = 10, objectives = {
      { name = "Smolensk", vp = 25, hexes = { "0403", "0404" } }, { name = "Vyazma", vp = 50, hexes = { "0203" } } } } })
  r = V.score()
  expect.eq(r.german_vp, 90, "25 + 50 + 15")
  expect.eq(r.level, "German Decisive", "80 beyond the bid of 10: as 130 is without a bid")
  setup({ inf("a", "0403"), inf("b", "0404") }, { options = { german_marginal_is_draw = true, vp_bidding = false }, vars = { swf_count = 10,
      objectives = { { name = "Vyazma", vp = 50, hexes = { "0403", "0404" } } } } })
  expect.eq(V.score().level, "Draw", "65: German Marginal counts as a draw")
end)

-- Rule 15: GD, Lehr and the cavalry division are not divisions for the Soviet VP.
kessel.test("case_15_divisions_destroyed", function()
  setup{ inf("a", "0403"),
    { id = "cav", side = "german", type = "cavalry", formation = "1 Cav", faces = { "4-4-5", "2-2-5" }, location = "eliminated" },
    { id = "gd", side = "german", type = "motorized", faces = { "4-4-10", "2-2-10" }, attrs = { independent = 1 }, location = "eliminated" },
    { id = "p1", side = "german", type = "motorized", formation = "14 Mot", faces = { "3-3-10", "2-2-10" }, location = "eliminated" },
    { id = "p2", side = "german", type = "motorized", formation = "14 Mot", faces = { "3-3-10", "2-2-10" }, at = "0606" } }
  expect.eq(#V.divisions_destroyed(), 0)
end)

-- Rule 15: +2 Soviet VP when the Soviet holds at the end of his player-turn a city the German held
-- with a line at the end of the previous German player-turn; the final result at the end of turn 12.
kessel.test("case_15_recapture_and_final_result", function()
  setup({ rifle("s", "0203") }, { step = "soviet_interdiction", vars = { german_held = { "Orsha" }, city_owner = { ["0203"] = "german" } } })
  expect.accepted(kessel.act{ kind = "end_phase" })
  expect.eq(#kessel.game.var("soviet_recaptures"), 1)
  expect.eq(V.score().soviet_vp, 2)
  setup({ inf("a", "0403"), inf("b", "0404") }, { step = "german_air_interdiction", turn = 12, last_turn = 12 })
  local ok, r = kessel.act{ kind = "end_phase" }
  expect.accepted(ok, r)
  local res = kessel.game.var("result")
  expect.eq(res.german_vp, 25)
  expect.eq(res.level, "Soviet Strategic")
  expect.truthy(kessel.game.finished())
end)

-- WBC 2009 sides: a die for who bids first, then the first-turn roll [5.2], then bids until one
-- player passes; the other plays the German, and his bid is the margin where a German Marginal
-- Victory starts [15].
-- WBC09 sides: the bidding opens as the game starts, and a scenario may start later in the
-- calendar (docs/examples/smolensk-pocket starts on turn 7): due on the turn the game began on
-- (`kessel.game.first_turn`). Before, it was due on turn 1 only, so a turn-7 scenario under
-- wbc2009 was played with no bid and nothing said.
kessel.test("case_wbc09_a_scenario_starting_on_turn_7_opens_the_bidding_at_its_start", function()
  local B = require("rules.bidding")
  setup({ inf("a", "0403") }, { step = "soviet_movement", turn = 7, options = { vp_bidding = true } })
  expect.truthy(B.open_needed(), "due as a game begun on turn 7 starts")
  local ok, r = kessel.act{ kind = "bid_roll" }
  expect.accepted(ok, r)
  expect.eq(kessel.game.var("pending").kind, "bid")
  setup({ inf("a", "0403") }, { step = "german_movement", turn = 7, options = { vp_bidding = true } })
  expect.falsy(B.open_needed(), "only before the first Soviet move")
end)

kessel.test("case_wbc09_bidding_for_the_german_side", function()
  local B = require("rules.bidding")
  local units = { inf("a", "0403"), inf("b", "0404"), inf("c", "0203") }
  setup(units, { step = "soviet_movement", turn = 1, options = { vp_bidding = true } })
  local ok, r = kessel.act{ kind = "bid_roll" }
  expect.refused(ok, r, "WBC09 sides", "opens once")   -- the 16th/19th Armies have not rolled yet
  kessel.inject_dice{ 5, 2, 5 }   -- player 2 bids first; 16th Army moves, 19th stands
  expect.accepted(kessel.act{ kind = "first_turn_roll" })
  expect.accepted(kessel.act{ kind = "bid_roll" })
  expect.eq(B.state().to_bid, 2)
  -- nothing else happens until the bidding is over
  ok, r = kessel.act{ kind = "end_phase" }
  expect.refused(ok, r, "WBC09 sides", "bidding for the German side: player 2 to bid or pass")
  ok, r = kessel.act{ kind = "bid", vp = -3 }
  expect.refused(ok, r, "WBC09 sides", "whole number")
  expect.accepted(kessel.act{ kind = "bid", vp = 5 })
  ok, r = kessel.act{ kind = "bid", vp = 5 }
  expect.refused(ok, r, "WBC09 sides", "beat the standing bid of 5")
  local listed = kessel.legal()
  expect.eq(listed[1].kind, "bid")
  expect.truthy(listed[1].pass, "pass is offered")
  expect.eq(listed[2].vp, 6, "the lowest raise")
  expect.accepted(kessel.act{ kind = "bid", vp = 12 })
  expect.accepted(kessel.act{ kind = "bid", pass = true })
  local s = B.state()
  expect.truthy(s.done)
  expect.eq(s.german, 1, "player 2 passed: player 1 plays the German")
  expect.eq(B.german_bid(), 12)
  expect.eq(kessel.game.var("pending"), nil)
  expect.eq(V.score().german_vp, 30, "Smolensk 25 + Orsha 5")
  expect.eq(V.score().level, "German Marginal", "30 reaches the bid of 12")
  ok, r = kessel.act{ kind = "bid", vp = 20 }
  expect.refused(ok, r, "WBC09 sides", "no bidding open")
  -- a bid agreed before the game: no bidding at the start
  setup(units, { step = "soviet_movement", turn = 1, options = { vp_bidding = true, vp_bid = 7 },
    vars = { first_turn_16 = "move", first_turn_19 = "move" } })
  expect.falsy(B.open_needed())
  expect.eq(B.german_bid(), 7)
end)

-- WBC 2009 sides and the pre-game [5.1] [13.2] [7.1]: the bidding decides sides first and holds up
-- everything else (no air marker, no end of the air placement, no set-up, no elimination); then the
-- Soviet sets up and ends it; then the German places his initial air markers; then turn 1. An
-- overstacked set-up hex is never offered for elimination in the pre-game: its units (a standing
-- 16th Army [5.2]) shift to cure it once they may move, and the stack is judged at the end of the
-- Soviet Movement Phase. Without bidding the same order holds from the set-up on.
kessel.test("case_wbc09_bidding_then_setup_then_air_markers_then_turn_1", function()
  local function sov(id, at, formation)
    return { id = id, side = "soviet", type = "rifle", faces = { "2-2-6" }, at = at, formation = formation }
  end
  local function kinds(side)
    local out = {}
    for _, a in ipairs(kessel.legal(side)) do out[a.kind] = (out[a.kind] or 0) + 1 end
    return out
  end
  for _, bidding in ipairs{ true, false } do
    local units = { sov("a1", "0404", "16 Army"), sov("a2", "0404", "16 Army"), sov("a3", "0404", "16 Army"),
      sov("a4", "0404", "16 Army"), sov("a5", "0404", "16 Army"), sov("r1", "0106"), sov("r2", "0106"),
      { id = "lk", side = "soviet", type = "leader", faces = { "0-5-10" }, attrs = { rating = 5 }, at = "0405", formation = "16 Army" },
      inf("g", "0808") }
    kessel.setup{ map = { columns = 8, rows = 8, areas = { S13 = { "0105", "0106", "0107" } } }, units = units,
      step = "soviet_movement", turn = 1, options = { vp_bidding = bidding },
      markers = { { kind = "air_interdiction", side = "german", count = 3 } },
      vars = { objectives = OBJ, first_turn_16 = "stand", first_turn_19 = "move", setup_areas = { r1 = "S13", r2 = "S13" } } }
    if bidding then
      expect.accepted(kessel.act{ kind = "bid_roll" })
      local k = kinds()
      expect.truthy(k.bid and k.bid > 0)
      for _, other in ipairs{ "end_air_placement", "place_marker", "setup_place", "end_setup", "eliminate_excess", "move", "end_phase" } do
        expect.eq(k[other], nil, other .. " is not offered while the bidding is open")
      end
      local ok, r = kessel.act{ kind = "end_air_placement" }
      expect.refused(ok, r, "WBC09 sides", "bidding")
      ok, r = kessel.act{ kind = "place_marker", hex = "0404" }
      expect.refused(ok, r, "WBC09 sides", "bidding")
      ok, r = kessel.act{ kind = "end_setup" }
      expect.refused(ok, r, "WBC09 sides", "bidding")
      ok, r = kessel.act{ kind = "eliminate_excess", unit = "a1" }
      expect.refused(ok, r, "WBC09 sides", "bidding")
      expect.accepted(kessel.act{ kind = "bid", vp = 3 })
      expect.accepted(kessel.act{ kind = "bid", pass = true })
    end
    -- the Soviet set-up [5.1]
    local k = kinds()
    expect.truthy((k.setup_place or 0) > 0, "the Soviet set-up is offered")
    expect.eq(k.end_setup, 1)
    for _, other in ipairs{ "end_air_placement", "place_marker", "eliminate_excess", "move", "end_phase" } do
      expect.eq(k[other], nil, other .. " waits for the Soviet set-up")
    end
    expect.accepted(kessel.act{ kind = "setup_place", unit = "r1", hex = "0105" })
    expect.accepted(kessel.act{ kind = "end_setup" })
    -- the German's initial air markers [13.2]
    k = kinds()
    expect.eq(k.setup_place, nil)
    expect.truthy((k.place_marker or 0) > 0)
    expect.eq(k.end_air_placement, 1)
    expect.eq(k.eliminate_excess, nil)
    expect.eq(k.move, nil, "the Soviet moves after the markers")
    expect.accepted(kessel.act{ kind = "place_marker", hex = "0404" })
    expect.accepted(kessel.act{ kind = "end_air_placement" })
    -- turn 1: the standing 16th Army may shift one hex to cure its overstacking; nothing is eliminated
    k = kinds("soviet")
    expect.eq(k.eliminate_excess, nil, "set-up stacks are judged at the end of the Movement Phase")
    expect.truthy((k.move or 0) > 0)
    local ok, r = kessel.act{ kind = "end_phase" }
    expect.refused(ok, r, "7.1", "move them away")
    expect.accepted(kessel.act{ kind = "move", units = { "a1" }, path = { "0504" } })
    expect.accepted(kessel.act{ kind = "move", units = { "a2" }, path = { "0505" } })
    expect.eq(kessel.units.get("a3").location, "map")
    expect.eq(#kessel.units.at("0404"), 3)
    expect.eq(kessel.game.var("setup_done"), true)
  end
end)

-- [15] Last to pass through ---------------------------------------------------------------------
do
  local B = require("testing.board8_combat")
  local expect, V, pz, inf, rifle, leader, board, attack, choose, retreat, offered, has_retreat =
    B.expect, B.V, B.pz, B.inf, B.rifle, B.leader, B.board, B.attack, B.choose, B.retreat, B.offered, B.has_retreat

  local TOWN = { { name = "Town", vp = 10, hexes = { "0403" } } }

  -- Rule 15: a unit advancing after combat through a city hex is the last to pass through it: the
  -- German owns the town after advancing two hexes through it, though nobody stands there.
  kessel.test("case_15_last_to_pass_through_advance", function()
    board({ pz("g", "0303", "9-9-10"), rifle("s", "0403", "1-1-6") },
      { vars = { objectives = TOWN, city_owner = { ["0403"] = "soviet" } } })
    kessel.inject_dice{ 3 } -- 9 against 1: 9-1, roll 3: De
    expect.accepted(attack({ "g" }, { "0403" }))
    expect.eq(kessel.units.get("s").location, "eliminated")
    expect.accepted(kessel.act{ kind = "advance", units = { "g" }, path = { "0403", "0504" } })
    expect.eq(#kessel.units.at("0403"), 0, "nobody stays in the town")
    expect.eq(kessel.game.var("city_owner")["0403"], "german", "recorded as the advance passes")
    expect.accepted(kessel.act{ kind = "end_phase" })
    expect.eq(V.owners()["0403"], "german", "an empty hex keeps its last owner at the end of the step")
    expect.eq(V.score().german_vp, 10)
  end)

  -- Rule 15: retreating units pass through the hexes of their path; a hex that is no objective is
  -- not recorded.
  kessel.test("case_15_last_to_pass_through_retreat", function()
    board({ pz("g", "0303", "9-9-10"), rifle("s", "0403", "1-3-6") },
      { vars = { objectives = { { name = "Town", vp = 10, hexes = { "0504" } } }, city_owner = { ["0504"] = "german" } } })
    kessel.inject_dice{ 1 } -- 9 against 3: 3-1, roll 1: D2
    expect.accepted(attack({ "g" }, { "0403" }))
    expect.accepted(choose("retreat"))
    expect.accepted(retreat({ "s" }, { "0504", "0604" }))
    local owner = kessel.game.var("city_owner")
    expect.eq(owner["0504"], "soviet", "the retreating unit passed through the town")
    expect.eq(owner["0604"], nil, "0604 is no objective")
  end)

  -- Rule 15 / 6.5: overrunners who clear a city hex enter it; moving on in the same phase, they
  -- leave it German.
  kessel.test("case_15_last_to_pass_through_overrun_then_move_on", function()
    board({ pz("a", "0303", "9-9-10"), rifle("s", "0403", "1-1-6") },
      { step = "german_movement", vars = { objectives = TOWN, city_owner = { ["0403"] = "soviet" } } })
    kessel.inject_dice{ 1 } -- 9/2 = 4 against 1: 4-1, roll 1: D2
    expect.accepted(kessel.act{ kind = "overrun", units = { "a" }, target = "0403" })
    expect.accepted(choose("loss"))
    expect.eq(kessel.units.get("a").hex, "0403", "the overrunners enter the cleared hex")
    expect.eq(kessel.game.var("city_owner")["0403"], "german")
    expect.accepted(kessel.act{ kind = "move", units = { "a" }, path = { "0504" } })
    expect.accepted(kessel.act{ kind = "end_phase" })
    expect.eq(V.owners()["0403"], "german")
  end)

  -- Rule 15: a unit moving through a city hex without stopping is the last to pass through it.
  kessel.test("case_15_last_to_pass_through_ordinary_move", function()
    kessel.setup{
      map = { columns = 8, rows = 6, places = { { name = "Town", kind = "minor_city", hexes = { "0403" } } } },
      step = "german_movement", turn = 3,
      units = {
        { id = "g", side = "german", type = "panzer", formation = "7 Pz", faces = { "4-4-10", "2-2-10" }, at = "0303" },
        { id = "lead", side = "soviet", type = "leader", faces = { "0-2-10" }, attrs = { rating = 2 }, at = "0806" },
      },
      vars = { objectives = { { name = "Town", hexes = { "0403" }, vp = 5, side = "german" } } },
    }
    local owner = kessel.game.var("city_owner") or {}
    kessel.expect.eq(owner["0403"], nil, "nobody has been through the town yet")
    kessel.expect.accepted(kessel.act{ kind = "move", units = { "g" }, path = { "0403", "0503" } })
    kessel.expect.eq(kessel.units.get("g").hex, "0503", "the unit moved on past the town")
    kessel.expect.eq(kessel.game.var("city_owner")["0403"], "german")
  end)
end


-- [14] [15] --------------------------------------------------------------------------------------
do
  local B = require("testing.board8")
  local expect, K, Z, S, L, M, V, pz, rifle, leader, board, attack, choose, retreat, mv, note, end_phases =
    B.expect, B.K, B.Z, B.S, B.L, B.M, B.V, B.pz, B.rifle, B.leader, B.board, B.attack, B.choose, B.retreat, B.mv, B.note, B.end_phases

  -- Rule 14.3: nothing enters on turn 12, South-Western Front divisions included.
  kessel.test("case_14_3_no_south_western_front_on_turn_12", function()
    kessel.setup{ map = { columns = 12, rows = 4, links = { { kind = "railway", path = { "1002", "1003", "1004" } } },
        areas = { Z = { "0804" } } },
      units = { { id = "r", side = "soviet", type = "rifle", hidden = true, pool = "rifle" } },
      step = "soviet_movement", turn = 12, pools = { rifle = { "3-3-6" } } }
    local ok, r = kessel.act{ kind = "swf_call", hex = "1004" }
    expect.refused(ok, r, "14.3", "turn 12")
    kessel.setup{ map = { columns = 12, rows = 4, links = { { kind = "railway", path = { "1002", "1003", "1004" } } },
        areas = { Z = { "0804" } } },
      units = { { id = "r", side = "soviet", type = "rifle", hidden = true, pool = "rifle" } },
      step = "soviet_movement", turn = 11, pools = { rifle = { "3-3-6" } } }
    expect.accepted(kessel.act{ kind = "swf_call", hex = "1004" })
  end)

  -- Rule 15: the victory levels on German minus Soviet VP, at each boundary.
  kessel.test("case_15_victory_level_boundaries", function()
    local cases = { { 0, "Soviet Decisive" }, { 1, "Soviet Strategic" }, { 25, "Soviet Strategic" },
      { 26, "Soviet Marginal" }, { 49, "Soviet Marginal" }, { 50, "German Marginal" }, { 79, "German Marginal" },
      { 80, "German Strategic" }, { 124, "German Strategic" }, { 125, "German Decisive" } }
    for _, c in ipairs(cases) do
      kessel.setup{ map = { columns = 8, rows = 8 }, step = "german_combat", turn = 7,
        units = { { id = "a", side = "german", type = "infantry", formation = "a", faces = { "9-9-7" }, at = "0403" } },
        vars = { objectives = { { name = "Town", vp = c[1], hexes = { "0403" } } } } }
      local r = V.score()
      expect.eq(r.difference, c[1])
      expect.eq(r.level, c[2], "difference " .. c[1])
    end
  end)
end

-- Rule 15: option smolensk_vp stands in for the printed 25 only. A scenario of its own that gives
-- Smolensk another value (docs/examples/smolensk-pocket: 15) keeps it, under either option value;
-- before, any objective named Smolensk was silently worth the option's 25.
kessel.test("case_15_smolensk_vp_option_leaves_a_scenarios_own_value", function()
  local own = { { name = "Smolensk", vp = 15, hexes = { "0403", "0404" } } }
  setup({ inf("a", "0403"), inf("b", "0404") }, { vars = { objectives = own } })
  expect.eq(V.score().german_vp, 15, "the scenario's 15, not the option's 25")
  setup({ inf("a", "0403"), inf("b", "0404") }, { vars = { objectives = own }, options = { smolensk_vp = 20 } })
  expect.eq(V.score().german_vp, 15, "the scenario's 15, not the option's 20")
  setup({ inf("a", "0403"), inf("b", "0404") }, { options = { smolensk_vp = 20 } })
  expect.eq(V.score().german_vp, 20, "the printed 25 still follows the option")
end)
