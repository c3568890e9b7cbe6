-- Situations from the reference material, examiner pass (round 13): combinations of cases not
-- yet played together in one position: an attacker's retreat from a hex it shares with a unit
-- that did not attack [9.6] [9.72] [10.36], rail movement with disruption and interdiction
-- [6.3] [6.6] [13.3], a city retaken by a unit riding through it [6.3] [15], and the no-switching
-- rule across a two-hex attack [9.23] WBC09 #1a. Each is played through actions on a small board.
-- Geometry of the 10x10 map: odd columns N, NE = c+1 r-1, SE = c+1 r, S, SW = c-1 r,
-- NW = c-1 r-1; even columns NE = c+1 r, SE = c+1 r+1, SW = c-1 r+1, NW = c-1 r.
local expect = kessel.expect
local B = require("testing.board10")
local attack, choose, retreat, advances = B.attack, B.choose, B.retreat, B.advances

local function rail_move(units, path) return kessel.act{ kind = "rail_move", units = units, path = path } end

-- Retreat paths listed for `side`, as "units>path" strings in a set.
local function listed_retreats(side)
  local out = {}
  for _, a in ipairs(kessel.legal(side)) do
    if a.kind == "retreat" then out[table.concat(a.units, ",") .. ">" .. table.concat(a.path, "-")] = true end
  end
  return out
end

-- [9.6] [9.72] [10.36] An attacker's retreat moves the units that attacked, not the whole hex.
-- The CRT's explanation has the loser "retreat the entire stack"; read here (as the engine does)
-- as the whole of the losing side's units in that combat: a unit in the attackers' hex that took
-- no part in the attack is not in the combat, is not hit by its result and stays. A leader who
-- lent his rating to the attack is one of the attackers and goes with them [10.36].
-- Board, Soviet Combat Phase of turn 7: a, b, c (2-2-6) and leader l (rating 2) in 0503; German g
-- (4-4-10) in 0403. a and b attack g with l: 4 + 2 against 4, 1-1, roll 6: A2. The Soviet
-- retreats; the German picks a path for a, b and l together (c is in none of them); after it, c
-- is still in 0503, so the hex is not vacated and g is offered no advance [9.8].
kessel.test("case_9_6_an_attackers_retreat_takes_the_units_that_attacked_not_a_unit_that_stood_by", function()
  B.setup({ B.rifle("a", "0503"), B.rifle("b", "0503"), B.rifle("c", "0503"), B.leader("l", "0503", 2),
    B.pz("g", "0403", "4-4-10"), B.leader("sup", "0807", 5) }, { step = "soviet_combat" })
  kessel.inject_dice{ 6 }
  local ev = expect.accepted(attack({ "a", "b", "l" }, { "0403" }))
  expect.truthy(B.note(ev, "leaders in 0503 add 2"), B.all_notes(ev))
  expect.truthy(B.note(ev, "odds 1-1, roll 6: A2"), B.all_notes(ev))
  expect.accepted(choose("retreat"))
  local paths = listed_retreats("german")
  expect.truthy(paths["a,b,l>0502-0501"], "a, b and l retreat as one stack")
  for key in pairs(paths) do
    expect.falsy(key:find("c", 1, true), "c did not attack and is not retreated: " .. key)
  end
  expect.accepted(retreat({ "a", "b", "l" }, { "0502", "0501" }))
  for _, id in ipairs{ "a", "b", "l" } do expect.eq(B.where(id), "0501", id) end
  expect.eq(B.where("c"), "0503", "c stays where it was")
  expect.eq(kessel.units.get("c").location, "map")
  expect.eq(advances("german"), "", "0503 still holds c: nothing to advance into")
  expect.eq(B.pending(), nil, "no decision left")
end)

-- [6.3] [6.6] [13.3] Rail movement with a disrupted unit and German air markers. Board, Soviet
-- Movement Phase of turn 7: a railway along row 05 from 0305 to 0905; German air markers on 0305
-- and 0705. q (2-2-6) in 0305, under a marker, rides to 0905: the marker on the hex it leaves
-- costs nothing (a marker costs the enemy who enters its hex), the one on 0705 costs 1 + 4, so
-- the ride is 6 - 1 + 5 = 10 rail hexes. d (2-2-6) in 0505, disrupted by an overrun, may not
-- ride (refused citing 6.6: a disrupted unit does not move) and no rail move is listed for it.
kessel.test("case_6_3_a_disrupted_unit_does_not_ride_and_a_marker_on_the_start_hex_costs_nothing", function()
  local rail = { kind = "railway", path = { "0305", "0405", "0505", "0605", "0705", "0805", "0905" } }
  B.setup({ B.rifle("q", "0305"), B.rifle("d", "0505", nil, { flags = { "disrupted" } }), B.leader("l", "0307", 5) },
    { map = { columns = 10, rows = 10, links = { rail } }, step = "soviet_movement", turn = 7,
      markers = { { kind = "air_interdiction", side = "german", at = "0305" },
        { kind = "air_interdiction", side = "german", at = "0705" } } })
  local ok, why = rail_move({ "d" }, { "0805" })
  expect.refused(ok, why, "6.6", "disrupted")
  for _, a in ipairs(kessel.legal("soviet")) do
    if a.kind == "rail_move" then
      for _, id in ipairs(a.units) do expect.falsy(id == "d", "no rail move listed for d") end
    end
  end
  local ev = expect.accepted(rail_move({ "q" }, { "0905" }))
  expect.truthy(B.note(ev, "rail move of q 0305 -> 0905, 10 rail hexes"), B.all_notes(ev))
  expect.eq(B.where("q"), "0905")
end)

