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

-- Soviet units in `hex` that are not leaders.
local function combat_units_at(hex)
  local n = 0
  for _, u in ipairs(kessel.units.at(hex)) do
    if u.type ~= "leader" then n = n + 1 end
  end
  return n
end

-- [5.1] [13.2] [5.2] [14.1] [13.33] The pre-game and the first Soviet Movement Phase played on the
-- real position, as a player would: the set-up as printed, the German's three initial air markers
-- (the third rolls for the 16th and 19th Armies and then for the provisional division), and every
-- unit of the 13th and 20th Armies moved from its printed hex with its whole allowance, north,
-- south or east only, ending outside columns 01-02; the 24th, 16th and 19th Armies brought down to
-- the stacking limit (the standing 19th by a one-hex shift). The phase then ends, the air markers
-- come off, and the German's entry area C (0108-0115, where the 20th Army set up) is clear.
kessel.test("data_5_2_the_first_soviet_movement_phase_on_the_campaign_position", function()
  expect.accepted(kessel.act{ kind = "end_setup" })
  expect.eq(kessel.queries.ask("deciding_side"), "german", "the initial air markers come next [13.2]")
  expect.accepted(kessel.act{ kind = "place_marker", hex = "4015" })
  expect.accepted(kessel.act{ kind = "place_marker", hex = "2216" })
  kessel.inject_dice{ 2, 5, 3 }
  expect.accepted(kessel.act{ kind = "place_marker", hex = "1414" })
  expect.eq(kessel.game.var("first_turn_16"), "move", "a 2 moves the 16th Army")
  expect.eq(kessel.game.var("first_turn_19"), "stand", "a 5 holds the 19th Army")
  expect.eq(kessel.game.var("provisional_last").hex, "5101", "a 3: provisional entrance 3")
  -- the 13th and 20th: every unit spends its whole allowance [5.2]
  local movers = {}
  for _, u in ipairs(kessel.units.all{ side = "soviet" }) do
    local army = u.formation or ""
    if u.location == "map" and (army:find("13", 1, true) or army:find("20", 1, true)) then
      movers[#movers + 1] = u.id
    end
  end
  expect.eq(#movers, 20, "13th: 7 rifle, 1 armour, Remezov; 20th: 6 rifle, 4 armour, Kurochkin")
  for _, id in ipairs(movers) do
    local u = kessel.units.get(id)
    local full = u.type == "rifle" and 6 or 10
    local from = u.hex
    local pick
    for _, x in ipairs(kessel.queries.ask("reach", { units = { id } }).reachable) do
      expect.truthy(tonumber(x.hex:sub(1, 2)) > 2, id .. " may not end in columns 01-02: " .. x.hex)
      if x.cost >= full and (u.type == "leader" or combat_units_at(x.hex) < 3) then
        if not pick or x.hex > pick.hex then pick = x end
      end
    end
    expect.truthy(pick, id .. " finds a move of its whole allowance from " .. from)
    expect.accepted(kessel.act{ kind = "move", units = { id }, path = pick.path or { pick.hex } })
    expect.eq(kessel.queries.ask("mp_left", { unit = id }).left, 0, id .. " has spent everything")
  end
  -- the single-hex armies down to three combat units a hex [7.1]
  local ok, why = kessel.act{ kind = "move", units = { "s-19a-r1" }, path = { "1314", "1214" } }
  expect.refused(ok, why, "5.2", "may shift one hex only")
  expect.accepted(kessel.act{ kind = "move", units = { "s-19a-r1" }, path = { "1314" } })
  for _, id in ipairs{ "s-16a-r1", "s-16a-r2", "s-16a-r3" } do
    expect.accepted(kessel.act{ kind = "move", units = { id }, path = { "2217" } })
  end
  for _, id in ipairs{ "s-24a-r1", "s-24a-r2", "s-24a-r3" } do
    expect.accepted(kessel.act{ kind = "move", units = { id }, path = { "4016" } })
  end
  expect.accepted(kessel.act{ kind = "end_phase" })
  for _, m in ipairs(kessel.markers.all()) do
    if m.kind == "air_interdiction" then expect.eq(m.hex, nil, "German air markers off at the phase's end [13.33]") end
  end
  for _, h in ipairs{ "0108", "0109", "0110", "0111", "0112", "0113", "0114", "0115" } do
    expect.eq(#kessel.units.at(h), 0, "area C clear for the German's turn-1 entry: " .. h)
  end
end)
