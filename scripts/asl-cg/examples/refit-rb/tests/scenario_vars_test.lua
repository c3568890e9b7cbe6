-- Rule tests on refit-rb/scenario.toml: the values a scenario's [vars] start with are read by the
-- RB Refit Phase. Run: kessel test scripts/asl-cg/examples/refit-rb/tests --scenario
-- scripts/asl-cg/examples/refit-rb/scenario.toml

local expect = kessel.expect

local function to_step(id)
  expect.accepted(kessel.act{ kind = "start_refit" })
  local n = 0
  while kessel.game.step().id ~= id do
    expect.accepted(kessel.act{ kind = "end_step" })
    n = n + 1
    expect.truthy(n < 40, "the step " .. id .. " is reached")
  end
end

-- [11.6123] the scenario's Booby Trap Level A is in effect: the Russian makes the deactivation dr,
-- and an Original dr of 6 takes it to Level B
kessel.test("case_11.6123_the_scenario_booby_trap_level_is_read", function()
  to_step("date_san")
  kessel.inject_dice{ 6 }  -- the SANs (none given: 0) are raised to 2 with no dr
  local ok, events = kessel.act{ kind = "end_step" }
  expect.accepted(ok, events)
  local texts = {}
  for _, e in ipairs(events) do if e.event == "note" then texts[#texts + 1] = e.text end end
  local all = table.concat(texts, "\n")
  expect.truthy(all:find("Booby Trap deactivation dr", 1, true), all)
  expect.eq(kessel.game.var("booby_trap"), "B")
end)

-- [11.6123] any other dr leaves Level A in effect, and the game holds it for the next CG scenario
kessel.test("case_11.6123_an_unchanged_scenario_level_is_kept", function()
  to_step("date_san")
  kessel.inject_dice{ 5 }
  expect.accepted(kessel.act{ kind = "end_step" })
  expect.eq(kessel.game.var("booby_trap"), "A")
end)

-- [11.602] [11.6073] the scenario's hidden Set DC (var `hidden`) is hidden from the Russian from
-- the set-up on, and stays hidden in its friendly-Controlled Location after 11.6073; the German
-- sees it
kessel.test("case_11.6073_the_scenarios_hidden_set_dc_is_hidden_from_the_russian", function()
  local function sees(side)
    for _, u in ipairs(kessel.game.view(side).units) do if u.id == "gdc" then return true end end
    return false
  end
  expect.falsy(sees("russian"), "hidden at set-up")
  expect.truthy(sees("german"))
  to_step("prisoners")
  expect.eq(kessel.units.get("gdc").location, "map")
  expect.falsy(sees("russian"), "still hidden after 11.6073")
end)
