-- Rule tests for the second round of coverage gaps: the owner's pick of the Engaged step [9.6],
-- the combat-wide retreat priority of WBC09 #1, the Soviet set-up within multi-hex areas [5.1],
-- the scenario's leader-evacuation parameters [10.4] and "last to pass through" [15].
-- Geometry (8x8 map, flat-topped columns, even columns half a hex lower): 0403's neighbours are
-- 0402 0503 0504 0404 0304 0303; 0404's are 0403 0504 0505 0405 0305 0304; 0304 touches both.

local expect = kessel.expect
local V = require("rules.victory")

local function pz(id, at, face, extra)
  local u = { id = id, side = "german", type = "panzer", formation = "F" .. id, faces = { face or "4-4-10", "2-2-10" }, at = at }
  for k, v in pairs(extra or {}) do u[k] = v end
  return u
end
local function inf(id, at) -- German infantry division, four steps
  return { id = id, side = "german", type = "infantry", formation = id, faces = { "9-9-7", "4-4-7", "2-2-7", "1-1-7" }, at = at }
end
local function rifle(id, at, face)
  return { id = id, side = "soviet", type = "rifle", faces = { face or "2-2-6" }, at = at }
end
local function leader(id, at, rating)
  return { id = id, side = "soviet", type = "leader", faces = { "0-" .. rating .. "-10" }, attrs = { rating = rating }, at = at }
end

