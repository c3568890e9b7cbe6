-- Rule tests for the house rules of this variant. They start from the scenario beside them (the
-- campaign map), so `kessel test docs/examples/pgg-guards` loads guards.lua and bloody_crt.lua.
local expect = kessel.expect

-- A rifle division in Smolensk (2217, a major city in clear terrain) or Yartsevo (2714, a minor
-- city) under attack by a panzer regiment from a hex with no river between. A Soviet leader beside
-- the defender keeps it in supply from the east edge [11.2]; the attack is asked of the odds query,
-- which adds up every defence modifier as the attack itself does.
local function position(opts)
  kessel.setup{
    units = {
      { id = "r", side = "soviet", type = opts.type or "rifle", faces = { opts.face or "2-3-6" }, at = opts.at or "2217" },
      { id = "ldr", side = "soviet", type = "leader", faces = { "0-3-10" }, attrs = { rating = 3 }, at = opts.leader or "2216" },
      { id = "g", side = "german", type = "panzer", formation = "18 Pz", faces = { "4-4-10", "2-2-10" }, at = opts.from or "2218" },
    },
    turn = 3, step = "german_combat",
    options = { guards = opts.guards == true, bloody_3_1 = false },
  }
end

local function odds(target)
  return kessel.queries.ask("odds", { units = { "g" }, targets = { target } })
end

local function g1_line(answer)
  for _, m in ipairs(answer.defence_modifiers or {}) do
    if m.rule == "G1" then return m end
  end
  return nil
end

-- [G1] on: the division's defence in a major city, doubled [9.3], gains 1.
kessel.test("case_G1_rifle_in_a_major_city_adds_one", function()
  position{ guards = false }
  local off = odds("2217")
  expect.falsy(g1_line(off), "no G1 line with the house rule off")
  position{ guards = true }
  local on = odds("2217")
  expect.eq(on.defence, off.defence + 1, "defence with Guards")
  local line = g1_line(on)
  expect.truthy(line, "a G1 line among the defence modifiers")
  expect.truthy(line.message:find("Smolensk", 1, true), "the line names the city")
end)

-- [G1] [B1] are off unless a profile or --option turns them on: under the scenario's own profile
-- (`standard`, as `kessel test` runs these tests unless told otherwise) the game is the published
-- one. (Run under guards.toml, the house rule is on, as it should be.)
kessel.test("case_G1_B1_off_in_the_scenarios_profile", function()
  if kessel.game.profile() ~= "standard" then return end
  expect.eq(kessel.game.option("guards"), false, "guards under standard")
  expect.eq(kessel.game.option("bloody_3_1"), false, "bloody_3_1 under standard")
end)

-- [G1] only a major city: a minor city [9.3] gives nothing.
kessel.test("case_G1_not_in_a_minor_city", function()
  position{ guards = false, at = "2714", leader = "2614", from = "2715" }
  local off = odds("2714")
  position{ guards = true, at = "2714", leader = "2614", from = "2715" }
  local on = odds("2714")
  expect.eq(on.defence, off.defence, "Yartsevo is a minor city")
  expect.falsy(g1_line(on), "no G1 line in a minor city")
end)

-- [G1] only rifle divisions: a tank division in the city defends as printed.
kessel.test("case_G1_not_for_a_tank_division", function()
  position{ guards = true, type = "tank", face = "3-3-10" }
  expect.falsy(g1_line(odds("2217")), "no G1 line for a tank division")
end)

-- [G1] counts in the attack itself, not only in the query: the combat record's defence has it.
kessel.test("case_G1_in_the_roll_of_an_attack", function()
  position{ guards = true }
  local asked = odds("2217")
  kessel.inject_dice{ 6 }
  expect.accepted(kessel.act{ kind = "attack", units = { "g" }, targets = { "2217" } })
  local c = kessel.log.records{ kind = "combat", last = 1 }[1].fields
  expect.eq(c.defence, asked.defence, "the attack's defence is the query's")
  local found = false
  for _, m in ipairs(c.defence_modifiers) do if m.rule == "G1" then found = true end end
  expect.truthy(found, "the combat record names G1")
end)

-- [B1] on: the 3-1 column reads one roll lower (roll 6 gives the printed roll 5's D1/A1, not the
-- Eng); the other columns are the printed ones.
kessel.test("case_B1_bloody_3_1_column", function()
  local cols = kessel.tables.columns("crt")
  local c31, c21
  for i, label in ipairs(cols) do
    if label == "3-1" then c31 = i elseif label == "2-1" then c21 = i end
  end
  position{ guards = false }
  local printed6, printed5 = kessel.tables.result("crt", c31, 6), kessel.tables.result("crt", c31, 5)
  local other = kessel.tables.result("crt", c21, 6)
  expect.eq(printed6, "Eng", "the printed 3-1 at roll 6")
  kessel.setup{ options = { bloody_3_1 = true } }
  expect.eq(kessel.tables.result("crt", c31, 6), printed5, "B1: roll 6 reads the printed roll 5")
  expect.eq(kessel.tables.result("crt", c31, 1), "D2", "B1: roll 1 keeps its D2")
  expect.eq(kessel.tables.result("crt", c21, 6), other, "B1 leaves the 2-1 column alone")
end)
