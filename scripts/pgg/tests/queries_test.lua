-- The declared queries (queries.lua) answer as the rules modules judge: supply [11.1] [11.2],
-- MP [6.1] [11.3], command radius [10.35], attack odds [9.3] [9.4], legal retreats [9.72].
local expect = kessel.expect

local function pz(id, at, face) return { id = id, side = "german", type = "panzer", formation = "F" .. id, faces = { face or "6-6-10", "1-1-10" }, at = at } end
local function rifle(id, at, face) return { id = id, side = "soviet", type = "rifle", faces = { face or "2-2-6" }, at = at } end
local function leader(id, at, rating) return { id = id, side = "soviet", type = "leader", faces = { "0-" .. rating .. "-10" }, attrs = { rating = rating }, at = at } end

-- a 32x5 strip: road 0103..0503 joined to the source 0103 (as in supply_test.lua)
local function strip(units, step)
  kessel.setup{
    map = { columns = 32, rows = 5,
      links = { { kind = "road", path = { "0103", "0203", "0303", "0403", "0503" } } },
      tags = { road_supply_source = { "0103" } } },
    units = units, step = step or "german_movement", turn = 5,
  }
end

-- Rule 11.1
kessel.test("case_11_1_supply_query_gives_state_and_rule", function()
  strip{ pz("near", "2503"), pz("far", "2603") }
  local near = kessel.queries.ask("supply", { unit = "near" })
  expect.eq(near.in_supply, true)
  expect.eq(near.rule, "11.1")
  local far = kessel.queries.ask("supply", { unit = "far" })
  expect.eq(far.in_supply, false, "21 hexes from the road, 25 MP from the edge")
  expect.eq(far.rule, "11.1")
  expect.truthy(far.why:find("west edge", 1, true), far.why)
end)

-- Rule 6.1
kessel.test("case_6_1_mp_left_query_follows_the_move", function()
  strip{ pz("g", "0503") }
  local before = kessel.queries.ask("mp_left", { unit = "g" })
  expect.eq(before.allowance, 10)
  expect.eq(before.left, 10)
  expect.eq(before.may_move, true)
  expect.accepted(kessel.act{ kind = "move", units = { "g" }, path = { "0603", "0703" } })
  local after = kessel.queries.ask("mp_left", { unit = "g" })
  expect.eq(after.spent, 2, "two clear hexes")
  expect.eq(after.left, 8)
end)

-- Rule 10.35
kessel.test("case_10_35_command_radius_query_lists_hexes_and_units", function()
  strip({ leader("l", "1003", 2), rifle("in", "1203"), rifle("out", "1303") }, "soviet_movement")
  local c = kessel.queries.ask("command_radius", { leader = "l" })
  expect.eq(c.rating, 2)
  expect.eq(table.concat(c.units, ","), "in", "two hexes reach 1203, not 1303")
  local has = {}
  for _, h in ipairs(c.hexes) do has[h] = true end
  expect.truthy(has["1003"] and has["1203"] and not has["1303"])
end)

-- Rule 9.4
kessel.test("case_9_4_odds_query_gives_totals_column_and_chances", function()
  kessel.setup{ map = { columns = 8, rows = 8 }, step = "german_combat", turn = 7,
    units = { pz("g", "0303"), rifle("s", "0403"), leader("sup", "0706", 5) } }
  local o = kessel.queries.ask("odds", { units = { "g" }, targets = { "0403" } })
  expect.eq(o.attack, 6)
  expect.eq(o.defence, 2)
  expect.eq(o.label, "3-1")
  expect.eq(o.legal, true)
  local sum = 0
  for _, d in ipairs(o.distribution) do sum = sum + d.p end
  expect.near(sum, 1, 1e-9)
  -- the query does not attack: nothing happened
  expect.eq(kessel.units.get("g").flags.attacked, nil)
end)

