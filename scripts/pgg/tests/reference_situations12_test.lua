-- Situations from the reference material, examiner pass B (round 12): combat [9], its results and
-- what follows them (retreat [9.7], advance [9.8]), the sequence of play [4] and victory [15],
-- each played through actions on a small board and compared with the rules text. Geometry of the
-- 10x10 map: odd columns N, NE = c+1 r-1, SE = c+1 r, S, SW = c-1 r, NW = c-1 r-1; even columns
-- NE = c+1 r, SE = c+1 r+1, SW = c-1 r+1, NW = c-1 r. So 0303 touches 0302 0402 0403 0304 0203
-- 0202, and 0403 touches 0402 0503 0504 0404 0304 0303.
local expect = kessel.expect
local B = require("testing.board10")
local attack, choose, retreat, advance, advances = B.attack, B.choose, B.retreat, B.advance, B.advances
local V = require("rules.victory")

-- [6.6] with [9.8]: a disrupted unit may not move, and an advance after combat is a move, so a
-- disrupted victor stays put (a retreat is a combat result, not a move, and is still made).
-- Board: Soviet Combat Phase; g (2-2-10, disrupted by an overrun earlier in the Soviet Movement
-- Phase) and h (2-2-10) in 0403; s (2-2-6) in 0503 attacks them, 2 against 4, 1-2, roll 4: A1, and
-- s retreats. Only h may advance into 0503; naming g is refused citing 6.6 and a note says why g
-- stays. Second board: s (1-1-6) attacks g alone, 1 against 2, 1-2, roll 6: Ae; g is the only
-- victor and disrupted, so no advance is offered at all. The engine let a disrupted unit advance.
kessel.test("case_6_6_a_disrupted_victor_may_not_advance_after_combat", function()
  B.setup({ B.pz("g", "0403", "2-2-10", { flags = { "disrupted" } }), B.pz("h", "0403", "2-2-10"),
    B.rifle("s", "0503", "2-2-6"), B.leader("l", "0906", 5) }, { step = "soviet_combat" })
  kessel.inject_dice{ 4 }
  local ev = expect.accepted(attack({ "s" }, { "0403" }))
  expect.truthy(B.note(ev, "odds 1-2, roll 4: A1"), B.all_notes(ev))
  expect.accepted(choose("retreat"))
  ev = expect.accepted(retreat({ "s" }, { "0502" }))
  local p = B.pending()
  expect.eq(p and p.kind, "advance", "h may advance")
  expect.eq(table.concat(p.units, ","), "h", "only the undisrupted victor")
  expect.truthy(B.note(ev, "g (Fg) in 0403: disrupted, may not advance after combat"), B.all_notes(ev))
  expect.eq(advances("german"), "h>0503")
  local ok, why = advance({ "g", "h" }, { "0503" })
  expect.refused(ok, why, "6.6", "disrupted")
  ok, why = advance({ "g" }, { "0503" })
  expect.refused(ok, why, "6.6", "disrupted")
  expect.accepted(advance({ "h" }, { "0503" }))
  expect.eq(B.where("g"), "0403")
  expect.eq(B.where("h"), "0503")

  B.setup({ B.pz("g", "0403", "2-2-10", { flags = { "disrupted" } }), B.rifle("s", "0503", "1-1-6"), B.leader("l", "0906", 5) },
    { step = "soviet_combat" })
  kessel.inject_dice{ 6 }
  ev = expect.accepted(attack({ "s" }, { "0403" }))
  expect.truthy(B.note(ev, "odds 1-2, roll 6: Ae"), B.all_notes(ev))
  expect.eq(B.where("s"), "eliminated")
  expect.eq(B.pending(), nil, "no advance on offer: the only victor is disrupted")
  expect.truthy(B.note(ev, "disrupted, may not advance after combat"), B.all_notes(ev))
  expect.eq(B.where("g"), "0403")
end)