-- An 8x8 position; a Soviet leader near the east edge keeps Soviet units supplied [11.2].
local function board(units, extra)
  extra = extra or {}
  local list = { table.unpack(units) }
  if not extra.bare then list[#list + 1] = leader("sup", "0706", 5) end
  kessel.setup{ map = extra.map or { columns = 8, rows = 8 }, units = list, step = extra.step or "german_combat",
    turn = extra.turn or 7, options = extra.options, vars = extra.vars, markers = extra.markers }
end

local function attack(units, targets) return kessel.act{ kind = "attack", units = units, targets = targets } end
local function choose(c, units) return kessel.act{ kind = "choose", choice = c, units = units } end
local function retreat(units, path) return kessel.act{ kind = "retreat", units = units, path = path } end

-- The legal actions of one kind for a side, and a check that each of them validates.
local function offered(side, kind)
  local out = {}
  for _, a in ipairs(kessel.legal(side)) do
    if a.kind == kind then
      expect.truthy(kessel.validate(a), "an offered " .. kind .. " is legal")
      out[#out + 1] = a
    end
  end
  return out
end

local function has_retreat(list, units, path)
  for _, a in ipairs(list) do
    if table.concat(a.units, ",") == table.concat(units, ",") and table.concat(a.path, ",") == table.concat(path, ",") then
      return true
    end
  end
  return false
end

-- [9.6] Engaged: the owner picks the unit that loses the step ----------------------------------

-- Rule 9.6: on Eng each side loses one step and its owner names the unit (defender first). The
-- automatic pick would take the unit with most steps left (the infantry division, the first
-- rifle division); the owners name others.
kessel.test("case_9_6_engaged_owner_picks_the_step", function()
  board{ pz("p", "0303", "4-4-10"), inf("i", "0304"), rifle("s1", "0403", "8-8-6"), rifle("s2", "0403", "5-5-6") }
  kessel.inject_dice{ 4 } -- 4 + 9 = 13 against 13: 1-1, roll 4: Eng
  local events = expect.accepted(attack({ "p", "i" }, { "0403" }))
  local p = kessel.game.var("pending")
  expect.eq(p.kind, "eng_loss")
  expect.eq(p.side, "soviet", "the defender names his loss first")
  expect.eq(kessel.units.get("s1").location, "map", "nothing is taken before the owner picks")
  expect.eq(kessel.units.get("s2").location, "map")
  -- every legal pick is offered to the owner, and only to him
  local picks = offered("soviet", "choose")
  expect.eq(#picks, 2, "one choice per defending unit")
  expect.eq(picks[1].units[1], "s1")
  expect.eq(picks[2].units[1], "s2")
  expect.eq(#offered("german", "choose"), 0, "the German does not decide the Soviet loss")
  local ok, r = choose("retreat")
  expect.refused(ok, r, "9.6", "no retreat")
  ok, r = choose("loss", { "s1", "s2" })
  expect.refused(ok, r, "9.6", "exactly one unit")
  ok, r = choose("loss", { "p" })
  expect.refused(ok, r, "9.6", "not one of the defender's units")
  ok, r = kessel.act{ kind = "end_phase" }
  expect.refused(ok, r, "9.6", "decision is waiting")
  expect.accepted(choose("loss", { "s2" }))
  expect.eq(kessel.units.get("s2").location, "eliminated", "the owner's pick loses its step")
  expect.eq(kessel.units.get("s1").location, "map")
  -- then the attacker names his
  p = kessel.game.var("pending")
  expect.eq(p.kind, "eng_loss")
  expect.eq(p.side, "german")
  picks = offered("german", "choose")
  expect.eq(#picks, 2)
  expect.accepted(kessel.act{ kind = "choose", units = { "p" } }) -- `choice` may be left out
  expect.eq(kessel.units.get("p").step, 1, "the panzer regiment flips")
  expect.eq(kessel.units.get("i").step, 0, "the infantry division keeps its four steps")
  expect.eq(kessel.game.var("pending"), nil, "no retreat and no advance after Eng")
  expect.truthy(events, "attack accepted")
end)

-- Rule 9.6 / FAQ 7: a leader in the combat may be the one that absorbs the Eng step; a side with
-- a single unit has no choice to make.
kessel.test("case_9_6_engaged_leader_may_absorb_and_single_unit_needs_no_choice", function()
  board{ pz("g", "0303", "4-4-10"), rifle("s", "0403", "2-2-6"), leader("l", "0403", 2) }
  kessel.inject_dice{ 4 } -- 4 against 2 + 2: 1-1, roll 4: Eng
  expect.accepted(attack({ "g" }, { "0403" }))
  local picks = offered("soviet", "choose")
  expect.eq(#picks, 2, "the rifle division or the leader")
  expect.accepted(choose("loss", { "l" }))
  expect.eq(kessel.units.get("l").location, "eliminated")
  expect.eq(kessel.units.get("s").location, "map")
  expect.eq(kessel.units.get("g").step, 1, "the lone German unit took its step without a decision")
  expect.eq(kessel.game.var("pending"), nil)
end)

-- WBC09 #1: the priority is judged over the whole combat's retreat ------------------------------

-- Two stacks attacked together by a German unit in 0304 and forced back one hex: `a` in 0403
-- (exits 0402 and 0504; lakes close 0503 and 0404) and `b` in 0404 (exit 0504 only).
local TWO_STACK_LAKES = { { "0403", "0503", "lake" }, { "0403", "0404", "lake" }, { "0404", "0405", "lake" }, { "0404", "0505", "lake" } }
local function two_stacks(a_units, b_units, extra_units, options)
  local units = { pz("g", "0304", "9-9-10") }
  for _, id in ipairs(a_units) do units[#units + 1] = rifle(id, "0403", "1-1-6") end
  for _, id in ipairs(b_units) do units[#units + 1] = rifle(id, "0404", "1-1-6") end
  for _, u in ipairs(extra_units or {}) do units[#units + 1] = u end
  board(units, { options = options, map = { columns = 8, rows = 8, hexsides = TWO_STACK_LAKES } })
  kessel.inject_dice{ 3 } -- 9 against 3 or 4: 3-1 or 2-1, roll 3: D1 on both columns
  expect.accepted(attack({ "g" }, { "0403", "0404" }))
  expect.accepted(choose("retreat"))
  expect.eq(kessel.game.var("pending").kind, "retreat_path")
end

-- WBC09 #1: retreats put the most units possible into empty hexes over the whole combat. Sending
-- the first stack into the empty 0504 is its own best hex, but leaves the second stack only that
-- hex (now friendly, and over the limit): the rule sends the first to 0402 instead. Standard: the
-- first stack may take 0504.
kessel.test("case_wbc09_01_most_units_into_empty_hexes_over_the_combat", function()
  for _, wbc in ipairs{ false, true } do
    two_stacks({ "a1", "a2" }, { "b1", "b2" }, nil, { wbc09_01_retreat_priority = wbc })
    local list = offered("german", "retreat")
    expect.eq(has_retreat(list, { "a1", "a2" }, { "0504" }), not wbc, "0504 offered only in the standard game")
    expect.truthy(has_retreat(list, { "a1", "a2" }, { "0402" }))
    local ok, r = retreat({ "a1", "a2" }, { "0504" })
    if wbc then
      local why = expect.refused(ok, r, "WBC09 #1", "4 in empty hexes")
      expect.truthy(why.message:find("at most 2 in empty hexes", 1, true), why.message)
      expect.accepted(retreat({ "a1", "a2" }, { "0402" }))
      expect.accepted(retreat({ "b1", "b2" }, { "0504" }))
      for _, id in ipairs{ "a1", "a2", "b1", "b2" } do expect.eq(kessel.units.get(id).location, "map", id .. " survives") end
    else
      expect.accepted(ok, r)
      expect.accepted(retreat({ "b1", "b2" }, { "0504" }))
      expect.accepted(kessel.act{ kind = "eliminate_excess", unit = "b2" })
      expect.eq(kessel.units.get("b2").location, "eliminated", "standard: the fourth unit in 0504 dies for overstacking")
    end
  end
end)

-- WBC09 #1: the count is of units, not of stacks. The lone unit in 0403 could take the empty 0504
-- (its best hex: what each stack's own priority demands, and the standard 9.71 rule too), but the
-- two units in 0404 have no other way out; the most units in empty hexes puts the lone unit on its
-- friends in 0402 and the pair in 0504.
kessel.test("case_wbc09_01_counts_units_not_stacks", function()
  for _, wbc in ipairs{ false, true } do
    two_stacks({ "a" }, { "b1", "b2" }, { rifle("f", "0402", "1-1-6") }, { wbc09_01_retreat_priority = wbc })
    local ok, r = retreat({ "a" }, { "0504" })
    if wbc then
      expect.refused(ok, r, "WBC09 #1", "2 in empty hexes, 1 in friendly hexes out of enemy ZOC")
      local list = offered("german", "retreat")
      expect.eq(#list, 1, "only the retreat onto the friends in 0402 is offered")
      expect.truthy(has_retreat(list, { "a" }, { "0402" }))
      expect.accepted(retreat({ "a" }, { "0402" }))
      expect.accepted(retreat({ "b1", "b2" }, { "0504" }))
      expect.falsy(kessel.units.get("b1").flags.retreated_onto, "the pair went into an empty hex")
      expect.truthy(kessel.units.get("a").flags.retreated_onto, "the lone unit went onto friends [9.73]")
    else
      expect.accepted(ok, r)
      ok, r = retreat({ "b1", "b2" }, { "0504" })
      expect.accepted(ok, r)
      expect.truthy(kessel.units.get("b1").flags.retreated_onto, "standard: the pair ends on the lone unit")
    end
  end
end)

-- WBC09 #1 with #2: the opponent may retreat the stacks in any order, and the best count is judged
-- over every order; moving the pair first into 0504 is then allowed, and afterwards the lone unit
-- may take either hex (both are friendly out of enemy ZOC by then).
kessel.test("case_wbc09_01_with_wbc09_02_any_order", function()
  two_stacks({ "a" }, { "b1", "b2" }, { rifle("f", "0402", "1-1-6") },
    { wbc09_01_retreat_priority = true, wbc09_02_opponent_orders_retreats = true })
  local list = offered("german", "retreat")
  expect.truthy(has_retreat(list, { "b1", "b2" }, { "0504" }), "the pair first")
  expect.falsy(has_retreat(list, { "a" }, { "0504" }), "the lone unit into 0504 first still costs an empty hex")
  expect.falsy(has_retreat(list, { "b1" }, { "0504" }), "splitting the pair first would cost its partner the empty hex")
  expect.accepted(retreat({ "b1", "b2" }, { "0504" }))
  list = offered("german", "retreat")
  expect.truthy(has_retreat(list, { "a" }, { "0504" }))
  expect.truthy(has_retreat(list, { "a" }, { "0402" }))
end)

-- [5.1] Soviet set-up within multi-hex set-up areas ---------------------------------------------

-- A set-up area S13 of three hexes; `setup_areas` names each unit's area (kessel.setup cannot give
-- units a set-up area; the campaign's units carry theirs). The German's three initial air markers
-- are not down yet [13.2].
local function setup_board(extra)
  extra = extra or {}
  local vars = { first_turn_16 = "move", first_turn_19 = "move",
    setup_areas = { r1 = "S13", r2 = "S13", r3 = "S13", r4 = "S13", rem = "S13" } }
  kessel.setup{ map = { columns = 8, rows = 8, areas = { S13 = { "0104", "0105", "0106" } } },
    units = { leader("rem", "0104", 4), rifle("r1", "0104"), rifle("r2", "0104"), rifle("r3", "0105"), rifle("r4", "0106"),
      rifle("other", "0404"), leader("sup", "0706", 5), pz("g", "0808") },
    markers = { { kind = "air_interdiction", side = "german", count = 3 } },
    step = extra.step or "soviet_movement", turn = extra.turn or 1, vars = vars }
end

-- Rule 5.1: the Soviet arranges the units of a multi-hex set-up area himself, within the stacking
-- limits [7.1], before his first move and before the German's initial air markers, which wait until
-- he ends his set-up (`end_setup`) [13.2].
kessel.test("case_5_1_soviet_arranges_units_within_setup_area", function()
  setup_board()
  local list = offered("soviet", "setup_place")
  local count = 0
  for _, a in ipairs(list) do
    expect.truthy(a.unit ~= "other", "a unit with a printed hex is not rearranged")
    count = count + 1
  end
  -- rem, r1, r2 (in 0104) may go to 0105 or 0106; r3 to 0104 or 0106; r4 to 0104 or 0105
  expect.eq(count, 10, "every unit of the area, to every other hex of it")
  expect.eq(#offered("german", "setup_place"), 0, "only the Soviet sets up")
  local events = expect.accepted(kessel.act{ kind = "setup_place", unit = "r1", hex = "0106" })
  expect.eq(kessel.units.get("r1").hex, "0106")
  expect.eq(events[1].event, "located", "the unit is placed, not moved")
  local ok, r = kessel.act{ kind = "setup_place", unit = "r2", hex = "0107" }
  expect.refused(ok, r, "5.1", "not in")
  ok, r = kessel.act{ kind = "setup_place", unit = "other", hex = "0105" }
  expect.refused(ok, r, "5.1", "printed hex")
  ok, r = kessel.act{ kind = "setup_place", unit = "g", hex = "0105" }
  expect.refused(ok, r, "5.1", "not a Soviet unit")
  -- 0106 holds r4 and r1: a third combat unit fits, a fourth does not [7.1]
  expect.accepted(kessel.act{ kind = "setup_place", unit = "r3", hex = "0106" })
  ok, r = kessel.act{ kind = "setup_place", unit = "r2", hex = "0106" }
  expect.refused(ok, r, "7.1", "limit 3")
  -- the leader may join them: four units with a leader among them
  expect.accepted(kessel.act{ kind = "setup_place", unit = "rem", hex = "0106" })
  expect.eq(#kessel.units.at("0106"), 4)
  -- the German's initial markers wait for the Soviet set-up [13.2]
  ok, r = kessel.act{ kind = "place_marker", hex = "0404" }
  expect.refused(ok, r, "13.2", "after the Soviet set-up")
  expect.eq(#offered("german", "place_marker"), 0)
  expect.eq(#offered("german", "end_air_placement"), 0)
  expect.eq(#offered("soviet", "end_setup"), 1)
  expect.accepted(kessel.act{ kind = "end_setup" })
  ok, r = kessel.act{ kind = "setup_place", unit = "r2", hex = "0105" }
  expect.refused(ok, r, "5.1", "set-up is over")
  expect.eq(#offered("soviet", "setup_place"), 0)
  expect.accepted(kessel.act{ kind = "place_marker", hex = "0404" })
end)

-- Rule 5.1: no set-up once the German's initial air placement is over, nor outside the first
-- Soviet Movement Phase of turn 1.
kessel.test("case_5_1_setup_only_before_the_first_soviet_move", function()
  setup_board()
  local ok, r = kessel.act{ kind = "end_air_placement" }
  expect.refused(ok, r, "13.2", "after the Soviet set-up")
  expect.accepted(kessel.act{ kind = "end_setup" })
  expect.accepted(kessel.act{ kind = "end_air_placement" })
  ok, r = kessel.act{ kind = "setup_place", unit = "r1", hex = "0106" }
  expect.refused(ok, r, "5.1", "set-up is over")
  setup_board{ turn = 2 }
  ok, r = kessel.act{ kind = "setup_place", unit = "r1", hex = "0106" }
  expect.refused(ok, r, "5.1", "first Movement Phase of turn 1")
  setup_board{ step = "soviet_combat" }
  ok, r = kessel.act{ kind = "setup_place", unit = "r1", hex = "0106" }
  expect.refused(ok, r, "5.1", "first Movement Phase of turn 1")
  expect.eq(#offered("soviet", "setup_place"), 0)
end)

-- [10.4] Evacuation parameters from the scenario ------------------------------------------------

-- Rule 10.4: the return area and the game limit are the scenario's `evacuation_area` and
-- `evacuation_max` (game variables of the same names in an inline position); defaults X and 2.
kessel.test("case_10_4_evacuation_area_and_limit_from_scenario_vars", function()
  local function start(vars, options)
    local o = { leader_evacuation = true }
    for k, v in pairs(options or {}) do o[k] = v end
    kessel.setup{ map = { columns = 8, rows = 8, areas = { X = { "0808" }, E2 = { "0707" } } }, step = "soviet_movement", turn = 7,
      units = { leader("l", "0202", 2), pz("g1", "0302"), pz("g2", "0203"), pz("g3", "0101") }, options = o, vars = vars }
  end
  -- a limit of one, already used
  start{ evacuation_max = 1, evacuations = { { id = "x", turn = 3, returns = 4, back = true } } }
  local ok, r = kessel.act{ kind = "evacuate", leader = "l" }
  expect.refused(ok, r, "10.4", "limit is 1")
  -- the default limit (2) would have allowed it
  start{ evacuations = { { id = "x", turn = 3, returns = 4, back = true } } }
  expect.accepted(kessel.act{ kind = "evacuate", leader = "l" })
  -- the return area
  start{ evacuation_area = "E2" }
  local events = expect.accepted(kessel.act{ kind = "evacuate", leader = "l" })
  local said = false
  for _, e in ipairs(events) do if e.text and e.text:find("returns next turn at E2", 1, true) then said = true end end
  expect.truthy(said, "the note names the scenario's area")
  for _ = 1, 9 do expect.accepted(kessel.act{ kind = "end_phase" }) end
  expect.eq(kessel.game.turn(), 8)
  expect.eq(kessel.units.get("l").hex, "0707", "back in the scenario's area, not X")
  -- WBC09 #5 still switches it off
  start({ evacuation_area = "E2" }, { wbc09_05_no_leader_evacuation = true })
  ok, r = kessel.act{ kind = "evacuate", leader = "l" }
  expect.refused(ok, r, "WBC09 #5")
end)

-- [15] Last to pass through ---------------------------------------------------------------------

local TOWN = { { name = "Town", vp = 10, hexes = { "0403" } } }

-- Rule 15: a unit advancing after combat through a city hex is the last to pass through it: the
-- German owns the town after advancing two hexes through it, though nobody stands there.
kessel.test("case_15_last_to_pass_through_advance", function()
  board({ pz("g", "0303", "9-9-10"), rifle("s", "0403", "1-1-6") },
    { vars = { objectives = TOWN, city_owner = { ["0403"] = "soviet" } } })
  kessel.inject_dice{ 3 } -- 9 against 1: 9-1, roll 3: De
  expect.accepted(attack({ "g" }, { "0403" }))
  expect.eq(kessel.units.get("s").location, "eliminated")
  expect.accepted(kessel.act{ kind = "advance", units = { "g" }, path = { "0403", "0504" } })
  expect.eq(#kessel.units.at("0403"), 0, "nobody stays in the town")
  expect.eq(kessel.game.var("city_owner")["0403"], "german", "recorded as the advance passes")
  expect.accepted(kessel.act{ kind = "end_phase" })
  expect.eq(V.owners()["0403"], "german", "an empty hex keeps its last owner at the end of the step")
  expect.eq(V.score().german_vp, 10)
end)

-- Rule 15: retreating units pass through the hexes of their path; a hex that is no objective is
-- not recorded.
kessel.test("case_15_last_to_pass_through_retreat", function()
  board({ pz("g", "0303", "9-9-10"), rifle("s", "0403", "1-3-6") },
    { vars = { objectives = { { name = "Town", vp = 10, hexes = { "0504" } } }, city_owner = { ["0504"] = "german" } } })
  kessel.inject_dice{ 1 } -- 9 against 3: 3-1, roll 1: D2
  expect.accepted(attack({ "g" }, { "0403" }))
  expect.accepted(choose("retreat"))
  expect.accepted(retreat({ "s" }, { "0504", "0604" }))
  local owner = kessel.game.var("city_owner")
  expect.eq(owner["0504"], "soviet", "the retreating unit passed through the town")
  expect.eq(owner["0604"], nil, "0604 is no objective")
end)

-- Rule 15 / 6.5: overrunners who clear a city hex enter it; moving on in the same phase, they
-- leave it German.
kessel.test("case_15_last_to_pass_through_overrun_then_move_on", function()
  board({ pz("a", "0303", "9-9-10"), rifle("s", "0403", "1-1-6") },
    { step = "german_movement", vars = { objectives = TOWN, city_owner = { ["0403"] = "soviet" } } })
  kessel.inject_dice{ 1 } -- 9/2 = 4 against 1: 4-1, roll 1: D2
  expect.accepted(kessel.act{ kind = "overrun", units = { "a" }, target = "0403" })
  expect.accepted(choose("loss"))
  expect.eq(kessel.units.get("a").hex, "0403", "the overrunners enter the cleared hex")
  expect.eq(kessel.game.var("city_owner")["0403"], "german")
  expect.accepted(kessel.act{ kind = "move", units = { "a" }, path = { "0504" } })
  expect.accepted(kessel.act{ kind = "end_phase" })
  expect.eq(V.owners()["0403"], "german")
end)

-- Rule 15: a unit moving through a city hex without stopping is the last to pass through it.
kessel.test("case_15_last_to_pass_through_ordinary_move", function()
  kessel.setup{
    map = { columns = 8, rows = 6, places = { { name = "Town", kind = "minor_city", hexes = { "0403" } } } },
    step = "german_movement", turn = 3,
    units = {
      { id = "g", side = "german", type = "panzer", formation = "7 Pz", faces = { "4-4-10", "2-2-10" }, at = "0303" },
      { id = "lead", side = "soviet", type = "leader", faces = { "0-2-10" }, attrs = { rating = 2 }, at = "0806" },
    },
    vars = { objectives = { { name = "Town", hexes = { "0403" }, vp = 5, side = "german" } } },
  }
  local owner = kessel.game.var("city_owner") or {}
  kessel.expect.eq(owner["0403"], nil, "nobody has been through the town yet")
  kessel.expect.accepted(kessel.act{ kind = "move", units = { "g" }, path = { "0403", "0503" } })
  kessel.expect.eq(kessel.units.get("g").hex, "0503", "the unit moved on past the town")
  kessel.expect.eq(kessel.game.var("city_owner")["0403"], "german")
end)
