-- The RePh as a sequence of play [9.6] [11.6] (rules/sequence.lua).
local T = require("testing.cg")
local expect = T.expect

local PB = { "melee", "markers", "rally", "encirclement", "setup_areas", "escape", "equipment", "prisoners", "blazes",
  "wounded", "hardening", "date_san", "shift", "repair", "reinforcements", "cpp", "rg_purchase", "rg_strength",
  "fortifications", "commencement" }
local RB = { "markers", "victory_rally", "encirclement", "perimeter", "escape", "equipment", "prisoners", "blazes", "wounded",
  "hardening", "date_san", "repair", "armor_withdrawal", "fort_removal", "cpp", "elr", "weather", "scenario_generation" }

local function walk()
  local seen = {}
  while not kessel.game.finished() do
    seen[#seen + 1] = kessel.game.step().id
    T.resolve()
  end
  return table.concat(seen, " ")
end

-- [9.6] the PB steps come in their numbered order, and the RePh ends after 9.620
kessel.test("case_9.6_pb_steps_in_numbered_order", function()
  T.setup{ vars = { date = "dawn", cpp = { german = 0 } } }
  expect.eq(walk(), table.concat(PB, " "))
  expect.truthy(kessel.game.finished())
  T.replays()
end)

-- [11.6] with module = "rb" the sequencer skips the PB-only steps
kessel.test("case_11.6_rb_steps_skip_pb_only_steps", function()
  T.setup{ module = "rb", step = "markers", vars = { date = "17oct" } }
  expect.eq(walk(), table.concat(RB, " "))
end)

-- [9.6] the RePh is started from the first step of the module in play (RB refusals cite 11.6)
kessel.test("case_9.6_start_refit_goes_to_the_module_first_step", function()
  T.setup{ module = "rb", main = true }
  local ok, reasons = kessel.act{ kind = "end_step" }
  expect.refused(ok, reasons, "11.6", "not begun")
  expect.accepted(kessel.act{ kind = "start_refit" })
  expect.eq(kessel.game.step().id, "markers")
  expect.eq(kessel.game.step().mode, "refit_rb", "the RB RePh is its own named sequence")
  ok, reasons = kessel.act{ kind = "start_refit" }
  expect.refused(ok, reasons, "11.6", "under way")
  T.replays()
end)

-- [9.617] a choice of one step is refused in another, citing the step's case
kessel.test("case_9.617_actions_belong_to_their_step", function()
  T.setup{ vars = { date = "day_i", cpp = { german = 30 } } }
  local ok, reasons = kessel.act{ kind = "buy_rg", rg = "I4", entry = "A7" }
  expect.refused(ok, reasons, "9.617", "RePh step 9.617")
end)

-- [9.6] once the last step is done the phase is over
kessel.test("case_9.6_nothing_after_the_last_step", function()
  T.setup{ step = "commencement", vars = { date = "dawn" } }
  T.resolve()
  local ok, reasons = kessel.act{ kind = "end_step" }
  expect.refused(ok, reasons, "9.6", "over")
end)

-- [9.6] each step's resolution is recorded with its case, and undo takes it back
kessel.test("case_9.6_step_records_and_undo", function()
  T.setup{ vars = { date = "dawn" } }
  local ev = T.resolve()
  local f, e = T.record(ev, "step")
  expect.eq(f.step, "melee")
  expect.eq(e.rule, "9.601")
  expect.eq(kessel.game.step().id, "markers")
  kessel.undo()
  expect.eq(kessel.game.step().id, "melee")
end)
