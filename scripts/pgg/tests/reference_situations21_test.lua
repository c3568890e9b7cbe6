-- Situations from the reference material, rules30 pass: what the previous pass left open, then
-- corners not visited before. Geometry of the 10x10 map: odd columns N, NE = c+1 r-1, SE = c+1 r,
-- S, SW = c-1 r, NW = c-1 r-1; even columns NE = c+1 r, SE = c+1 r+1, SW = c-1 r+1, NW = c-1 r.
local expect = kessel.expect
local B = require("testing.board10")

-- [9.1] [9.73] A hex left holding only units that retreated onto it has no defender: the attack is
-- refused (9.1), and the `odds` answer counted its defence as 0 and gave the 10-1 column with its
-- chances, a column no combat would ever use. It now gives "no roll" and no chances, with the 9.1
-- reason. Board as in case_9_1_a_hex_left_with_only_retreated_units_is_refused_naming_them: s1
-- retreats onto s2's hex 0605, Eng there kills s2 and spares s1; the odds of g3 against 0605.
kessel.test("case_9_73_odds_on_a_hex_left_with_only_retreated_units_give_no_column", function()
  B.setup({ B.rifle("s1", "0505", "2-2-6"), B.rifle("s2", "0605", "1-1-6"), B.leader("l", "0807", 5),
    B.pz("g1", "0404"), B.pz("g2", "0604"), B.pz("g3", "0604"), B.pz("g4", "0507") })
  kessel.inject_dice{ 2 }
  expect.accepted(B.attack({ "g1" }, { "0505" }))
  expect.accepted(B.choose("retreat"))
  expect.accepted(B.retreat({ "s1" }, { "0605" }))
  while B.pending() do expect.accepted(kessel.act{ kind = "advance", skip = true }) end
  -- while s2 is there the column is s2's alone (s1 adds nothing [9.73]): 4 against 1
  local o = kessel.queries.ask("odds", { units = { "g2" }, targets = { "0605" } })
  expect.eq(o.label, "4-1")
  expect.truthy(#o.distribution > 0)
  kessel.inject_dice{ 6 }
  expect.accepted(B.attack({ "g2" }, { "0605" }))
  expect.eq(B.where("s2"), "eliminated")
  expect.eq(B.where("s1"), "0605")
  o = kessel.queries.ask("odds", { units = { "g3" }, targets = { "0605" } })
  expect.eq(o.legal, false)
  expect.eq(o.defence, 0)
  expect.eq(o.label, "no roll", "no column for a hex nobody defends")
  expect.eq(#o.distribution, 0, "no chances either")
  local cited = false
  for _, r in ipairs(o.reasons) do
    if r.rule == "9.1" and r.message:find("s1 in 0605 retreated there", 1, true) then cited = true end
  end
  expect.truthy(cited, "the 9.1 reason names s1")
  -- an empty hex: no column either
  o = kessel.queries.ask("odds", { units = { "g3" }, targets = { "0705" } })
  expect.eq(o.label, "no roll")
  expect.eq(o.legal, false)
end)

-- [9.1] [9.3] An empty forest hex: the odds answer gives no column and no terrain line either (it
-- said "forest doubles the defender" of a defender who is not there).
kessel.test("case_9_1_odds_on_an_empty_forest_hex_name_no_terrain", function()
  B.setup({ B.pz("g", "0604", "8-8-10"), B.leader("l", "0906", 5) },
    { map = { columns = 10, rows = 10, terrain = { ["0705"] = "forest" } } })
  local o = kessel.queries.ask("odds", { units = { "g" }, targets = { "0705" } })
  expect.eq(o.label, "no roll")
  expect.eq(#o.defence_modifiers, 0, "no terrain modifier without a defender")
  -- with a defender there the forest counts [9.3]
  B.setup({ B.pz("g", "0604", "8-8-10"), B.rifle("s", "0705", "2-2-6"), B.leader("l", "0906", 5) },
    { map = { columns = 10, rows = 10, terrain = { ["0705"] = "forest" } } })
  o = kessel.queries.ask("odds", { units = { "g" }, targets = { "0705" } })
  local forest = false
  for _, m in ipairs(o.defence_modifiers) do
    if m.message:find("forest doubles the defender", 1, true) then forest = true end
  end
  expect.truthy(forest, "the forest doubles a defender who is there")
end)

-- [9.5] The resolution note began with the kind of combat, so an attack read "attack: attack 8
-- against defence 1". It now begins "combat:" (an overrun's still "overrun:"). Board: g (8-8-10)
-- in 0303 against s (1-1-6) in 0403, 8-1, roll 1: De.
kessel.test("case_9_5_the_combat_note_does_not_say_attack_twice", function()
  B.setup({ B.pz("g", "0303", "8-8-10"), B.rifle("s", "0403", "1-1-6"), B.leader("l", "0906", 5) })
  kessel.inject_dice{ 1 }
  local ev = expect.accepted(B.attack({ "g" }, { "0403" }))
  expect.truthy(B.note(ev, "combat: attack 8 against defence 1 in 0403: odds 8-1, roll 1: De"), B.all_notes(ev))
  expect.falsy(B.note(ev, "attack: attack"), B.all_notes(ev))
end)

-- [9.1] [9.8] A unit that advanced after combat may not attack again that phase. Only attackers
-- advance in their own Combat Phase, and an attacker has attacked: the refusal is 9.1's "one attack
-- a phase", which `K.attack_reasons` gave first, so its 9.8 refusal never fired. One refusal now,
-- citing 9.1 and saying that the unit advanced. Board: g (8-8-10) in 0303 against s (1-1-6) in
-- 0403, 8-1, roll 1: De; g advances into 0403, next to t in 0503, and its attack on t is refused.
kessel.test("case_9_1_an_advanced_unit_attacking_again_is_refused_under_9_1_saying_it_advanced", function()
  B.setup({ B.pz("g", "0303", "8-8-10"), B.rifle("s", "0403", "1-1-6"), B.rifle("t", "0503", "1-1-6"),
    B.pz("h", "0502"), B.leader("l", "0906", 5) })
  kessel.inject_dice{ 1 }
  expect.accepted(B.attack({ "g" }, { "0403" }))
  expect.eq(B.where("s"), "eliminated")
  expect.accepted(B.advance({ "g" }, { "0403" }))
  expect.truthy(kessel.units.get("g").flags.advanced)
  local ok, why = B.attack({ "g" }, { "0503" })
  expect.refused(ok, why, "9.1", "g (Fg) in 0403 has already attacked this phase (and advanced after that combat [9.8])")
  for _, r in ipairs(why) do expect.truthy(r.rule ~= "9.8", "no second refusal under 9.8: " .. r.message) end
  -- h, which neither attacked nor advanced, still may
  kessel.inject_dice{ 1 }
  expect.accepted(B.attack({ "h" }, { "0503" }))
end)

-- [10.4] [6.6] A disrupted unit may not move, and a disrupted leader loses his functions. The
-- evacuation of a cut-off leader takes him off the map in the Soviet Movement Phase, a move as a
-- rail ride is: a disrupted leader was evacuated all the same. He is now refused citing 6.6 and
-- not listed; undisrupted, the same leader goes. Board, Soviet Movement Phase of turn 7 with the
-- optional rule: leader l (rating 2) cut off in 0202 by g1 (0302), g2 (0203) and g3 (0101).
kessel.test("case_10_4_a_disrupted_leader_may_not_be_evacuated", function()
  local function board(flags)
    B.setup({ B.leader("l", "0202", 2, { flags = flags }), B.pz("g1", "0302"), B.pz("g2", "0203"), B.pz("g3", "0101") },
      { step = "soviet_movement", options = { leader_evacuation = true } })
  end
  local function listed()
    for _, a in ipairs(kessel.legal()) do if a.kind == "evacuate" and a.leader == "l" then return true end end
    return false
  end
  board({ "disrupted" })
  local ok, why = kessel.act{ kind = "evacuate", leader = "l" }
  expect.refused(ok, why, "6.6", "l in 0202 is disrupted and may not move")
  expect.falsy(listed(), "not listed while disrupted")
  expect.eq(B.where("l"), "0202")
  board({})
  expect.truthy(listed())
  expect.accepted(kessel.act{ kind = "evacuate", leader = "l" })
  expect.eq(B.where("l"), "pending")
end)

-- [6.6] Who loses disruption in a Disruption Removal Phase. The manual and the sequence of play
-- say only that the markers are removed there; pgg-facts.md has a unit recover in its owner's next
-- phase, which the standard game follows (option disruption_removal = owner): a Soviet rifle the
-- German overran stays disrupted through the German phase and cannot move in the Soviet Movement
-- Phase. Read as "every marker comes off" (every_phase) it moves. Board, German Mechanized Movement
-- Phase: Soviet r (disrupted) in 0505, German g (disrupted) in 0303, leader l in 0807.
kessel.test("case_6_6_disruption_removal_owner_or_every_phase_option", function()
  local function board(option)
    B.setup({ B.rifle("r", "0505", "2-2-6", { flags = { "disrupted" } }), B.pz("g", "0303", "4-4-10", { flags = { "disrupted" } }),
      B.leader("l", "0807", 5) }, { step = "german_mech_movement", options = { disruption_removal = option } })
  end
  local function to(step_id)
    local events = {}
    local guard = 0
    while kessel.game.step().id ~= step_id do
      for _, e in ipairs(expect.accepted(kessel.act{ kind = "end_phase" })) do events[#events + 1] = e end
      guard = guard + 1
      assert(guard < 12, "did not reach " .. step_id)
    end
    return events
  end
  board("owner")
  local ev = to("german_disruption_removal")
  expect.falsy(kessel.units.get("g").flags.disrupted, "the German's own marker comes off")
  expect.truthy(kessel.units.get("r").flags.disrupted, "the Soviet's stays")
  expect.truthy(B.note(ev, "the owner's Disruption Removal Phase): g (Fg) at 0303"), B.all_notes(ev))
  to("soviet_movement")
  local ok, why = B.move({ "r" }, { "0506" })
  expect.refused(ok, why, "6.6")
  to("soviet_disruption_removal")
  expect.falsy(kessel.units.get("r").flags.disrupted, "lifted in the Soviet phase")

  board("every_phase")
  ev = to("german_disruption_removal")
  expect.falsy(kessel.units.get("g").flags.disrupted)
  expect.falsy(kessel.units.get("r").flags.disrupted, "every marker comes off")
  local n = B.note(ev, "every marker, option disruption_removal = every_phase")
  expect.truthy(n and n.text:find("r at 0505", 1, true) and n.text:find("g (Fg) at 0303", 1, true), B.all_notes(ev))
  to("soviet_movement")
  expect.accepted(B.move({ "r" }, { "0506" }))
end)

-- [6.6] [11.2] [11.3] What the disruption_removal reading changes for Soviet supply: a disrupted
-- leader gives no line of communication, and Soviet supply is judged at the start of the Soviet
-- Movement Phase. Standard (owner): a leader the German overran is still disrupted then, so his
-- lone rifle begins the phase out of supply, its MA halved (6 to 3). every_phase: the German
-- Disruption Removal Phase lifted his marker, and the rifle is in supply with its full 6. Board,
-- German Mechanized Movement Phase: leader l (rating 5, disrupted) in 0807, rifle r in 0805, no
-- other leader.
kessel.test("case_6_6_the_disruption_removal_reading_decides_the_soviet_supply_that_follows", function()
  local M = require("rules.movement")
  local function play(option)
    B.setup({ B.leader("l", "0807", 5, { flags = { "disrupted" } }), B.rifle("r", "0805", "2-2-6"), B.pz("g", "0202") },
      { step = "german_mech_movement", options = { disruption_removal = option } })
    local guard = 0
    while kessel.game.step().id ~= "soviet_movement" do
      expect.accepted(kessel.act{ kind = "end_phase" })
      guard = guard + 1
      assert(guard < 6, "did not reach the Soviet Movement Phase")
    end
    return kessel.units.get("r")
  end
  local r = play("owner")
  expect.truthy(kessel.units.get("l").flags.disrupted, "still disrupted in the Soviet Movement Phase")
  expect.truthy(r.flags.oos, "no working leader: out of supply")
  expect.eq(M.mp_left(r), 3)
  r = play("every_phase")
  expect.falsy(kessel.units.get("l").flags.disrupted)
  expect.falsy(r.flags.oos, "the leader's line of communication reaches it")
  expect.eq(M.mp_left(r), 6)
end)

-- [6.6] [11.2] [11.3] A disrupted unit defends normally, and a disrupted leader loses his
-- functions: he gives no line of communication to his units. He was also judged out of supply
-- himself ("to himself either"), so disruption alone halved a lone leader's defence. His own
-- supply is his line to the east edge, as for a working leader, and is no function he gives: he now
-- defends at his full rating while that line is open, and at half when it is cut. His rifle in
-- range is out of supply all the same. Board, German Combat Phase: leader l (rating 5, disrupted)
-- alone in 0805, rifle r (4-4-6) in 0803, g (8-8-10) in 0705 next to l. Cut: German infantry in
-- every hex of column 09 closes the way east.
kessel.test("case_6_6_a_disrupted_leader_defends_normally_with_his_own_line_east", function()
  local function board(cut)
    local units = { B.leader("l", "0805", 5, { flags = { "disrupted" } }), B.rifle("r", "0803", "4-4-6"), B.pz("g", "0705", "8-8-10") }
    if cut then
      for row = 1, 10 do units[#units + 1] = B.inf(string.format("w%02d", row), string.format("09%02d", row)) end
    end
    B.setup(units)
  end
  board(false)
  local o = kessel.queries.ask("odds", { units = { "g" }, targets = { "0805" } })
  expect.eq(o.defence, 5, "full rating")
  expect.eq(o.label, "1-1")
  local q = kessel.queries.ask("supply", { unit = "l" })
  expect.eq(q.in_supply, true)
  q = kessel.queries.ask("supply", { unit = "r" })
  expect.eq(q.in_supply, false, "he still gives his rifle nothing")
  expect.eq(q.rule, "6.6")
  board(true)
  o = kessel.queries.ask("odds", { units = { "g" }, targets = { "0805" } })
  expect.eq(o.defence, 2, "cut off from the east edge: halved [11.3]")
  q = kessel.queries.ask("supply", { unit = "l" })
  expect.eq(q.in_supply, false)
  expect.eq(q.why, "no line of supply to the east edge [11.2]")
end)
