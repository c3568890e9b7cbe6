-- Rule tests for German divisional integrity [7.3] (rules/integrity.lua) and WBC09 #9, #10.

local expect = kessel.expect
local K = require("rules.combat")
local I = require("rules.integrity")

local function reg(id, type_, formation, face, at, extra)
  local a, d, m = face:match("(%d+)-(%d+)-(%d+)")
  local u = { id = id, side = "german", type = type_, formation = formation, faces = { face, math.max(1, a // 2) .. "-" .. math.max(1, d // 2) .. "-" .. m }, at = at }
  for k, v in pairs(extra or {}) do u[k] = v end
  return u
end
local function panzer_division(at, extra)
  return { reg("pz", "panzer", "7 Pz", "4-4-10", at), reg("s1", "rifle_mot", "7 Pz", "2-2-10", at), reg("s2", "rifle_mot", "7 Pz", "2-2-10", extra and extra.s2 or at) }
end
local function setup(units, options)
  units[#units + 1] = { id = "sup", side = "soviet", type = "leader", faces = { "0-5-10" }, attrs = { rating = 5 }, at = "0706" }
  kessel.setup{ map = { columns = 8, rows = 8 }, units = units, step = "german_combat", turn = 7, options = options }
end
local function total(ids, ctx)
  local us = {}
  for _, id in ipairs(ids) do us[#us + 1] = kessel.units.get(id) end
  return (K.attack_total(us, ctx))
end

-- Rule 7.3: a panzer division's three regiments alone in one hex double (8 → 16).
kessel.test("case_7_3_intact_panzer_division_doubles", function()
  setup(panzer_division("0303"))
  expect.truthy(I.intact(kessel.units.get("pz")))
  expect.eq(total{ "pz", "s1", "s2" }, 16)
  expect.eq(K.defence_of({ "0303" }), 16, "defence doubled too")
end)

-- Rule 7.3: not all regiments in the hex, or another unit with them: no doubling.
kessel.test("case_7_3_all_regiments_alone_in_hex", function()
  setup(panzer_division("0303", { s2 = "0304" }))
  expect.eq(total{ "pz", "s1" }, 6)
  local units = panzer_division("0303")
  units[#units + 1] = reg("x", "infantry", "6 Inf", "9-9-7", "0303")
  setup(units)
  local ok, why = I.intact(kessel.units.get("pz"))
  expect.falsy(ok)
  expect.truthy(why:find("shares the hex", 1, true))
end)

-- Rule 7.3: lost for good once a regiment has been lost.
kessel.test("case_7_3_integrity_lost_for_good", function()
  local units = panzer_division("0303")
  units[3] = reg("s2", "rifle_mot", "7 Pz", "2-2-10", nil, { location = "eliminated" })
  setup(units)
  local ok, why = I.intact(kessel.units.get("pz"))
  expect.falsy(ok)
  expect.truthy(why:find("lost a regiment", 1, true))
end)

-- Rule 7.3: motorized divisions have two regiments; SS Das Reich three.
kessel.test("case_7_3_motorized_and_das_reich", function()
  setup{ reg("m1", "motorized", "14 Mot", "3-3-10", "0303"), reg("m2", "motorized", "14 Mot", "3-3-10", "0303"),
    reg("d1", "motorized", "SS DR", "3-3-10", "0505"), reg("d2", "motorized", "SS DR", "3-3-10", "0505"),
    reg("d3", "motorized", "SS DR", "3-3-10", "0506") }
  expect.eq(total{ "m1", "m2" }, 12)
  expect.falsy(I.intact(kessel.units.get("d1")), "Das Reich needs its third regiment")
end)

-- Rule 7.3 / WBC09 #9: divisional integrity doubles before supply and overrun halving, in the
-- standard rules and under WBC09 #9 alike (its example: an intact motorized division out of supply
-- fights as 6, overruns as 3; defence likewise). Only the source-conflict option
-- supply_halving_before_integrity (off in every profile) halves each regiment first, and not
-- while WBC09 #9 is on.
kessel.test("case_7_3_integrity_doubles_before_supply_halving", function()
  local oos = { in_supply = function() return false end }
  local function division(options)
    setup({ reg("m1", "motorized", "14 Mot", "3-3-10", "0303"), reg("m2", "motorized", "14 Mot", "3-3-10", "0303") }, options)
  end
  for _, options in ipairs{ {}, { wbc09_09_integrity_before_halving = true } } do
    division(options)
    expect.eq(total({ "m1", "m2" }, oos), 6, "3 doubled 6, halved 3, each")
    expect.eq(total({ "m1", "m2" }, { in_supply = oos.in_supply, overrun = true }), 3, "overrun out of supply: 3")
    expect.eq(total({ "m1", "m2" }, { overrun = true }), 6, "overrun in supply: 12 halved")
    expect.eq(K.defence_of({ "0303" }, oos), 6, "defence: 3 doubled 6, halved 3, each")
    -- a panzer division's odd regiments: 4 doubled 8 halved 4; 2 doubled 4 halved 2
    setup(panzer_division("0505"), options)
    expect.eq(total({ "pz", "s1", "s2" }, oos), 8, "panzer division out of supply: 4 + 2 + 2")
  end
  division({ supply_halving_before_integrity = true })
  expect.eq(total({ "m1", "m2" }, oos), 4, "the other order: 3 -> 1, doubled 2, each")
  expect.eq(K.defence_of({ "0303" }, oos), 4, "the other order on defence: 3 -> 1, doubled 2, each")
  setup(panzer_division("0505"), { supply_halving_before_integrity = true })
  expect.eq(total({ "pz", "s1", "s2" }, oos), 8, "4 -> 2 doubled 4; 2 -> 1 doubled 2")
  division({ supply_halving_before_integrity = true, wbc09_09_integrity_before_halving = true })
  expect.eq(total({ "m1", "m2" }, oos), 6, "WBC09 #9 on overrides the source-conflict option")
end)

-- WBC09 #10: GD or Lehr may share a two-regiment motorized division's hex without breaking it.
kessel.test("case_7_3_wbc09_10_gd_lehr_with_motorized", function()
  local function units()
    return { reg("m1", "motorized", "14 Mot", "3-3-10", "0303"), reg("m2", "motorized", "14 Mot", "3-3-10", "0303"),
      reg("gd", "motorized", nil, "4-4-10", "0303", { attrs = { independent = 1 } }) }
  end
  setup(units())
  expect.falsy(I.intact(kessel.units.get("m1")), "standard: GD breaks integrity")
  setup(units(), { wbc09_10_integrity_with_gd_lehr = true })
  expect.truthy(I.intact(kessel.units.get("m1")), "WBC09 #10")
  expect.falsy(I.intact(kessel.units.get("gd")), "GD itself is no division")
  -- the exception is for two-regiment motorized divisions only
  local pzd = panzer_division("0505")
  pzd[#pzd + 1] = reg("lehr", "motorized", nil, "3-3-10", "0505", { attrs = { independent = 1 } })
  setup(pzd, { wbc09_10_integrity_with_gd_lehr = true })
  expect.falsy(I.intact(kessel.units.get("pz")))
end)
