-- Positions put on the campaign's own map, as docs/lua-api.md ("A PGG position of your own")
-- teaches: `kessel.setup` without `map` keeps the loaded scenario's map and objectives. Run with
-- the scenario loaded:
--   kessel test scenarios/pgg/tests --scenario scenarios/pgg/campaign.toml
local expect = kessel.expect

-- [9.3] [15] Smolensk across the Dnieper (between 2216 and 2217, pgg-facts.md): a Soviet attack
-- from 2216 on a German division in 2217 meets a major city and a river crossed by every attacker,
-- ×3; the `score` query gives each Smolensk hex its owner, and the city is not German-held while
-- one of its hexes is Soviet.
kessel.test("case_9_3_15_smolensk_across_the_dnieper_on_the_campaign_map", function()
  kessel.setup{ turn = 6, step = "soviet_combat", units = {
    { id = "g", side = "german", type = "infantry", formation = "5 Inf", faces = { "9-9-7", "4-4-7", "2-2-7", "1-1-7" }, at = "2217" },
    { id = "s", side = "soviet", type = "rifle", faces = { "9-9-6" }, at = "2216" },
    { id = "ldr", side = "soviet", type = "leader", faces = { "0-5-10" }, attrs = { rating = 5 }, at = "2216" },
  } }
  expect.truthy(kessel.map.has_side("2216", "2217", "river"))
  local odds = kessel.queries.ask("odds", { units = { "s" }, targets = { "2217" } })
  expect.eq(odds.defence, 27, "9, major city and river: ×3")
  local score = kessel.queries.ask("score")
  local smolensk
  for _, o in ipairs(score.objectives) do if o.name == "Smolensk" then smolensk = o end end
  expect.eq(smolensk.vp, 25)
  expect.eq(smolensk.hexes[1].hex .. "=" .. smolensk.hexes[1].side, "2216=soviet")
  expect.eq(smolensk.hexes[2].hex .. "=" .. smolensk.hexes[2].side, "2217=german")
  expect.eq(#score.held, 0)
  expect.eq(score.german_vp, 0)
end)
