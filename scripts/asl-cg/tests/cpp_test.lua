-- RePh 9.616 CPP Replenishment and RB 11.616 (rules/purchase.lua, rules/rb.lua).
local T = require("testing.cg")
local expect = T.expect

local function cpp(date, cvp, start, dice)
  T.setup{ step = "cpp", vars = { date = date, cvp_lost = cvp, cpp = { german = start or 0 } } }
  if dice then kessel.inject_dice(dice) end
  local ev = T.resolve()
  return kessel.game.var("cpp").german, T.record(ev, "cpp"), ev
end

-- [9.616] [9.6161] CPP Base # plus Loss Points: Day I base 32; German CVP 20 >= 2 x 6 and >= 6 + 8,
-- so a dr (3) is added: 2 left + 32 + 3 = 37
kessel.test("case_9.616_formula_base_plus_loss_points", function()
  local total, rec = cpp("day_i", { german = 20, british = 6 }, 2, { 3 })
  expect.eq(rec.base, 32)
  expect.eq(rec.loss_points, 3)
  expect.eq(total, 37)
end)

-- [9.6162] both conditions: twice as many AND eight more
kessel.test("case_9.6162_loss_points_need_twice_and_eight_more", function()
  local total = cpp("day_ii", { german = 15, british = 8 }, 0)
  expect.eq(total, 30, "15 < 2 x 8: base only")
  total = cpp("day_ii", { german = 12, british = 6 }, 0)
  expect.eq(total, 30, "12 >= 2 x 6 but 12 < 6 + 8")
  total = cpp("day_ii", { german = 20, british = 10 }, 0, { 6 })
  expect.eq(total, 36)
end)

-- [9.6162] Loss Points are unavailable before the Day I RePh; [9.6161] Dawn base is 25
kessel.test("case_9.6162_no_loss_points_before_day_i", function()
  local total, _, ev = cpp("dawn", { german = 40, british = 0 }, 0)
  expect.eq(total, 25)
  T.has_note(ev, "unavailable")
end)

-- [9.6161] no CPP Base on the Night dates and Dusk
kessel.test("case_9.6161_no_base_on_night_dates", function()
  expect.eq(cpp("night_iii", { german = 0, british = 0 }, 4), 4)
  expect.eq(cpp("dusk", { german = 0, british = 0 }, 0), 0)
end)

-- [9.6102] [9.6162] Walking Wounded MMC count as British CVP lost (they can deny Loss Points)
kessel.test("case_9.6162_walking_wounded_count_for_the_british", function()
  T.setup{ step = "wounded", vars = { date = "day_i", walking_wounded = 1, cvp_lost = { german = 15, british = 6 }, cpp = { german = 0 } } }
  T.resolve()
  expect.eq(kessel.game.var("cvp_lost").british, 8, "6 + one WW squad")
  kessel.act{ kind = "end_step" }  -- 9.611
  kessel.act{ kind = "end_step" }  -- 9.612
  for _ = 1, 3 do kessel.act{ kind = "end_step" } end -- 9.613-9.615
  expect.eq(kessel.game.step().id, "cpp")
  T.resolve()
  expect.eq(kessel.game.var("cpp").german, 30, "Day II base; 15 < 8 + 8: no Loss Points")
end)

-- [11.6162 EX] 17 October ends with the Russians winning and 44 German CVP lost; the German
-- Original DR 10 becomes 6 (-2 Historical, -2 for 44 CVP): 16 CPP, plus 2 unspent = 18
kessel.test("case_11.6162_example_german_cpp_18_october", function()
  T.setup{ module = "rb", step = "cpp", vars = { date = "18oct", cvp_lost = { german = 44, russian = 10 }, cpp = { german = 2, russian = 0 } } }
  kessel.inject_dice{ 5, 5, 3, 3 }
  local ev = T.resolve()
  local rec = T.record(ev, "cpp")
  expect.eq(rec.side, "german")
  expect.eq(rec.drm, -4)
  expect.eq(rec.repl, 16)
  expect.eq(kessel.game.var("cpp_german"), 18, "the German's own CPP var [11.616]")
  T.has_note(ev, "Start 2, Total 18")
end)

-- [11.616] RePh Eliminations count for the CPP DRM (an event hook sees every one) [11.6031]
kessel.test("case_11.616_reph_eliminations_are_counted", function()
  T.setup{ module = "rb", step = "wounded", units = { T.leader("l", "german", "8-0", "C3", { vars = { wounded = true } }) } }
  kessel.inject_dice{ 6 }
  T.resolve()
  expect.eq(kessel.game.var("reph_cvp_lost").german, 1)
  T.replays()
end)
