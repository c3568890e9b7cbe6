-- Situations from the reference texts, fifth tester pass (ASL round 5): each test rebuilds one
-- situation, names its case, and checks what the text says must happen.
local T = require("testing.cg")
local expect = T.expect

-- a squad as a scenario file gives it: its two faces, no `squad_face` variable
local function plain_squad(id, side, face, hs, at, vars)
  return { id = id, side = side, type = "squad", faces = { face, hs }, at = at, vars = vars or {} }
end

-- [11.6112] a Russian 4-4-7 is first-line: when the MMC Battle Hardening DR picks it, it takes the
-- Russian better face (4-5-8), not the German second-line 4-4-7's (4-6-7): squad data are keyed by
-- nationality (the side), then face
kessel.test("case_11.6112_a_russian_4_4_7_hardens_by_russian_data", function()
  T.setup{ module = "rb", step = "hardening", vars = { date = "18oct" }, units = {
    plain_squad("r1", "russian", "4-4-7", "2-2-7", "C6"), plain_squad("g1", "german", "4-4-7", "2-3-7", "H6") } }
  kessel.inject_dice{ 1, 1, 1, 1, 6, 6, 6, 6 }   -- German 2: two MMC; Russian 2 - 1 = 1: three MMC
  local ev = T.resolve()
  T.has_note(ev, "r1 Battle Hardens from 4-4-7 to 4-5-8")
  T.has_note(ev, "g1 Battle Hardens from 4-4-7 to 4-6-7")
  expect.eq(T.C.face_label(T.unit("r1")), "4-5-8")
  expect.eq(T.C.face_label(T.unit("g1")), "4-6-7")
end)

-- [11.6063] "Escapes, Replaced": a Russian 4-5-8 is Replaced by a Russian 4-4-7 (A19.13), not by
-- the British 4-5-7 of the same face; a Russian 4-4-7 by a 4-2-6 Conscript, not a German 4-3-6
kessel.test("case_11.6063_replacement_follows_the_nationality", function()
  T.setup{ module = "rb", step = "escape", vars = { date = "18oct" }, units = {
    plain_squad("r1", "russian", "4-5-8", "2-4-8", "C5", { isolated = true }),
    plain_squad("r2", "russian", "4-4-7", "2-2-7", "H5", { isolated = true }) } }
  for _, id in ipairs({ "r1", "r2" }) do
    kessel.inject_dice{ 5, 4 }   -- 9 - 1 Russian + 1 squad = 9: Escapes, Replaced
    local ok, ev = kessel.act{ kind = "escape", units = { id } }
    expect.accepted(ok, ev)
    expect.eq(T.record(ev, "escape").result, "replaced", id)
  end
  expect.eq(T.C.face_label(T.unit("r1")), "4-4-7")
  expect.eq(T.C.face_label(T.unit("r2")), "4-2-6")
  T.replays()
end)
