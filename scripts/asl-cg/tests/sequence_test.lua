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

-- [9.605] [9.6162] [11.606] a game of a campaign starts with no record of the last CG scenario and
-- its RePh: Setup Areas, the players' Isolated Areas and No Man's Land, the CVP lost, the winner —
-- which a campaign carrying `vars = "all"` brings along — are dropped, each named in a note; what
-- is the campaign's (the date, the SAN, a Massacre for the next CG scenario [11.608]) stays.
-- Before, the carried CVP were added to by the next scenario's fighting, and the carried
-- `isolated_areas` hid the next scenario's own.
kessel.test("case_9.605_11.606_a_campaign_game_starts_without_the_last_scenarios_records", function()
  local S = require("rules.sequence")
  T.setup{ module = "rb", main = true, vars = { date = "19oct", san = { german = 3, russian = 4 }, massacre = true,
    cvp_lost = { german = 12, russian = 30 }, scenario_winner = "german",
    isolated_areas = { { hexes = { "C5" }, type = "C" } }, no_mans_land = { "D5" } } }
  local dropped = S.drop_last_games_records()
  -- (T.setup marks the scenario ended, as a RePh position is)
  expect.eq(table.concat(dropped, " "), "cvp_lost isolated_areas no_mans_land scenario_ended scenario_winner")
  for _, key in ipairs(dropped) do expect.eq(kessel.game.var(key), nil, key) end
  expect.eq(kessel.game.var("date"), "19oct")
  expect.eq(kessel.game.var("san").russian, 4)
  expect.eq(kessel.game.var("massacre"), true, "a Massacre is for the next CG scenario")
  T.setup{ main = true, vars = { date = "day_i", setup_areas = { hexes = {}, areas = { british = {}, german = {} } } } }
  expect.eq(table.concat(S.drop_last_games_records(), " "), "scenario_ended setup_areas")
  expect.eq(kessel.game.var("setup_areas"), nil, "9.605: the Setup Areas hold until the start of the next CG scenario")
end)

-- [11.6121] [11.616] [11.617] What an Idle Day records is that CG Day's (its Attack chits and
-- purchases, the Idle Days since the last-completed scenario, the count of scenarios since it):
-- the scenario generated after it is fought, and the RePh after that one reads its own. A campaign
-- carrying every variable starts that scenario without them (the setup hook drops them), so its
-- ELR DR has no Idle Day DRM, no Attack chit or purchase of the Idle Day, and +2 for the one
-- scenario completed since the Idle Day. Before, they carried: the ELR DR took -2 for the old
-- Idle Day, +1 for its Attack chit and -2 for its purchases, and counted no scenario (+0).
kessel.test("case_11.6121_an_idle_days_records_end_with_the_next_scenario", function()
  local S = require("rules.sequence")
  T.setup{ module = "rb", step = "scenario_generation", vars = { date = "19oct", elr = { german = 3, russian = 3 },
    elr_scenarios = { german = 1, russian = 1 } } }
  expect.accepted(kessel.act{ kind = "idle_day", attack_chit = { german = true }, bought = { russian = { first_line = 2 } } })
  while kessel.game.step().id ~= "scenario_generation" do T.resolve() end
  expect.eq(kessel.game.var("date"), "20oct")
  -- the 20 Oct scenario: a campaign carrying every variable hands it what this game left
  local carried = {}
  for _, k in ipairs({ "date", "previous_date", "elr", "elr_scenarios", "san", "attack_chit", "bought_previous_day",
    "idle_days", "initial_scenario", "scenario_winner", "cvp_lost" }) do
    carried[k] = kessel.game.var(k)
  end
  expect.eq(carried.idle_days.german, 1, "the Idle Day was counted")
  T.setup{ module = "rb", step = "elr", vars = carried }
  local dropped = table.concat(S.drop_last_games_records(), " ")
  for _, k in ipairs({ "attack_chit", "bought_previous_day", "idle_days", "initial_scenario" }) do
    expect.truthy(dropped:find(k, 1, true), k .. " dropped: " .. dropped)
    expect.eq(kessel.game.var(k), nil, k)
  end
  kessel.inject_dice{ 3, 3, 3, 3 }
  local ev = T.resolve()
  T.has_note(ev, "german ELR DR 6+2 = 8 (+2 1 scenario(s) completed since the CG start or an Idle Day (counted))")
  T.has_note(ev, "russian ELR DR 6+2 = 8 (+2 1 scenario(s) completed since the CG start or an Idle Day (counted))")
end)
