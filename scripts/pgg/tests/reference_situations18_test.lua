-- Situations from the reference material, rules25b pass: combat played end to end as a tester
-- plays it. Each is played through actions; the board is the 10x10 of testing/board10 (odd
-- columns N, NE = c+1 r-1, SE = c+1 r, S, SW = c-1 r, NW = c-1 r-1; even columns NE = c+1 r,
-- SE = c+1 r+1, SW = c-1 r+1, NW = c-1 r).
local expect = kessel.expect
local B = require("testing.board10")

-- [10.36] [9.5] The note that says what a leader adds to an attack cites its case once, as every
-- other combat note and odds modifier does (the log and the odds answer show the case beside the
-- text). The leader's line carried its own "[10.36]" in the text as well, so it read
-- "... capped at the units' 5) [10.36] [10.36]".
-- Board, Soviet Combat Phase of turn 7: rifles a (3-3-6) and b (2-2-6) with leader l (rating 5)
-- in 0304 attack German g (4-4-10) in 0303: 5 + 5 = 10 against 4, 2-1.
kessel.test("case_10_36_the_leader_note_cites_its_case_once", function()
  B.setup({ B.rifle("a", "0304", "3-3-6"), B.rifle("b", "0304", "2-2-6"), B.leader("l", "0304", 5),
    B.pz("g", "0303", "4-4-10") }, { step = "soviet_combat" })
  local o = kessel.queries.ask("odds", { units = { "a", "b", "l" }, targets = { "0303" } })
  expect.eq(o.attack, 10)
  expect.eq(o.label, "2-1")
  local seen = 0
  for _, m in ipairs(o.attack_modifiers or {}) do
    if m.rule == "10.36" then
      seen = seen + 1
      expect.eq(m.message, "leaders in 0304 add 5 (rating 5, capped at the units' 5)")
    end
  end
  expect.eq(seen, 1, "one leader line in the odds answer")
  kessel.inject_dice{ 3 }
  local ev = expect.accepted(B.attack({ "a", "b", "l" }, { "0303" }))
  local n = B.note(ev, "leaders in 0304 add 5")
  expect.truthy(n, B.all_notes(ev))
  expect.eq(n.rule, "10.36")
  expect.falsy(n.text:find("[10.36]", 1, true), "the text does not repeat the case: " .. n.text)
end)

