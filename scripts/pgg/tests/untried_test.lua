-- Rule tests for untried Soviet units [12] (rules/untried.lua).

local expect = kessel.expect

local function pz(id, at, face) return { id = id, side = "german", type = "panzer", formation = "F" .. id, faces = { face or "6-6-10", "1-1-10" }, at = at } end
local function hidden(id, at, pool) return { id = id, side = "soviet", type = pool == "armour" and "tank" or "rifle", hidden = true, pool = pool or "rifle", at = at } end
local function leader(id, at, rating) return { id = id, side = "soviet", type = "leader", faces = { "0-" .. rating .. "-10" }, attrs = { rating = rating }, at = at } end
local function setup(units, pools, extra)
  extra = extra or {}
  units[#units + 1] = leader("sup", "0706", 5)
  kessel.setup{ map = { columns = 8, rows = 8 }, units = units, step = extra.step or "german_combat", turn = 7, pools = pools, options = extra.options }
end
local function attack(units, targets) return kessel.act{ kind = "attack", units = units, targets = targets } end

-- Rule 12.2: an untried unit is revealed when attacked; its drawn values defend.
kessel.test("case_12_2_revealed_when_attacked", function()
  setup({ pz("g", "0303"), hidden("s", "0403") }, { rifle = { "3-3-6" } })
  expect.eq(kessel.units.get("s").defence, nil, "nobody knows a hidden value")
  kessel.inject_dice{ 1, 6 } -- draw, then 6 against 3: 2-1, roll 6: A1
  local events = expect.accepted(attack({ "g" }, { "0403" }))
  expect.eq(kessel.units.get("s").defence, 3)
  expect.eq(#kessel.game.pool("rifle"), 0, "the counter left the pool")
  local seen = false
  for _, e in ipairs(events) do if e.text and e.text:find("against defence 3", 1, true) then seen = true end end
  expect.truthy(seen)
end)

-- Rule 12.3: a 0-0 dud is removed on reveal and counts as eliminated; the attacker may advance.
kessel.test("case_12_3_dud_removed_on_reveal", function()
  setup({ pz("g", "0303"), hidden("s", "0403") }, { rifle = { "0-0-6" } })
  kessel.inject_dice{ 1 }
  expect.accepted(attack({ "g" }, { "0403" }))
  expect.eq(kessel.units.get("s").location, "eliminated")
  expect.eq(kessel.game.var("dud_pile")[1], "s", "its own pile [12.4]")
  local p = kessel.game.var("pending")
  expect.eq(p.kind, "advance", "the hex is empty: advance two hexes")
  expect.accepted(kessel.act{ kind = "advance", units = { "g" }, path = { "0403", "0503" } })
  -- a 0 tank too
  setup({ pz("g", "0303"), hidden("t", "0403", "armour") }, { armour = { "0-0-10" } })
  kessel.inject_dice{ 1 }
  expect.accepted(attack({ "g" }, { "0403" }))
  expect.eq(kessel.units.get("t").location, "eliminated")
end)

-- Rule 12.3: an untried unit revealed as 0-1-6 while attacking takes no part in the attack.
kessel.test("case_12_3_zero_one_revealed_in_attack", function()
  setup({ hidden("a", "0403"), hidden("b", "0403"), pz("g", "0303", "2-2-10"), leader("l", "0403", 2) },
    { rifle = { "0-1-6", "4-4-6" } }, { step = "soviet_combat" })
  kessel.inject_dice{ 1, 1, 1 } -- a draws 0-1-6, b draws 4-4-6, then 4+2 against 2: 3-1, roll 1: D2
  local events = expect.accepted(attack({ "a", "b", "l" }, { "0303" }))
  local seen = false
  for _, e in ipairs(events) do if e.text and e.text:find("no attack strength: it takes no part", 1, true) then seen = true end end
  expect.truthy(seen)
  expect.eq(kessel.game.var("combat").attackers[1], "b")
end)

-- Rule 12.4: eliminated Soviet divisions go to the dead pile.
kessel.test("case_12_4_dead_pile", function()
  setup({ pz("g", "0303", "9-9-10"), hidden("s", "0403") }, { rifle = { "1-1-6" } })
  kessel.inject_dice{ 1, 1 } -- draw, then 9-1 roll 1: De
  expect.accepted(attack({ "g" }, { "0403" }))
  expect.eq(kessel.game.var("dead_pile")[1], "s")
end)

-- Option two_zero_one_rifles: the first 1-1-6 drawn counts as a second 0-1-6.
kessel.test("case_12_3_two_zero_one_rifles_option", function()
  setup({ pz("g", "0303"), hidden("s", "0403") }, { rifle = { "1-1-6" } }, { options = { two_zero_one_rifles = true } })
  kessel.inject_dice{ 1, 6 }
  expect.accepted(attack({ "g" }, { "0403" }))
  local s = kessel.units.get("s")
  expect.truthy(s.flags.no_attack)
  expect.eq(kessel.game.var("second_zero_one"), "s")
  local U = require("rules.untried")
  expect.falsy(U.may_attack(s))
end)
