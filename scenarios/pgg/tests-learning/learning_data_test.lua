-- The learning scenario ("Race for Smolensk") against its own notes and the campaign's counters.
-- Run with the scenario loaded:
--   kessel test scenarios/pgg/tests-learning --scenario scenarios/pgg/learning.toml
local expect = kessel.expect

-- [15] The notes: the German wins by holding both Smolensk hexes with a line to the west edge at
-- the end of turn 4, anything else is a Soviet win. Smolensk is worth 25 VP, or 20 under the
-- source-conflict option smolensk_vp: held with no Soviet VP against it, either value is a German
-- win; not held, 0, a Soviet win. (The Soviet win used to run up to 24, so with Smolensk at 20 the
-- German could never win.) Soviet VP (whole German divisions destroyed, recaptures) count against
-- Smolensk's as in the campaign: the German wins while his VP exceed the Soviet's.
kessel.test("learning_15_holding_smolensk_wins_at_either_smolensk_value", function()
  local V = require("rules.victory")
  expect.eq(#kessel.scenario.objectives(), 1)
  local o = kessel.scenario.objectives()[1]
  expect.eq(o.name, "Smolensk")
  expect.eq(table.concat(o.hexes, " "), "2216 2217")
  for _, vp in ipairs{ 25, 20 } do
    expect.eq(V.level_for(vp), "German win", "Smolensk held at " .. vp .. " VP")
    expect.eq(V.level_for(vp - 5), "German win", "held at " .. vp .. ", one division lost")
  end
  expect.eq(V.level_for(0), "Soviet win", "Smolensk not held")
  expect.eq(V.level_for(20 - 20), "Soviet win", "held at 20 against 20 Soviet VP")
  expect.eq(V.level_for(-5), "Soviet win")
end)

-- The counters are the campaign's: the same leaders with the same ratings, the same German
-- regiments entering on turn 1 at C [16.2], the Soviet divisions face down [12].
kessel.test("learning_counters_match_the_campaign", function()
  local leaders = { ["s-lukin"] = { "Lukin", 3, "2216" }, ["s-konev"] = { "Konev", 5, "1414" } }
  local german = 0
  for _, u in ipairs(kessel.units.all()) do
    if u.type == "leader" then
      local l = leaders[u.id]
      expect.truthy(l ~= nil, u.id)
      expect.eq(u.name, l[1]); expect.eq(u.attrs.rating, l[2], l[1] .. "'s rating"); expect.eq(u.hex, l[3])
    elseif u.side == "soviet" then
      expect.truthy(u.hidden, u.id .. " is untried"); expect.eq(u.pool, "rifle")
    else
      german = german + 1
      expect.eq(u.enter_turn, 1, u.id); expect.eq(u.enter_area, "C", u.id)
      local face = string.format("%d-%d-%d", u.attack, u.defence, u.movement)
      local want = ({ panzer = "4-4-10", rifle_mot = "2-2-10", motorized = "3-3-10" })[u.type]
      expect.eq(face, want, u.id); expect.eq(u.steps, 2, u.id)
    end
  end
  expect.eq(german, 8)
end)

-- [13] [6.37] The notes promise the full rules: the learning scenario carries the campaign's
-- markers, so the Soviet Interdiction Phase has its three markers [13.4] and the German his six rail
-- cuts [6.37] and three air markers [13.2].
kessel.test("learning_has_the_campaigns_markers", function()
  local count = {}
  for _, m in ipairs(kessel.markers.all{}) do
    local key = m.kind .. "/" .. tostring(m.side)
    count[key] = (count[key] or 0) + 1
  end
  expect.eq(count["air_interdiction/german"], 3)
  expect.eq(count["soviet_interdiction/soviet"], 3)
  expect.eq(count["rail_cut/german"], 6)
  expect.truthy((count["disruption/nil"] or 0) >= 10)
end)


-- [13.2] [5.2] What the notes' turn 1 says: the German's three air markers first, then one die for
-- the 16th Army and one for the 19th, 1-3 to move, 4-6 to stand. A 5 holds the 16th at Smolensk;
-- a 2 lets the 19th march south from 1414 on turn 1.
kessel.test("learning_5_2_turn_1_the_16th_and_19th_armies_roll_to_move", function()
  expect.eq(kessel.queries.ask("deciding_side"), "german", "the air markers come first")
  kessel.inject_dice{ 5, 2 }
  for _, hex in ipairs{ "2016", "2116", "1914" } do
    expect.accepted(kessel.act{ kind = "place_marker", hex = hex })
  end
  expect.eq(kessel.game.var("first_turn_16"), "stand")
  expect.eq(kessel.game.var("first_turn_19"), "move")
  local ok, reasons = kessel.act{ kind = "move", units = { "s-16a-r1" }, path = { "2316" } }
  expect.refused(ok, reasons, "5.2", "stand")
  expect.accepted(kessel.act{ kind = "move", units = { "s-19a-r1", "s-19a-r2", "s-konev" }, path = { "1415", "1416" } })
end)