-- [6.7] [9.3] `kessel odds` against the terrain effects chart: every terrain of the chart is a
-- flag. Forest, a major city and a river crossed by every attacker double the defender; clear,
-- swamp, a minor city, a road and a railroad have no effect on combat, and the odds say so with a
-- line citing the chart instead of refusing the word as an unknown flag; a lake is no place to
-- attack, and its flag is an error citing 9.3.
kessel.test("case_6_7_odds_flags_cover_every_terrain_of_the_chart", function()
  local K = require("rules.combat")
  for _, f in ipairs({ "clear", "swamp", "minor_city", "road", "railroad" }) do
    local ok, m = pcall(K.odds_modifiers, 6, 3, { f })
    expect.truthy(ok, f .. " is a flag: " .. tostring(m))
    expect.eq(m.attack, 6, f)
    expect.eq(m.defence, 3, f .. " does not change the defence")
    expect.eq(#m.modifiers, 1, f)
    expect.eq(m.modifiers[1].rule, "6.7", f)
    expect.truthy(m.modifiers[1].message:find("no effect on combat", 1, true), m.modifiers[1].message)
  end
  local m = K.odds_modifiers(6, 3, { "swamp", "forest", "minor_city" })
  expect.eq(m.defence, 6, "the forest doubles, the swamp and the minor city do nothing")
  local ok, why = pcall(K.odds_modifiers, 6, 3, { "lake" })
  expect.falsy(ok, "a lake is no place to attack")
  expect.truthy(tostring(why):find("[9.3]", 1, true), tostring(why))
  ok, why = pcall(K.odds_modifiers, 6, 3, { "swampy" })
  expect.falsy(ok, "an unknown flag is still an error")
  expect.truthy(tostring(why):find("no effect on combat: clear, swamp", 1, true), tostring(why))
end)

-- [9.8] [12.3] [9.6] Only a victor advances after combat ("all victorious units may advance", the
-- results table). A hex emptied when its units proved duds on their reveal is no exception: the
-- side that then loses the combat does not advance into it. The engine offered the advance to
-- whoever had not retreated: after a D1 the defender took as a loss, the German was offered the
-- Soviet attacking hex whose only unit had been removed; after an A1 the attacker took as a loss,
-- the German attacker was offered the defending hex emptied so.
-- Board 1, Soviet Combat Phase of turn 7: untried d (a 0-0-6) in 0503 and rifle a (4-4-6) in
-- 0504 attack German g (2-2-10) in 0403, leader l (rating 3) in 0605. d is removed; 4 against 2,
-- 2-1, roll 2: D1. The German takes the loss: no advance into 0503 is offered.
-- Board 2, German Combat Phase: g (4-4-10) in 0304 attacks 0403 (untried d, a 0-0-6) and 0404
-- (rifle a, 4-4-6) together. d is removed; 4 against 4, 1-1. Roll 5: A1, g takes the step: no
-- advance into 0403. Roll 2: D1/A1, a retreats and g takes its step: g may advance into 0404 or
-- 0403 (the victor takes what either defending hex left).
kessel.test("case_9_8_the_loser_does_not_advance_into_a_hex_emptied_by_duds", function()
  local function dud(at) return { id = "d", name = "d", side = "soviet", type = "rifle", hidden = true, pool = "rifle", at = at } end
  B.setup({ dud("0503"), B.leader("l", "0605", 3), B.rifle("a", "0504", "4-4-6"), B.pz("g", "0403", "2-2-10") },
    { step = "soviet_combat", pools = { rifle = { "0-0-6" } } })
  kessel.inject_dice{ 1, 2 }   -- the draw of d's counter, then the combat roll
  local ev = expect.accepted(B.attack({ "d", "a" }, { "0403" }))
  expect.eq(kessel.units.get("d").location, "eliminated", "the dud is removed")
  expect.truthy(B.note(ev, "odds 2-1, roll 2: D1"), B.all_notes(ev))
  ev = expect.accepted(B.choose("loss"))
  expect.eq(B.pending(), nil, "no advance waits for the German, who lost")
  expect.eq(B.advances("german"), "")
  expect.truthy(B.note(ev, "the defender lost the combat and does not advance into 0503"), B.all_notes(ev))
  expect.eq(B.where("g"), "0403")

  local function board2(roll)
    B.setup({ dud("0403"), B.rifle("a", "0404", "4-4-6"), B.leader("l", "0606", 5), B.pz("g", "0304", "4-4-10") },
      { pools = { rifle = { "0-0-6" } } })
    kessel.inject_dice{ 1, roll }
    return expect.accepted(B.attack({ "g" }, { "0403", "0404" }))
  end
  ev = board2(5)
  expect.truthy(B.note(ev, "odds 1-1, roll 5: A1"), B.all_notes(ev))
  ev = expect.accepted(B.choose("loss"))
  expect.eq(B.pending(), nil, "no advance waits for the attacker, who lost")
  expect.truthy(B.note(ev, "the attacker lost the combat and does not advance into 0403"), B.all_notes(ev))
  expect.eq(B.where("g"), "0304")

  ev = board2(2)
  expect.truthy(B.note(ev, "odds 1-1, roll 2: D1/A1"), B.all_notes(ev))
  expect.accepted(B.choose("retreat"))
  expect.accepted(B.retreat({ "a" }, { "0505" }))
  expect.accepted(B.choose("loss"))
  expect.eq(B.pending().kind, "advance", "the attacker who took his step advances")
  expect.eq(B.advances("german"), "g>0403 g>0404")
end)

-- [9.71] [9.72] [7] [7.1] Reading (rules25b): with no empty hex within reach, the standard rule
-- lets the opponent end the path in any friendly hex, one the retreating units will overfill
-- included, and the retreated units over the limit are then lost. The reference allows friendly
-- hexes "but stacking limits apply", and its FAQ has the excess of a retreat eliminated; only the
-- empty hex comes first. Keeping the most units alive (a friendly hex with room before a full one)
-- is WBC09 #1's ranking, which counts a unit sent into a full hex as dead.
-- Board, German Combat Phase of turn 7: g (1-1-10) in 0504 attacks s (1-1-6) in 0505, out of
-- supply (the leader l in 0909 is out of reach): 1 against 1, 1-1, roll 1: D1. German units in
-- 0705, 0406 and 0603 put every neighbour of 0505 in their zones; 0404 holds three Soviet rifles
-- (full), 0506 one. Standard: both hexes are offered; into 0404, s is the unit over the limit and
-- is lost (the units retreated are the ones beyond it [7]). WBC09 #1: only 0506.
kessel.test("case_9_71_standard_retreat_may_end_in_a_full_friendly_hex_when_no_empty_hex_is_reachable", function()
  local function board(options)
    B.setup({ B.rifle("s", "0505", "1-1-6"), B.rifle("f1", "0404", "1-1-6"), B.rifle("f2", "0404", "1-1-6"),
      B.rifle("f3", "0404", "1-1-6"), B.rifle("e1", "0506", "1-1-6"), B.leader("l", "0909", 5),
      B.pz("g", "0504", "1-1-10"), B.pz("h", "0705", "2-2-10"), B.pz("k", "0406", "2-2-10"), B.pz("m", "0603", "2-2-10") },
      { options = options })
    kessel.inject_dice{ 1 }
    local ev = expect.accepted(B.attack({ "g" }, { "0505" }))
    expect.truthy(B.note(ev, "odds 1-1, roll 1: D1"), B.all_notes(ev))
    expect.accepted(B.choose("retreat"))
    local paths = {}
    for _, a in ipairs(kessel.legal("german")) do
      if a.kind == "retreat" then paths[#paths + 1] = table.concat(a.path, "-") end
    end
    table.sort(paths)
    return table.concat(paths, " ")
  end
  expect.eq(board({}), "0404 0506", "standard: either friendly hex")
  local ev = expect.accepted(B.retreat({ "s" }, { "0404" }))
  expect.eq(B.where("s"), "eliminated", "the retreated unit over the limit is lost [7]")
  expect.truthy(B.note(ev, "retreated into an over-full hex (0404)"), B.all_notes(ev))
  for _, id in ipairs({ "f1", "f2", "f3" }) do expect.eq(B.where(id), "0404", id .. " stays") end
  expect.eq(board({ wbc09_01_retreat_priority = true }), "0506", "WBC09 #1: the hex with room")
  local ok, why = B.retreat({ "s" }, { "0404" })
  expect.refused(ok, why, "WBC09 #1")
end)

-- [6.4] [9.71] A Soviet unit whose only ways out lead into columns 01-02 on turns 1-6 is
-- eliminated, and the note says it is the closed columns that leave it no path (citing 6.4); it
-- said "no legal retreat path" citing 9.71 alone, while open hexes lay to the west. From turn 7
-- the unit retreats there.
-- Board, German Combat Phase: g (2-2-10) in 0404 attacks s (2-2-6) in 0305; h (2-2-10) in 0405
-- stands by. Their zones cover 0304 and 0306; 0404 and 0405 hold them; 0204 and 0205 are in
-- column 02. Roll 1: D1 or D2 (1-1 or 2-1, as s's supply goes); s retreats.
kessel.test("case_6_4_a_soviet_unit_cornered_against_columns_01_02_dies_citing_6_4", function()
  local function board(turn)
    B.setup({ B.rifle("s", "0305", "2-2-6"), B.leader("l", "0909", 5), B.pz("g", "0404", "2-2-10"), B.pz("h", "0405", "2-2-10") },
      { turn = turn })
    kessel.inject_dice{ 1 }
    expect.accepted(B.attack({ "g" }, { "0305" }))
    expect.accepted(B.choose("retreat"))
  end
  board(5)
  local moves = {}
  for _, a in ipairs(kessel.legal("german")) do
    if a.kind == "retreat" then moves[#moves + 1] = table.concat(a.path, "-") end
  end
  expect.eq(table.concat(moves, " "), "", "only the elimination is offered")
  local ok, why = B.retreat({ "s" }, { "0205" })
  expect.refused(ok, why, "6.4", "columns 01-02")
  local ev = expect.accepted(B.retreat({ "s" }, {}))
  expect.eq(B.where("s"), "eliminated")
  local n = B.note(ev, "no legal retreat path")
  expect.truthy(n, B.all_notes(ev))
  expect.eq(n.rule, "6.4", n.text)
  expect.truthy(n.text:find("columns 01-02", 1, true), n.text)
  board(7)
  local open = false
  for _, a in ipairs(kessel.legal("german")) do
    if a.kind == "retreat" and #a.path > 0 and a.path[1]:sub(1, 2) == "02" then open = true end
  end
  expect.truthy(open, "turn 7: the west is open")
end)
