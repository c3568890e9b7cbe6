-- Rule tests for the search behind WBC09 #1 (rules/retreat.lua: the best hex placement over all the
-- units retreating from one combat). The enumerator lists, and the validator checks, every retreat
-- the priority allows; with many retreating stacks that search must stay well within the
-- instruction budget and give the same rulings as a plain search.
-- Geometry (10x10 map, flat-topped columns, even columns half a hex lower): 0505's neighbours are
-- 0504 0604 0605 0506 0405 0404.

local expect = kessel.expect

local WBC09_RETREATS = { wbc09_01_retreat_priority = true, wbc09_01a_no_switching_places = true,
  wbc09_01b_no_retreat_into_lone_defender_hex = true, wbc09_01c_simultaneous_retreats = true,
  wbc09_02_opponent_orders_retreats = true }
-- Lake hexsides leave the stack in 0504 no way out but the hexes of the other attackers (WBC09 #1a).
local SHUT_IN = { { "0504", "0503", "lake" }, { "0504", "0603", "lake" }, { "0504", "0403", "lake" } }

local function pz(id, at) return { id = id, side = "german", type = "panzer", formation = "F" .. id, faces = { "1-1-10" }, at = at } end
local function rifle(id, at, face) return { id = id, side = "soviet", type = "rifle", faces = { face or "1-1-6" }, at = at } end
local function leader(id, at, rating) return { id = id, side = "soviet", type = "leader", faces = { "0-" .. rating .. "-10" }, attrs = { rating = rating }, at = at } end

local function note(events, text)
  for _, e in ipairs(events) do
    if e.event == "note" and e.text and e.text:find(text, 1, true) then return e end
  end
end
local function listed(list)
  local out = {}
  for _, a in ipairs(list) do
    expect.eq(a.kind, "retreat")
    out[#out + 1] = table.concat(a.units, ",") .. ">" .. table.concat(a.path, "-")
  end
  return out
end
local function find(list, units, path)
  local want = table.concat(units, ",") .. ">" .. table.concat(path, "-")
  for _, x in ipairs(listed(list)) do if x == want then return true end end
  return false
end

-- WBC09 #1: eighteen German units attack 0505 from all six hexes around it, three per hex, and get
-- A2 (18 against the surrounded rifle division's halved 18: 1-1, roll 6). The stack in 0504 is shut
-- in; the fifteen others can all end in empty hexes, which is the best placement, though short of
-- all eighteen: the search has to prove that nothing better exists. A German unit in 0703 makes
-- that hex friendly (room for two more [7.2]); a Soviet unit in 0208 closes some paths with its ZOC.
kessel.test("case_wbc09_01_large_attack_retreat_search", function()
  local units = { rifle("d", "0505", "2-36-6"), pz("f", "0703"), rifle("z", "0208") }
  local attackers = {}
  for i, h in ipairs{ "0504", "0604", "0605", "0506", "0405", "0404" } do
    for j = 1, 3 do
      local id = "g" .. i .. j
      units[#units + 1] = pz(id, h)
      attackers[#attackers + 1] = id
    end
  end
  kessel.setup{ map = { columns = 10, rows = 10, hexsides = SHUT_IN }, units = units, step = "german_combat", turn = 7,
    options = WBC09_RETREATS }
  kessel.inject_dice{ 6 }
  local events = expect.accepted(kessel.act{ kind = "attack", units = attackers, targets = { "0505" } })
  expect.truthy(note(events, "odds 1-1, roll 6: A2"), "the attack gets A2")
  expect.accepted(kessel.act{ kind = "choose", choice = "retreat" })
  local p = kessel.game.var("pending")
  expect.eq(p.kind, "retreat_path")
  expect.eq(p.side, "soviet", "the opponent picks the paths")
  expect.eq(#p.units, 18)

  local legal = kessel.legal("soviet")
  expect.eq(#legal, 256, "every retreat the priority allows")
  expect.truthy(find(legal, { "g11", "g12", "g13" }, {}), "the shut-in stack is eliminated")
  expect.truthy(find(legal, { "g12" }, {}), "or one of its units, the opponent choosing the order (WBC09 #2)")
  for _, a in ipairs(legal) do
    if a.units[1]:sub(1, 2) == "g1" then
      expect.eq(#a.path, 0, "no path out of 0504")
    else
      expect.eq(#a.path, 2, "an A2 retreat is two hexes")
      expect.eq(#kessel.units.at(a.path[2]), 0, "every unit that can reach an empty hex does: " .. table.concat(a.path, "-"))
    end
  end
  -- the listing and the check agree
  expect.truthy(find(legal, { "g21", "g22", "g23" }, { "0704", "0804" }))
  expect.accepted(kessel.validate{ kind = "retreat", units = { "g21", "g22", "g23" }, path = { "0704", "0804" } })
  expect.falsy(find(legal, { "g21", "g22", "g23" }, { "0704", "0703" }))
  local ok, r = kessel.validate{ kind = "retreat", units = { "g21", "g22", "g23" }, path = { "0704", "0703" } }
  local why = expect.refused(ok, r, "WBC09 #1", "15 in empty hexes, 0 in friendly hexes out of enemy ZOC")
  expect.truthy(why.message:find("at most 12 in empty hexes, 2 in friendly hexes out of enemy ZOC", 1, true), why.message)
  ok, r = kessel.validate{ kind = "retreat", units = { "g11", "g12", "g13" }, path = { "0404", "0403" } }
  expect.refused(ok, r, "WBC09 #1a")

  -- the opponent retreats the first whole stack listed; the rest is listed again
  local first
  for _, a in ipairs(legal) do if #a.path > 0 and #a.units == 3 and not first then first = a end end
  expect.accepted(kessel.act(first))
  for _, id in ipairs(first.units) do expect.eq(kessel.units.get(id).hex, first.path[2]) end
  expect.eq(#kessel.game.var("pending").units, 15)
  expect.eq(#kessel.legal("soviet"), 212)
end)

-- WBC09 #1 (with #1a, #1c and #2): the exact list in a small retreat. Six German units attack from
-- 0504 (shut in), 0604 and 0605 and get A1 (6 against the halved 20: 1-3, roll 1). Soviet ZOCs
-- close 0603 and 0706, a German unit holds 0704: the stack in 0604 has one empty hex, 0705, and the
-- stack in 0605 the empty 0705 and 0606. The best placement puts four units in empty hexes: both
-- stacks whole, 0604's into 0705 and 0605's into 0606. Splitting a stack, or taking 0705 from the
-- stack in 0604, or going onto friends, leaves fewer in empty hexes.
kessel.test("case_wbc09_01_retreat_list_exact", function()
  kessel.setup{ map = { columns = 10, rows = 10, hexsides = SHUT_IN }, step = "german_combat", turn = 7,
    units = { rifle("d", "0505", "2-40-6"), pz("a1", "0504"), pz("a2", "0504"), pz("b1", "0604"), pz("b2", "0604"),
      pz("c1", "0605"), pz("c2", "0605"), pz("f", "0704"), rifle("z", "0602"), rifle("y", "0806") },
    options = WBC09_RETREATS }
  kessel.inject_dice{ 1 }
  local events = expect.accepted(kessel.act{ kind = "attack", units = { "a1", "a2", "b1", "b2", "c1", "c2" }, targets = { "0505" } })
  expect.truthy(note(events, "odds 1-3, roll 1: A1"))
  expect.accepted(kessel.act{ kind = "choose", choice = "retreat" })
  expect.eq(table.concat(listed(kessel.legal("soviet")), " "), "a1,a2> a1> a2> b1,b2>0705 c1,c2>0606")
  local ok, r = kessel.validate{ kind = "retreat", units = { "c1", "c2" }, path = { "0705" } }
  local why = expect.refused(ok, r, "WBC09 #1", "4 in empty hexes")
  expect.truthy(why.message:find("at most 2 in empty hexes, 2 in friendly hexes out of enemy ZOC", 1, true), why.message)
  ok, r = kessel.validate{ kind = "retreat", units = { "b1" }, path = { "0705" } }
  why = expect.refused(ok, r, "WBC09 #1", "4 in empty hexes")
  expect.truthy(why.message:find("at most 3 in empty hexes, 1 in friendly hexes out of enemy ZOC", 1, true), why.message)
  ok, r = kessel.validate{ kind = "retreat", units = { "c1", "c2" }, path = { "0706" } }
  expect.refused(ok, r, "9.71", "enemy zone of control")
  -- once the stack in 0604 is in 0705, 0705 is friendly: the stack in 0605 still has 0606 empty
  expect.accepted(kessel.act{ kind = "retreat", units = { "b1", "b2" }, path = { "0705" } })
  expect.eq(table.concat(listed(kessel.legal("soviet")), " "), "a1,a2> a1> a2> c1,c2>0606")
  expect.accepted(kessel.act{ kind = "retreat", units = { "a1", "a2" }, path = {} })
  expect.eq(table.concat(listed(kessel.legal("soviet")), " "), "c1,c2>0606")
end)

-- WBC09 #1 (with #2): the search tells leaders from combat units, as stacking does [7.1]. A German
-- attack on two Soviet stacks (a rifle division and a leader in 0403, two rifle divisions in 0404)
-- gets D1 (9 against 4: 2-1, roll 2). Lakes leave 0403 the exits 0402 (two friends there, room for
-- one combat unit and one leader) and 0504, and 0404 only 0504. Two units can be in an empty hex
-- and two on friends: either stack may go first, whole, and the leader or the division may go alone
-- to 0402; a unit alone into 0504 first costs the best placement.
kessel.test("case_wbc09_01_retreat_list_with_leaders", function()
  kessel.setup{ map = { columns = 8, rows = 8,
      hexsides = { { "0403", "0503", "lake" }, { "0403", "0404", "lake" }, { "0404", "0405", "lake" }, { "0404", "0505", "lake" } } },
    step = "german_combat", turn = 7,
    units = { { id = "g", side = "german", type = "panzer", formation = "Fg", faces = { "9-9-10" }, at = "0304" },
      rifle("a", "0403"), leader("l", "0403", 1), rifle("b1", "0404"), rifle("b2", "0404"),
      rifle("f", "0402"), rifle("f2", "0402"), leader("sup", "0706", 5) },
    options = { wbc09_01_retreat_priority = true, wbc09_01a_no_switching_places = true,
      wbc09_01c_simultaneous_retreats = true, wbc09_02_opponent_orders_retreats = true } }
  kessel.inject_dice{ 2 }
  local events = expect.accepted(kessel.act{ kind = "attack", units = { "g" }, targets = { "0403", "0404" } })
  expect.truthy(note(events, "odds 2-1, roll 2: D1"))
  expect.accepted(kessel.act{ kind = "choose", choice = "retreat" })
  expect.eq(table.concat(listed(kessel.legal("german")), " "), "a,l>0402 a,l>0504 a>0402 l>0402 b1,b2>0504")
  local ok, r = kessel.validate{ kind = "retreat", units = { "a" }, path = { "0504" } }
  local why = expect.refused(ok, r, "WBC09 #1", "2 in empty hexes, 2 in friendly hexes out of enemy ZOC")
  expect.truthy(why.message:find("at most 1 in empty hexes, 3 in friendly hexes out of enemy ZOC", 1, true), why.message)
  expect.accepted(kessel.act{ kind = "retreat", units = { "l" }, path = { "0402" } })
  expect.eq(#kessel.units.at("0402"), 3)
end)

-- WBC09 #1 with stacking room: a unit sent into a friendly hex that is full does not survive there,
-- so it counts as eliminated, not as placed. Under WBC09 #2 the opponent may split the stack, and
-- the best placement is judged over the placements he can make, one unit at a time included.
-- 0505 (two rifle divisions) is attacked from 0504; 0404 and 0604 are in the German ZOC and empty,
-- a lake hexside closes 0405: the ways out are 0605 and 0506, each holding two friends (room for
-- one more [7.1]). Whole, the stack saves one unit; split, both. Without WBC09 #2 the stack retreats
-- whole [9.7] and either hex is the best it can do.
kessel.test("case_wbc09_01_ranks_placements_with_stacking_room", function()
  local function board(options, far)
    local lakes = { { "0505", "0405", "lake" } }
    if far then lakes[2] = { "0505", "0506", "lake" } end
    kessel.setup{ map = { columns = 10, rows = 10, hexsides = lakes }, step = "german_combat", turn = 7,
      options = options, units = { { id = "g", side = "german", type = "panzer", formation = "Fg", faces = { "8-8-10" }, at = "0504" },
        rifle("s1", "0505"), rifle("s2", "0505"), rifle("f1", "0605"), rifle("f2", "0605"),
        rifle("e1", far or "0506"), rifle("e2", far or "0506"), leader("sup", "0909", 5) } }
    kessel.inject_dice{ 4 } -- 8 against 2: 4-1, roll 4: D1
    expect.accepted(kessel.act{ kind = "attack", units = { "g" }, targets = { "0505" } })
    expect.accepted(kessel.act{ kind = "choose", choice = "retreat" })
  end
  board(WBC09_RETREATS)
  local list = kessel.legal("german")
  expect.falsy(find(list, { "s1", "s2" }, { "0605" }), "the whole stack into 0605 would lose a unit")
  expect.falsy(find(list, { "s1", "s2" }, { "0506" }))
  expect.truthy(find(list, { "s1" }, { "0605" }))
  expect.truthy(find(list, { "s2" }, { "0506" }))
  local ok, r = kessel.act{ kind = "retreat", units = { "s1", "s2" }, path = { "0605" } }
  local why = expect.refused(ok, r, "WBC09 #1", "0 in empty hexes, 2 in friendly hexes out of enemy ZOC, 0 in friendly hexes in enemy ZOC")
  expect.truthy(why.message:find("at most 0 in empty hexes, 1 in friendly", 1, true), why.message)
  expect.accepted(kessel.act{ kind = "retreat", units = { "s1" }, path = { "0605" } })
  list = kessel.legal("german")
  expect.falsy(find(list, { "s2" }, { "0605" }), "0605 is full now")
  expect.truthy(find(list, { "s2" }, { "0506" }))
  ok, r = kessel.act{ kind = "retreat", units = { "s2" }, path = { "0605" } }
  expect.refused(ok, r, "WBC09 #1")
  expect.accepted(kessel.act{ kind = "retreat", units = { "s2" }, path = { "0506" } })
  expect.eq(kessel.units.get("s1").location, "map")
  expect.eq(kessel.units.get("s2").location, "map", "every unit saved")
  -- a friendly hex out of enemy ZOC with room for one, and one in the German ZOC with room for two
  -- (0604, its friends make it enterable; a lake hexside now closes 0506): one unit each, not both
  -- into either
  board(WBC09_RETREATS, "0604")
  list = kessel.legal("german")
  expect.falsy(find(list, { "s1", "s2" }, { "0605" }))
  expect.falsy(find(list, { "s1", "s2" }, { "0604" }), "all into the ZOC hex is one short in friendly hexes out of ZOC")
  expect.truthy(find(list, { "s1" }, { "0605" }))
  expect.truthy(find(list, { "s1" }, { "0604" }), "either unit may go first")
  expect.accepted(kessel.act{ kind = "retreat", units = { "s2" }, path = { "0604" } })
  ok, r = kessel.act{ kind = "retreat", units = { "s1" }, path = { "0604" } }
  expect.refused(ok, r, "WBC09 #1", "at most 0 in empty hexes, 0 in friendly hexes out of enemy ZOC, 0 in friendly")
  expect.accepted(kessel.act{ kind = "retreat", units = { "s1" }, path = { "0605" } })
  expect.eq(kessel.units.get("s1").location, "map")
  expect.eq(kessel.units.get("s2").location, "map")
  -- without WBC09 #2 the stack retreats whole: either hex, the owner then names the unit lost [7]
  board({ wbc09_01_retreat_priority = true })
  list = kessel.legal("german")
  expect.truthy(find(list, { "s1", "s2" }, { "0605" }))
  expect.truthy(find(list, { "s1", "s2" }, { "0506" }))
  expect.falsy(find(list, { "s1" }, { "0605" }))
  expect.accepted(kessel.act{ kind = "retreat", units = { "s1", "s2" }, path = { "0605" } })
  expect.eq(kessel.game.var("pending").kind, "retreat_excess")
end)

-- WBC09 #1: the priority is judged over the whole combat's retreat ------------------------------
do
  local B = require("testing.board8_combat")
  local expect, V, pz, inf, rifle, leader, board, attack, choose, retreat, offered, has_retreat =
    B.expect, B.V, B.pz, B.inf, B.rifle, B.leader, B.board, B.attack, B.choose, B.retreat, B.offered, B.has_retreat

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
        -- the lone unit onto its friends in 0402, or the pair first into 0504 (the opponent picks
        -- which stack goes first [9.72]): both reach 2 in empty hexes and 1 out of enemy ZOC
        expect.eq(#list, 2, "the retreat onto the friends in 0402, or the pair first into 0504")
        expect.truthy(has_retreat(list, { "a" }, { "0402" }))
        expect.truthy(has_retreat(list, { "b1", "b2" }, { "0504" }))
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
end
