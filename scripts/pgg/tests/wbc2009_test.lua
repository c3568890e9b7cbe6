-- The WBC 2009 interpretations where they rule differently from the standard game (each test runs
-- both readings). #5 is in leaders_test, #7 in overrun_test, #9 and #10 in integrity_test; #6, #8,
-- #13 and #14 belong to the movement, supply and reinforcement rules.

local expect = kessel.expect

local function pz(id, at, face) return { id = id, side = "german", type = "panzer", formation = "F" .. id, faces = { face or "6-6-10", "1-1-10" }, at = at } end
local function rifle(id, at, face, extra)
  local u = { id = id, side = "soviet", type = "rifle", faces = { face or "2-2-6" }, at = at }
  for k, v in pairs(extra or {}) do u[k] = v end
  return u
end
local function leader(id, at, rating) return { id = id, side = "soviet", type = "leader", faces = { "0-" .. rating .. "-10" }, attrs = { rating = rating }, at = at } end
local LAKES = { { "0403", "0503", "lake" }, { "0403", "0504", "lake" } }

local function setup(units, options, extra)
  extra = extra or {}
  units[#units + 1] = leader("sup", "0706", 5)
  kessel.setup{ map = { columns = 8, rows = 8, hexsides = extra.hexsides }, units = units, step = extra.step or "german_combat",
    turn = 7, options = options, pools = extra.pools, vars = extra.vars, markers = extra.markers }
end
local function attack(units, targets) return kessel.act{ kind = "attack", units = units, targets = targets } end
local function choose(c, units) return kessel.act{ kind = "choose", choice = c, units = units } end
local function retreat(units, path) return kessel.act{ kind = "retreat", units = units, path = path } end

-- WBC09 #1: absolute priority — a friendly hex out of enemy ZOC before one in enemy ZOC.
kessel.test("case_wbc09_01_retreat_priority", function()
  for _, wbc in ipairs{ false, true } do
    setup({ pz("g", "0303"), rifle("s", "0403"), rifle("f", "0402"), rifle("f2", "0404") },
      { wbc09_01_retreat_priority = wbc }, { hexsides = LAKES })
    kessel.inject_dice{ 3 } -- 3-1 roll 3: D1
    expect.accepted(attack({ "g" }, { "0403" }))
    expect.accepted(choose("retreat"))
    local ok, r = retreat({ "s" }, { "0402" })
    if wbc then expect.refused(ok, r, "WBC09 #1", "best hex") else expect.accepted(ok, r) end
  end
end)

-- WBC09 #1a: no retreat into or through a hex first held by another unit of the same retreat.
kessel.test("case_wbc09_01a_no_switching_places", function()
  for _, wbc in ipairs{ false, true } do
    setup({ pz("g", "0304", "8-8-10"), rifle("s1", "0403", "1-1-6"), rifle("s2", "0404", "1-1-6") },
      { wbc09_01a_no_switching_places = wbc })
    kessel.inject_dice{ 1 } -- 8 against 2: 4-1, roll 1: D2
    expect.accepted(attack({ "g" }, { "0403", "0404" }))
    expect.accepted(choose("retreat"))
    local ok, r = retreat({ "s1" }, { "0404", "0505" })
    if wbc then expect.refused(ok, r, "WBC09 #1a") else expect.accepted(ok, r) end
  end
end)

-- WBC09 #1a across both sides of one combat: after D2/A1 the defender retreats first, then the
-- attacker may not retreat into (or through) the hex the defender left, which the standard game
-- allows [FAQ 2]. Neither listed nor accepted; the attacker's other hexes stay open. With every
-- WBC 2009 retreat reading on (WBC09 #1's priority search included) the same.
kessel.test("case_wbc09_01a_applies_to_both_sides_of_a_combat", function()
  local full = { wbc09_01_retreat_priority = true, wbc09_01a_no_switching_places = true,
    wbc09_01b_no_retreat_into_lone_defender_hex = true, wbc09_01c_simultaneous_retreats = true,
    wbc09_02_opponent_orders_retreats = true }
  for _, options in ipairs{ {}, { wbc09_01a_no_switching_places = true }, full } do
    local on = options.wbc09_01a_no_switching_places
    setup({ pz("g", "0303", "8-8-10"), rifle("s", "0403") }, options)
    kessel.inject_dice{ 3 } -- 8 against 2: 4-1, roll 3: D2/A1
    expect.accepted(attack({ "g" }, { "0403" }))
    expect.accepted(choose("retreat"))
    expect.accepted(retreat({ "s" }, { "0504", "0604" }))
    expect.eq(kessel.game.var("pending").who, "attacker")
    expect.accepted(choose("retreat"))
    local into = false
    for _, a in ipairs(kessel.legal("soviet")) do
      expect.eq(a.kind, "retreat")
      if a.path[1] == "0403" then into = true end
    end
    expect.eq(into, not on, "the defender's hex offered only without WBC09 #1a")
    local ok, r = retreat({ "g" }, { "0403" })
    if on then
      expect.refused(ok, r, "WBC09 #1a", "another unit retreating from the same combat")
      expect.accepted(retreat({ "g" }, { "0302" }))
    else
      expect.accepted(ok, r)
      expect.eq(kessel.units.get("g").hex, "0403")
    end
  end
end)

-- WBC09 #1b: after D1/A1 against a single eliminated defender, attackers may not retreat into its hex.
kessel.test("case_wbc09_01b_no_retreat_into_lone_defender_hex", function()
  for _, wbc in ipairs{ false, true } do
    setup({ pz("g", "0303"), rifle("s", "0403") }, { wbc09_01b_no_retreat_into_lone_defender_hex = wbc })
    kessel.inject_dice{ 4 } -- 3-1 roll 4: D1/A1
    expect.accepted(attack({ "g" }, { "0403" }))
    expect.accepted(choose("loss"))
    expect.accepted(choose("retreat"))
    local ok, r = retreat({ "g" }, { "0403" })
    if wbc then expect.refused(ok, r, "WBC09 #1b") else expect.accepted(ok, r) end
  end
end)

-- WBC09 #2: the opponent may split a retreating stack and retreat its units one by one.
kessel.test("case_wbc09_02_opponent_splits_stacks", function()
  for _, wbc in ipairs{ false, true } do
    setup({ pz("g", "0303", "8-8-10"), rifle("s", "0403", "1-1-6"), rifle("t", "0403", "1-1-6") },
      { wbc09_02_opponent_orders_retreats = wbc })
    kessel.inject_dice{ 1 } -- 4-1 roll 1: D2
    expect.accepted(attack({ "g" }, { "0403" }))
    expect.accepted(choose("retreat"))
    local ok, r = retreat({ "t" }, { "0504", "0505" })
    if wbc then
      expect.accepted(ok, r)
      expect.accepted(retreat({ "s" }, { "0503", "0603" }))
    else
      expect.refused(ok, r, "9.7", "whole stack")
    end
  end
end)

-- WBC09 #3: a unit retreated onto a hex dies before the losses and does not count for them.
kessel.test("case_wbc09_03_retreated_units_die_first", function()
  for _, wbc in ipairs{ false, true } do
    setup({ pz("g", "0303"), rifle("s", "0403"), rifle("f", "0404", "2-3-6"), pz("h", "0304", "9-9-10") },
      { wbc09_03_retreated_units_die_first = wbc }, { hexsides = LAKES })
    kessel.inject_dice{ 3 }
    expect.accepted(attack({ "g" }, { "0403" }))
    expect.accepted(choose("retreat"))
    expect.accepted(retreat({ "s" }, { "0404" }))
    expect.accepted(kessel.act{ kind = "advance", skip = true })
    kessel.inject_dice{ 3 } -- 9 against 3: 3-1, roll 3: D1
    expect.accepted(attack({ "h" }, { "0404" }))
    if wbc then expect.eq(kessel.units.get("s").location, "eliminated", "dies before the choice") end
    expect.accepted(choose("loss"))
    expect.eq(kessel.units.get("s").location, "eliminated")
    expect.eq(kessel.units.get("f").location, wbc and "eliminated" or "map",
      wbc and "WBC09 #3: the retreated unit does not count for the loss" or "standard: its step paid the loss")
  end
end)

-- WBC09 #3, second part: retreated onto an untried unit that proves to have no defence — the
-- retreated units die and the attacker may advance two hexes.
kessel.test("case_wbc09_03_retreated_onto_dud", function()
  for _, wbc in ipairs{ false, true } do
    setup({ pz("g", "0303"), rifle("s", "0403"), { id = "u", side = "soviet", type = "rifle", hidden = true, pool = "rifle", at = "0404" },
      pz("h", "0304", "9-9-10") }, { wbc09_03_retreated_units_die_first = wbc }, { hexsides = LAKES, pools = { rifle = { "0-0-6" } } })
    kessel.inject_dice{ 3 }
    expect.accepted(attack({ "g" }, { "0403" }))
    expect.accepted(choose("retreat"))
    expect.accepted(retreat({ "s" }, { "0404" }))
    expect.accepted(kessel.act{ kind = "advance", skip = true })
    kessel.inject_dice{ 1, 6 } -- the draw (a dud), then (standard) 9 against 2: 4-1, roll 6: Eng
    local events = expect.accepted(attack({ "h" }, { "0404" }))
    expect.eq(kessel.units.get("u").location, "eliminated")
    if wbc then
      expect.eq(kessel.units.get("s").location, "eliminated")
      expect.accepted(kessel.act{ kind = "advance", units = { "h" }, path = { "0404", "0505" } })
    else
      local rolled = false
      for _, e in ipairs(events) do if e.text and e.text:find("against defence 2 in 0404: odds 4-1, roll 6: Eng", 1, true) then rolled = true end end
      expect.truthy(rolled, "standard: the retreated unit defends on its own")
      expect.eq(kessel.game.var("pending"), nil, "no advance after Eng")
    end
  end
end)

-- WBC09 #4: units retreated onto others by an overrun in a Movement Phase are retreated units for
-- later overruns that phase. The standard rule [9.73] says the same (its retreat rule has no
-- exception for overruns), so the option changes nothing.
kessel.test("case_wbc09_04_overrun_retreat_onto_stack", function()
  for _, wbc in ipairs{ false, true } do
    setup({ pz("a", "0303", "7-7-10"), rifle("s", "0403", "1-1-6"), rifle("f", "0404", "1-1-6") },
      { wbc09_04_overrun_stack_defends_with_first = wbc }, { hexsides = LAKES, step = "german_movement" })
    kessel.inject_dice{ 3 } -- 7/2 = 3 against 1: 3-1, roll 3: D1
    expect.accepted(kessel.act{ kind = "overrun", units = { "a" }, target = "0403" })
    expect.accepted(choose("retreat"))
    expect.accepted(retreat({ "s" }, { "0404" }))
    -- [9.73] already marks units retreated by an overrun; WBC09 #4 changes nothing
    expect.truthy(kessel.units.get("s").flags.retreated_onto, "retreated onto f, option " .. tostring(wbc))
    expect.truthy(kessel.units.get("s").flags.disrupted)
  end
end)

-- WBC09 #11: after a successful overrun the stack may split up (recorded for the movement rules).
kessel.test("case_wbc09_11_overrun_stack_may_split", function()
  for _, wbc in ipairs{ false, true } do
    setup({ pz("a", "0303", "7-7-10"), pz("b", "0303", "7-7-10"), rifle("s", "0403", "1-1-6") },
      { wbc09_11_overrun_stack_may_split = wbc }, { step = "german_movement" })
    kessel.inject_dice{ 1 } -- 7-1 roll 1: De
    expect.accepted(kessel.act{ kind = "overrun", units = { "a", "b" }, target = "0403" })
    local g = kessel.game.var("overrun_group")
    expect.eq(#g.units, 2)
    expect.eq(g.split, wbc)
  end
end)

-- WBC09 #12: several leaders in one hex add to one attack (up to the units' own factors); leaders
-- may join an overrun at half value.
kessel.test("case_wbc09_12_multiple_leaders_and_overrun", function()
  for _, wbc in ipairs{ false, true } do
    setup({ rifle("s", "0403", "4-4-6"), leader("l1", "0403", 2), leader("l2", "0403", 3), pz("g", "0303", "4-4-10") },
      { wbc09_12_multiple_leaders = wbc }, { step = "soviet_combat" })
    kessel.inject_dice{ 6 }
    local ok, r = attack({ "s", "l1", "l2" }, { "0303" })
    if wbc then
      expect.accepted(ok, r)
      local found = false
      for _, e in ipairs(r) do if e.text and e.text:find("attack 8 against", 1, true) then found = true end end
      expect.truthy(found, "4 + min(5, 4) = 8")
    else
      expect.refused(ok, r, "10.36", "only one leader")
    end
    setup({ rifle("s", "0403", "4-4-6"), leader("l1", "0403", 2), pz("g", "0303", "1-1-10") },
      { wbc09_12_multiple_leaders = wbc }, { step = "soviet_movement",
        vars = { phase_start = { hexes = { s = "0403", l1 = "0403" }, command = { "s" }, step = 0, turn = 7 } } })
    kessel.inject_dice{ 1 }
    ok, r = kessel.act{ kind = "overrun", units = { "s", "l1" }, target = "0303" }
    if wbc then expect.accepted(ok, r) else expect.refused(ok, r, "10.2", "cannot overrun") end
  end
end)

-- WBC09 #12 with the action list: the leaders who may join an overrun are offered in it, as attacks
-- are listed with their hexes' leaders [10.36]. Board, Soviet Movement Phase: s (4-4-6) with l1
-- (2) and l2 (3) in 0403, next to g (1-1-10) in 0303. Standard: the overrun is listed with s alone
-- (a leader may not join, 10.2). WBC09 #12: it is listed with s alone and with s, l1 and l2, and
-- the listed overrun with the leaders is accepted (4 + min(5, 4) = 8, halved 4). It was never
-- listed, so a player choosing from the list (the editor, a computer player) could not make it.
kessel.test("case_wbc09_12_overruns_with_leaders_are_listed", function()
  local function overruns()
    local out = {}
    for _, a in ipairs(kessel.legal("soviet")) do
      if a.kind == "overrun" then
        local ids = { table.unpack(a.units) }
        table.sort(ids)
        out[#out + 1] = table.concat(ids, ",") .. ">" .. a.target
      end
    end
    table.sort(out)
    return table.concat(out, " ")
  end
  for _, wbc in ipairs{ false, true } do
    setup({ rifle("s", "0403", "4-4-6"), leader("l1", "0403", 2), leader("l2", "0403", 3), pz("g", "0303", "1-1-10") },
      { wbc09_12_multiple_leaders = wbc }, { step = "soviet_movement",
        vars = { phase_start = { hexes = { s = "0403", l1 = "0403", l2 = "0403" }, command = { "s" }, step = 0, turn = 7 } } })
    if wbc then
      expect.eq(overruns(), "l1,l2,s>0303 s>0303")
      local listed
      for _, a in ipairs(kessel.legal("soviet")) do
        if a.kind == "overrun" and #a.units == 3 then listed = a end
      end
      kessel.inject_dice{ 6 }
      local ok, r = kessel.act(listed)
      expect.accepted(ok, r)
      local found = false
      for _, e in ipairs(r) do if e.text and e.text:find("attack 4 against", 1, true) then found = true end end
      expect.truthy(found, "4 + min(5, 4) = 8, halved 4")
    else
      expect.eq(overruns(), "s>0303")
    end
  end
end)

-- WBC09 #15: an enemy air interdiction marker in the target hex adds 1 MP to the overrun.
kessel.test("case_wbc09_15_interdiction_adds_to_overrun_cost", function()
  for _, wbc in ipairs{ false, true } do
    setup({ rifle("s", "0403", "6-6-6", { vars = { mp_spent = 6 } }), pz("g", "0303", "1-1-10") },
      { wbc09_15_interdiction_on_overrun_cost = wbc }, { step = "soviet_movement",
        markers = { { kind = "air_interdiction", side = "german", at = "0303" } },
        vars = { phase_start = { hexes = { s = "0403" }, command = { "s" }, step = 0, turn = 7 } } })
    kessel.inject_dice{ 1 }
    local ok, r = kessel.act{ kind = "overrun", units = { "s" }, target = "0303" }
    if wbc then expect.refused(ok, r, "6.5", "costs 4") else expect.accepted(ok, r) end
  end
end)

-- WBC 2009 ---------------------------------------------------------------------------------------
do
  local B = require("testing.board8")
  local expect, K, Z, S, L, M, V, pz, rifle, leader, board, attack, choose, retreat, mv, note, end_phases =
    B.expect, B.K, B.Z, B.S, B.L, B.M, B.V, B.pz, B.rifle, B.leader, B.board, B.attack, B.choose, B.retreat, B.mv, B.note, B.end_phases

  -- Two Soviet stacks of two in 0403 and 0404 attacked together by a German unit in 0304; lakes
  -- leave 0403 the exits 0402 and 0504 (unless `closed`), and 0404 only 0504.
  local function two_stacks(options, closed)
    local sides = { { "0403", "0503", "lake" }, { "0403", "0404", "lake" }, { "0404", "0405", "lake" }, { "0404", "0505", "lake" } }
    if closed then sides[#sides + 1] = { "0403", "0402", "lake" } end
    board({ pz("g", "0304", "9-9-10"), rifle("a1", "0403"), rifle("a2", "0403"), rifle("b1", "0404"), rifle("b2", "0404") },
      { options = options, map = { columns = 8, rows = 8, hexsides = sides } })
    kessel.inject_dice{ 2 } -- 9 against 4: 2-1, roll 2: D1
    expect.accepted(attack({ "g" }, { "0403", "0404" }))
    expect.accepted(choose("retreat"))
    expect.eq(kessel.game.var("pending").kind, "retreat_path")
  end

  -- WBC09 #1 (simultaneity note, option wbc09_01c_simultaneous_retreats): the retreats of one combat
  -- are simultaneous, so the opponent may not retreat one stack so as to cut off another stack of the
  -- same combat that had a way out. Standard: he may.
  kessel.test("case_wbc09_01c_simultaneous_retreats", function()
    for _, wbc in ipairs{ false, true } do
      two_stacks{ wbc09_01c_simultaneous_retreats = wbc }
      local ok, r = retreat({ "a1", "a2" }, { "0504" })
      if wbc then
        expect.refused(ok, r, "WBC09 #1", "simultaneous")
        expect.accepted(retreat({ "a1", "a2" }, { "0402" }))
        expect.accepted(retreat({ "b1", "b2" }, { "0504" }))
        expect.eq(kessel.units.get("b1").location, "map")
        expect.eq(kessel.units.get("b2").location, "map", "nobody cut off")
      else
        expect.accepted(ok, r)
        expect.accepted(retreat({ "b1", "b2" }, { "0504" }))
        local p = kessel.game.var("pending")
        expect.eq(p.kind, "retreat_excess", "the owner names the unit over the limit [7]")
        expect.eq(p.side, "soviet")
        local events = expect.accepted(kessel.act{ kind = "eliminate_excess", unit = "b2" })
        expect.eq(kessel.units.get("b2").location, "eliminated", "standard: the fourth unit dies for overstacking")
        expect.truthy(note(events, "over-full hex"))
      end
    end
  end)

  -- WBC09 #1 (simultaneity note): when not every unit of the combat can get out, the note does not
  -- apply; the opponent still has a legal retreat to pick (no dead end), and the excess dies.
  kessel.test("case_wbc09_01c_not_all_can_be_saved", function()
    two_stacks({ wbc09_01c_simultaneous_retreats = true }, true)
    local offered = 0
    for _, a in ipairs(kessel.legal("german")) do if a.kind == "retreat" then offered = offered + 1 end end
    expect.truthy(offered > 0, "a retreat is offered")
    expect.accepted(retreat({ "a1", "a2" }, { "0504" }))
    expect.accepted(retreat({ "b1", "b2" }, { "0504" }))
    expect.accepted(kessel.act{ kind = "eliminate_excess", unit = "b2" })
    expect.eq(#kessel.units.at("0504"), 3)
    expect.eq(kessel.units.get("b2").location, "eliminated")
  end)

  -- WBC09 #1 (simultaneity note): a retreat in an earlier combat MAY cut off units that a later
  -- combat then forces to retreat.
  kessel.test("case_wbc09_01c_prior_combat_may_cut_off", function()
    board({ pz("g", "0303", "9-9-10"), pz("h", "0305", "3-3-10"), rifle("a1", "0403"), rifle("a2", "0403"), rifle("a3", "0403"),
      rifle("t", "0404") }, { options = { wbc09_01c_simultaneous_retreats = true }, map = { columns = 8, rows = 8,
        hexsides = { { "0403", "0402", "lake" }, { "0403", "0503", "lake" }, { "0403", "0404", "lake" },
          { "0404", "0405", "lake" }, { "0404", "0505", "lake" } } } })
    kessel.inject_dice{ 3 } -- 9 against 3: 3-1, roll 3: D1
    expect.accepted(attack({ "g" }, { "0403" }))
    expect.accepted(choose("retreat"))
    expect.accepted(retreat({ "a1", "a2", "a3" }, { "0504" }), "fills t's only way out: allowed")
    expect.accepted(kessel.act{ kind = "advance", skip = true })
    kessel.inject_dice{ 3 } -- 3 against 1: 3-1, roll 3: D1
    expect.accepted(attack({ "h" }, { "0404" }))
    expect.accepted(choose("retreat"))
    expect.accepted(retreat({ "t" }, { "0504" }))
    expect.eq(kessel.units.get("t").location, "eliminated")
  end)

  -- WBC09 #4: a unit retreated (by an overrun) onto a disrupted unit adds nothing when that stack is
  -- overrun later in the phase, and dies with any adverse result; in the following Combat Phase the
  -- units defend normally together. [9.73] reads so without the option too.
  kessel.test("case_wbc09_04_later_overrun_and_next_combat_phase", function()
    local LAKES = { { "0403", "0503", "lake" }, { "0403", "0504", "lake" } }
    local function start(wbc)
      board({ pz("a", "0303", "7-7-10"), pz("b", "0305", "4-4-10"), rifle("s", "0403", "1-1-6"), rifle("f", "0404", "1-1-6") },
        { step = "german_movement", options = { wbc09_04_overrun_stack_defends_with_first = wbc },
          map = { columns = 8, rows = 8, hexsides = LAKES } })
      kessel.inject_dice{ 3 } -- 7/2 = 3 against 1: 3-1, roll 3: D1
      expect.accepted(kessel.act{ kind = "overrun", units = { "a" }, target = "0403" })
      expect.accepted(choose("retreat"))
      expect.accepted(retreat({ "s" }, { "0404" }))
    end
    -- the same with the option off: the standard rule [9.73] already reads so
    for _, wbc in ipairs{ true, false } do
      start(wbc)
      kessel.inject_dice{ 2 } -- 4/2 = 2 against f's 1 only: 2-1, roll 2: D1
      local events = expect.accepted(kessel.act{ kind = "overrun", units = { "b" }, target = "0404" })
      expect.truthy(note(events, "attack 2 against defence 1 in 0404"))
      expect.accepted(choose("loss"))
      expect.eq(kessel.units.get("s").location, "eliminated", "the retreated unit dies")
      expect.eq(kessel.units.get("f").location, "map")
    end
    -- WBC09 #4, second part: after the Movement Phase the stack defends as one
    start(true)
    expect.truthy(kessel.units.get("s").flags.retreated_onto)
    expect.accepted(kessel.act{ kind = "end_phase" })
    expect.eq(kessel.game.step().id, "german_combat")
    expect.falsy(kessel.units.get("s").flags.retreated_onto)
    expect.eq(K.defence_of({ "0404" }), 2, "both units defend")
  end)
end
