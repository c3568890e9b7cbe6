-- Campaign data an outside checker met walking the campaign position through the set-up and turns
-- 1-3 (scripts acting through kessel.act and kessel.legal). Run with the scenario loaded:
--   kessel test scenarios/pgg/tests --scenario scenarios/pgg/campaign.toml
local expect = kessel.expect

-- [6.3] Smolensk is the rail junction the notes' railway list names five times (Vitebsk-, Orsha-
-- and Vyazma-Smolensk come in north of the Dnieper, Smolensk-Roslavl and Smolensk-Yelnya leave
-- south of it). The map ran the northern lines into 2216 and started the southern ones in 2217
-- with no railway between the two hexes, so the junction was split: by rail 2217 was 43 rail hexes
-- from 2216 (round by Orsha and Mogilev), and a Soviet stack at Vyazma could not ride to Roslavl.
-- Rail movement ignores terrain [6.3], so the Dnieper between the hexes does not stop the railway:
-- Vyazma 4015 to Smolensk 2216 is 18 rail hexes, across to 2217 one more, on to Roslavl 2626 eleven:
-- 30, the most a rail move may run.
kessel.test("data_6_3_the_railways_meet_at_smolensk_across_the_dnieper", function()
  expect.truthy(kessel.map.has_side("2216", "2217", "railway"), "a railway between Smolensk's two hexes")
  expect.truthy(kessel.map.has_side("2216", "2217", "river"), "the Dnieper still runs between them")
  kessel.setup{ turn = 2, step = "soviet_movement", units = {
    { id = "r", side = "soviet", type = "rifle", faces = { "3-3-6" }, at = "4015" },
    { id = "ldr", side = "soviet", type = "leader", faces = { "0-5-10" }, attrs = { rating = 5 }, at = "4015" },
  } }
  expect.accepted(kessel.validate{ kind = "rail_move", units = { "r" }, path = { "2217" } })
  local ok, events = kessel.act{ kind = "rail_move", units = { "r", "ldr" }, path = { "2626" } }
  expect.accepted(ok, events)
  expect.eq(kessel.units.get("r").hex, "2626", "Vyazma to Roslavl through Smolensk by rail")
end)
