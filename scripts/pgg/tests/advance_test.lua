-- Rule tests for advance after combat [9.8] (rules/retreat.lua, rules/combat.lua).
-- 8x8 map; German attacker in 0303, Soviet defender in 0403; 0503's neighbours are
-- 0502 0602 0603 0504 0404 0403. A Soviet leader in 0706 keeps Soviet units in supply.

local expect = kessel.expect

local function pz(id, at, face) return { id = id, side = "german", type = "panzer", formation = "F" .. id, faces = { face or "6-6-10", "1-1-10" }, at = at } end
local function rifle(id, at, face) return { id = id, side = "soviet", type = "rifle", faces = { face or "2-2-6" }, at = at } end
local function leader(id, at, rating) return { id = id, side = "soviet", type = "leader", faces = { "0-" .. rating .. "-10" }, attrs = { rating = rating }, at = at } end

local function setup(units)
  units[#units + 1] = leader("sup", "0706", 5)
  kessel.setup{ map = { columns = 8, rows = 8 }, units = units, step = "german_combat", turn = 7 }
end
local function attack(units, targets) return kessel.act{ kind = "attack", units = units, targets = targets } end
local function advance(units, path) return kessel.act{ kind = "advance", units = units, path = path } end

-- Rule 9.8: advance along the path of retreat, as far as the loser retreated, ignoring enemy ZOC.
kessel.test("case_9_8_advance_along_retreat_path", function()
  setup{ pz("g", "0303", "8-8-10"), rifle("s", "0403") }
  kessel.inject_dice{ 1 } -- 4-1 roll 1: D2
  expect.accepted(attack({ "g" }, { "0403" }))
  expect.accepted(kessel.act{ kind = "choose", choice = "retreat" })
  expect.accepted(kessel.act{ kind = "retreat", units = { "s" }, path = { "0503", "0603" } })
  local p = kessel.game.var("pending")
  expect.eq(p.kind, "advance")
  expect.eq(p.side, "german")
  local ok, r = advance({ "g" }, { "0403", "0504" })
  expect.refused(ok, r, "9.8", "path of retreat")
  ok, r = advance({ "g" }, { "0403", "0503", "0603" })
  expect.refused(ok, r, "9.8")
  -- 0503 is next to the retreated unit (enemy ZOC): advancing ignores it
  expect.accepted(advance({ "g" }, { "0403", "0503" }))
  expect.eq(kessel.units.get("g").hex, "0503")
  expect.eq(kessel.game.var("pending"), nil)
end)

-- Rule 9.8: when the defender's hex was emptied by elimination, two hexes, the first being it.
kessel.test("case_9_8_two_hexes_after_elimination", function()
  setup{ pz("g", "0303", "9-9-10"), rifle("s", "0403", "1-1-6") }
  kessel.inject_dice{ 1 } -- 9-1 roll 1: De
  expect.accepted(attack({ "g" }, { "0403" }))
  local ok, r = advance({ "g" }, { "0402", "0403" })
  expect.refused(ok, r, "9.8")
  expect.accepted(advance({ "g" }, { "0403", "0504" }))
  expect.eq(kessel.units.get("g").hex, "0504")
  expect.truthy(kessel.units.get("g").flags.advanced)
end)

-- Rule 9.8: the advance comes at once, before any other combat; it may be declined.
kessel.test("case_9_8_advance_before_next_combat", function()
  setup{ pz("g", "0303", "9-9-10"), pz("h", "0304", "4-4-10"), rifle("s", "0403", "1-1-6"), rifle("t", "0404", "1-1-6") }
  kessel.inject_dice{ 1 }
  expect.accepted(attack({ "g" }, { "0403" }))
  local ok, r = attack({ "h" }, { "0404" })
  expect.refused(ok, r, "9.8", "decision is waiting")
  expect.accepted(kessel.act{ kind = "advance", skip = true })
  expect.eq(kessel.units.get("g").hex, "0303")
  kessel.inject_dice{ 1 }
  expect.accepted(attack({ "h" }, { "0404" }))
end)

-- Rule 9.8: only victorious units that did not retreat advance; units not in the combat don't.
kessel.test("case_9_8_only_victors_advance", function()
  setup{ pz("g", "0303", "9-9-10"), pz("x", "0304", "4-4-10"), rifle("s", "0403", "1-1-6"), rifle("t", "0606") }
  kessel.inject_dice{ 1 }
  expect.accepted(attack({ "g" }, { "0403" }))
  local ok, r = advance({ "x" }, { "0403" })
  expect.refused(ok, r, "9.8", "only victorious units")
end)

-- Rule 9.8: after an attacker's retreat (A1) the defender may advance into the vacated hex.
kessel.test("case_9_8_defender_advances_after_attacker_retreat", function()
  setup{ pz("g", "0303", "2-2-10"), rifle("s", "0403", "4-4-6") }
  kessel.inject_dice{ 5 } -- 1-2 roll 5: A2
  expect.accepted(attack({ "g" }, { "0403" }))
  expect.accepted(kessel.act{ kind = "choose", choice = "retreat" })
  local legal = kessel.legal("soviet")
  expect.truthy(#legal > 0)
  expect.accepted(kessel.act(legal[1]))
  local p = kessel.game.var("pending")
  expect.eq(p.kind, "advance")
  expect.eq(p.side, "soviet")
  expect.accepted(advance({ "s" }, { "0303" }))
end)