-- [9.6] D2/A1 and [9.8]: the defender's part first, then the attacker's; an attacker who takes the
-- step (not the retreat) may advance, along the path of retreat only. Board: g (8-8-10) in 0303
-- against s (2-2-6) in 0403, 8 against 2, 4-1, roll 3: D2/A1. s retreats 0503-0603; g takes the
-- step (flipped to 2-2-10). g may enter 0403, or 0403 then 0503 (the path's first hex), never the
-- hex s now holds nor a hex off the path.
kessel.test("case_9_6_d2_a1_the_attacker_who_takes_the_step_advances_along_the_two_hex_path", function()
  B.setup({ B.pz("g", "0303", "8-8-10"), B.rifle("s", "0403", "2-2-6"), B.leader("l", "0906", 5) })
  kessel.inject_dice{ 3 }
  local ev = expect.accepted(attack({ "g" }, { "0403" }))
  expect.truthy(B.note(ev, "odds 4-1, roll 3: D2/A1"), B.all_notes(ev))
  local p = B.pending()
  expect.eq(p.who, "defender", "the defender's part first")
  expect.accepted(choose("retreat"))
  expect.accepted(retreat({ "s" }, { "0503", "0603" }))
  p = B.pending()
  expect.eq(p.kind, "loss_or_retreat")
  expect.eq(p.who, "attacker", "then the attacker's")
  expect.accepted(choose("loss"))
  expect.eq(kessel.units.get("g").attack, 2, "g flipped")
  expect.eq(advances("german"), "g>0403 g>0403-0503")
  local ok, why = advance({ "g" }, { "0403", "0503", "0603" })
  expect.refused(ok, why, "9.8", "path of retreat")
  ok, why = advance({ "g" }, { "0403", "0504" })
  expect.refused(ok, why, "9.8", "path of retreat")
  expect.accepted(advance({ "g" }, { "0403", "0503" }))
  expect.eq(B.where("g"), "0503")
  expect.truthy(kessel.units.get("g").flags.advanced, "an advanced unit attacks no more this phase")
end)

-- [9.6] A2 and [9.8]: the attacker retreats two hexes, the opponent picks the path [9.72], and the
-- defender may follow it ("Opposing Player may advance along Path of Retreat"). Board: g (2-2-10)
-- in 0303 against s (4-4-6) in 0403, 1-2, roll 5: A2; the Soviet retreats g 0302-0301; s may enter
-- 0303, or 0303 then 0302, not 0301 (g is there).
kessel.test("case_9_6_a2_the_defender_may_follow_the_attackers_two_hex_retreat", function()
  B.setup({ B.pz("g", "0303", "2-2-10"), B.rifle("s", "0403", "4-4-6"), B.leader("l", "0906", 5) })
  kessel.inject_dice{ 5 }
  local ev = expect.accepted(attack({ "g" }, { "0403" }))
  expect.truthy(B.note(ev, "odds 1-2, roll 5: A2"), B.all_notes(ev))
  expect.accepted(choose("retreat"))
  expect.eq(B.pending().side, "soviet", "the defender picks the attacker's path")
  expect.accepted(retreat({ "g" }, { "0302", "0301" }))
  local p = B.pending()
  expect.eq(p and p.kind, "advance")
  expect.eq(p.side, "soviet")
  expect.eq(advances("soviet"), "s>0303 s>0303-0302")
  local ok, why = advance({ "s" }, { "0303", "0302", "0301" })
  expect.refused(ok, why, "9.8")
  expect.accepted(advance({ "s" }, { "0303", "0302" }))
  expect.eq(B.where("s"), "0302")
end)

-- [9.6] Eng against a two-hex defence [9.23]: one step for the whole defence and one for the
-- attacker, nobody retreats or advances, even when the step empties a hex. Board: g (8-8-10) in
-- 0403 against s in 0503 and t in 0504 (2-2-6 each), 8 against 4, 2-1, roll 5: Eng. The Soviet
-- names s, which dies; t is untouched; g (alone) loses its step; 0503 stays empty.
kessel.test("case_9_6_eng_against_two_hexes_is_one_step_in_all_and_no_advance", function()
  B.setup({ B.pz("g", "0403", "8-8-10"), B.rifle("s", "0503", "2-2-6"), B.rifle("t", "0504", "2-2-6"), B.leader("l", "0906", 5) })
  kessel.inject_dice{ 5 }
  local ev = expect.accepted(attack({ "g" }, { "0503", "0504" }))
  expect.truthy(B.note(ev, "odds 2-1, roll 5: Eng"), B.all_notes(ev))
  local p = B.pending()
  expect.eq(p.kind, "eng_loss")
  expect.eq(p.side, "soviet")
  expect.eq(table.concat(p.units, ","), "s,t", "either defending hex may give the step")
  local ok, why = choose("retreat")
  expect.refused(ok, why, "9.6", "no retreat")
  expect.accepted(choose("loss", { "s" }))
  expect.eq(B.where("s"), "eliminated")
  expect.eq(B.where("t"), "0504", "one step in all")
  expect.eq(kessel.units.get("g").step, 1, "the attacker's step, taken at once: one unit, no choice")
  expect.eq(B.pending(), nil, "no advance into the emptied 0503 after Eng")
  expect.eq(B.where("g"), "0403")
end)

-- [9.6] D2 taken as a loss and [9.8]: the defender may lose two steps instead of retreating; two
-- one-step rifles both die, every defender is gone, and the victor may advance two hexes (the
-- emptied hex first, then any empty hex next to it). Board: g (9-9-10) in 0303 against s1, s2
-- (1-1-6) in 0403, 9 against 2, 4-1, roll 1: D2.
kessel.test("case_9_6_d2_taken_as_two_steps_kills_two_rifles_and_the_victor_may_go_two_hexes", function()
  B.setup({ B.pz("g", "0303", "9-9-10"), B.rifle("s1", "0403", "1-1-6"), B.rifle("s2", "0403", "1-1-6"), B.leader("l", "0906", 5) })
  kessel.inject_dice{ 1 }
  local ev = expect.accepted(attack({ "g" }, { "0403" }))
  expect.truthy(B.note(ev, "odds 4-1, roll 1: D2"), B.all_notes(ev))
  local ok, why = choose("loss", { "s1" })
  expect.refused(ok, why, "9.6", "2 step")
  expect.accepted(choose("loss"))
  expect.eq(B.where("s1"), "eliminated")
  expect.eq(B.where("s2"), "eliminated")
  expect.eq(advances("german"), "g>0403 g>0403-0304 g>0403-0402 g>0403-0404 g>0403-0503 g>0403-0504")
  expect.accepted(advance({ "g" }, { "0403", "0504" }))
  expect.eq(B.where("g"), "0504")
end)

-- [4] and [9.1]: attacks are made in the phasing player's Combat Phase and nowhere else. Board: g
-- (4-4-10) in 0303 next to s (4-4-6) in 0403, Soviet leader l (5) in 0503. Every step of the
-- sequence: the German attack validates only in the German Combat Phase, the Soviet one only in
-- the Soviet Combat Phase; every other step refuses both citing 9.1.
kessel.test("case_4_attacks_only_in_the_phasing_players_combat_phase", function()
  local steps = { "soviet_movement", "soviet_combat", "soviet_disruption_removal", "soviet_interdiction",
    "german_movement", "german_combat", "german_mech_movement", "german_disruption_removal", "german_air_interdiction" }
  for _, step in ipairs(steps) do
    B.setup({ B.pz("g", "0303"), B.rifle("s", "0403", "4-4-6"), B.leader("l", "0503", 5) }, { step = step })
    local ok, why = kessel.validate{ kind = "attack", units = { "g" }, targets = { "0403" } }
    if step == "german_combat" then expect.accepted(ok, why) else expect.refused(ok, why, "9.1") end
    ok, why = kessel.validate{ kind = "attack", units = { "s" }, targets = { "0303" } }
    if step == "soviet_combat" then expect.accepted(ok, why) else expect.refused(ok, why, "9.1") end
  end
end)

-- [9.1]: the phasing player *may* attack: no unit has to, whatever it is next to. Board: g next to
-- s (as above): the German Combat Phase and the Soviet Combat Phase both end with no attack made,
-- and nobody is harmed.
kessel.test("case_9_1_attacks_are_voluntary_a_combat_phase_ends_without_one", function()
  for _, step in ipairs{ "german_combat", "soviet_combat" } do
    B.setup({ B.pz("g", "0303"), B.rifle("s", "0403", "4-4-6"), B.leader("l", "0503", 5) }, { step = step })
    expect.accepted(kessel.act{ kind = "end_phase" })
    expect.eq(B.where("g"), "0303")
    expect.eq(B.where("s"), "0403")
    expect.eq(kessel.units.get("g").step, 0)
  end
end)

-- [9.4] the odds column in play: the ratio rounded down in the defender's favour (2.83-1 is 2-1,
-- 0.6 is 1-2, 0.4 is 1-3), above 10-1 resolved as 10-1, below 1-3 as 1-3; checked on the note of
-- a real attack for each pair, attackers three German regiments of no common division (no
-- integrity [7.3]), defenders one rifle division.
kessel.test("case_9_4_odds_columns_at_their_edges_in_play", function()
  local cases = {
    { 3, 5, "1-2" }, { 2, 5, "1-3" }, { 1, 4, "1-3" }, { 5, 3, "1-1" }, { 6, 3, "2-1" }, { 17, 6, "2-1" },
    { 18, 6, "3-1" }, { 29, 3, "9-1" }, { 30, 3, "10-1" }, { 33, 3, "10-1" },
  }
  for _, c in ipairs(cases) do
    local a, d, col = c[1], c[2], c[3]
    local parts = { math.ceil(a / 3), math.ceil((a - math.ceil(a / 3)) / 2) }
    parts[3] = a - parts[1] - parts[2]
    local units = { B.rifle("s", "0403", "1-" .. d .. "-6"), B.leader("l", "0906", 5) }
    local ids = {}
    for i, x in ipairs(parts) do
      if x > 0 then
        units[#units + 1] = B.pz("g" .. i, "0303", x .. "-" .. x .. "-10")
        ids[#ids + 1] = "g" .. i
      end
    end
    B.setup(units)
    kessel.inject_dice{ 6 }
    local ev = expect.accepted(attack(ids, { "0403" }))
    local want = string.format("attack %d against defence %d in 0403: odds %s, roll 6", a, d, col)
    expect.truthy(B.note(ev, want), want .. ": " .. B.all_notes(ev))
  end
end)

-- [15] Soviet VP: a German infantry division is a division, and eliminating it in combat scores
-- (5 VP by default, option soviet_vp_per_division). Board: Soviet Combat Phase; a (German infantry
-- on its last face, 1-1-7) in 0403; three 3-3-6 rifles in 0503 with the leader l (rating 2): 9 + 2
-- against 1, 10-1, roll 1: De.
kessel.test("case_15_an_infantry_division_destroyed_in_combat_scores_for_the_soviet", function()
  B.setup({ B.inf("a", "0403", { step = 3 }), B.rifle("r1", "0503", "3-3-6"), B.rifle("r2", "0503", "3-3-6"),
    B.rifle("r3", "0503", "3-3-6"), B.leader("l", "0503", 2) }, { step = "soviet_combat" })
  expect.eq(V.score().soviet_vp, 0)
  kessel.inject_dice{ 1 }
  local ev = expect.accepted(attack({ "r1", "r2", "r3", "l" }, { "0403" }))
  expect.truthy(B.note(ev, "odds 10-1, roll 1: De"), B.all_notes(ev))
  expect.eq(B.where("a"), "eliminated")
  expect.eq(table.concat(V.divisions_destroyed(), ","), "a")
  expect.eq(V.score().soviet_vp, 5)
end)

-- [9.1] [9.6] [9.72] [9.8] [7]: the combat actions (and the excess after a retreat) come from
-- players, scripts and saved games; one whose fields have the wrong shape (a path given as one
-- hex, a list item that is not a hex or an id) is refused, naming the field and the case, instead
-- of failing inside the rules (C.shape_reason). Board: g
-- (8-8-10) in 0303 against s (2-2-6) in 0403, 4-1, roll 3: D2/A1, walked through each decision.
-- The engine raised Lua errors (table.concat on a string, a hex lookup of a table or a number).
kessel.test("case_9_combat_actions_with_malformed_fields_are_refused_naming_the_field", function()
  B.setup({ B.pz("g", "0303", "8-8-10"), B.rifle("s", "0403", "2-2-6"), B.leader("l", "0906", 5) })
  local function refused(a, rule, text)
    local ok, why = kessel.validate(a)
    expect.refused(ok, why, rule, text)
  end
  refused({ kind = "attack", units = "g", targets = { "0403" } }, "9.1", "`units` is a list")
  refused({ kind = "attack", units = { "g" }, targets = "0403" }, "9.1", "`targets` is a list")
  refused({ kind = "attack", units = { "g" }, targets = { {} } }, "9.1", "`targets` item 1 is a table")
  refused({ kind = "attack", units = { 7 }, targets = { "0403" } }, "9.1", "`units` item 1 is a number")
  refused({ kind = "attack", units = { "g" }, targets = { "9999" } }, "9.1", "not a hex of this map")
  refused({ kind = "eliminate_excess", unit = {} }, "7", "`unit` is text")
  kessel.inject_dice{ 3 }
  expect.accepted(attack({ "g" }, { "0403" }))
  refused({ kind = "choose", choice = 1 }, "9.6", "`choice` is text")
  refused({ kind = "choose", choice = "loss", units = "s" }, "9.6", "`units` is a list")
  expect.accepted(choose("retreat"))
  refused({ kind = "retreat", units = { "s" }, path = "0503" }, "9.72", "`path` is a list")
  refused({ kind = "retreat", units = { "s" }, path = { "0503", {} } }, "9.72", "`path` item 2 is a table")
  expect.accepted(kessel.act{ kind = "retreat", unit = "s", path = { "0503", "0603" } })
  expect.accepted(choose("loss"))
  refused({ kind = "advance", units = { "g" }, path = "0403" }, "9.8", "`path` is a list")
  refused({ kind = "advance", units = { "g" }, path = { 12 } }, "9.8", "`path` item 1 is a number")
  refused({ kind = "advance", units = { "g" }, path = { "0403", "9999" } }, "9.8", "`9999`, is not a hex")
  expect.accepted(kessel.act{ kind = "advance", units = "g", path = { "0403" } })
  expect.eq(B.where("g"), "0403")
end)

-- [9.71] with [6.6]: a disrupted unit has no zone of control, so a retreat may end next to it; and
-- a disrupted defender still retreats (a result, not a move). Board: g (3-3-10) in 0303 against s
-- (2-1-6, disrupted by an overrun earlier in the German Initial Movement Phase) in 0403, 3-1 (in
-- supply or not: halving leaves 1), roll 3: D1, retreat. A lake hexside closes 0404; 0402 and 0304
-- are in g's zone; the German d in 0603 would cover 0503 and 0504. d disrupted: both are open, the
-- German picks one; d not disrupted: s has no path and is eliminated [9.71].
kessel.test("case_9_71_a_retreat_may_end_next_to_a_disrupted_enemy_and_a_disrupted_unit_retreats", function()
  for _, d_disrupted in ipairs{ true, false } do
    B.setup({ B.pz("g", "0303", "3-3-10"), B.rifle("s", "0403", "2-1-6", { flags = { "disrupted" } }),
      B.pz("d", "0603", "2-2-10", { flags = d_disrupted and { "disrupted" } or nil }) },
      { map = { columns = 10, rows = 10, hexsides = { { "0403", "0404", "lake" } } } })
    kessel.inject_dice{ 3 }
    local ev = expect.accepted(attack({ "g" }, { "0403" }))
    expect.truthy(B.note(ev, "odds 3-1, roll 3: D1"), B.all_notes(ev))
    expect.accepted(choose("retreat"))
    local paths = {}
    for _, a in ipairs(kessel.legal("german")) do
      if a.kind == "retreat" then paths[#paths + 1] = table.concat(a.path, "-") end
    end
    table.sort(paths)
    if d_disrupted then
      expect.eq(table.concat(paths, " "), "0503 0504", "d's hexes are open while it is disrupted")
      expect.accepted(retreat({ "s" }, { "0504" }))
      expect.eq(B.where("s"), "0504")
    else
      expect.eq(table.concat(paths, " "), "", "no path: only the elimination is offered")
      local ok, why = retreat({ "s" }, { "0504" })
      expect.refused(ok, why, "9.71", "zone of control")
      expect.accepted(retreat({ "s" }, {}))
      expect.eq(B.where("s"), "eliminated")
    end
  end
end)

-- FAQ 8 with [9.6] and [9.8]: a split result is open to an advance only when the attacker takes
-- his step; the CRT's note on split results speaks of the attacker's advance alone. So when the
-- defender stood (took the loss) and the attacker retreated, nobody advances: the A1 line's "the
-- opposing player may advance along the path of retreat" is not for split results. Board: g
-- (6-6-10) in 0303 against s and t (2-2-6) in 0403, 6 against 4, 1-1, roll 2: D1/A1. (a) The
-- Soviet loses s, g retreats to 0202: t stays, a note cites FAQ 8. The engine offered t the
-- attacker's hex. (b) Both retreat: no advance. (c) The Soviet retreats, g takes the step: g may
-- advance into 0403.
kessel.test("case_faq_8_split_result_no_advance_when_the_attacker_retreats_even_for_the_defender", function()
  local function board()
    B.setup({ B.pz("g", "0303", "6-6-10"), B.rifle("s", "0403", "2-2-6"), B.rifle("t", "0403", "2-2-6"), B.leader("l", "0906", 5) })
    kessel.inject_dice{ 2 }
    local ev = expect.accepted(attack({ "g" }, { "0403" }))
    expect.truthy(B.note(ev, "odds 1-1, roll 2: D1/A1"), B.all_notes(ev))
  end
  board()
  expect.accepted(choose("loss", { "s" }))
  expect.eq(B.where("s"), "eliminated")
  expect.accepted(choose("retreat"))
  local ev = expect.accepted(retreat({ "g" }, { "0202" }))
  expect.eq(B.pending(), nil, "t may not follow the retreating attacker")
  expect.truthy(B.note(ev, "the attacker retreated from a split result: no advance after combat"), B.all_notes(ev))
  expect.eq(B.where("t"), "0403")

  board()
  expect.accepted(choose("retreat"))
  expect.accepted(retreat({ "s", "t" }, { "0503" }))
  expect.accepted(choose("retreat"))
  expect.accepted(retreat({ "g" }, { "0202" }))
  expect.eq(B.pending(), nil, "both retreated: no advance")

  board()
  expect.accepted(choose("retreat"))
  expect.accepted(retreat({ "s", "t" }, { "0503" }))
  expect.accepted(choose("loss"))
  expect.eq(advances("german"), "g>0403", "the attacker who took the step follows the one-hex path")
  expect.accepted(advance({ "g" }, { "0403" }))
end)

-- [15] Soviet VP, played through the sequence of play [4]: +2 each time the Soviet holds, at the
-- end of his player-turn, a city the German held with a line west at the end of the previous
-- German player-turn; a whole German division destroyed is worth 5. Board: Town (10 VP) is 0403,
-- held by the German infantry a (last face, 1-1-7); g (9-9-10) in 0303; three 9-9-6 rifles and
-- the leader l (2) in 0503. Turn 7 ends: the German holds Town with a line. Turn 8: the Soviet
-- destroys a (10-1, roll 1: De) and enters Town: recapture 1. The German retakes it (g against r1,
-- 1-1, roll 1: D1, retreated, g advances) and holds it with a line at the end of turn 8. Turn 9:
-- the Soviet drives g out (20 against 9, 2-1, roll 1: D2, retreated) and enters again: recapture 2.
-- Soviet VP 5 + 2 + 2.
kessel.test("case_15_each_recapture_counts_played_through_the_sequence_of_play", function()
  B.setup({ B.inf("a", "0403", { step = 3 }), B.pz("g", "0303", "9-9-10"), B.rifle("r1", "0503", "9-9-6"),
    B.rifle("r2", "0503", "9-9-6"), B.rifle("r3", "0503", "9-9-6"), B.leader("l", "0503", 2) },
    { step = "german_air_interdiction", vars = { objectives = { { name = "Town", vp = 10, hexes = { "0403" } } } } })
  local function end_phases(n)
    for _ = 1, n do expect.accepted(kessel.act{ kind = "end_phase" }) end
  end
  end_phases(1)
  expect.eq(table.concat(kessel.game.var("german_held") or {}, ","), "Town", "held with a line at the end of turn 7")
  end_phases(1)
  expect.eq(kessel.game.step().id, "soviet_combat")
  kessel.inject_dice{ 1 }
  local ev = expect.accepted(attack({ "r1", "r2", "r3", "l" }, { "0403" }))
  expect.truthy(B.note(ev, "odds 10-1, roll 1: De"), B.all_notes(ev))
  expect.accepted(advance({ "r1" }, { "0403" }))
  expect.accepted(kessel.act{ kind = "advance", skip = true })
  end_phases(2)
  ev = expect.accepted(kessel.act{ kind = "end_phase" })
  expect.truthy(B.note(ev, "the Soviet retakes Town: 2 VP"), B.all_notes(ev))
  expect.eq(kessel.game.step().id, "german_movement")
  end_phases(1)
  kessel.inject_dice{ 1 }
  ev = expect.accepted(attack({ "g" }, { "0403" }))
  expect.truthy(B.note(ev, "odds 1-1, roll 1: D1"), B.all_notes(ev))
  expect.accepted(choose("retreat"))
  expect.accepted(retreat({ "r1" }, { "0404" }))
  expect.accepted(advance({ "g" }, { "0403" }))
  end_phases(4)
  expect.eq(kessel.game.turn(), 9)
  expect.eq(table.concat(kessel.game.var("german_held") or {}, ","), "Town", "held again at the end of turn 8")
  end_phases(1)
  kessel.inject_dice{ 1 }
  ev = expect.accepted(attack({ "r2", "r3", "l" }, { "0403" }))
  expect.truthy(B.note(ev, "odds 2-1, roll 1: D2"), B.all_notes(ev))
  expect.accepted(choose("retreat"))
  expect.accepted(retreat({ "g" }, { "0303", "0203" }))
  expect.accepted(advance({ "r2" }, { "0403" }))
  if B.pending() then expect.accepted(kessel.act{ kind = "advance", skip = true }) end
  end_phases(3)
  local rec = kessel.game.var("soviet_recaptures") or {}
  expect.eq(#rec, 2, "once on turn 8, once on turn 9")
  expect.eq(rec[1].turn, 8)
  expect.eq(rec[2].turn, 9)
  expect.eq(table.concat(V.divisions_destroyed(), ","), "a")
  expect.eq(V.score().soviet_vp, 9, "5 for the division, 2 for each recapture")
end)

-- [7.3] with [9.73]: a unit retreated onto friends adds nothing to their defence, so the hex
-- defends as if it were not there, divisional integrity included. Soviet Combat Phase; two 6-6-6
-- rifles in 0503 (attack 12) against 0403. (a) 7 Pz's A (4-4-10) and B (2-2-10) in 0403 and its
-- third regiment C (2-2-10) retreated onto them earlier this phase: C does not complete the
-- division, defence 4 + 2 = 6; had C stood there all along, 8 doubled = 16. (b) 14 Mot's two
-- regiments (3-3-10) in 0403 and X (2-2-10, another formation) retreated onto them: X does not
-- break the division, 6 doubled = 12; had X stood there, 3 + 3 + 2 = 8. The engine judged
-- integrity with the retreated unit counted (12 and 8 in the retreated cases).
kessel.test("case_7_3_integrity_of_a_defending_hex_ignores_units_retreated_onto_it", function()
  local function defence(units)
    local all = { B.rifle("r1", "0503", "6-6-6"), B.rifle("r2", "0503", "6-6-6"), B.leader("l", "0906", 5) }
    for _, u in ipairs(units) do all[#all + 1] = u end
    B.setup(all, { step = "soviet_combat" })
    kessel.inject_dice{ 6 }
    local ev = expect.accepted(attack({ "r1", "r2" }, { "0403" }))
    for _, e in ipairs(ev) do
      local d = e.text and e.text:match("attack 12 against defence (%d+) in 0403")
      if d then return tonumber(d) end
    end
    error("no combat note: " .. B.all_notes(ev))
  end
  local function reg(id, formation, face, rider, typ)
    return B.pz(id, "0403", face, { formation = formation, type = typ or "panzer", flags = rider and { "retreated_onto" } or nil })
  end
  expect.eq(defence({ reg("A", "7 Pz", "4-4-10"), reg("B", "7 Pz", "2-2-10", false, "rifle_mot"), reg("C", "7 Pz", "2-2-10", true, "rifle_mot") }), 6,
    "C retreated onto A and B: no integrity, C adds nothing")
  expect.eq(defence({ reg("A", "7 Pz", "4-4-10"), reg("B", "7 Pz", "2-2-10", false, "rifle_mot"), reg("C", "7 Pz", "2-2-10", false, "rifle_mot") }), 16,
    "the whole division standing together: doubled")
  expect.eq(defence({ reg("M1", "14 Mot", "3-3-10", false, "motorized"), reg("M2", "14 Mot", "3-3-10", false, "motorized"), reg("X", "FX", "2-2-10", true) }), 12,
    "X retreated onto 14 Mot: the division stays intact, X adds nothing")
  expect.eq(defence({ reg("M1", "14 Mot", "3-3-10", false, "motorized"), reg("M2", "14 Mot", "3-3-10", false, "motorized"), reg("X", "FX", "2-2-10", false) }), 8,
    "X standing with 14 Mot breaks its integrity")
end)
