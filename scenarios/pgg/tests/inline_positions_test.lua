-- A position built inline over the loaded campaign, as a tester builds one with
-- `kessel script FILE.lua --scenario scenarios/pgg/campaign.toml`: `kessel.setup{ map = ... }`
-- replaces the campaign's map, and the rules must play on the new one. Run with the scenario
-- loaded:
--   kessel test scenarios/pgg/tests --scenario scenarios/pgg/campaign.toml
local expect = kessel.expect

local function units()
  return {
    { id = "g", name = "g", side = "german", type = "panzer", formation = "Fg", faces = { "4-4-10", "2-2-10" }, at = "0303" },
    { id = "s", name = "s", side = "soviet", type = "rifle", faces = { "3-3-6" }, at = "0606" },
    { id = "l", name = "l", side = "soviet", type = "leader", faces = { "0-3-10" }, attrs = { rating = 3 }, at = "0607" },
  }
end

-- [15] [4] The victory rules read the scenario's objectives at the end of every step; on an inline
-- 7x7 map the campaign's cities (Vitebsk 0412 first) are not hexes of the map, and ending any
-- phase stopped the script with "`0412` is not a hex of this map" (rules/victory.lua). The
-- scenario's objectives count only when their hexes are on the map in play; an inline position
-- names its own in game var `objectives`, as without a scenario.
kessel.test("case_15_an_inline_map_over_the_campaign_plays_and_scores_its_own_objectives", function()
  kessel.setup{ map = { columns = 7, rows = 7 }, step = "german_movement", turn = 5, units = units() }
  expect.accepted(kessel.act{ kind = "move", units = { "g" }, path = { "0304" } })
  -- two whole game-turns, phase by phase
  for _ = 1, 18 do expect.accepted(kessel.act{ kind = "end_phase" }) end
  expect.eq(kessel.game.turn(), 7)
  expect.eq(kessel.game.step().id, "german_movement")
  -- the final score, with the position's own objective
  kessel.setup{ map = { columns = 7, rows = 7 }, step = "german_air_interdiction", turn = 12, units = units(),
    vars = { objectives = { { name = "Town", vp = 10, hexes = { "0303" } } } } }
  local ok, ev = kessel.act{ kind = "end_phase" }
  expect.accepted(ok, ev)
  local score
  for _, e in ipairs(ev) do if e.text and e.text:find("final score", 1, true) then score = e end end
  expect.truthy(score, "the game is scored")
  expect.eq(score.rule, "15")
  expect.truthy(score.text:find("German 10, Soviet 0", 1, true), score.text)
  expect.truthy(kessel.game.finished())
end)
