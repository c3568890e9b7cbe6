-- Rule tests for retreats [9.7] (rules/retreat.lua) and the reference manual's retreat FAQ.
-- 8x8 map. German attacker in 0303 (its ZOC: 0302 0402 0403 0304 0203 0202); Soviet defender in
-- 0403, whose neighbours are 0402 0503 0504 0404 0304 0303. A Soviet leader in 0706 keeps the
-- Soviet units in supply.

local expect = kessel.expect

local function pz(id, at, face) return { id = id, side = "german", type = "panzer", formation = "F" .. id, faces = { face or "6-6-10", "1-1-10" }, at = at } end
local function rifle(id, at, face, flags) return { id = id, side = "soviet", type = "rifle", faces = { face or "2-2-6" }, at = at, flags = flags } end
local function leader(id, at, rating) return { id = id, side = "soviet", type = "leader", faces = { "0-" .. rating .. "-10" }, attrs = { rating = rating }, at = at } end

local function setup(units, extra)
  extra = extra or {}
  local list = { table.unpack(units) }
  list[#list + 1] = leader("sup", "0706", 5)
  local spec = { map = extra.map or { columns = 8, rows = 8 }, units = list, step = "german_combat", turn = extra.turn or 7, options = extra.options }
  kessel.setup(spec)
end

local function attack(units, targets) return kessel.act{ kind = "attack", units = units, targets = targets } end
local function choose(c) return kessel.act{ kind = "choose", choice = c } end
local function retreat(units, path) return kessel.act{ kind = "retreat", units = units, path = path } end

-- D1 at 3-1: 6 against 2, roll 3.
local function d1_on_0403(extra_units, extra)
  local units = { pz("g", "0303"), rifle("s", "0403") }
  for _, u in ipairs(extra_units or {}) do units[#units + 1] = u end
  setup(units, extra)
  kessel.inject_dice{ 3 }
  expect.accepted(attack({ "g" }, { "0403" }))
  expect.eq(kessel.game.var("pending").kind, "loss_or_retreat")
  expect.accepted(choose("retreat"))
end

-- Rule 9.72: the opponent picks the path, from the legal set the engine lists.
kessel.test("case_9_72_opponent_picks_retreat_path", function()
  d1_on_0403()
  local p = kessel.game.var("pending")
  expect.eq(p.kind, "retreat_path")
  expect.eq(p.side, "german")
  expect.eq(#kessel.legal("soviet"), 0, "the owner has nothing to decide")
  local dests = {}
  for _, a in ipairs(kessel.legal("german")) do
    expect.eq(a.kind, "retreat")
    dests[#dests + 1] = a.path[1]
  end
  table.sort(dests)
  expect.eq(table.concat(dests, " "), "0404 0503 0504", "every empty hex out of the enemy ZOC")
  expect.accepted(retreat({ "s" }, { "0504" }))
  expect.eq(kessel.units.get("s").hex, "0504")
end)

-- Rule 9.71: never into enemy units, never into an enemy ZOC without friends there, exact length.
kessel.test("case_9_71_illegal_retreat_paths", function()
  d1_on_0403()
  local ok, r = retreat({ "s" }, { "0303" })
  expect.refused(ok, r, "9.71", "never retreat into enemy units")
  ok, r = retreat({ "s" }, { "0402" })
  expect.refused(ok, r, "9.71", "enemy zone of control")
  ok, r = retreat({ "s" }, { "0503", "0603" })
  expect.refused(ok, r, "9.71", "exactly 1 hex")
  ok, r = retreat({ "s" }, {})
  expect.refused(ok, r, "9.71", "a legal retreat path exists")
end)

-- Rule 9.71: no retreat across a lake hexside; with no legal path the units are eliminated.
kessel.test("case_9_71_no_path_eliminates", function()
  d1_on_0403(nil, { map = { columns = 8, rows = 8,
    hexsides = { { "0403", "0503", "lake" }, { "0403", "0504", "lake" }, { "0403", "0404", "lake" } } } })
  local ok, r = retreat({ "s" }, { "0404" })
  expect.refused(ok, r, "9.71", "lake hexside")
  local legal = kessel.legal("german")
  expect.eq(#legal, 1)
  expect.eq(#legal[1].path, 0, "the only choice: elimination")
  expect.accepted(retreat({ "s" }, {}))
  expect.eq(kessel.units.get("s").location, "eliminated")
end)

-- Rule 9.71 (reference manual "Priority"): an empty hex must be chosen when one can be reached.
kessel.test("case_9_71_empty_hex_first", function()
  d1_on_0403{ rifle("f", "0404") }
  local ok, r = retreat({ "s" }, { "0404" })
  expect.refused(ok, r, "9.71", "must end in an empty hex")
  expect.accepted(retreat({ "s" }, { "0503" }))
end)

-- Rule 9.71/9.73: into an enemy ZOC only onto friends; the unit is marked as retreated onto them.
kessel.test("case_9_71_onto_friends_in_enemy_zoc", function()
  d1_on_0403({ rifle("f", "0402"), rifle("f2", "0404") }, { map = { columns = 8, rows = 8,
    hexsides = { { "0403", "0503", "lake" }, { "0403", "0504", "lake" } } } })
  expect.accepted(retreat({ "s" }, { "0402" }))
  local s = kessel.units.get("s")
  expect.eq(s.hex, "0402")
  expect.truthy(s.flags.retreated_onto)
end)

-- FAQ: retreating into a hex next to the combat hex is fine when the unit moves the full 2 hexes.
kessel.test("case_9_71_faq_d2_may_end_next_to_combat_hex", function()
  setup{ pz("g", "0303", "8-8-10"), rifle("s", "0403") }
  kessel.inject_dice{ 1 } -- 4-1, roll 1: D2
  expect.accepted(attack({ "g" }, { "0403" }))
  expect.accepted(choose("retreat"))
  expect.accepted(retreat({ "s" }, { "0504", "0404" }))
  expect.eq(kessel.units.get("s").hex, "0404")
end)

-- FAQ / Rule 7: overstacking after a retreat eliminates the excess.
kessel.test("case_7_1_faq_retreat_overstack_eliminates", function()
  d1_on_0403({ rifle("f1", "0404"), rifle("f2", "0404"), rifle("f3", "0404") },
    { map = { columns = 8, rows = 8, hexsides = { { "0403", "0503", "lake" }, { "0403", "0504", "lake" } } } })
  expect.accepted(retreat({ "s" }, { "0404" }))
  expect.eq(kessel.units.get("s").location, "eliminated")
  expect.eq(#kessel.units.at("0404"), 3)
end)

-- Rule 7 / 9.7 / WBC09 #2: a stack retreats whole; when it ends over the stacking limit the excess
-- is eliminated, and WHICH retreated units go is a pending decision (`retreat_excess`), asked of
-- their owner in the standard game and of the opponent under WBC09 #2. Only retreated units whose
-- loss brings the hex nearer the limit are offered (never the friends already there, nor a leader
-- while combat units are the excess); with no real choice they go at once.
kessel.test("case_7_excess_after_retreat_is_owners_choice", function()
  local lakes = { map = { columns = 8, rows = 8, hexsides = { { "0403", "0503", "lake" }, { "0403", "0504", "lake" } } } }
  for _, wbc in ipairs{ false, true } do
    local options = { wbc09_02_opponent_orders_retreats = wbc }
    setup({ pz("g", "0303", "12-12-10"), rifle("s1", "0403"), rifle("s2", "0403"), rifle("s3", "0403"),
      rifle("f1", "0404"), rifle("f2", "0404") }, { map = lakes.map, options = options })
    kessel.inject_dice{ 2 } -- 12 against 6: 2-1, roll 2: D1
    expect.accepted(attack({ "g" }, { "0403" }))
    expect.accepted(choose("retreat"))
    expect.accepted(retreat({ "s1", "s2", "s3" }, { "0404" }))
    local p = kessel.game.var("pending")
    expect.eq(p.kind, "retreat_excess")
    local chooser, other = wbc and "german" or "soviet", wbc and "soviet" or "german"
    expect.eq(p.side, chooser, wbc and "WBC09 #2: the opponent chooses" or "the owner chooses [7]")
    expect.eq(#kessel.units.at("0404"), 5, "nobody eliminated before the choice")
    local listed = {}
    for _, a in ipairs(kessel.legal(chooser)) do
      expect.eq(a.kind, "eliminate_excess")
      listed[#listed + 1] = a.unit
    end
    table.sort(listed)
    expect.eq(table.concat(listed, " "), "s1 s2 s3", "the retreated units are offered")
    expect.eq(#kessel.legal(other), 0, "the other side has nothing to decide")
    local ok, r = kessel.act{ kind = "eliminate_excess", unit = "f1" }
    expect.refused(ok, r, "7.1", "retreated into 0404")
    ok, r = kessel.act{ kind = "end_phase" }
    expect.refused(ok, r, "7.1", "over the stacking limit")
    expect.accepted(kessel.act{ kind = "eliminate_excess", unit = "s3" })
    expect.eq(kessel.game.var("pending").kind, "retreat_excess", "one more to go")
    expect.accepted(kessel.act{ kind = "eliminate_excess", unit = "s1" })
    expect.eq(kessel.units.get("s2").location, "map", "the chosen survivor stays")
    expect.eq(kessel.units.get("s1").location, "eliminated")
    expect.eq(kessel.units.get("s3").location, "eliminated")
    expect.eq(#kessel.units.at("0404"), 3)
    local after = kessel.game.var("pending")
    expect.truthy(after == nil or after.kind == "advance", "the combat goes on")
  end
  -- a leader is not offered while combat units are the excess; one real candidate goes at once
  setup({ pz("g", "0303", "12-12-10"), rifle("s1", "0403"), rifle("s2", "0403"), leader("l", "0403", 2),
    rifle("f1", "0404"), rifle("f2", "0404") }, lakes)
  kessel.inject_dice{ 2 } -- 12 against 4 + 2: 2-1, roll 2: D1
  expect.accepted(attack({ "g" }, { "0403" }))
  expect.accepted(choose("retreat"))
  expect.accepted(retreat({ "s1", "s2", "l" }, { "0404" }))
  local listed = {}
  for _, a in ipairs(kessel.legal("soviet")) do listed[#listed + 1] = a.unit end
  table.sort(listed)
  expect.eq(table.concat(listed, " "), "s1 s2")
  local ok, r = kessel.act{ kind = "eliminate_excess", unit = "l" }
  expect.refused(ok, r, "7.1", "retreated into 0404: s1, s2")
  expect.accepted(kessel.act{ kind = "eliminate_excess", unit = "s1" })
  expect.eq(kessel.units.get("l").location, "map")
  expect.eq(kessel.units.get("s2").location, "map")
  -- no choice: the lone retreated unit goes at once
  setup({ pz("g", "0303", "12-12-10"), rifle("s1", "0403"), rifle("f1", "0404"), rifle("f2", "0404"), rifle("f3", "0404") }, lakes)
  kessel.inject_dice{ 6 } -- 12 against 2: 6-1, roll 6: D1
  expect.accepted(attack({ "g" }, { "0403" }))
  expect.accepted(choose("retreat"))
  local events = expect.accepted(retreat({ "s1" }, { "0404" }))
  expect.eq(kessel.units.get("s1").location, "eliminated")
  local p = kessel.game.var("pending")
  expect.truthy(p == nil or p.kind ~= "retreat_excess", "nothing to choose")
  local found = false
  for _, e in ipairs(events) do if e.text and e.text:find("over-full hex", 1, true) then found = true end end
  expect.truthy(found)
end)

-- Rule 9.73 / FAQ: a unit retreated onto friends adds nothing to their defence and dies when the
-- hex suffers a loss or retreat result later in the phase; standard: its step counts.
kessel.test("case_9_73_retreated_unit_dies_with_later_result", function()
  kessel.setup{ map = { columns = 8, rows = 8, hexsides = { { "0403", "0503", "lake" }, { "0403", "0504", "lake" } } },
    step = "german_combat", turn = 7, units = {
      pz("g", "0303"), rifle("s", "0403"), rifle("f", "0404", "2-3-6"), pz("h", "0304", "9-9-10"),
      leader("sup", "0706", 5) } }
  kessel.inject_dice{ 3 }
  expect.accepted(attack({ "g" }, { "0403" }))
  expect.accepted(choose("retreat"))
  expect.accepted(retreat({ "s" }, { "0404" }))
  expect.accepted(kessel.act{ kind = "advance", skip = true })
  -- 9 against f's 3 only (s adds nothing): 3-1, roll 3: D1
  kessel.inject_dice{ 3 }
  local events = expect.accepted(attack({ "h" }, { "0404" }))
  local found = false
  for _, e in ipairs(events) do
    if e.text and e.text:find("attack 9 against defence 3", 1, true) then found = true end
  end
  expect.truthy(found, "the retreated unit adds nothing")
  expect.accepted(choose("loss"))
  expect.eq(kessel.units.get("s").location, "eliminated", "retreated unit dies")
  expect.eq(kessel.units.get("f").location, "map", "standard: its step paid the loss")
end)

-- FAQ: an Engaged result does not kill units retreated onto the hex.
kessel.test("case_9_73_faq_engaged_spares_retreated_units", function()
  kessel.setup{ map = { columns = 8, rows = 8, hexsides = { { "0403", "0503", "lake" }, { "0403", "0504", "lake" } } },
    step = "german_combat", turn = 7, units = {
      pz("g", "0303"), rifle("s", "0403"), rifle("f", "0404", "2-3-6"), rifle("f2", "0404", "2-3-6"), pz("h", "0304", "6-6-10"),
      leader("sup", "0706", 5) } }
  kessel.inject_dice{ 3 }
  expect.accepted(attack({ "g" }, { "0403" }))
  expect.accepted(choose("retreat"))
  expect.accepted(retreat({ "s" }, { "0404" }))
  expect.accepted(kessel.act{ kind = "advance", skip = true })
  kessel.inject_dice{ 4 } -- 6 against 3+3: 1-1, roll 4: Eng
  expect.accepted(attack({ "h" }, { "0404" }))
  expect.eq(kessel.units.get("s").location, "map", "Eng spares the retreated unit")
end)

-- Rule 6.4: on turns 1-6 a Soviet unit forced to retreat into columns 01-02 is eliminated.
kessel.test("case_6_4_retreat_into_west_columns_eliminates", function()
  setup({ pz("g", "0303"), rifle("s", "0202"), leader("l", "0301", 2) }, { turn = 3 })
  kessel.inject_dice{ 3 }
  expect.accepted(attack({ "g" }, { "0202" }))
  expect.accepted(choose("retreat"))
  local legal = kessel.legal("german")
  expect.eq(#legal, 1)
  expect.eq(#legal[1].path, 0, "columns 01-02 are closed: no path")
  local ok, r = retreat({ "s" }, { "0201" })
  expect.refused(ok, r, "6.4")
  -- from turn 7 on the same retreat is legal
  setup({ pz("g", "0303"), rifle("s", "0202"), leader("l", "0301", 2) }, { turn = 7 })
  kessel.inject_dice{ 3 }
  expect.accepted(attack({ "g" }, { "0202" }))
  expect.accepted(choose("retreat"))
  expect.accepted(retreat({ "s" }, { "0201" }))
end)

-- FAQ: attackers may retreat into the defender's vacated hex if it is empty and out of enemy ZOC.
kessel.test("case_9_71_faq_attacker_retreats_into_vacated_hex", function()
  setup{ pz("g", "0303"), rifle("s", "0403") }
  kessel.inject_dice{ 4 } -- 3-1 roll 4: D1/A1
  expect.accepted(attack({ "g" }, { "0403" }))
  expect.accepted(choose("loss")) -- the one-step defender dies
  expect.accepted(choose("retreat"))
  expect.eq(kessel.game.var("pending").side, "soviet")
  expect.accepted(retreat({ "g" }, { "0403" }))
  expect.eq(kessel.units.get("g").hex, "0403")
end)

-- Standard: a stack retreats whole, along one path (WBC09 #2 lets the opponent split it).
kessel.test("case_9_7_stack_retreats_together", function()
  setup{ pz("g", "0303", "8-8-10"), rifle("s", "0403", "1-1-6"), rifle("t", "0403", "1-1-6") }
  kessel.inject_dice{ 1 } -- 4-1 roll 1: D2
  expect.accepted(attack({ "g" }, { "0403" }))
  expect.accepted(choose("retreat"))
  local ok, r = retreat({ "s" }, { "0503", "0603" })
  expect.refused(ok, r, "9.7", "whole stack")
  expect.accepted(retreat({ "s", "t" }, { "0503", "0603" }))
  expect.eq(#kessel.units.at("0603"), 2)
end)

-- Rules 9.6, 9.72, 9.8: the pending-decision flow of docs/lua-api.md ("Pending decisions"), step by
-- step: loss-or-retreat for the side hit, the path for its opponent, the advance for the victor.
kessel.test("case_9_72_pending_decisions_walkthrough", function()
  setup{ pz("g", "0303"), rifle("s", "0403") }
  kessel.inject_dice{ 3 }
  expect.accepted(attack({ "g" }, { "0403" }))
  local p = kessel.game.var("pending")
  expect.eq(p.kind, "loss_or_retreat")
  expect.eq(p.side, "soviet")
  expect.eq(#kessel.legal("german"), 0, "nothing for the German until the Soviet answers")
  local ok, reasons = kessel.act{ kind = "end_phase" }
  expect.refused(ok, reasons, "9.6", "a decision is waiting")
  expect.accepted(choose("retreat"))
  p = kessel.game.var("pending")
  expect.eq(p.kind, "retreat_path")
  expect.eq(p.side, "german", "the opponent picks the path")
  expect.accepted(retreat({ "s" }, { "0504" }))
  p = kessel.game.var("pending")
  expect.eq(p.kind, "advance")
  expect.eq(p.side, "german")
  expect.accepted(kessel.act{ kind = "advance", units = { "g" }, path = { "0403" } })
  expect.eq(kessel.game.var("pending"), nil, "the combat is over")
  expect.eq(kessel.units.get("g").hex, "0403")
end)
