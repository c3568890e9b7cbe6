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
