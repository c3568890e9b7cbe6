-- RePh 9.612 New CG Date and SAN, RB 11.612-11.6123 (rules/date.lua).
local T = require("testing.cg")
local expect = T.expect

-- [9.6121] a new CG Date begins; [9.61221] British SAN >= 4: dr + (SAN - 4) >= 5 lowers it by two
kessel.test("case_9.61221_british_san_adjustment_and_new_date", function()
  T.setup{ step = "date_san", vars = { date = "dawn", san = { british = 6, german = 3 }, german_controls_ii13 = false } }
  kessel.inject_dice{ 3 }
  local ev = T.resolve()
  expect.eq(kessel.game.var("date"), "day_i")
  expect.eq(kessel.game.var("san").british, 4)
  expect.eq(T.record(ev, "san").final, 5)
end)

-- [9.61221] a Final dr below 5 keeps the SAN; [9.6122] a SAN below 2 is raised to 2 for free
kessel.test("case_9.6122_san_kept_or_raised_to_two", function()
  T.setup{ step = "date_san", vars = { date = "dawn", san = { british = 5, german = 1 }, german_controls_ii13 = false } }
  kessel.inject_dice{ 3 }
  T.resolve()
  expect.eq(kessel.game.var("san").british, 5)
  expect.eq(kessel.game.var("san").german, 2)
end)

-- [9.61222] a German SAN is unadjusted while the Germans Control the building in II13
kessel.test("case_9.61222_german_san_with_building_ii13", function()
  local function run(holder)
    T.setup{ step = "date_san", map = { columns = 36, rows = 14, tags = { strategic = { "II13" } } },
      markers = { { kind = "control", side = holder, at = "II13" } }, vars = { date = "day_i", san = { british = 2, german = 6 } } }
    kessel.inject_dice{ 3 }
    T.resolve()
    return kessel.game.var("san").german
  end
  expect.eq(run("german"), 6, "unadjusted")
  expect.eq(run("british"), 4, "dr 3 + 2 = 5: reduced by two")
end)

-- [11.6122 EX] the Russian SAN is 6: +2 drm, so an Original dr of 3 to 6 lowers it to 5 (by one)
kessel.test("case_11.6122_example_russian_san_six", function()
  local function run(dr)
    T.setup{ module = "rb", step = "date_san", vars = { date = "17oct", san = { german = 2, russian = 6 } } }
    kessel.inject_dice{ dr }
    T.resolve()
    return kessel.game.var("san").russian
  end
  expect.eq(run(3), 5)
  expect.eq(run(6), 5)
  expect.eq(run(2), 6)
  expect.eq(kessel.game.var("date"), "18oct")
end)

-- [11.6122] a SAN of zero is raised to 2
kessel.test("case_11.6122_zero_san_raised", function()
  T.setup{ module = "rb", step = "date_san", vars = { date = "17oct", san = { german = 0, russian = 3 } } }
  T.resolve()
  expect.eq(kessel.game.var("san").german, 2)
  expect.eq(kessel.game.var("san").russian, 3)
end)

-- [11.6123] an Original dr of 6 lowers Booby Trap Level A to B
kessel.test("case_11.6123_booby_trap_deactivation", function()
  T.setup{ module = "rb", step = "date_san", vars = { date = "17oct", san = { german = 2, russian = 2 }, booby_trap = "A" } }
  kessel.inject_dice{ 6 }
  T.resolve()
  expect.eq(kessel.game.var("booby_trap"), "B")
  T.setup{ module = "rb", step = "date_san", vars = { date = "17oct", san = { german = 2, russian = 2 }, booby_trap = "B" } }
  kessel.inject_dice{ 5 }
  T.resolve()
  expect.eq(kessel.game.var("booby_trap"), "B")
end)
