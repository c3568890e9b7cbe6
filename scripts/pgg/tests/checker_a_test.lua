-- An outside rules checker's situations (round 39, checker A): each position built from the
-- documented API alone (docs/lua-api.md, "A PGG position of your own"), its outcome the one the
-- reference material asks for. Situations the other test files already hold are not repeated here.
local expect = kessel.expect

local function inf(id, at, a) return { id = id, side = "german", type = "infantry", faces = { (a or 9) .. "-" .. (a or 9) .. "-7", "4-4-7", "2-2-7", "1-1-7" }, at = at } end
local function pz(id, at, a) return { id = id, side = "german", type = "panzer", formation = id, faces = { a .. "-" .. a .. "-10", "1-1-10" }, at = at } end
local function rifle(id, at, face, extra)
  local u = { id = id, side = "soviet", type = "rifle", faces = { face or "3-3-6" }, at = at }
  for k, v in pairs(extra or {}) do u[k] = v end
  return u
end
local function leader(id, at, rating) return { id = id, side = "soviet", type = "leader", faces = { "0-" .. rating .. "-10" }, attrs = { rating = rating }, at = at } end

local function odds(units, targets, overrun)
  return kessel.queries.ask("odds", { units = units, targets = targets, overrun = overrun })
end
local function last_combat() return kessel.log.records{ kind = "combat", last = 1 }[1].fields end