-- [6.3] [15] A city is the Soviet's again when a Soviet combat unit passes through it, by rail as
-- by any move, and the retaking scores at the end of his player-turn. Board, Soviet Movement Phase
-- of turn 8: Town (10 VP) in 0505 on a railway 0305-0905; the German held it with a line at the
-- end of turn 7 (game vars german_held, city_owner) and has left it empty, out of every German
-- zone (g is far off in 0101). q (2-2-6) rides 0305 -> 0905 through Town: Town is Soviet-owned at
-- once, and at the end of the Soviet Interdiction Phase the Soviet scores the recapture (2 VP).
kessel.test("case_15_a_city_ridden_through_by_rail_is_retaken", function()
  local rail = { kind = "railway", path = { "0305", "0405", "0505", "0605", "0705", "0805", "0905" } }
  B.setup({ B.rifle("q", "0305"), B.leader("l", "0307", 3), B.pz("g", "0101", "2-2-10") },
    { map = { columns = 10, rows = 10, links = { rail } }, step = "soviet_movement", turn = 8,
      vars = { objectives = { { name = "Town", vp = 10, hexes = { "0505" } } },
        city_owner = { ["0505"] = "german" }, german_held = { "Town" } } })
  expect.accepted(rail_move({ "q" }, { "0905" }))
  expect.eq(B.where("q"), "0905")
  expect.eq(kessel.game.var("city_owner")["0505"], "soviet", "the last to pass through Town")
  for _ = 1, 3 do expect.accepted(kessel.act{ kind = "end_phase" }) end
  expect.eq(kessel.game.step().id, "soviet_interdiction")
  local ev = expect.accepted(kessel.act{ kind = "end_phase" })
  expect.truthy(B.note(ev, "the Soviet retakes Town: 2 VP"), B.all_notes(ev))
  expect.eq(#(kessel.game.var("soviet_recaptures") or {}), 1)
end)

-- [9.23] WBC09 #1a One combat against two hexes: the defenders of one hex may not retreat into or
-- through the other's hex. Board, German Combat Phase of turn 7: g (9-9-10) in 0404 attacks s in
-- 0504 and t in 0505 (1-1-6, out of supply: 1 each), 9 against 2, 4-1, roll 1: D2. Both hexes are
-- next to g, so once empty each is an empty hex in an enemy zone, closed to a retreat in any case
-- [9.71]; what the item adds is the other stack's hex while that stack is still in it, which
-- [9.71] alone leaves open (a retreat may pass friends in an enemy zone). Option
-- wbc09_01a_no_switching_places on: no path listed for s enters 0505 nor for t 0504, and s asked
-- through 0505 (0505-0506, t still there) is refused citing WBC09 #1a; s goes 0503-0502, and t,
-- after it, still not through 0504. Standard: s may go 0505-0506 through t.
kessel.test("case_wbc09_01a_in_a_two_hex_attack_no_stack_retreats_through_the_other_defending_hex", function()
  local function board(on)
    B.setup({ B.pz("g", "0404", "9-9-10"), B.rifle("s", "0504", "1-1-6"), B.rifle("t", "0505", "1-1-6"),
      B.leader("sup", "0909", 5) }, { options = { wbc09_01a_no_switching_places = on } })
    kessel.inject_dice{ 1 }
    local ev = expect.accepted(attack({ "g" }, { "0504", "0505" }))
    expect.truthy(B.note(ev, "odds 4-1, roll 1: D2"), B.all_notes(ev))
    expect.accepted(choose("retreat"))
  end
  local function through(paths, unit, hex)
    for key in pairs(paths) do
      if key:sub(1, #unit + 1) == unit .. ">" and key:find(hex, 1, true) then return key end
    end
    return nil
  end

  board(true)
  local paths = listed_retreats("german")
  expect.falsy(through(paths, "s", "0505"), "s never through t's hex")
  expect.falsy(through(paths, "t", "0504"), "t never through s's hex")
  local ok, why = retreat({ "s" }, { "0505", "0506" })
  expect.refused(ok, why, "WBC09 #1a")
  expect.accepted(retreat({ "s" }, { "0503", "0502" }))
  paths = listed_retreats("german")
  expect.falsy(through(paths, "t", "0504"), "0504 stays closed to t")
  expect.accepted(retreat({ "t" }, { "0605", "0705" }))

  board(false)
  paths = listed_retreats("german")
  expect.truthy(paths["s>0505-0506"], "standard: s may pass t, a friend in an enemy zone [9.71]")
  expect.accepted(retreat({ "s" }, { "0505", "0506" }))
  expect.eq(B.where("s"), "0506")
end)
