-- Rule tests for overrun [6.5] and disruption [6.6] (rules/overrun.lua).
-- 8x8 map; overrunners in 0303, target 0403 (neighbours 0402 0503 0504 0404 0304 0303).

local expect = kessel.expect
local M = require("rules.movement")
local function C_contains(list, x) for _, v in ipairs(list) do if v == x then return true end end return false end

local function pz(id, at, face, extra)
  local u = { id = id, side = "german", type = "panzer", formation = "F" .. id, faces = { face or "7-7-10", "1-1-10" }, at = at }
  for k, v in pairs(extra or {}) do u[k] = v end
  return u
end
local function rifle(id, at, face, extra)
  local u = { id = id, side = "soviet", type = "rifle", faces = { face or "1-1-6" }, at = at }
  for k, v in pairs(extra or {}) do u[k] = v end
  return u
end
local function leader(id, at, rating) return { id = id, side = "soviet", type = "leader", faces = { "0-" .. rating .. "-10" }, attrs = { rating = rating }, at = at } end

local function setup(units, extra)
  extra = extra or {}
  units[#units + 1] = leader("sup", "0706", 5)
  kessel.setup{ map = { columns = 8, rows = 8 }, units = units, step = extra.step or "german_movement", turn = 7,
    options = extra.options, vars = extra.vars, markers = extra.markers }
end
local function overrun(units, target) return kessel.act{ kind = "overrun", units = units, target = target } end
local function note(events, text)
  for _, e in ipairs(events) do if e.text and e.text:find(text, 1, true) then return e end end
end

-- Rule 6.5: +3 MP, strength halved after all other modifiers, immediate roll; a cleared hex must be
-- entered at no cost, and the overrunners may go on.
kessel.test("case_6_5_overrun_halved_clears_and_enters", function()
  setup{ pz("a", "0303"), pz("b", "0303"), rifle("s", "0403") }
  kessel.inject_dice{ 1 } -- 14 halved 7 against 1: 7-1, roll 1: De
  local events = expect.accepted(overrun({ "a", "b" }, "0403"))
  expect.truthy(note(events, "overrun: attack 7 against defence 1 in 0403: odds 7-1, roll 1: De"))
  expect.eq(kessel.units.get("s").location, "eliminated")
  expect.eq(kessel.units.get("a").hex, "0403")
  expect.eq(M.mp_left(kessel.units.get("a")), 7, "3 MP for the overrun, nothing to enter")
  expect.falsy(kessel.units.get("a").flags.stopped)
  expect.eq(kessel.game.var("pending"), nil, "no advance after an overrun")
end)

-- Rule 6.5: only in a Movement Phase, from one hex, with 3 MP left, next to the target.
kessel.test("case_6_5_overrun_conditions", function()
  setup({ pz("a", "0303"), rifle("s", "0403") }, { step = "german_combat" })
  local ok, r = overrun({ "a" }, "0403")
  expect.refused(ok, r, "6.5", "Movement Phase")
  setup{ pz("a", "0303"), pz("b", "0304"), rifle("s", "0403") }
  ok, r = overrun({ "a", "b" }, "0403")
  expect.refused(ok, r, "6.5", "from one hex")
  setup{ pz("a", "0303", nil, { vars = { mp_spent = 16 } }), rifle("s", "0403") }
  ok, r = overrun({ "a" }, "0403")
  expect.refused(ok, r, "6.5", "costs 3")
  setup{ pz("a", "0303"), rifle("s", "0605") }
  ok, r = overrun({ "a" }, "0605")
  expect.refused(ok, r, "6.5", "not next to")
  setup{ pz("a", "0303", nil, { flags = { "disrupted" } }), rifle("s", "0403") }
  ok, r = overrun({ "a" }, "0403")
  expect.refused(ok, r, "6.6", "disrupted")
  -- a hex of the overrunner's own side: the reason says whose units the target lacks
  setup{ pz("a", "0303"), pz("b", "0403") }
  ok, r = overrun({ "a" }, "0403")
  expect.refused(ok, r, "6.5", "0403 holds no Soviet unit for the German to overrun")
end)

-- Rule 6.6: a defender who suffers any loss or retreat is disrupted; not after Eng.
kessel.test("case_6_6_overrun_disrupts_defender", function()
  setup{ pz("a", "0303", "4-4-10"), pz("b", "0303", "4-4-10"), rifle("s", "0403", "1-2-6"), rifle("t", "0403", "1-2-6") }
  kessel.inject_dice{ 4 } -- 8/2 = 4 against 4: 1-1, roll 4: Eng
  expect.accepted(overrun({ "a", "b" }, "0403"))
  expect.accepted(kessel.act{ kind = "choose", units = { "s" } }) -- each owner names his Eng loss [9.6]
  expect.accepted(kessel.act{ kind = "choose", units = { "a" } })
  local survivor = kessel.units.at("0403")[1]
  expect.falsy(survivor.flags.disrupted, "Eng does not disrupt")
  expect.truthy(kessel.units.get("a").flags.stopped, "Eng stops the overrunners")
  setup{ pz("a", "0303", "4-4-10"), pz("b", "0303", "4-4-10"), rifle("s", "0403", "1-2-6"), rifle("t", "0403", "1-2-6") }
  kessel.inject_dice{ 1 } -- 1-1 roll 1: D1
  expect.accepted(overrun({ "a", "b" }, "0403"))
  expect.accepted(kessel.act{ kind = "choose", choice = "loss" })
  expect.truthy(kessel.units.at("0403")[1].flags.disrupted)
  expect.truthy(kessel.units.get("a").flags.stopped, "a defender left in the hex: the overrun failed [6.5]")
end)

-- Rule 6.5: success is a cleared hex; any result that leaves a defender there is a failure and the
-- overrunners stop: no further move, no second overrun this phase, nothing listed for them. Each
-- way a defender can stay is tried: a step loss taken by one of two defenders, a two-step German
-- unit flipped, a lone defender's loss when it has steps to spare. A retreat that clears the hex
-- (the same D1) is a success and the overrunners enter it.
kessel.test("case_6_5_failed_overrun_stops_overrunners", function()
  local function stuck(ids, target, listed_side)
    for _, id in ipairs(ids) do
      local u = kessel.units.get(id)
      expect.truthy(u.flags.stopped, id .. " is stopped")
      expect.truthy(M.cannot_move(u), id .. " may not move on")
    end
    local ok, r = overrun(ids, target)
    expect.refused(ok, r, "6.5", "stopped")
    for _, a in ipairs(kessel.legal(listed_side)) do
      if a.kind == "move" or a.kind == "overrun" then
        for _, id in ipairs(a.units) do
          expect.falsy(C_contains(ids, id), "nothing listed for " .. id .. ": " .. a.kind)
        end
      end
    end
  end
  -- two Soviet defenders, D1 taken as a loss: one is left (disrupted) in the hex
  setup{ pz("a", "0303", "4-4-10"), pz("b", "0303", "4-4-10"), rifle("s", "0403", "1-2-6"), rifle("t", "0403", "1-2-6") }
  kessel.inject_dice{ 1 } -- 8/2 = 4 against 4: 1-1, roll 1: D1
  expect.accepted(overrun({ "a", "b" }, "0403"))
  expect.accepted(kessel.act{ kind = "choose", choice = "loss", units = { "s" } })
  expect.eq(kessel.units.get("a").hex, "0303", "the overrunners did not enter")
  expect.eq(kessel.units.get("t").hex, "0403")
  stuck({ "a", "b" }, "0403", "german")
  -- a German two-step regiment overrun by the Soviet flips and stays: the Soviet stack stops
  kessel.setup{ map = { columns = 8, rows = 8 }, step = "soviet_movement", turn = 7, units = {
    rifle("s", "0403", "9-9-6"), rifle("r", "0403", "9-9-6"), pz("g", "0303", "4-4-10"), pz("h", "0704", "1-1-10"), leader("l", "0504", 5) },
    vars = { phase_start = { hexes = { s = "0403", r = "0403" }, command = { "s", "r" }, step = 0, turn = 7 } } }
  kessel.inject_dice{ 4 } -- 18/2 = 9 against 4: 2-1, roll 4: D1/A1
  expect.accepted(overrun({ "s", "r" }, "0303"))
  expect.accepted(kessel.act{ kind = "choose", choice = "loss" })
  expect.eq(kessel.units.get("g").location, "map")
  expect.eq(kessel.units.get("g").steps_left, 1, "flipped, still in 0303")
  expect.accepted(kessel.act{ kind = "choose", choice = "loss", units = { "r" } })
  stuck({ "s" }, "0303", "soviet")
  -- a lone two-step German defender takes its D1 as a loss: still there, the overrun failed
  kessel.setup{ map = { columns = 8, rows = 8 }, step = "soviet_movement", turn = 7, units = {
    rifle("s", "0403", "9-9-6"), rifle("r", "0403", "9-9-6"), pz("g", "0303", "4-4-10"), leader("l", "0504", 5) },
    vars = { phase_start = { hexes = { s = "0403", r = "0403" }, command = { "s", "r" }, step = 0, turn = 7 } } }
  kessel.inject_dice{ 2 } -- 2-1, roll 2: D1
  expect.accepted(overrun({ "s", "r" }, "0303"))
  expect.accepted(kessel.act{ kind = "choose", choice = "loss" })
  expect.truthy(kessel.units.get("g").flags.disrupted, "the survivor is disrupted [6.6]")
  stuck({ "s", "r" }, "0303", "soviet")
  -- the same D1 taken as a retreat clears the hex: success, the overrunners enter and may go on
  kessel.setup{ map = { columns = 8, rows = 8 }, step = "soviet_movement", turn = 7, units = {
    rifle("s", "0403", "9-9-6"), rifle("r", "0403", "9-9-6"), pz("g", "0303", "4-4-10"), leader("l", "0504", 5) },
    vars = { phase_start = { hexes = { s = "0403", r = "0403" }, command = { "s", "r" }, step = 0, turn = 7 } } }
  kessel.inject_dice{ 2 }
  expect.accepted(overrun({ "s", "r" }, "0303"))
  expect.accepted(kessel.act{ kind = "choose", choice = "retreat" })
  local path
  for _, a in ipairs(kessel.legal("soviet")) do if a.kind == "retreat" then path = a.path end end
  expect.accepted(kessel.act{ kind = "retreat", units = { "g" }, path = path })
  expect.eq(kessel.units.get("s").hex, "0303", "entered the cleared hex")
  expect.falsy(kessel.units.get("s").flags.stopped)
  expect.falsy(M.cannot_move(kessel.units.get("s")), "and may move on")
end)

-- Rule 6.5: a split result stops the overrunners; standard: they enter the cleared hex first.
-- WBC09 #7: taking the loss, they stay in the hex they overran from.
kessel.test("case_6_5_split_result_stops_overrunners", function()
  for _, wbc in ipairs{ false, true } do
    setup({ pz("a", "0303", "4-4-10"), pz("b", "0303", "2-2-10"), rifle("s", "0403", "1-1-6") },
      { options = { wbc09_07_overrun_loss_stays_put = wbc } })
    kessel.inject_dice{ 4 } -- 6/2 = 3 against 1: 3-1, roll 4: D1/A1
    expect.accepted(overrun({ "a", "b" }, "0403"))
    expect.accepted(kessel.act{ kind = "choose", choice = "retreat" })
    expect.accepted(kessel.act{ kind = "retreat", units = { "s" }, path = { "0504" } })
    expect.eq(kessel.game.var("pending").who, "attacker")
    expect.accepted(kessel.act{ kind = "choose", choice = "loss" })
    expect.eq(kessel.units.get("a").hex, wbc and "0303" or "0403")
    expect.truthy(kessel.units.get("a").flags.stopped)
    expect.truthy(kessel.units.get("s").flags.disrupted, "the retreated defender is disrupted")
    local ok, r = overrun({ "a" }, "0504")
    expect.refused(ok, r, "6.5", "stopped")
  end
end)

-- Rules 6.5 and 10.35: a Soviet unit that began the phase outside every leader's radius may not
-- overrun; the refusal cites 10.35, the command radius's case, as an attack's does.
kessel.test("case_6_5_soviet_overrun_needs_command_at_start", function()
  kessel.setup{ map = { columns = 8, rows = 8 }, step = "soviet_movement", turn = 7, units = {
    rifle("s", "0403", "6-6-6"), pz("g", "0303", "1-1-10"), leader("l", "0605", 2) },
    vars = { phase_start = { hexes = { s = "0403" }, command = {}, step = 0, turn = 7 } } }
  local ok, r = overrun({ "s" }, "0303")
  expect.refused(ok, r, "10.35", "began the phase outside")
  kessel.setup{ map = { columns = 8, rows = 8 }, step = "soviet_movement", turn = 7, units = {
    rifle("s", "0403", "6-6-6"), pz("g", "0303", "1-1-10"), leader("l", "0605", 2) },
    vars = { phase_start = { hexes = { s = "0403" }, command = { "s" }, step = 0, turn = 7 } } }
  kessel.inject_dice{ 1 }
  expect.accepted(overrun({ "s" }, "0303"))
end)

-- Option overrun_group: the group must have started the phase in one hex, or may assemble.
kessel.test("case_6_5_overrun_group_option", function()
  local start = { phase_start = { hexes = { a = "0303", b = "0302" }, command = {}, step = 4, turn = 7 } }
  setup({ pz("a", "0303"), pz("b", "0303"), rifle("s", "0403") }, { vars = start })
  local ok, r = overrun({ "a", "b" }, "0403")
  expect.refused(ok, r, "6.5", "started the phase in one hex")
  setup({ pz("a", "0303"), pz("b", "0303"), rifle("s", "0403") }, { vars = start, options = { overrun_group = "assembled" } })
  kessel.inject_dice{ 1 }
  expect.accepted(overrun({ "a", "b" }, "0403"))
end)

-- Rule 6.5 / 12.2: untried defenders are revealed by an overrun.
kessel.test("case_12_2_overrun_reveals_untried", function()
  setup{ pz("a", "0303"), { id = "s", side = "soviet", type = "rifle", hidden = true, pool = "rifle", at = "0403" } }
  kessel.setup{ map = { columns = 8, rows = 8 }, step = "german_movement", turn = 7, pools = { rifle = { "2-2-6" } },
    units = { pz("a", "0303"), { id = "s", side = "soviet", type = "rifle", hidden = true, pool = "rifle", at = "0403" }, leader("sup", "0706", 5) } }
  kessel.inject_dice{ 1, 1 } -- the draw, then 3-1 roll 1: D2
  expect.accepted(overrun({ "a" }, "0403"))
  expect.eq(kessel.units.get("s").hidden, false)
  expect.eq(kessel.units.get("s").defence, 2)
end)

-- [6.5] Overrun ----------------------------------------------------------------------------------
do
  local B = require("testing.board8")
  local expect, K, Z, S, L, M, V, pz, rifle, leader, board, attack, choose, retreat, mv, note, end_phases =
    B.expect, B.K, B.Z, B.S, B.L, B.M, B.V, B.pz, B.rifle, B.leader, B.board, B.attack, B.choose, B.retreat, B.mv, B.note, B.end_phases

  -- Rule 6.5: a unit stopped by the ZOC of the unit it then overruns may still overrun from that
  -- hex; once the hex is cleared it enters at no cost and may move on with its remaining MP.
  kessel.test("case_6_5_overrun_from_enemy_zoc_then_move_on", function()
    board({ pz("a", "0401", "16-16-10"), rifle("s", "0403") }, { step = "german_movement" })
    expect.accepted(mv("a", { "0402" }))
    local ok, r = mv("a", { "0401" })
    expect.refused(ok, r, "6.22", "may not leave")
    kessel.inject_dice{ 1 } -- 16 halved 8 against 1: 8-1, roll 1: De
    local events = expect.accepted(kessel.act{ kind = "overrun", units = { "a" }, target = "0403" })
    expect.truthy(note(events, "overrun: attack 8 against defence 1 in 0403: odds 8-1, roll 1: De"))
    expect.eq(kessel.units.get("a").hex, "0403", "the cleared hex is entered")
    expect.eq(M.mp_left(kessel.units.get("a")), 6, "1 to move + 3 to overrun; entering is free")
    expect.accepted(mv("a", { "0503", "0603" }))
    expect.eq(kessel.units.get("a").hex, "0603", "the overrunner moves on")
  end)

  -- Rule 6.5 / 11.3: supply is judged at the instant of the overrun; out of supply halves first,
  -- then the overrun halves the total (fractions dropped).
  kessel.test("case_6_5_overrun_supply_judged_at_the_instant", function()
    kessel.setup{ map = { columns = 30, rows = 3 }, step = "german_movement", turn = 7,
      units = { pz("a", "2802", "8-8-10"), rifle("s", "2902", "1-1-6"), leader("sup", "3002", 5) } }
    local ok = S.in_supply("a", "combat")
    expect.falsy(ok, "27 MP from the west edge, no road")
    kessel.inject_dice{ 1 } -- 8 → 4 (supply) → 2 (overrun) against 1: 2-1, roll 1: D2
    local events = expect.accepted(kessel.act{ kind = "overrun", units = { "a" }, target = "2902" })
    expect.truthy(note(events, "out of supply, halved (4)"))
    expect.truthy(note(events, "overrun: attack 2 against defence 1 in 2902: odds 2-1, roll 1: D2"))
  end)
end
