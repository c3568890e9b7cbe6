-- Situations from the reference material, rules29 pass: the case a refusal cites and the words it
-- gives, played as a GM checks them. Geometry of the 10x10 map: odd columns N, NE = c+1 r-1,
-- SE = c+1 r, S, SW = c-1 r, NW = c-1 r-1; even columns NE = c+1 r, SE = c+1 r+1, SW = c-1 r+1,
-- NW = c-1 r.
local expect = kessel.expect
local B = require("testing.board10")

-- [10.35] [6.5] The command radius's case is 10.35, and the sequence of play gives it for the
-- overrun too ("in command radius [10.35]"). An attack by a Soviet unit outside every leader's
-- radius was refused citing 10.35 and an overrun by the same unit citing 6.5: one rule, two
-- citations. Board: rifle far (3-3-6) in 0909, German h (1-1-10) in 0808, leader l (rating 2) in
-- 0406, four hexes and more from far. Both refusals cite 10.35 and name the unit and its hex; the
-- overrun's says it began the phase outside command and names the overrun case in its words.
kessel.test("case_10_35_an_overrun_outside_command_cites_10_35_as_an_attack_does", function()
  local units = { B.rifle("far", "0909", "3-3-6"), B.pz("h", "0808", "1-1-10"), B.leader("l", "0406", 2) }
  B.setup(units, { step = "soviet_combat" })
  local ok, why = B.attack({ "far" }, { "0808" })
  expect.refused(ok, why, "10.35", "far in 0909 is outside every leader's command radius")
  B.setup(units, { step = "soviet_movement",
    vars = { phase_start = { hexes = { far = "0909" }, command = {}, step = 0, turn = 7 } } })
  ok, why = kessel.act{ kind = "overrun", units = { "far" }, target = "0808" }
  expect.refused(ok, why, "10.35", "far in 0909 began the phase outside every leader's command radius and may not overrun [6.5]")
end)

-- [6.22] [8] A leader enters an enemy ZOC only together with a combat unit: the extended sequence
-- of play gives this under its movement-and-ZOC case [6.22], and the refusals cited 8. Every
-- refusal of it now cites 6.22 from one place (rules/zoc.lua): a lone leader's move into a German
-- zone, and his advance after combat into one. Board: Soviet Movement Phase; leader l (rating 3)
-- alone in 0505, German g in 0303, so 0403 is in g's zone and 0504 is not.
kessel.test("case_6_22_a_lone_leader_refused_an_enemy_zone_cites_6_22_in_a_move", function()
  B.setup({ B.leader("l", "0505", 3), B.pz("g", "0303") }, { step = "soviet_movement" })
  local ok, why = B.move({ "l" }, { "0504", "0403" })
  expect.refused(ok, why, "6.22", "a leader may enter an enemy ZOC only together with an attack-capable unit")
  expect.accepted(B.move({ "l" }, { "0504" }))
end)

-- [9.1] [9.73] FAQ 5 Each unit is attacked at most once a phase. A hex can be left holding only
-- units that retreated onto it: Eng spares them [FAQ 5] while the real defender there may lose its
-- only step. A further attack on that hex is rightly refused (they were attacked in their own
-- combat), but the refusal said "the units in 0605 have already been attacked this phase", which
-- a GM who saw no combat at 0605 before could not check; it now names them and says that they
-- retreated there after being attacked. Board, German Combat Phase of turn 7: s1 (2-2-6) in 0505,
-- s2 (1-1-6) in 0605, leader l (rating 5) in 0807; g1 (4-4-10) in 0404, g2 and g3 (4-4-10) in
-- 0604, g4 in 0507 (its zone closes 0506). g1 attacks 0505: 2-1, roll 2, D1; s1 retreats to 0605,
-- the only hex left (0504 and 0405 are in g1's zone, 0604 holds Germans, 0506 is in g4's zone).
-- g2 attacks 0605: s2 alone defends (s1 adds nothing [9.73]), 4 against 1, 4-1, roll 6: Eng; s2
-- loses its step and is eliminated, s1 is spared, g2 flips. g3's attack on 0605 is refused citing
-- 9.1 and naming s1.
kessel.test("case_9_1_a_hex_left_with_only_retreated_units_is_refused_naming_them", function()
  B.setup({ B.rifle("s1", "0505", "2-2-6"), B.rifle("s2", "0605", "1-1-6"), B.leader("l", "0807", 5),
    B.pz("g1", "0404"), B.pz("g2", "0604"), B.pz("g3", "0604"), B.pz("g4", "0507") })
  kessel.inject_dice{ 2 }
  local ev = expect.accepted(B.attack({ "g1" }, { "0505" }))
  expect.truthy(B.note(ev, "odds 2-1, roll 2: D1"), B.all_notes(ev))
  expect.accepted(B.choose("retreat"))
  expect.accepted(B.retreat({ "s1" }, { "0605" }))
  while B.pending() do expect.accepted(kessel.act{ kind = "advance", skip = true }) end
  kessel.inject_dice{ 6 }
  ev = expect.accepted(B.attack({ "g2" }, { "0605" }))
  expect.truthy(B.note(ev, "odds 4-1, roll 6: Eng"), B.all_notes(ev))
  expect.eq(B.where("s2"), "eliminated")
  expect.eq(B.where("s1"), "0605", "Eng spares the unit retreated onto the hex [FAQ 5]")
  expect.eq(B.pending(), nil)
  local ok, why = B.attack({ "g3" }, { "0605" })
  expect.refused(ok, why, "9.1", "s1 in 0605 retreated there after being attacked this phase, and a unit is attacked at most once a phase")
end)