-- [6.5] [9.4] The odds of an overrun can be asked before the die is rolled, as those of an attack
-- can: the attack halved after every other modifier, the overrun's own refusals (a unit short of
-- the 3 MP, a phase with no overruns), and the column the roll is then made on.
kessel.test("case_6_5_the_odds_query_answers_for_an_overrun", function()
  kessel.setup{ map = { columns = 15, rows = 15 }, step = "german_movement", turn = 7, run_step_start = true,
    units = { pz("p", "0404", 9), inf("i", "0303"), rifle("d", "0505", "2-2-6"), leader("ld", "0805", 5) } }
  local o = odds({ "p" }, { "0505" }, true)
  expect.eq(o.attack, 4, "9 halved, fraction dropped [6.5]")
  expect.eq(o.defence, 2)
  expect.eq(o.label, "2-1")
  expect.eq(o.legal, true, "an overrun may be made now")
  expect.eq(o.cost, 3, "the overrun's MP [6.5]")
  local halved = false
  for _, m in ipairs(o.attack_modifiers) do if m.rule == "6.5" then halved = true end end
  expect.truthy(halved, "a modifier line cites the halving [6.5]")
  -- without the flag the query answers for an attack, which this phase does not allow
  local plain = odds({ "p" }, { "0505" })
  expect.eq(plain.attack, 9)
  expect.eq(plain.legal, false, "no attack in a Movement Phase [9.1]")
  -- the roll is made on the column the query gave
  kessel.inject_dice{ 6 }
  expect.accepted(kessel.act{ kind = "overrun", units = { "p" }, target = "0505" })
  expect.eq(last_combat().attack, o.attack)
  expect.eq(last_combat().odds, o.label)

  -- a unit with fewer than 3 MP left: the overrun's own refusal
  kessel.setup{ map = { columns = 15, rows = 15 }, step = "german_movement", turn = 7, run_step_start = true,
    units = { inf("i", "0104"), rifle("d", "0705", "1-1-6"), leader("ld", "1005", 5) } }
  expect.accepted(kessel.act{ kind = "move", units = { "i" }, path = { "0204", "0304", "0404", "0504", "0604" } })
  local short = odds({ "i" }, { "0705" }, true)
  expect.eq(short.legal, false)
  expect.refused(false, short.reasons, "6.5", "costs 3")
  -- one hex only: an overrun has a single target [6.5]
  local two = odds({ "i" }, { "0705", "0704" }, true)
  expect.eq(two.legal, false)
  expect.refused(false, two.reasons, "6.5", "one hex")
  -- WBC09 #15: a Soviet interdiction marker on the hex adds 1 MP to the overrun, and the answer says so
  kessel.setup{ map = { columns = 15, rows = 15 }, step = "german_movement", turn = 7, run_step_start = true,
    units = { pz("p", "0404", 8), rifle("d", "0505", "1-1-6"), leader("ld", "0805", 5) },
    markers = { { kind = "soviet_interdiction", side = "soviet", at = "0505" } },
    options = { wbc09_15_interdiction_on_overrun_cost = true } }
  expect.eq(odds({ "p" }, { "0505" }, true).cost, 4)
  -- in a Combat Phase no overrun is made
  kessel.setup{ map = { columns = 15, rows = 15 }, step = "german_combat", turn = 7,
    units = { pz("p", "0404", 8), rifle("d", "0505", "1-1-6"), leader("ld", "0805", 5) } }
  local combat = odds({ "p" }, { "0505" }, true)
  expect.eq(combat.legal, false)
  expect.refused(false, combat.reasons, "6.5", "Movement Phase")
  -- asked about an overrun, the answer speaks of an overrun: an empty list cites 6.5, and a unit
  -- off the map is named once (the overrun's own check), not once more under 9.1
  kessel.setup{ map = { columns = 15, rows = 15 }, step = "german_movement", turn = 7,
    units = { pz("p", "0404", 8), { id = "gone", side = "german", type = "infantry", faces = { "4-4-7" } },
      rifle("d", "0505", "1-1-6"), leader("ld", "0805", 5) } }
  local empty = odds({}, {}, true)
  expect.refused(false, empty.reasons, "6.5", "an overrun needs attacking units")
  expect.refused(false, empty.reasons, "6.5", "an overrun needs a defending hex")
  local off = odds({ "p", "gone" }, { "0505" }, true)
  local named = 0
  for _, r in ipairs(off.reasons) do
    expect.truthy(r.rule ~= "9.1", "no attack wording in an overrun's answer: " .. r.message)
    if r.message:find("not on the map", 1, true) then named = named + 1 end
  end
  expect.eq(named, 1, "the unit off the map is named once")
end)

local function attack(units, targets, roll)
  kessel.inject_dice{ roll }
  expect.accepted(kessel.act{ kind = "attack", units = units, targets = targets })
end

-- [9.73] A unit retreated onto friends adds nothing to their defence "that phase" only: one that
-- retreated in the German Combat Phase defends with them against an overrun in the Mechanized
-- Movement Phase that follows. Board: a (9-9-7) in 0404 attacks d (3-3-6) in 0505 at 3-1, roll 3:
-- D1; every way out but onto f (3-3-6) in 0506 is in a German zone (blk in 0704 covers 0604, p in
-- 0606 covers 0605 and 0506, a covers 0504 and 0405), so d retreats onto f.
kessel.test("case_9_73_a_unit_retreated_in_combat_defends_normally_against_a_later_phase_overrun", function()
  kessel.setup{ map = { columns = 15, rows = 15 }, step = "german_combat", turn = 7,
    units = { inf("a", "0404"), pz("p", "0606", 20), inf("blk", "0704", 1), rifle("d", "0505"), rifle("f", "0506"), leader("ld", "0406", 3) } }
  attack({ "a" }, { "0505" }, 3)
  expect.accepted(kessel.act{ kind = "choose", choice = "retreat" })
  expect.accepted(kessel.act{ kind = "retreat", units = { "d" }, path = { "0506" } })
  expect.eq(odds({ "p" }, { "0506" }).defence, 3, "in the Combat Phase d adds nothing [9.73]")
  expect.accepted(kessel.act{ kind = "advance", skip = true })
  expect.accepted(kessel.act{ kind = "end_phase" })
  expect.eq(kessel.game.step().id, "german_mech_movement")
  expect.eq(odds({ "p" }, { "0506" }, true).defence, 6, "a later phase: both defend")
  kessel.inject_dice{ 6 }
  expect.accepted(kessel.act{ kind = "overrun", units = { "p" }, target = "0506" })
  expect.eq(last_combat().defence, 6)
end)

-- [8] [11.3] Supply never touches the zone of control: a Soviet rifle with no leader anywhere
-- (out of supply) still stops a German unit passing next to it.
kessel.test("case_8_11_3_an_out_of_supply_unit_keeps_its_zone_of_control", function()
  kessel.setup{ map = { columns = 15, rows = 15 }, step = "german_movement", turn = 7, run_step_start = true,
    units = { inf("g", "0305"), rifle("s", "0505") } }
  expect.eq(kessel.queries.ask("supply", { unit = "s" }).in_supply, false)
  local ok, reasons = kessel.validate{ kind = "move", units = { "g" }, path = { "0405", "0406" } }
  expect.refused(ok, reasons, "6.22")
end)

-- [6.5] The 3 MP of an overrun are paid by every overrunner: a stack one of whose units has 2 MP
-- left may not overrun together; the other unit alone may. i walks five hexes (7 MP, 2 left), p
-- one, both into 0403 next to d in 0504.
kessel.test("case_6_5_a_stack_overruns_only_if_every_unit_has_the_mp", function()
  kessel.setup{ map = { columns = 15, rows = 15 }, step = "german_movement", turn = 7, run_step_start = true,
    units = { pz("p", "0303", 8), inf("i", "0303"), rifle("d", "0504", "1-1-6"), leader("ld", "0805", 5) } }
  expect.accepted(kessel.act{ kind = "move", units = { "i" }, path = { "0302", "0301", "0401", "0402", "0403" } })
  expect.accepted(kessel.act{ kind = "move", units = { "p" }, path = { "0403" } })
  local ok, reasons = kessel.validate{ kind = "overrun", units = { "p", "i" }, target = "0504" }
  expect.refused(ok, reasons, "6.5", "costs 3")
  expect.truthy(kessel.validate{ kind = "overrun", units = { "p" }, target = "0504" }, "p alone has the MP")
end)

-- [6.5] A failed overrun stops the overrunners, not a unit of their hex that stayed out of it:
-- p (8, overrun at 4) against d (6-6-6) is 1-2, roll 4: A1, taken as a loss; q may still overrun.
kessel.test("case_6_5_a_failed_overrun_leaves_a_unit_that_stayed_out_free", function()
  kessel.setup{ map = { columns = 15, rows = 15 }, step = "german_movement", turn = 7, run_step_start = true,
    units = { pz("p", "0404", 8), pz("q", "0404", 8), rifle("d", "0505", "6-6-6"), leader("ld", "0805", 5) } }
  kessel.inject_dice{ 4 }
  expect.accepted(kessel.act{ kind = "overrun", units = { "p" }, target = "0505" })
  expect.eq(last_combat().result, "A1")
  expect.accepted(kessel.act{ kind = "choose", choice = "loss" })
  local ok, reasons = kessel.validate{ kind = "overrun", units = { "p" }, target = "0505" }
  expect.refused(ok, reasons, "6.5", "stopped")
  expect.truthy(kessel.validate{ kind = "overrun", units = { "q" }, target = "0505" }, "q took no part")
end)

-- [6.5] [9.3] An overrun of a major city: the defender is doubled, the overrunners' total halved
-- last: p (8) against d (2-2-6) in the city is 4 against 4, 1-1.
kessel.test("case_6_5_9_3_overrun_of_a_major_city_doubles_the_defender_and_halves_the_attack", function()
  kessel.setup{ map = { columns = 15, rows = 15, places = { { name = "Town", kind = "major_city", hexes = { "0505" } } } },
    step = "german_movement", turn = 7, run_step_start = true,
    units = { pz("p", "0404", 8), rifle("d", "0505", "2-2-6"), leader("ld", "0805", 5) } }
  kessel.inject_dice{ 6 }
  expect.accepted(kessel.act{ kind = "overrun", units = { "p" }, target = "0505" })
  local c = last_combat()
  expect.eq(c.attack, 4); expect.eq(c.defence, 4); expect.eq(c.odds, "1-1")
end)

-- [7.3] Divisional integrity needs every regiment alive and alone in the hex, not at full
-- strength: a panzer regiment reduced to 2-2-10 keeps its division doubled (2+2+2, ×2 = 12).
kessel.test("case_7_3_a_step_reduced_regiment_keeps_its_division_intact", function()
  local function reg(id, t, faces, extra)
    local u = { id = id, side = "german", type = t, formation = "7 Pz", faces = faces, at = "0404" }
    for k, v in pairs(extra or {}) do u[k] = v end
    return u
  end
  kessel.setup{ map = { columns = 15, rows = 15 }, step = "german_combat", turn = 7,
    units = { reg("p", "panzer", { "4-4-10", "2-2-10" }, { step = 1 }), reg("r1", "rifle_mot", { "2-2-10", "1-1-10" }),
      reg("r2", "rifle_mot", { "2-2-10", "1-1-10" }), rifle("d", "0505", "4-4-6"), leader("ld", "0805", 5) } }
  local o = odds({ "p", "r1", "r2" }, { "0505" })
  expect.eq(o.attack, 12)
  local lines = 0
  for _, m in ipairs(o.attack_modifiers) do if m.rule == "7.3" then lines = lines + 1 end end
  expect.eq(lines, 3, "each regiment doubled [7.3]")
end)

-- [9.71] FAQ: attackers may retreat into the defender's vacated hex when it is empty and out of
-- enemy ZOC. D1/A1 at 3-1 (roll 4) against a lone rifle that takes its step: its hex is empty,
-- and in the standard game the attacker's retreat may end there (WBC09 #1b forbids it).
kessel.test("case_9_71_faq_attacker_may_retreat_into_the_defenders_emptied_hex", function()
  kessel.setup{ map = { columns = 15, rows = 15 }, step = "german_combat", turn = 7,
    units = { inf("a", "0404"), rifle("d", "0505"), leader("ld", "0805", 5) } }
  attack({ "a" }, { "0505" }, 4)
  expect.eq(last_combat().result, "D1/A1")
  expect.accepted(kessel.act{ kind = "choose", choice = "loss" })
  expect.eq(kessel.units.get("d").location, "eliminated")
  expect.accepted(kessel.act{ kind = "choose", choice = "retreat" })
  local offered = false
  for _, r in ipairs(kessel.queries.ask("retreats").retreats) do
    if #r.path == 1 and r.path[1] == "0505" then offered = true end
  end
  expect.truthy(offered, "0505 is among the attacker's retreats")
  expect.accepted(kessel.act{ kind = "retreat", units = { "a" }, path = { "0505" } })
  expect.eq(kessel.units.get("a").hex, "0505")
end)

-- [9.6] [9.72] [9.8] A1 against attackers from two hexes: each hex's stack retreats a hex, the
-- defender picking both paths one stack at a time, and then may advance into either emptied hex.
kessel.test("case_9_6_a1_against_two_attacking_hexes_retreats_each_stack_and_the_defender_may_advance", function()
  kessel.setup{ map = { columns = 15, rows = 15 }, step = "german_combat", turn = 7,
    units = { inf("a", "0404", 1), inf("b", "0405", 1), rifle("d", "0505", "6-6-6"), leader("ld", "0805", 5) } }
  attack({ "a", "b" }, { "0505" }, 1)   -- 2 against 6: 1-3, where a 1 is A1
  local c = last_combat()
  expect.eq(c.odds, "1-3")
  expect.eq(c.result, "A1")
  expect.accepted(kessel.act{ kind = "choose", choice = "retreat" })
  local stacks = 0
  while kessel.game.var("pending") and kessel.game.var("pending").kind == "retreat_path" do
    expect.eq(kessel.game.var("pending").side, "soviet", "the defender picks [9.72]")
    stacks = stacks + 1
    local r = kessel.queries.ask("retreats").retreats[1]
    expect.eq(#r.path, 1, "A1: one hex")
    expect.accepted(kessel.act(r))
  end
  expect.eq(stacks, 2, "one path per attacking hex")
  local p = kessel.game.var("pending")
  expect.eq(p.kind, "advance"); expect.eq(p.side, "soviet")
  expect.eq(#p.options, 2, "either emptied hex")
end)
