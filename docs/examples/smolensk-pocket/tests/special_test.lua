-- Rule tests of The Smolensk pocket: `kessel test` on the scenario folder runs every kessel.test
-- here, each from the scenario's set-up (turn 7 of the campaign, on a cut of its map).
local expect = kessel.expect
local V = require("rules.victory")
local S = require("rules.supply")

kessel.test("scenario_runs_turns_7_to_12", function()
  expect.eq(kessel.game.turn(), 7, "first_turn in scenario.toml")
  expect.eq(kessel.game.last_turn(), 12, "turns in scenario.toml")
end)

-- The legal actions at the start must pass the rules' own checks.
kessel.test("legal_actions_at_the_start_are_valid", function()
  for _, a in ipairs(kessel.legal()) do
    local ok, reasons = kessel.validate(a)
    expect.accepted(ok, reasons)
  end
end)

-- A game that starts on turn 7 has none of the pre-game steps of turn 1: no initial air markers
-- to place [13.2], no first-turn die [5.2]; the Soviet moves at once.
kessel.test("turn_7_starts_with_the_soviet_movement_phase", function()
  expect.eq(kessel.game.step().id, "soviet_movement")
  for _, a in ipairs(kessel.legal()) do
    expect.truthy(a.kind ~= "end_air_placement" and a.kind ~= "first_turn_roll" and a.kind ~= "end_setup", a.kind)
  end
  expect.accepted(kessel.act{ kind = "move", units = { "s-24a-r4" }, path = { "3120" } })
end)

-- [15] this scenario's Smolensk is worth 15, whatever option smolensk_vp says (it stands in for
-- the campaign's printed 25 only).
kessel.test("case_15_smolensk_is_worth_this_scenarios_15", function()
  for _, o in ipairs(V.objectives()) do
    if o.name == "Smolensk" then expect.eq(o.vp, 15, "the objective's own value") end
  end
  local total = 0
  for _, o in ipairs(V.objectives()) do total = total + o.vp end
  expect.eq(total, 35, "15 + 10 + 5 + 5")
end)

-- [11.1] [11.2] supply on the cut: the German traces to this map's west edge and to the road
-- supply source tagged at 1419; the Soviet leaders trace to this map's east edge (column 34).
kessel.test("case_11_supply_runs_to_the_edges_of_the_cut", function()
  expect.truthy(S.in_supply("g-18pz-pz", "movement"), "18 Pz near Krasny, by the highway")
  expect.truthy(S.in_supply("g-10pz-pz", "movement"), "10 Pz on the Yelnya road")
  expect.truthy(S.in_supply("s-rakutin", "movement"), "Rakutin, east of the Germans")
  expect.truthy(S.in_supply("s-24a-r1", "movement"), "a division of the 24th Army in his radius")
end)