-- [12.2] [9.4] Nobody knows an untried unit's value before the reveal. The `odds` query counted
-- it as 0 and so answered 10-1 (with `exact = false`) for an attack on a hex of untried units,
-- with the chances of the 10-1 column: a column no player may rely on. It now answers the columns
-- at the two ends of what the untried units may prove, from the values left in their pool
-- (`worst` and `best` for the attacker, the label "worst to best"), and gives the chances only when
-- both ends fall in one column. Board, German Combat Phase: g (6-6-10) in 0303 against u1 (face
-- down) in 0403; the rifle pool holds the values named in each case.
kessel.test("case_12_2_odds_against_untried_units_give_the_range_they_may_prove", function()
  local function board(pool, second)
    local units = { B.pz("g", "0303", "6-6-10"), B.leader("l", "0706", 5),
      { id = "u1", name = "u1", side = "soviet", type = "rifle", hidden = true, pool = "rifle", at = "0403" } }
    if second then
      units[#units + 1] = { id = "u2", name = "u2", side = "soviet", type = "rifle", hidden = true, pool = "rifle", at = "0403" }
    end
    B.setup(units, { pools = { rifle = pool } })
    return kessel.queries.ask("odds", { units = { "g" }, targets = { "0403" } })
  end
  -- 6 against 2 is 3-1, against 3 is 2-1
  local o = board({ "2-2-6", "3-3-6" })
  expect.eq(o.exact, false)
  expect.eq(o.label, "2-1 to 3-1")
  expect.eq(o.worst.label, "2-1")
  expect.eq(o.worst.defence, 3)
  expect.eq(o.best.label, "3-1")
  expect.eq(#o.distribution, 0, "no chances for a column nobody knows")
  -- a dud among the values: at best no die is rolled [12.3]
  o = board({ "0-0-6", "5-5-6" })
  expect.eq(o.label, "1-1 to no roll")
  -- both ends in one column: that column and its chances
  o = board({ "3-3-6", "2-3-6" })
  expect.eq(o.label, "2-1")
  expect.truthy(#o.distribution > 0)
  local function says(text)
    for _, m in ipairs(o.attack_modifiers) do if m.rule == "12.2" and m.message:find(text, 1, true) then return true end end
    return false
  end
  expect.truthy(says("the values left for the untried units give 2-1 (6 against 3)"))
  o = board({ "4-4-6", "4-5-6" })
  expect.eq(o.label, "1-1")
  expect.truthy(says("whatever the untried units prove, the column is 1-1 (from 6 against 5 to 6 against 4)"))
  -- two untried units of one pool draw two counters: 5 + 2 at worst, 1 + 2 at best
  o = board({ "1-1-6", "2-2-6", "5-5-6" }, true)
  expect.eq(o.worst.defence, 7)
  expect.eq(o.best.defence, 3)
  expect.eq(o.label, "1-2 to 2-1")
  expect.eq(kessel.units.get("u1").hidden, true, "the query reveals nothing")
end)

-- [9.73] [FAQ 5] WBC09 #3 WBC09 #4 In a Movement Phase a hex may be overrun again, and an Eng can
-- leave it holding only a unit retreated onto it (the Eng took the last step of the hex's own unit
-- and spared the retreated one). A further overrun then finds no unit of the hex's own: in the
-- standard game the retreated unit defends on its own, under WBC09 #3 it dies (the hex defends with
-- its own units only, and it has none). The engine did both silently or with words made for duds:
-- "the units it had retreated onto had no defence", and the emptied hex was noted under 12.3 (no
-- dud was involved). Board, German Initial Movement Phase: A and Bq (1-1-6) in 0505 and 0605,
-- leader l (rating 5) in 0807; g1 (8-8-10) in 0404, g2 and g3 (8-8-10) in 0604, g4 in 0507 (its
-- zone closes 0506). g1 overruns 0505: 4 against 1, 4-1, roll 4, D1; A retreats to 0605 (the only
-- hex left) and is disrupted. g2 overruns 0605: 4 against Bq's 1 (A adds nothing), roll 6, Eng: Bq
-- is eliminated, A is spared. g3 overruns 0605: standard, A defends alone (4 against 1, roll 3,
-- D2/A1) with a note citing 9.73 that says so; WBC09 #3, A is eliminated with a note saying no unit
-- it retreated onto is left, the hex's emptying is noted under WBC09 #3 and g3 enters 0605.
kessel.test("case_9_73_an_overrun_of_a_hex_left_with_only_a_retreated_unit_says_what_becomes_of_it", function()
  local function play(wbc)
    B.setup({ B.rifle("A", "0505", "1-1-6"), B.rifle("Bq", "0605", "1-1-6"), B.leader("l", "0807", 5),
      B.pz("g1", "0404", "8-8-10"), B.pz("g2", "0604", "8-8-10"), B.pz("g3", "0604", "8-8-10"), B.pz("g4", "0507") },
      { step = "german_movement", options = { wbc09_03_retreated_units_die_first = wbc } })
    kessel.inject_dice{ 4 }
    local ev = expect.accepted(kessel.act{ kind = "overrun", units = { "g1" }, target = "0505" })
    expect.truthy(B.note(ev, "odds 4-1, roll 4: D1"), B.all_notes(ev))
    expect.accepted(B.choose("retreat"))
    expect.accepted(B.retreat({ "A" }, { "0605" }))
    kessel.inject_dice{ 6 }
    ev = expect.accepted(kessel.act{ kind = "overrun", units = { "g2" }, target = "0605" })
    expect.truthy(B.note(ev, "odds 4-1, roll 6: Eng"), B.all_notes(ev))
    expect.eq(B.where("Bq"), "eliminated")
    expect.eq(B.where("A"), "0605")
    kessel.inject_dice{ 3 }
    return expect.accepted(kessel.act{ kind = "overrun", units = { "g3" }, target = "0605" })
  end
  local ev = play(false)
  local n = B.note(ev, "A retreated onto 0605 this phase, but none of the units it had retreated onto is left there: it defends on its own")
  expect.truthy(n, B.all_notes(ev))
  expect.eq(n.rule, "9.73")
  expect.truthy(B.note(ev, "attack 4 against defence 1 in 0605: odds 4-1, roll 3: D2/A1"), B.all_notes(ev))
  expect.eq(B.pending() and B.pending().kind, "loss_or_retreat")

  ev = play(true)
  n = B.note(ev, "A eliminated: none of the units it had retreated onto is left there")
  expect.truthy(n, B.all_notes(ev))
  expect.eq(n.rule, "WBC09 #3")
  n = B.note(ev, "no defender is left in 0605")
  expect.truthy(n, B.all_notes(ev))
  expect.eq(n.rule, "WBC09 #3", "no dud was removed [12.3]")
  expect.eq(B.where("g3"), "0605")
end)

-- [10.4] [9.72] [4] While a decision is waiting nothing else happens, and the refusal names that
-- decision under its own case, as every other action's does (C.pending_reason). The evacuation of
-- a leader [10.4] was refused with "a combat decision is waiting", citing 9.6 whatever the
-- decision was. Board, Soviet Movement Phase with the optional rule on: leader l (rating 2) cut off
-- in 0202 by g1-g3; rifle s (6-6-6) with leader k (rating 3) in 0705 overruns h (1-1-10) in 0805:
-- 3 against 1, 3-1, roll 3: D1; the German retreats, and the Soviet is to pick the path [9.72].
-- Evacuating l now is refused citing 9.72 and naming the path to pick; once h has retreated, l goes.
kessel.test("case_10_4_an_evacuation_while_a_decision_waits_names_that_decision", function()
  B.setup({ B.leader("l", "0202", 2), B.pz("g1", "0302"), B.pz("g2", "0203"), B.pz("g3", "0101"),
    B.rifle("s", "0705", "6-6-6"), B.leader("k", "0705", 3), B.pz("h", "0805", "1-1-10") },
    { step = "soviet_movement", options = { leader_evacuation = true } })
  kessel.inject_dice{ 3 }
  local ev = expect.accepted(kessel.act{ kind = "overrun", units = { "s" }, target = "0805" })
  expect.truthy(B.note(ev, "odds 3-1, roll 3: D1"), B.all_notes(ev))
  expect.accepted(B.choose("retreat"))
  expect.eq(B.pending().kind, "retreat_path")
  local ok, why = kessel.act{ kind = "evacuate", leader = "l" }
  expect.refused(ok, why, "9.72", "a decision is waiting")
  expect.accepted(B.retreat({ "h" }, { "0906" }))
  expect.accepted(kessel.act{ kind = "evacuate", leader = "l" })
  expect.eq(B.where("l"), "pending")
end)

-- [12.2] [9.23] The same range over a two-hex defence: the untried units of the two hexes are two
-- counters of one pool, so at worst for the attacker they are the two strongest values left, not
-- the strongest twice. Board, German Combat Phase: g (6-6-10) in 0303 next to u1 in 0403 and u2 in
-- 0304 (0303 touches both); the pool holds 1-1-6, 2-2-6 and 5-5-6: 5 + 2 at worst (6 against 7,
-- 1-2), 1 + 2 at best (6 against 3, 2-1).
kessel.test("case_12_2_odds_range_over_two_defending_hexes_takes_distinct_counters", function()
  B.setup({ B.pz("g", "0303", "6-6-10"), B.leader("l", "0706", 5),
    { id = "u1", name = "u1", side = "soviet", type = "rifle", hidden = true, pool = "rifle", at = "0403" },
    { id = "u2", name = "u2", side = "soviet", type = "rifle", hidden = true, pool = "rifle", at = "0304" } },
    { pools = { rifle = { "1-1-6", "2-2-6", "5-5-6" } } })
  local o = kessel.queries.ask("odds", { units = { "g" }, targets = { "0403", "0304" } })
  expect.eq(o.worst.defence, 7)
  expect.eq(o.best.defence, 3)
  expect.eq(o.label, "1-2 to 2-1")
end)

-- [6.22] [6.5] [10.2] The `mp_left` query about a unit in an enemy ZOC says it may not leave and
-- where it may still overrun. When it may overrun nowhere it said only "nor may it overrun from
-- there now", which leaves a GM to guess why; it now quotes the overrun's own refusal. Board,
-- Soviet Movement Phase: leader l (rating 3) alone in 0505, in the zone of g (1-1-10) in 0404: a
-- leader has no attack strength and may not overrun in the standard game [10.2]; a rifle r (4-4-6)
-- in the same position may overrun 0404.
kessel.test("case_6_22_mp_left_of_a_unit_in_an_enemy_zone_says_why_it_may_not_overrun", function()
  B.setup({ B.leader("l", "0505", 3), B.pz("g", "0404", "1-1-10") }, { step = "soviet_movement" })
  local q = kessel.queries.ask("mp_left", { unit = "l" })
  expect.eq(q.may_move, false)
  expect.eq(q.reason.rule, "6.22")
  expect.truthy(q.reason.message:find("nor may it overrun from there now: leaders have no attack strength and cannot overrun", 1, true),
    q.reason.message)
  expect.truthy(q.reason.message:find("[10.2]", 1, true), q.reason.message)
  B.setup({ B.rifle("r", "0505", "4-4-6"), B.leader("l", "0506", 3), B.pz("g", "0404", "1-1-10") }, { step = "soviet_movement" })
  q = kessel.queries.ask("mp_left", { unit = "r" })
  expect.eq(#q.overrun_targets, 1)
  expect.truthy(q.reason.message:find("it may still overrun [6.5] 0404", 1, true), q.reason.message)
end)

-- [12.2] A face-down unit with no pool (a position built by hand) has no values to prove: the
-- odds column is "unknown", whatever lies in the dead pile (a leader there is no counter it could
-- be). Board: g (6-6-10) in 0303 against u1 (face down, no pool) in 0403; leader dl dead.
kessel.test("case_12_2_odds_against_an_untried_unit_with_no_pool_are_unknown", function()
  local dead = B.leader("dl", nil, 3); dead.location = "eliminated"
  B.setup({ B.pz("g", "0303", "6-6-10"), dead,
    { id = "u1", name = "u1", side = "soviet", type = "rifle", hidden = true, at = "0403" } },
    { vars = { dead_pile = { "dl" } } })
  local o = kessel.queries.ask("odds", { units = { "g" }, targets = { "0403" } })
  expect.eq(o.exact, false)
  expect.eq(o.label, "unknown")
  expect.eq(#o.distribution, 0)
end)