-- Rule 9.72
kessel.test("case_9_72_retreats_query_lists_the_opponents_paths", function()
  kessel.setup{ map = { columns = 8, rows = 8 }, step = "german_combat", turn = 7,
    units = { pz("g", "0303"), rifle("s", "0403"), leader("sup", "0706", 5) } }
  expect.eq(kessel.queries.ask("retreats").pending, false)
  kessel.inject_dice{ 3 }
  expect.accepted(kessel.act{ kind = "attack", units = { "g" }, targets = { "0403" } })
  expect.accepted(kessel.act{ kind = "choose", choice = "retreat" })
  local r = kessel.queries.ask("retreats")
  expect.eq(r.pending, true)
  expect.eq(r.side, "german", "the opponent picks")
  local dests = {}
  for _, a in ipairs(r.retreats) do dests[#dests + 1] = a.path[1] end
  table.sort(dests)
  expect.eq(table.concat(dests, " "), "0404 0503 0504", "the same set the retreat action enumerates")
end)

-- Rule 12 / 12.2: nobody knows an untried unit's strength until the attack reveals it. The odds
-- query must not present an attack on one as 4 against 0 (10-1) without saying so: it names each
-- untried unit, counts it as 0 and says the odds are not exact.
kessel.test("case_12_2_odds_query_says_untried_strength_is_unknown", function()
  kessel.setup{ map = { columns = 8, rows = 8 }, step = "german_combat", turn = 7, pools = { rifle = { "3-3-6", "5-5-6" } },
    units = { pz("g", "0303"), { id = "u", name = "u", side = "soviet", type = "rifle", hidden = true, pool = "rifle", at = "0403" },
      leader("sup", "0706", 5) } }
  local o = kessel.queries.ask("odds", { units = { "g" }, targets = { "0403" } })
  expect.eq(o.exact, false, "an untried defender")
  expect.eq(#o.untried, 1)
  expect.eq(o.untried[1], "u")
  local said = false
  for _, m in ipairs(o.defence_modifiers) do
    if m.rule == "12.2" and m.message:find("untried", 1, true) and m.message:find("unknown", 1, true) then said = true end
  end
  expect.truthy(said, "a defence modifier names the untried unit [12.2]")
  expect.eq(kessel.units.get("u").hidden, true, "the query reveals nothing")
  -- a known defender: exact odds, no such note
  kessel.setup{ map = { columns = 8, rows = 8 }, step = "german_combat", turn = 7,
    units = { pz("g", "0303"), rifle("s", "0403"), leader("sup", "0706", 5) } }
  o = kessel.queries.ask("odds", { units = { "g" }, targets = { "0403" } })
  expect.eq(o.exact, true)
  expect.eq(#o.untried, 0)
  -- untried attackers: the Soviet does not know his own counters' values either
  kessel.setup{ map = { columns = 8, rows = 8 }, step = "soviet_combat", turn = 7, pools = { rifle = { "3-3-6" } },
    units = { pz("g", "0303"), { id = "u", name = "u", side = "soviet", type = "rifle", hidden = true, pool = "rifle", at = "0403" },
      leader("sup", "0403", 5) } }
  o = kessel.queries.ask("odds", { units = { "u", "sup" }, targets = { "0303" } })
  expect.eq(o.exact, false)
  said = false
  for _, m in ipairs(o.attack_modifiers) do
    if m.rule == "12.2" and m.message:find("untried", 1, true) then said = true end
  end
  expect.truthy(said, "an attack modifier names the untried attacker")
end)

-- Rule 9.1: only units on the map attack. The odds query, asked from `kessel query` or a script
-- with any unit, answers for units waiting to enter, eliminated or removed (legal = false, a
-- reason naming each), for empty lists, and in any phase; it never stops on a Lua error.
local function off_map_board(step)
  kessel.setup{ map = { columns = 8, rows = 8 }, step = step, turn = 7,
    units = { pz("g", "0303"), rifle("s", "0403"), leader("sup", "0706", 5),
      { id = "late", name = "late", side = "german", type = "panzer", formation = "Flate", faces = { "6-6-10", "1-1-10" } },
      { id = "dead", name = "dead", side = "german", type = "panzer", formation = "Fdead", faces = { "6-6-10", "1-1-10" }, location = "eliminated" },
      { id = "gone", name = "gone", side = "soviet", type = "rifle", faces = { "0-0-6" }, location = "removed" },
      { id = "ldr", name = "ldr", side = "soviet", type = "leader", faces = { "0-4-10" }, attrs = { rating = 4 } } } }
end

-- a reason whose message holds every one of `words`
local function says(o, ...)
  local words = { ... }
  for _, r in ipairs(o.reasons) do
    local all = true
    for _, w in ipairs(words) do if not r.message:find(w, 1, true) then all = false end end
    if all then return true end
  end
  return false
end

kessel.test("case_9_1_odds_query_names_units_not_on_the_map", function()
  for _, step in ipairs{ "german_combat", "soviet_movement", "soviet_combat" } do
    off_map_board(step)
    for _, id in ipairs{ "late", "dead", "gone", "ldr" } do
      local o = kessel.queries.ask("odds", { units = { id }, targets = { "0403" } })
      expect.eq(o.legal, false, id .. " in " .. step)
      expect.truthy(says(o, id, "not on the map"), id .. " in " .. step .. ": a reason names it as not on the map")
      expect.eq(o.attack, 0, id .. " adds nothing")
    end
    -- with a unit that may attack, the ones off the map are named and add nothing
    local o = kessel.queries.ask("odds", { units = { "g", "late", "ldr" }, targets = { "0403" } })
    expect.eq(o.legal, false)
    expect.truthy(says(o, "late", "not on the map"), step)
    expect.truthy(says(o, "ldr", "not on the map"), step)
    expect.eq(o.attack, 6, "only g counts")
    -- empty lists
    o = kessel.queries.ask("odds", { units = {}, targets = { "0403" } })
    expect.eq(o.legal, false)
    expect.truthy(says(o, "attacking units"), step .. ": no attacking unit")
    o = kessel.queries.ask("odds", { units = { "g" }, targets = {} })
    expect.eq(o.legal, false)
    expect.truthy(says(o, "defending hex"), step .. ": no defending hex")
    o = kessel.queries.ask("odds", { units = { "late" }, targets = {} })
    expect.eq(o.legal, false)
  end
  -- each reason is given once, not again by the attack's own checks in the Combat Phase
  off_map_board("german_combat")
  local o = kessel.queries.ask("odds", { units = { "late" }, targets = {} })
  local n, m = 0, 0
  for _, r in ipairs(o.reasons) do
    if r.message:find("late", 1, true) then n = n + 1 end
    if r.message:find("defending hex", 1, true) then m = m + 1 end
  end
  expect.eq(n, 1, "one reason for the unit not on the map")
  expect.eq(m, 1, "one reason for the missing defending hex")
end)

-- Rule 6.1 / 14.3: the mp_left query, asked about a unit off the map, says whether it may move:
-- an eliminated or removed unit never (it answered may_move = true with its printed allowance), a
-- reinforcement only from its turn, in its player's Movement Phase [14.3].
kessel.test("case_6_1_mp_left_query_for_units_off_the_map", function()
  local function late(id, turn, extra)
    local u = { id = id, name = id, side = "german", type = "panzer", formation = "F" .. id,
      faces = { "6-6-10", "1-1-10" }, enter = turn and { turn = turn, area = "H" } or nil }
    for k, v in pairs(extra or {}) do u[k] = v end
    return u
  end
  local function build(step)
    kessel.setup{ map = { columns = 8, rows = 8, areas = { H = { "0104" } } }, step = step, turn = 2,
      units = { pz("g", "0303"), late("due", 2), late("later", 5), late("dead", nil, { location = "eliminated" }),
        late("gone", nil, { location = "removed" }), rifle("s", "0606") } }
  end
  build("german_movement")
  for _, c in ipairs{ { "dead", "6.1", "not on the map (eliminated)" }, { "gone", "6.1", "not on the map (removed from play)" },
      { "later", "14.3", "enters on turn 5" } } do
    local m = kessel.queries.ask("mp_left", { unit = c[1] })
    expect.eq(m.may_move, false, c[1])
    expect.eq(m.reason and m.reason.rule, c[2], c[1])
    expect.truthy(m.reason.message:find(c[3], 1, true), m.reason.message)
    expect.truthy(m.reason.message:find(c[1], 1, true), "the reason names " .. c[1])
  end
  local m = kessel.queries.ask("mp_left", { unit = "due" })
  expect.eq(m.may_move, true, "a reinforcement due now, in its Movement Phase")
  expect.eq(m.left, 10)
  -- out of its phase it waits
  build("german_combat")
  m = kessel.queries.ask("mp_left", { unit = "due" })
  expect.eq(m.may_move, false)
end)

-- Rule 6.1: a stack moves together. The reach query, asked about units of different hexes, gave
-- the field of the first one's hex for all of them (a move of them all is refused); the units not
-- in that hex are now refused as the move refuses them, and units off the map are named.
kessel.test("case_6_1_reach_query_moves_one_stack", function()
  strip({ pz("a", "0503"), pz("b", "0503"), pz("c", "0703"),
    { id = "dead", name = "dead", side = "german", type = "panzer", formation = "Fdead", faces = { "6-6-10", "1-1-10" }, location = "eliminated" } })
  local r = kessel.queries.ask("reach", { units = { "a", "c", "b", "dead" } })
  expect.eq(table.concat(r.movers, ","), "a,b", "the stack of the first unit's hex")
  local why = {}
  for _, x in ipairs(r.refused) do why[x.unit] = x end
  expect.eq(why.c and why.c.rule, "6.1")
  expect.truthy(why.c.message:find("not in 0503 with the rest of the stack", 1, true), why.c.message)
  expect.eq(why.dead and why.dead.rule, "6.1")
  expect.truthy(why.dead.message:find("dead", 1, true) and why.dead.message:find("not on the map (eliminated)", 1, true), why.dead.message)
  -- every hex listed is one the stack's move accepts
  for _, h in ipairs(r.reachable) do
    if h.cost <= 1 then
      expect.accepted(kessel.validate{ kind = "move", units = r.movers, path = { h.hex } })
    end
  end
  expect.truthy(#r.reachable > 0)
  -- no units at all: the answer says so
  r = kessel.queries.ask("reach", { units = {} })
  expect.eq(#r.reachable, 0)
  expect.eq(r.reason and r.reason.rule, "6.1")
  expect.truthy(r.reason.message:find("no units", 1, true), r.reason.message)
end)

-- Rule 6.1: in a stack of two movement types each unit pays by its own type within its own
-- allowance. The reach query gives each hex the most any of them pays (the stack's shading), and
-- in `costs` what each type's units pay: into forest the panzer regiment pays 2 MP, the infantry
-- division 1 (terrain effects chart).
kessel.test("case_6_1_reach_query_says_what_each_movement_type_pays", function()
  kessel.setup{
    map = { columns = 8, rows = 3, terrain = { ["0302"] = "forest", ["0402"] = "forest" } },
    units = { pz("p", "0202"), { id = "i", side = "german", type = "infantry", formation = "Fi", faces = { "4-4-7" }, at = "0202" } },
    step = "german_movement", turn = 5,
  }
  local r = kessel.queries.ask("reach", { units = { "p", "i" } })
  expect.eq(table.concat(r.movers, ","), "p,i")
  local at = {}
  for _, e in ipairs(r.reachable) do at[e.hex] = e end
  local e = at["0302"]
  expect.truthy(e, "the forest hex next door is within both allowances")
  expect.eq(e.cost, 2, "the stack's cost is the most: the panzers'")
  local by = {}
  for _, g in ipairs(e.costs or {}) do by[table.concat(g.units, ",")] = g.cost end
  expect.eq(by.p, 2)
  expect.eq(by.i, 1)
  -- one movement type: no `costs`
  local alone = kessel.queries.ask("reach", { units = { "p" } })
  for _, x in ipairs(alone.reachable) do expect.eq(x.costs, nil) end
end)

-- Rule 10.35 / 11: the command_radius and supply queries, asked about a unit off the map, say so
-- and where it is (they answered rating 0 with no word, and "not on the map" under rule 11.3).
kessel.test("case_10_35_command_and_supply_queries_for_units_off_the_map", function()
  strip({ leader("l", "1003", 2), rifle("s", "1203"),
    { id = "ev", name = "ev", side = "soviet", type = "leader", faces = { "0-3-10" }, attrs = { rating = 3 } },
    { id = "dl", name = "dl", side = "soviet", type = "leader", faces = { "0-3-10" }, attrs = { rating = 3 }, location = "eliminated" },
    { id = "dr", name = "dr", side = "soviet", type = "rifle", faces = { "2-2-6" }, location = "removed" } }, "soviet_movement")
  for _, c in ipairs{ { "ev", "waiting to enter" }, { "dl", "eliminated" } } do
    local r = kessel.queries.ask("command_radius", { leader = c[1] })
    expect.eq(r.is_leader, true)
    expect.eq(r.rating, 0)
    expect.eq(#r.hexes, 0)
    expect.truthy(r.reason and r.reason:find(c[1], 1, true) and r.reason:find("not on the map (" .. c[2] .. ")", 1, true), tostring(r.reason))
  end
  expect.eq(kessel.queries.ask("command_radius", { leader = "l" }).reason, nil, "a leader on the map")
  for _, c in ipairs{ { "ev", "waiting to enter" }, { "dl", "eliminated" }, { "dr", "removed from play" } } do
    local r = kessel.queries.ask("supply", { unit = c[1] })
    expect.eq(r.rule, "11")
    expect.truthy(r.why:find(c[1], 1, true) and r.why:find("not on the map (" .. c[2] .. ")", 1, true), r.why)
    -- [11] a unit off the map is not in supply now (an eliminated one answered true)
    expect.eq(r.in_supply, false, c[1])
  end
  -- [14] one waiting to enter is told it will be in supply for the player-turn it enters
  local w = kessel.queries.ask("supply", { unit = "ev" })
  expect.truthy(w.why:find("in supply for the player-turn it enters [14]", 1, true), w.why)
  expect.falsy(kessel.queries.ask("supply", { unit = "dl" }).why:find("enters", 1, true), "an eliminated unit enters no more")
end)

-- [6.22] [6.5] The mp_left query about a unit that stopped in an enemy zone of control answered
-- may_move = true with its MP left, though it may not leave the hex: it says it may not move, names
-- the zone, and lists the hexes it may still overrun. A unit also in a second enemy unit's zone may
-- not overrun at all (see case_6_5_no_overrun_from_the_zone_of_an_enemy_unit_other_than_the_target).
kessel.test("case_6_22_mp_left_query_of_a_unit_in_an_enemy_zoc_says_it_may_only_overrun", function()
  strip({ pz("g", "0503"), rifle("s", "0703"), leader("l", "1503", 2) })
  expect.accepted(kessel.act{ kind = "move", units = { "g" }, path = { "0603" } })
  local m = kessel.queries.ask("mp_left", { unit = "g" })
  expect.eq(m.left, 9, "one clear hex spent")
  expect.eq(m.may_move, false, "in the zone of 0703: no voluntary exit")
  expect.eq(m.reason.rule, "6.22")
  expect.truthy(m.reason.message:find("zone of control of", 1, true) and m.reason.message:find("0703", 1, true), m.reason.message)
  expect.eq(table.concat(m.overrun_targets, ","), "0703")
  expect.accepted(kessel.act{ kind = "overrun", units = { "g" }, target = "0703" })
  -- out of any zone: free to move, and no overrun list
  strip({ pz("g", "0503"), rifle("s", "0903"), leader("l", "1503", 2) })
  local free = kessel.queries.ask("mp_left", { unit = "g" })
  expect.eq(free.may_move, true)
  expect.eq(free.overrun_targets, nil)
  -- in two enemy zones: no overrun either [6.22]
  strip({ pz("g", "0603"), rifle("s", "0703"), rifle("t", "0602"), leader("l", "1503", 2) })
  local boxed = kessel.queries.ask("mp_left", { unit = "g" })
  expect.eq(boxed.may_move, false)
  expect.eq(#boxed.overrun_targets, 0)
  expect.truthy(boxed.reason.message:find("nor may it overrun", 1, true), boxed.reason.message)
end)
