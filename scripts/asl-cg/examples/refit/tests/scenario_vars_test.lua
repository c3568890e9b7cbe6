-- Rule tests on refit/scenario.toml: the values a Pegasus Bridge scenario's [vars] give are read by
-- the Refit Phase. Run: kessel test scripts/asl-cg/examples/refit/tests --scenario
-- scripts/asl-cg/examples/refit/scenario.toml

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

-- [9.61222] the scenario says the Germans Control the building in II13 (its map has no II13): the
-- German SAN 4 is unadjusted and no German dr is made; the British SAN 4 makes its dr (3 + 0 = 3:
-- kept)
kessel.test("case_9.61222_the_scenario_says_the_germans_hold_ii13", function()
  to_step("date_san")
  kessel.inject_dice{ 3, 6 }
  local ok, events = kessel.act{ kind = "end_step" }
  expect.accepted(ok, events)
  local texts, san_drs = {}, 0
  for _, e in ipairs(events) do
    if e.event == "note" then texts[#texts + 1] = e.text end
    if e.event == "dice" and e.purpose == "san" then san_drs = san_drs + 1 end
  end
  local all = table.concat(texts, "\n")
  expect.truthy(all:find("[9.61222] the Germans Control the building in II13: German SAN unadjusted", 1, true), all)
  expect.eq(san_drs, 1, "the British dr only")
  expect.eq(kessel.game.var("san").german, 4, "a dr of 6 would have lowered it to 2")
end)
