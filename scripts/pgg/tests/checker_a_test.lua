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
end)
