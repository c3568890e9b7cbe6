-- Situations from the reference material, second tester pass: supply, leaders, untried units,
-- reinforcements, victory and the options. Each test works out by hand what the cited cases demand
-- and checks what the engine does and which case it names. 10x10 inline map unless said otherwise
-- (odd columns: N, NE = c+1 r-1, SE = c+1 r, S, SW = c-1 r, NW = c-1 r-1; even columns:
-- NE = c+1 r, SE = c+1 r+1, SW = c-1 r+1, NW = c-1 r).
local expect = kessel.expect

local B = require("testing.board10")
local pz, rifle, leader, setup = B.pz, B.rifle, B.leader, B.setup
local note, all_notes, where = B.note, B.all_notes, B.where

-- Reading (a): [9.5] Eng means both sides stay where they are and nobody advances, and WBC09 #7
-- names Eng among the results after which overrunners who cleared the hex stay in the hex they
-- came from. 8 halved is 4 against a lone 1-1-6: 4-1, roll 6: Eng. The rifle loses its only step
-- (the hex is cleared), the panzer flips; it stays in 0303 and stops [6.5], in both profiles.
kessel.test("case_6_5_eng_that_clears_the_hex_leaves_the_overrunners_in_place", function()
  for _, wbc in ipairs{ false, true } do
    setup({ pz("g", "0303", "8-8-10"), rifle("s", "0403", "1-1-6"), leader("l", "0606", 5) },
      { step = "german_movement", options = { wbc09_07_overrun_loss_stays_put = wbc } })
    kessel.inject_dice{ 6 }
    local events = expect.accepted(kessel.act{ kind = "overrun", units = { "g" }, target = "0403" })
    expect.truthy(note(events, "odds 4-1, roll 6: Eng"), all_notes(events))
    expect.eq(where("s"), "eliminated", "the lone rifle loses its step")
    expect.eq(where("g"), "0303", "Eng: the overrunners remain in place [9.5] (wbc = " .. tostring(wbc) .. ")")
    expect.truthy(kessel.units.get("g").flags.stopped, "the overrun failed: the panzer stops [6.5]")
    expect.truthy(note(events, "remain in"), all_notes(events))
    local ok, r = kessel.act{ kind = "move", units = { "g" }, path = { "0403" } }
    expect.refused(ok, r, "6.5")
  end
end)

-- Reading (c): WBC09 #1b names one result, D1/A1 against a single defender who is eliminated. A
-- D2/A1 against a single defender who takes two losses (or dies) is not that result: the attacker
-- may retreat into the emptied hex [FAQ 2] whatever the option says. 12 against 3 is 4-1, roll 3:
-- D2/A1. The rifle takes the loss (eliminated); the panzer retreats one hex into 0403.
kessel.test("case_wbc09_01b_only_after_d1_a1", function()
  for _, wbc in ipairs{ false, true } do
    setup({ pz("g", "0303", "12-12-10"), rifle("s", "0403", "3-3-6"), leader("l", "0606", 5) },
      { options = { wbc09_01b_no_retreat_into_lone_defender_hex = wbc } })
    kessel.inject_dice{ 3 }
    local events = expect.accepted(kessel.act{ kind = "attack", units = { "g" }, targets = { "0403" } })
    expect.truthy(note(events, "odds 4-1, roll 3: D2/A1"), all_notes(events))
    expect.accepted(kessel.act{ kind = "choose", choice = "loss" })
    expect.eq(where("s"), "eliminated")
    expect.accepted(kessel.act{ kind = "choose", choice = "retreat" })
    expect.accepted(kessel.act{ kind = "retreat", units = { "g" }, path = { "0403" } })
    expect.eq(where("g"), "0403", "wbc = " .. tostring(wbc))
  end
  -- and D1/A1 (12 against 4 is 3-1, roll 4) still forbids it under the option
  setup({ pz("g", "0303", "12-12-10"), rifle("s", "0403", "4-4-6"), leader("l", "0606", 5) },
    { options = { wbc09_01b_no_retreat_into_lone_defender_hex = true } })
  kessel.inject_dice{ 4 }
  local events = expect.accepted(kessel.act{ kind = "attack", units = { "g" }, targets = { "0403" } })
  expect.truthy(note(events, "odds 3-1, roll 4: D1/A1"), all_notes(events))
  expect.accepted(kessel.act{ kind = "choose", choice = "loss" })
  expect.accepted(kessel.act{ kind = "choose", choice = "retreat" })
  local ok, r = kessel.act{ kind = "retreat", units = { "g" }, path = { "0403" } }
  expect.refused(ok, r, "WBC09 #1b")
end)

