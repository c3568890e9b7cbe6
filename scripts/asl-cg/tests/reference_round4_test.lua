-- Situations from the reference texts, fourth tester pass (ASL round 4): each test rebuilds one
-- situation, names its case, and checks what the text says must happen.
local T = require("testing.cg")
local expect = T.expect

-- [11.6131] RB: "each AFV in a friendly-Controlled Location"; a manned, immobilized AFV makes the
-- Immobilization Removal dr, a Captured one the Russians remanned too (PB's 9.6141b says
-- non-captured; RB does not). dr 1: Mobile, and cleared to the Retained box; its captured MG
-- keeps on a dr of 1 [11.6135], so the AFV stays in play [11.6136]
kessel.test("case_11.6131_a_captured_manned_afv_rolls_for_immobilization", function()
  T.setup{ module = "rb", step = "repair", vars = { date = "18oct" },
    markers = { { kind = "control", side = "russian", at = "C3" } }, units = {
    T.vehicle("cap", "russian", "PzKpfw IIIH", "C3", { vars = { immobile = true, captured = true } }),
    T.sw("mg", "russian", "MG", "C3", { vars = { vehicular = true, mounted_on = "cap", captured = true } }) } }
  kessel.inject_dice{ 1, 1 }
  local ev = T.resolve()
  T.has_note(ev, "[11.6131] cap Immobilization repair dr 1+0: becomes Mobile")
  expect.eq(T.unit("cap").vars.immobile, nil)
  expect.eq(T.unit("cap").location, "pending", "Mobile and not Isolated: cleared to the Retained box")
  expect.eq(T.unit("cap").vars.wreck, nil)
  T.replays()
end)

-- [9.6141b] PB keeps the exception: a captured immobilized vehicle makes no repair dr
kessel.test("case_9.6141_a_captured_vehicle_makes_no_immobilization_dr", function()
  T.setup{ step = "repair", vars = { date = "day_i" }, units = {
    T.squad("s", "british", "6-4-8", "C3"),
    T.vehicle("cap", "british", "Marder", "C3", { vars = { immobile = true, captured = true } }),
    T.sw("mg", "british", "MG", "C3", { vars = { vehicular = true, mounted_on = "cap", captured = true } }) } }
  kessel.inject_dice{ 1 }
  local ev = T.resolve()
  expect.falsy(T.note(ev, "Immobilization repair dr"), "no dr for a captured vehicle")
  expect.eq(T.unit("cap").vars.immobile, true)
end)

-- [11.616] "Each side now makes a Secret DR to replenish its CPP": the total it gives tells the
-- band of the DR, so each side's CPP total is its own. German Start 2, DR 5+5 -2 Historical = 8:
-- +15, Total 17; Russian Start 4, DR 3+3 -1 Historical = 5: +16, Total 20. Each side's view has its
-- own CPP and not the other's; the truth has both and replays
kessel.test("case_11.616_each_sides_cpp_total_is_its_own_secret", function()
  T.setup{ module = "rb", step = "cpp", vars = { date = "18oct", cpp = { german = 2, russian = 4 } } }
  kessel.inject_dice{ 5, 5, 3, 3 }
  T.resolve()
  expect.eq(kessel.game.var("cpp_german"), 17)
  expect.eq(kessel.game.var("cpp_russian"), 20)
  local german, russian = kessel.game.view("german"), kessel.game.view("russian")
  expect.eq(german.vars.cpp_german, 17, "the German reads his own total")
  expect.eq(german.vars.cpp_russian, nil, "but not the Russian's")
  expect.eq(russian.vars.cpp_russian, 20)
  expect.eq(russian.vars.cpp_german, nil, "the Russian does not read the German total")
  T.replays()
end)