-- Reading (b): [9.8] the two-hex advance is for a combat whose defenders were all eliminated ("if
-- all enemy units eliminated"). g (0304) attacks 0403 (a 1-1-6) and 0404 (two 2-2-6) together
-- [9.23]: 12 against 5 is 2-1, roll 2: D1. The defender takes the step with a: 0403 is empty but
-- b and c survive, so the victor may enter 0403 and go no further.
kessel.test("case_9_8_two_hex_advance_only_when_every_defender_of_the_combat_died", function()
  setup({ pz("g", "0304", "12-12-10"), rifle("a", "0403", "1-1-6"), rifle("b", "0404"), rifle("c", "0404"), leader("l", "0606", 5) })
  kessel.inject_dice{ 2 }
  local events = expect.accepted(kessel.act{ kind = "attack", units = { "g" }, targets = { "0403", "0404" } })
  expect.truthy(note(events, "odds 2-1, roll 2: D1"), all_notes(events))
  expect.accepted(kessel.act{ kind = "choose", choice = "loss", units = { "a" } })
  expect.eq(where("a"), "eliminated")
  local p = kessel.game.var("pending")
  expect.eq(p and p.kind, "advance", "0403 is vacated: the attacker may advance into it")
  local ok, r = kessel.act{ kind = "advance", units = { "g" }, path = { "0403", "0503" } }
  expect.refused(ok, r, "9.8")
  expect.accepted(kessel.act{ kind = "advance", units = { "g" }, path = { "0403" } })
  expect.eq(where("g"), "0403")
  -- every defender dead (6-1, roll 1: De): two hexes, the first the defenders' hex
  setup({ pz("g", "0304", "12-12-10"), rifle("a", "0403", "1-1-6"), leader("l", "0707", 5) })
  kessel.inject_dice{ 1 }
  events = expect.accepted(kessel.act{ kind = "attack", units = { "g" }, targets = { "0403" } })
  expect.truthy(note(events, "roll 1: De"), all_notes(events))
  expect.accepted(kessel.act{ kind = "advance", units = { "g" }, path = { "0403", "0503" } })
  expect.eq(where("g"), "0503")
end)

-- A wall of German units down column 07 (0701 0703 0705 0707 0709): their ZOC covers columns 06-08,
-- so no Soviet line reaches the east edge (column 10) from the west of it [11.2].
local function wall()
  return { pz("w1", "0701"), pz("w3", "0703"), pz("w5", "0705"), pz("w7", "0707"), pz("w9", "0709") }
end

-- [11.3] [10.35] [10.36] Rakutin-like leader (rating 4) at 0605 is cut off from the east edge, so
-- his units are out of supply [11.2]; they are still in his command radius, which asks for no line
-- of supply [10.35], so they may attack. Out of supply the 3-3-6 attacks at 1 (fractions dropped)
-- and the 1-1-6 at 1 (never below 1) [11.3]; the leader adds his rating capped at his own hex's
-- units, 1 [10.36]: 3 against w5 (4) is 1-2.
kessel.test("case_11_3_out_of_supply_attack_halved_never_below_one_leader_capped", function()
  local units = wall()
  units[#units + 1] = leader("l", "0605", 4)
  units[#units + 1] = rifle("r", "0605", "3-3-6")
  units[#units + 1] = rifle("r1", "0604", "1-1-6")
  setup(units, { step = "soviet_combat" })
  local S = require("rules.supply")
  local ok, why, rule = S.in_supply("r", "combat")
  expect.falsy(ok, "cut off from the east edge")
  expect.eq(rule, "11.2", why)
  kessel.inject_dice{ 1 }
  local events = expect.accepted(kessel.act{ kind = "attack", units = { "r", "r1", "l" }, targets = { "0705" } })
  expect.truthy(note(events, "r: out of supply, halved (1)"), all_notes(events))
  expect.truthy(note(events, "r1: out of supply, halved (1)"), all_notes(events))
  expect.truthy(note(events, "leaders in 0605 add 1 (rating 4, capped at the units' 1)"), all_notes(events))
  expect.truthy(note(events, "attack 3 against defence 4 in 0705: odds 1-2"), all_notes(events))
end)

-- [11.3] [10.2] A leader's rating is its defence strength; cut off, it is halved like any combat
-- strength: rating 4 defends at 2; 8 against 2 is 4-1.
kessel.test("case_11_3_cut_off_leader_defends_at_half_its_rating", function()
  local units = wall()
  units[#units + 1] = leader("l", "0605", 4)
  units[#units + 1] = pz("g", "0505", "8-8-10")
  setup(units)
  kessel.inject_dice{ 1 }
  local events = expect.accepted(kessel.act{ kind = "attack", units = { "g" }, targets = { "0605" } })
  expect.truthy(note(events, "l: out of supply, defence halved"), all_notes(events))
  expect.truthy(note(events, "attack 8 against defence 2 in 0605: odds 4-1"), all_notes(events))
end)

-- [6.5] [9.5] Overrun halving drops fractions, so a lone 1-1-6 overruns at 0; odds below 1-3 are
-- read on the 1-3 column: roll 1 is A1.
kessel.test("case_6_5_overrun_halving_takes_a_one_factor_to_zero_read_at_one_to_three", function()
  setup({ rifle("r", "0403", "1-1-6"), pz("g", "0503", "1-1-10"), leader("l", "0402", 3) },
    { step = "soviet_movement", vars = { phase_start = { hexes = { r = "0403" }, command = { "r" }, step = 0, turn = 7 } } })
  kessel.inject_dice{ 1 }
  local events = expect.accepted(kessel.act{ kind = "overrun", units = { "r" }, target = "0503" })
  expect.truthy(note(events, "attack halved after all other modifiers (1 → 0)"), all_notes(events))
  expect.truthy(note(events, "attack 0 against defence 1 in 0503: odds 1-3, roll 1: A1"), all_notes(events))
end)

-- [14.1] [11.3] [14] A provisional division enters at the start of the Soviet Movement Phase with no
-- leader anywhere: units entering play are in supply for their first player-turn, so its MA is the
-- full 6 (placed on its entrance, it pays nothing for the hex; an old unit there is marked out of
-- supply and has 3).
kessel.test("case_14_1_provisional_division_moves_its_full_ma_without_a_leader", function()
  local M = require("rules.movement")
  kessel.setup{ map = { columns = 30, rows = 8, areas = { P1 = { "0301" }, P2 = { "1001" }, P3 = { "2001" }, P4 = { "1208" }, P5 = { "0808" }, P6 = { "0308" }, Z = { "0808" } } },
    units = { { id = "a", name = "a", side = "soviet", type = "rifle", hidden = true, pool = "rifle" }, rifle("old", "2003", "3-3-6") },
    step = "german_air_interdiction", turn = 3, pools = { rifle = { "3-3-6" } } }
  kessel.inject_dice{ 3 }
  expect.accepted(kessel.act{ kind = "end_phase" })
  expect.eq(kessel.game.step().id, "soviet_movement")
  expect.eq(where("a"), "2001", "entrance P3")
  expect.falsy(kessel.units.get("a").flags.oos, "not marked out of supply")
  expect.eq(M.mp_left(kessel.units.get("a")), 6)
  expect.truthy(kessel.units.get("old").flags.oos, "the old division has no leader: out of supply")
  expect.eq(M.mp_left(kessel.units.get("old")), 3)
end)

-- [11.1] [8] [6.6] The MP method on a 30x3 strip with no road: the infantry division in 0602 is 5 MP
-- from the west edge, but the Soviet rifle in 0302 closes column 03 (its hex and its ZOC in 0301
-- and 0303). A German unit in 0303 negates the ZOC there and opens a line (0303, 0203, 0103); a
-- disrupted rifle has no ZOC at all [6.6], so the line passes beside it.
kessel.test("case_11_1_mp_line_closed_by_soviet_zoc_opened_by_a_german_unit_or_disruption", function()
  local S = require("rules.supply")
  local function inf(id, at) return { id = id, name = id, side = "german", type = "infantry", formation = id, faces = { "9-9-7", "4-4-7", "2-2-7", "1-1-7" }, at = at } end
  local function strip(units)
    kessel.setup{ map = { columns = 30, rows = 3 }, units = units, step = "german_movement", turn = 7 }
  end
  strip{ inf("i", "0602"), rifle("r", "0302"), leader("l", "2902", 2) }
  local ok, why, rule = S.in_supply("i", "combat")
  expect.falsy(ok, "column 03 is closed by the rifle and its ZOC")
  expect.eq(rule, "11.1")
  expect.truthy(why:find("20 MP of the west edge", 1, true), why)
  strip{ inf("i", "0602"), rifle("r", "0302"), inf("f", "0303"), leader("l", "2902", 2) }
  ok, why = S.in_supply("i", "combat")
  expect.truthy(ok, "a German unit in 0303 negates the ZOC there")
  expect.truthy(why:find("MP from the west edge", 1, true), why)
  strip{ inf("i", "0602"), rifle("r", "0302", "2-2-6", { flags = { "disrupted" } }), leader("l", "2902", 2) }
  expect.truthy(S.in_supply("i", "combat"), "a disrupted rifle has no ZOC [6.6]")
end)

-- [15] A city is occupied by a side with a combat unit in it or the last to pass through it; a
-- leader is no combat unit [10.2]. The German held Orsha (0203) with a line at the end of his
-- player-turn. A lone Soviet leader that moves through it, or stops in it, does not retake it (no
-- recapture VP, the German still owns it); a rifle division that moves through it does.
kessel.test("case_15_a_lone_leader_does_not_retake_a_city", function()
  local V = require("rules.victory")
  local obj = { { name = "Orsha", vp = 5, hexes = { "0203" } } }
  local function start(units)
    setup(units, { step = "soviet_movement", turn = 7,
      vars = { objectives = obj, german_held = { "Orsha" }, city_owner = { ["0203"] = "german" } } })
  end
  local function end_player_turn()
    while kessel.game.step().id ~= "german_movement" do expect.accepted(kessel.act{ kind = "end_phase" }) end
  end
  -- through
  start{ leader("l", "0103", 3), rifle("r", "0108", "2-2-6") }
  expect.accepted(kessel.act{ kind = "move", units = { "l" }, path = { "0203", "0303" } })
  expect.eq(V.owners()["0203"], "german", "a leader passing through does not take the city")
  end_player_turn()
  expect.eq(#(kessel.game.var("soviet_recaptures") or {}), 0, "no recapture by a leader")
  -- stopping in it
  start{ leader("l", "0103", 3), rifle("r", "0108", "2-2-6") }
  expect.accepted(kessel.act{ kind = "move", units = { "l" }, path = { "0203" } })
  expect.eq(V.owners()["0203"], "german", "a leader standing in it does not take it either")
  end_player_turn()
  expect.eq(#(kessel.game.var("soviet_recaptures") or {}), 0)
  -- a rifle division through it: retaken, 2 VP
  start{ leader("l", "0104", 3), rifle("r", "0103", "2-2-6") }
  expect.accepted(kessel.act{ kind = "move", units = { "r" }, path = { "0203", "0303" } })
  expect.eq(V.owners()["0203"], "soviet")
  end_player_turn()
  expect.eq(#(kessel.game.var("soviet_recaptures") or {}), 1)
  expect.eq(V.score().soviet_vp, 2)
end)

-- [5.2] [7.1] The 16th Army rolled to stand: its units may shift one hex only to cure overstacking.
-- 0505 holds four of its rifles and its leader (one combat unit too many). The leader's shift cures
-- nothing (the four rifles stay), and two rifles may not go together when one is enough; one rifle
-- may, and then nobody else.
kessel.test("case_5_2_standing_army_shifts_only_units_that_cure_the_overstack", function()
  local units = {}
  for i = 1, 4 do units[i] = rifle("r" .. i, "0505", "3-3-6", { formation = "16 Army" }) end
  units[5] = leader("l", "0505", 3, { formation = "16 Army" })
  setup(units, { step = "soviet_movement", turn = 1, vars = { first_turn_16 = "stand", first_turn_19 = "move", air_initial_done = true } })
  local ok, r = kessel.act{ kind = "move", units = { "l" }, path = { "0506" } }
  expect.refused(ok, r, "5.2", "cure")
  ok, r = kessel.act{ kind = "move", units = { "r1", "r2" }, path = { "0506" } }
  expect.refused(ok, r, "5.2", "cure")
  -- the whole stack: the refusal says how many may go, not "0 over the limit" as if it cured
  ok, r = kessel.act{ kind = "move", units = { "l", "r1", "r2", "r3", "r4" }, path = { "0506" } }
  expect.refused(ok, r, "5.2", "from 1 to 0 over, so at most 1 of these 5 may go")
  -- and the stack's reach, empty, says why (the editor showed "No hex is reachable" alone)
  local reach = kessel.queries.ask("reach", { units = { "l", "r1", "r2", "r3", "r4" } })
  expect.eq(#reach.reachable, 0)
  expect.eq(reach.reason and reach.reason.rule, "5.2")
  expect.truthy(reach.reason.message:find("at most 1 of these 5", 1, true), reach.reason.message)
  expect.eq(kessel.queries.ask("reach", { units = { "r1" } }).reason, nil, "a rifle may go: no reason")
  for _, a in ipairs(kessel.legal("soviet")) do
    if a.kind == "move" then
      expect.truthy(#a.units == 1 and a.units[1] ~= "l", "only single rifles are offered: " .. table.concat(a.units, ","))
    end
  end
  expect.accepted(kessel.act{ kind = "move", units = { "r1" }, path = { "0506" } })
  ok, r = kessel.act{ kind = "move", units = { "r2" }, path = { "0504" } }
  expect.refused(ok, r, "5.2", "only to cure overstacking")
  expect.accepted(kessel.act{ kind = "end_phase" })
end)

-- [11.3] [4] The Mechanized Movement Phase is a Movement Phase of its own: supply is judged again at
-- its start. A panzer cut off at the start of the Initial Movement Phase (marked, MA 5) whose line
-- was opened in the Combat Phase (the Soviet rifle that closed column 03 is gone) moves 10 in the
-- Mechanized Movement Phase; an infantry division still cut off there keeps its mark.
kessel.test("case_11_3_supply_judged_again_at_the_start_of_the_mechanized_phase", function()
  local M = require("rules.movement")
  kessel.setup{ map = { columns = 30, rows = 3 }, step = "german_combat", turn = 7, units = {
    pz("p", "0602", "4-4-10", { flags = { "oos" } }), leader("l", "2902", 2),
    { id = "i", name = "i", side = "german", type = "infantry", formation = "i", faces = { "9-9-7" }, at = "2802", flags = { "oos" } } } }
  expect.eq(M.mp_left(kessel.units.get("p")), 5, "marked at the start of the Initial Movement Phase")
  expect.accepted(kessel.act{ kind = "end_phase" })
  expect.eq(kessel.game.step().id, "german_mech_movement")
  expect.falsy(kessel.units.get("p").flags.oos, "back in supply: the mark is cleared")
  expect.eq(M.mp_left(kessel.units.get("p")), 10)
  expect.truthy(kessel.units.get("i").flags.oos, "27 hexes from the west edge, no road: still out of supply")
end)
