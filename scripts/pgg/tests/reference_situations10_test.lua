-- Situations from the reference material, tenth tester pass (round 9): every WBC 2009
-- interpretation played in the exact situation it speaks of, under the whole `wbc2009` profile
-- (every option that profile sets, not the one option alone) and under `standard`; the two readings
-- must differ where the profile promises a difference and agree where the item only confirms the
-- standard rule. Geometry of the 10x10 map: odd columns N, NE = c+1 r-1, SE = c+1 r, S,
-- SW = c-1 r, NW = c-1 r-1; even columns NE = c+1 r, SE = c+1 r+1, SW = c-1 r+1, NW = c-1 r.
local expect = kessel.expect
local B = require("testing.board10")
local M = require("rules.movement")

-- The option values of profiles/wbc2009.toml (a test starts from the ruleset's defaults, which are
-- the `standard` profile's, whatever `--profile` says).
local WBC = {
  wbc09_01_retreat_priority = true, wbc09_01a_no_switching_places = true,
  wbc09_01b_no_retreat_into_lone_defender_hex = true, wbc09_01c_simultaneous_retreats = true,
  wbc09_02_opponent_orders_retreats = true, wbc09_03_retreated_units_die_first = true,
  wbc09_04_overrun_stack_defends_with_first = true, wbc09_05_no_leader_evacuation = true,
  wbc09_06_rail_break_relocation = true, wbc09_07_overrun_loss_stays_put = true,
  wbc09_08_supply_mp_by_unit_type = true, wbc09_09_integrity_before_halving = true,
  wbc09_10_integrity_with_gd_lehr = true, wbc09_11_overrun_stack_may_split = true,
  wbc09_12_multiple_leaders = true, wbc09_13_loc_not_through_swamp = true,
  wbc09_14_rifle_recycling_delay = true, wbc09_15_interdiction_on_overrun_cost = true,
  vp_bidding = true, leader_evacuation = false,
}
-- The two profiles, standard first: { name, options }.
local PROFILES = { { "standard", {} }, { "wbc2009", WBC } }
local function with(options, extra)
  local t = {}
  for k, v in pairs(options) do t[k] = v end
  for k, v in pairs(extra or {}) do t[k] = v end
  return t
end
-- The profiles an item's situation is played under: the two above and the whole `wbc2009`
-- profile with only that item's option off (rules30), which must play the item as the standard
-- game does: each option changes what it says, and no other option makes up for it. (`wbc` in the
-- tests is true for the full profile only.)
local function profiles(id)
  return { PROFILES[1], PROFILES[2], { "wbc2009 without " .. id, with(WBC, { [id] = false }) } }
end

local function attack(units, targets) return kessel.act{ kind = "attack", units = units, targets = targets } end
local function choose(c, units) return kessel.act{ kind = "choose", choice = c, units = units } end
local function retreat(units, path) return kessel.act{ kind = "retreat", units = units, path = path } end
local function offered(side, kind)
  local out = {}
  for _, a in ipairs(kessel.legal(side)) do
    if a.kind == kind then out[#out + 1] = table.concat(a.units or {}, ",") .. ">" .. table.concat(a.path or {}, ",") end
  end
  table.sort(out)
  return table.concat(out, " ")
end

-- WBC09 #1 (a, b, c of the priority list) against [9.71]. Board: g (4-4-10) in 0303 attacks the
-- rifle s (2-2-6) in 0403, 4 against 2, 2-1, roll 2: D1, retreated. Lake hexsides close 0503 and
-- 0504; 0304 is in g's zone with no Soviet there; friends f in 0402 (in g's zone) and f2 in 0404
-- (out of it). Standard [9.71]: no empty hex can be reached, so either friendly hex will do.
-- WBC09 #1: a friendly hex out of enemy ZOC comes before one in it: only 0404. Both profiles agree
-- that an empty hex comes first: with 0504 open the German must send s there.
kessel.test("wbc09_01_retreat_priority_friendly_out_of_zoc_before_in_zoc", function()
  for _, p in ipairs(profiles("wbc09_01_retreat_priority")) do
    local wbc = p[1] == "wbc2009"
    local function board(open)
      local sides = { { "0403", "0503", "lake" } }
      if not open then sides[#sides + 1] = { "0403", "0504", "lake" } end
      B.setup({ B.pz("g", "0303"), B.rifle("s", "0403"), B.rifle("f", "0402"), B.rifle("f2", "0404"), B.leader("l", "0706", 5) },
        { options = p[2], map = { columns = 10, rows = 10, hexsides = sides } })
      kessel.inject_dice{ 2 }
      local ev = expect.accepted(attack({ "g" }, { "0403" }))
      expect.truthy(B.note(ev, "odds 2-1, roll 2: D1"), B.all_notes(ev))
      expect.accepted(choose("retreat"))
    end
    board(false)
    expect.eq(offered("german", "retreat"), wbc and "s>0404" or "s>0402 s>0404", p[1])
    local ok, why = retreat({ "s" }, { "0402" })
    if wbc then
      expect.refused(ok, why, "WBC09 #1")
      expect.accepted(retreat({ "s" }, { "0404" }))
    else
      expect.accepted(ok, why)
    end
    board(true)
    expect.eq(offered("german", "retreat"), "s>0504", p[1] .. ": an empty hex first in both")
    ok, why = retreat({ "s" }, { "0404" })
    expect.refused(ok, why, wbc and "WBC09 #1" or "9.71")
  end
end)

-- WBC09 #1a: no retreating unit may enter or pass through a hex first held by another unit
-- retreating from the same combat. Board: g (8-8-10) in 0304 attacks s1 (1-1-6) in 0403 and s2
-- (1-1-6) in 0404 together [9.23], 8 against 2, 4-1, roll 1: D2. s1's path 0404-0505 goes through
-- s2's hex: standard allows it (s2 may have left or stay: a friendly hex in passing), the WBC
-- profile refuses it and offers s1 no path through 0404.
kessel.test("wbc09_01a_no_retreat_through_the_hex_of_another_unit_of_the_same_combat", function()
  for _, p in ipairs(profiles("wbc09_01a_no_switching_places")) do
    local wbc = p[1] == "wbc2009"
    B.setup({ B.pz("g", "0304", "8-8-10"), B.rifle("s1", "0403", "1-1-6"), B.rifle("s2", "0404", "1-1-6"), B.leader("l", "0908", 5) },
      { options = p[2] })
    kessel.inject_dice{ 1 }
    local ev = expect.accepted(attack({ "g" }, { "0403", "0404" }))
    expect.truthy(B.note(ev, "odds 4-1, roll 1: D2"), B.all_notes(ev))
    expect.accepted(choose("retreat"))
    local through = offered("german", "retreat"):find("s1>0404", 1, true) ~= nil
    expect.eq(through, not wbc, p[1] .. ": a path of s1 through 0404 offered")
    local ok, why = retreat({ "s1" }, { "0404", "0505" })
    if wbc then expect.refused(ok, why, "WBC09 #1a") else expect.accepted(ok, why) end
  end
end)

-- WBC09 #1b: after D1/A1 against a single defender who is eliminated, the attackers may not
-- retreat into its hex. Board: g (6-6-10) in 0303 against s (2-2-6) in 0403, 3-1, roll 4: D1/A1;
-- s takes the loss (eliminated), g retreats. Standard (FAQ 2): 0403, empty and in no Soviet zone,
-- is an empty hex like 0302; WBC: refused. After D2/A1 (4-1, roll 3) the WBC item does not apply.
kessel.test("wbc09_01b_no_attacker_retreat_into_the_lone_eliminated_defender_s_hex", function()
  for _, p in ipairs(profiles("wbc09_01b_no_retreat_into_lone_defender_hex")) do
    local wbc = p[1] == "wbc2009"
    B.setup({ B.pz("g", "0303", "6-6-10"), B.rifle("s", "0403"), B.leader("l", "0706", 5) }, { options = p[2] })
    kessel.inject_dice{ 4 }
    local ev = expect.accepted(attack({ "g" }, { "0403" }))
    expect.truthy(B.note(ev, "odds 3-1, roll 4: D1/A1"), B.all_notes(ev))
    expect.accepted(choose("loss"))
    expect.eq(B.where("s"), "eliminated")
    expect.accepted(choose("retreat"))
    local into = offered("soviet", "retreat"):find("g>0403", 1, true) ~= nil
    expect.eq(into, not wbc, p[1] .. ": 0403 offered to the retreating attacker")
    local ok, why = retreat({ "g" }, { "0403" })
    if wbc then expect.refused(ok, why, "WBC09 #1b") else expect.accepted(ok, why) end
    -- D2/A1: the item speaks of D1/A1 only; both profiles let g retreat into the emptied hex
    B.setup({ B.pz("g", "0303", "8-8-10"), B.rifle("s", "0403"), B.leader("l", "0706", 5) }, { options = p[2] })
    kessel.inject_dice{ 3 }
    ev = expect.accepted(attack({ "g" }, { "0403" }))
    expect.truthy(B.note(ev, "odds 4-1, roll 3: D2/A1"), B.all_notes(ev))
    expect.accepted(choose("loss"))
    expect.accepted(choose("retreat"))
    expect.accepted(retreat({ "g" }, { "0403" }))
  end
end)

-- WBC09 #1 (simultaneity note): the retreats of one combat are simultaneous; the attacker may not
-- retreat one stack so as to cut off another of the same combat that had a way out. Board: g
-- (9-9-10) in 0304 attacks a1, a2 in 0403 and b1, b2 in 0404 [9.23] (9 against 4, 2-1, roll 2: D1);
-- lake hexsides leave 0403 the exits 0402 and 0504 and 0404 only 0504 (0303 and 0305 are in g's
-- zone). Standard: the German may put a1, a2 in 0504 first; b1, b2 follow and one of the four
-- dies over the limit [7.1]. WBC: refused; a to 0402, b to 0504, nobody dies.
kessel.test("wbc09_01c_no_retreat_that_cuts_off_another_stack_of_the_same_combat", function()
  for _, p in ipairs(profiles("wbc09_01c_simultaneous_retreats")) do
    -- (rules30) with #1c off the rest of the profile still refuses the cut-off: #1's count over the
    -- whole combat, as many units as can be in empty hexes, already finds that sending a first
    -- leaves b a friendly hex at best; the refusal then cites the priority, not the simultaneity
    local wbc = p[2].wbc09_01_retreat_priority or p[2].wbc09_01c_simultaneous_retreats or false
    B.setup({ B.pz("g", "0304", "9-9-10"), B.rifle("a1", "0403", "1-1-6"), B.rifle("a2", "0403", "1-1-6"), B.rifle("b1", "0404", "1-1-6"), B.rifle("b2", "0404", "1-1-6"),
      B.leader("l", "0706", 5) }, { options = p[2], map = { columns = 10, rows = 10,
        hexsides = { { "0403", "0503", "lake" }, { "0403", "0404", "lake" }, { "0404", "0405", "lake" }, { "0404", "0505", "lake" } } } })
    kessel.inject_dice{ 2 }
    local ev = expect.accepted(attack({ "g" }, { "0403", "0404" }))
    expect.truthy(B.note(ev, "odds 2-1, roll 2: D1"), B.all_notes(ev))
    expect.accepted(choose("retreat"))
    local ok, why = retreat({ "a1", "a2" }, { "0504" })
    if wbc then
      expect.refused(ok, why, "WBC09 #1")
      expect.accepted(retreat({ "a1", "a2" }, { "0402" }))
      expect.accepted(retreat({ "b1", "b2" }, { "0504" }))
      for _, id in ipairs{ "a1", "a2", "b1", "b2" } do expect.eq(kessel.units.get(id).location, "map", id) end
    else
      expect.accepted(ok, why)
      expect.accepted(retreat({ "b1", "b2" }, { "0504" }))
      expect.eq(B.pending().kind, "retreat_excess")
      expect.accepted(kessel.act{ kind = "eliminate_excess", unit = "b2" })
      expect.eq(B.where("b2"), "eliminated")
    end
  end
end)

-- WBC09 #2: the opponent retreats the units one by one in the order he likes and so decides which
-- dies for want of room. Board: g (10-10-10) in 0303 attacks s (9-9-6) and t (1-1-6) in 0403,
-- 10 against 10, 1-1, roll 1: D1, retreated. Lakes leave 0403 one way out, 0404, which holds two
-- friends f1 and f2: room for one more [7.1]. Standard [9.7]: the stack retreats whole, and the
-- Soviet (the owner [7]) names the unit lost over the limit. WBC: the German retreats s or t alone;
-- the one he sends second dies (he keeps the 1-1-6 alive and the 9-9-6 dies).
kessel.test("wbc09_02_the_opponent_splits_the_stack_and_decides_who_dies", function()
  for _, p in ipairs(profiles("wbc09_02_opponent_orders_retreats")) do
    local wbc = p[1] == "wbc2009"
    B.setup({ B.pz("g", "0303", "10-10-10"), B.rifle("s", "0403", "9-9-6"), B.rifle("t", "0403", "1-1-6"),
      B.rifle("f1", "0404"), B.rifle("f2", "0404"), B.leader("l", "0706", 5) },
      { options = p[2], map = { columns = 10, rows = 10,
        hexsides = { { "0403", "0503", "lake" }, { "0403", "0504", "lake" }, { "0403", "0402", "lake" }, { "0403", "0304", "lake" } } } })
    kessel.inject_dice{ 1 }
    local ev = expect.accepted(attack({ "g" }, { "0403" }))
    expect.truthy(B.note(ev, "odds 1-1, roll 1: D1"), B.all_notes(ev))
    expect.accepted(choose("retreat"))
    local ok, why = retreat({ "t" }, { "0404" })
    if wbc then
      expect.accepted(ok, why)
      expect.accepted(retreat({ "s" }, { "0404" }))
      expect.eq(B.where("s"), "eliminated", "the second into a full hex dies")
      expect.eq(B.where("t"), "0404")
    else
      expect.refused(ok, why, "9.7", "whole stack")
      expect.accepted(retreat({ "s", "t" }, { "0404" }))
      local pd = B.pending()
      expect.eq(pd and pd.kind, "retreat_excess")
      expect.eq(pd.side, "soviet", "standard: the owner names the excess")
      expect.accepted(kessel.act{ kind = "eliminate_excess", unit = "t" })
      expect.eq(B.where("s"), "0404")
    end
  end
end)

-- WBC09 #3, first part, the item's own situation: a unit retreated onto a leader who is attacked
-- later in the phase. Board: g (4-4-10) in 0303 attacks s (2-2-6) in 0403 (2-1, roll 2: D1); lakes
-- close 0503 and 0504, 0402 and 0304 are in g's zone, so s retreats onto the leader L (rating 3)
-- in 0404. Then h (9-9-10) in 0304 attacks 0404: the leader's defence alone, 3 [9.73]: 3-1, roll 3:
-- D1. Both profiles: s dies. Standard: s's step pays the D1 and L stays. WBC: s dies first and does
-- not count; L still owes the D1 (a step, so death, or a retreat).
kessel.test("wbc09_03_unit_retreated_onto_a_leader_dies_first_and_the_leader_still_owes_the_result", function()
  for _, p in ipairs(profiles("wbc09_03_retreated_units_die_first")) do
    local wbc = p[1] == "wbc2009"
    B.setup({ B.pz("g", "0303"), B.rifle("s", "0403"), B.leader("L", "0404", 3), B.pz("h", "0304", "9-9-10"), B.leader("sup", "0706", 5) },
      { options = p[2], map = { columns = 10, rows = 10, hexsides = { { "0403", "0503", "lake" }, { "0403", "0504", "lake" } } } })
    kessel.inject_dice{ 2 }
    expect.accepted(attack({ "g" }, { "0403" }))
    expect.accepted(choose("retreat"))
    expect.accepted(retreat({ "s" }, { "0404" }))
    if B.pending() then expect.accepted(kessel.act{ kind = "advance", skip = true }) end
    kessel.inject_dice{ 3 }
    local ev = expect.accepted(attack({ "h" }, { "0404" }))
    expect.truthy(B.note(ev, "attack 9 against defence 3 in 0404: odds 3-1, roll 3: D1"), B.all_notes(ev))
    if wbc then
      expect.eq(B.where("s"), "eliminated", "WBC: dies before the choice")
      expect.eq(B.pending().kind, "loss_or_retreat")
      expect.accepted(choose("loss"))
      expect.eq(B.where("L"), "eliminated", "WBC: the leader pays the D1")
    else
      expect.accepted(choose("loss"))
      expect.eq(B.where("s"), "eliminated")
      expect.eq(B.where("L"), "0404", "standard: s's step paid the D1")
    end
  end
end)

-- WBC09 #3, second part: retreated onto an untried unit that proves to be a 0-0-6 [12.3]. Board
-- as above, the leader replaced by a face-down rifle u (the pool holds one 0-0-6). When h attacks
-- 0404, u is revealed and removed. WBC: s dies with it at once, no die is rolled and h may advance
-- two hexes. Standard [9.73]: s is the hex's only unit and defends on its own; the die is rolled.
kessel.test("wbc09_03_unit_retreated_onto_a_dud_dies_and_the_attacker_advances_two", function()
  for _, p in ipairs(profiles("wbc09_03_retreated_units_die_first")) do
    local wbc = p[1] == "wbc2009"
    B.setup({ B.pz("g", "0303"), B.rifle("s", "0403"), { id = "u", name = "u", side = "soviet", type = "rifle", hidden = true, pool = "rifle", at = "0404" },
      B.pz("h", "0304", "9-9-10"), B.leader("sup", "0706", 5) },
      { options = p[2], pools = { rifle = { "0-0-6" } },
        map = { columns = 10, rows = 10, hexsides = { { "0403", "0503", "lake" }, { "0403", "0504", "lake" } } } })
    kessel.inject_dice{ 2 }
    expect.accepted(attack({ "g" }, { "0403" }))
    expect.accepted(choose("retreat"))
    expect.accepted(retreat({ "s" }, { "0404" }))
    if B.pending() then expect.accepted(kessel.act{ kind = "advance", skip = true }) end
    kessel.inject_dice{ 1, 6 }
    local ev = expect.accepted(attack({ "h" }, { "0404" }))
    expect.eq(B.where("u"), "eliminated", B.all_notes(ev))
    if wbc then
      expect.eq(B.where("s"), "eliminated")
      expect.falsy(B.note(ev, "roll 6"), "WBC: no roll: " .. B.all_notes(ev))
      expect.accepted(kessel.act{ kind = "advance", units = { "h" }, path = { "0404", "0505" } })
      expect.eq(B.where("h"), "0505")
    else
      -- standard: s is the hex's only unit and defends on its own: 9 against 2, 4-1, roll 6: Eng,
      -- each side a step (s's only one)
      expect.truthy(B.note(ev, "attack 9 against defence 2 in 0404: odds 4-1, roll 6: Eng"), B.all_notes(ev))
      expect.eq(B.where("s"), "eliminated")
      expect.eq(kessel.units.get("h").step, 1, "h took the Eng step")
    end
  end
end)

-- WBC09 #4, the item's own sequence, in one German Initial Movement Phase: (1) b (7-7-10) in 0505
-- overruns f1 and f2 (1-1-6) in 0404: 7 halved 3 against 2, 1-1, roll 1: D1; the Soviet loses f2,
-- f1 stays, disrupted [6.6]. (2) a (7-7-10) in 0303 overruns s (1-1-6) in 0403: 3 against 1, 3-1,
-- roll 3: D1; s retreats onto f1 (lakes close 0503, 0402/0304/0504 are in German zones). (3) c
-- (8-8-10) in 0405 overruns 0404: f1's defence alone, 1 (s adds nothing), 4 against 1, 4-1,
-- roll 4: D1, and s dies. Both profiles agree on all of it ([9.73] already reads so); they differ only
-- in whether s's death pays the D1 (WBC09 #3, on in the profile): standard it does and f1 stays,
-- WBC f1 still owes the D1.
kessel.test("wbc09_04_disrupted_stack_overrun_again_defends_with_the_first_unit", function()
  for _, p in ipairs(profiles("wbc09_04_overrun_stack_defends_with_first")) do
    -- the outcomes differ by WBC09 #3 alone: #4 changes nothing, so the profile without #4 plays
    -- as the whole profile does (rules30)
    local wbc = p[2].wbc09_03_retreated_units_die_first or false
    B.setup({ B.pz("a", "0303", "7-7-10"), B.pz("b", "0505", "7-7-10"), B.pz("c", "0405", "8-8-10"),
      B.rifle("f1", "0404", "1-1-6"), B.rifle("f2", "0404", "1-1-6"), B.rifle("s", "0403", "1-1-6"), B.leader("l", "0907", 5) },
      { step = "german_movement", options = p[2], map = { columns = 10, rows = 10, hexsides = { { "0403", "0503", "lake" } } } })
    kessel.inject_dice{ 1 }
    local ev = expect.accepted(kessel.act{ kind = "overrun", units = { "b" }, target = "0404" })
    expect.truthy(B.note(ev, "attack 3 against defence 2 in 0404: odds 1-1, roll 1: D1"), B.all_notes(ev))
    expect.accepted(choose("loss", { "f2" }))
    expect.eq(B.where("f2"), "eliminated")
    expect.truthy(kessel.units.get("f1").flags.disrupted, p[1] .. ": f1 disrupted")
    kessel.inject_dice{ 3 }
    ev = expect.accepted(kessel.act{ kind = "overrun", units = { "a" }, target = "0403" })
    expect.truthy(B.note(ev, "odds 3-1, roll 3: D1"), B.all_notes(ev))
    expect.accepted(choose("retreat"))
    expect.accepted(retreat({ "s" }, { "0404" }))
    kessel.inject_dice{ 4 }
    ev = expect.accepted(kessel.act{ kind = "overrun", units = { "c" }, target = "0404" })
    expect.truthy(B.note(ev, "attack 4 against defence 1 in 0404: odds 4-1, roll 4: D1"), B.all_notes(ev))
    if wbc then
      expect.eq(B.where("s"), "eliminated", "WBC: the retreated unit dies at once")
      expect.accepted(choose("loss"))
      expect.eq(B.where("f1"), "eliminated")
    else
      expect.accepted(choose("loss"))
      expect.eq(B.where("s"), "eliminated")
      expect.eq(B.where("f1"), "0404")
    end
  end
end)

-- WBC09 #5: leader evacuation [10.4] is not in effect. A leader with no line of supply (German
-- units round him). Standard with the optional rule on: evacuated. The WBC profile (evacuation off,
-- and #5 overriding the optional rule even when it is switched on): refused.
kessel.test("wbc09_05_no_leader_evacuation_even_with_the_optional_rule", function()
  for _, p in ipairs(profiles("wbc09_05_no_leader_evacuation")) do
    local wbc = p[1] == "wbc2009"
    for _, on in ipairs{ false, true } do
      B.setup({ B.leader("l", "0202", 2), B.pz("g1", "0302"), B.pz("g2", "0203"), B.pz("g3", "0101") },
        { step = "soviet_movement", options = with(p[2], { leader_evacuation = on }) })
      local ok, why = kessel.act{ kind = "evacuate", leader = "l" }
      if on and not wbc then
        expect.accepted(ok, why)
        expect.eq(kessel.units.get("l").location, "pending")
      else
        expect.refused(ok, why, wbc and "WBC09 #5" or "10.4")
      end
    end
  end
end)

-- WBC09 #6: with the six rail cuts on the map [6.37], a German moving along the railway may lift
-- any of them and place it in a hex he is moving through. Standard: a seventh is refused (a cut is
-- reused only by moving over it). Board: 12x4, a railway along row 02, six cuts on 0302-0802, the
-- panzer g in 1001 moves to 1002.
kessel.test("wbc09_06_rail_break_lifted_from_anywhere_and_placed_where_the_german_moves", function()
  local rail = {}
  for c = 3, 12 do rail[#rail + 1] = string.format("%02d02", c) end
  local cuts = {}
  for i, h in ipairs{ "0302", "0402", "0502", "0602", "0702", "0802" } do cuts[i] = { kind = "rail_cut", side = "german", at = h } end
  for _, p in ipairs(profiles("wbc09_06_rail_break_relocation")) do
    local wbc = p[1] == "wbc2009"
    B.setup({ B.pz("g", "1001"), B.leader("l", "0104", 2) }, { step = "german_movement", options = p[2], markers = cuts,
      map = { columns = 12, rows = 4, links = { { kind = "railway", path = rail } } } })
    local ok, why = kessel.act{ kind = "move", units = { "g" }, path = { "1002" }, rail_cut = "1002", lift = "0302" }
    if wbc then
      expect.accepted(ok, why)
      local RL = require("rules.rail")
      expect.truthy(RL.cuts()["1002"])
      expect.falsy(RL.cuts()["0302"])
    else
      expect.refused(ok, why, "6.37")
    end
  end
end)

-- WBC09 #7: the overrunners clear the hex but suffer a split result and take the loss: they stay
-- in the hex they overran from and their move ends. Board: a (4-4-10) and b (2-2-10) in 0303
-- overrun s (1-1-6) in 0403: 6 halved 3 against 1, 3-1, roll 4: D1/A1; s retreats (disrupted), the
-- German takes a step. Standard [6.5]: the hex is cleared, the overrunners must enter it, and stop
-- (a split result). WBC: they stay in 0303 and stop. After Eng both profiles leave them in place.
kessel.test("wbc09_07_overrunners_taking_a_split_loss_stay_where_they_came_from", function()
  for _, p in ipairs(profiles("wbc09_07_overrun_loss_stays_put")) do
    local wbc = p[1] == "wbc2009"
    B.setup({ B.pz("a", "0303", "4-4-10"), B.pz("b", "0303", "2-2-10"), B.rifle("s", "0403", "1-1-6"), B.leader("l", "0907", 5) },
      { step = "german_movement", options = p[2] })
    kessel.inject_dice{ 4 }
    local ev = expect.accepted(kessel.act{ kind = "overrun", units = { "a", "b" }, target = "0403" })
    expect.truthy(B.note(ev, "attack 3 against defence 1 in 0403: odds 3-1, roll 4: D1/A1"), B.all_notes(ev))
    expect.accepted(choose("retreat"))
    expect.accepted(retreat({ "s" }, { "0504" }))
    expect.accepted(choose("loss", { "b" }))
    expect.eq(B.where("a"), wbc and "0303" or "0403", p[1])
    expect.truthy(kessel.units.get("a").flags.stopped, p[1] .. ": stopped")
    local ok, why = kessel.act{ kind = "move", units = { "a" }, path = { wbc and "0302" or "0402" } }
    expect.refused(ok, why, "6.5", "stopped")
    -- Eng against a lone 1-step defender clears the hex: no advance in either profile [9.5]
    B.setup({ B.pz("a", "0303", "6-6-10"), B.rifle("s", "0403", "1-1-6"), B.leader("l", "0907", 5) },
      { step = "german_movement", options = p[2] })
    kessel.inject_dice{ 6 }
    ev = expect.accepted(kessel.act{ kind = "overrun", units = { "a" }, target = "0403" })
    expect.truthy(B.note(ev, "odds 3-1, roll 6: Eng"), B.all_notes(ev))
    expect.eq(B.where("s"), "eliminated")
    expect.eq(B.where("a"), "0303", p[1] .. ": Eng, no advance")
  end
end)

local function reg(id, type_, formation, face, at, extra)
  local a, d, m = face:match("(%d+)-(%d+)-(%d+)")
  local u = { id = id, name = id, side = "german", type = type_, formation = formation,
    faces = { face, math.max(1, a // 2) .. "-" .. math.max(1, d // 2) .. "-" .. m }, at = at }
  for k, v in pairs(extra or {}) do u[k] = v end
  return u
end

-- WBC09 #8 (agrees with [11.1]): German supply by MP counts the unit's own movement type, +2 for
-- each river hexside, to a west-edge hex, nothing for stepping off the map. Board 45x3 of clear,
-- no road: an infantry division 20 hexes east of column 01 (2102) pays 20 MP: in supply; in 2202,
-- 21: out. A river between columns 10 and 11 adds 2: 1902 in supply (18 + 2), 2102 not. Both
-- profiles the same.
kessel.test("wbc09_08_german_mp_supply_counts_the_unit_type_and_rivers_not_the_step_off_the_map", function()
  local S = require("rules.supply")
  -- a river along the whole boundary of columns 10 and 11
  local RIVER = { { "1001", "1101", "river" }, { "1001", "1102", "river" }, { "1002", "1102", "river" },
    { "1002", "1103", "river" }, { "1003", "1103", "river" } }
  for _, p in ipairs(profiles("wbc09_08_supply_mp_by_unit_type")) do
    local function supplied(at, river)
      B.setup({ B.inf("i", at), B.leader("l", "4402", 2) }, { step = "german_movement", turn = 5, options = p[2],
        map = { columns = 45, rows = 3, hexsides = river and RIVER or nil } })
      return S.in_supply("i", "combat")
    end
    expect.truthy(supplied("2102"), p[1] .. ": 20 MP")
    expect.falsy(supplied("2202"), p[1] .. ": 21 MP")
    expect.truthy(supplied("1902", true), p[1] .. ": 18 MP and a river")
    expect.falsy(supplied("2102", true), p[1] .. ": 20 MP and a river")
  end
end)

-- WBC09 #9 (agrees with [7.3]): an intact motorized division (two 3-3-10 regiments of 14 Mot)
-- fights out of supply as a 6 (3 doubled, halved, each) and overruns out of supply as a 3. Board
-- 40x5 of clear with no road: the division in 3003 is 29 MP from the west edge, out of supply
-- [11.1]; a Soviet 1-1-6 in 3103. Combat: 6 against 1, 6-1. Overrun: 3 against 1, 3-1. Both profiles.
kessel.test("wbc09_09_intact_division_out_of_supply_fights_at_6_overruns_at_3", function()
  for _, p in ipairs(profiles("wbc09_09_integrity_before_halving")) do
    local units = { reg("m1", "motorized", "14 Mot", "3-3-10", "3003"), reg("m2", "motorized", "14 Mot", "3-3-10", "3003"),
      B.rifle("s", "3103", "1-1-6"), B.leader("l", "3804", 5) }
    B.setup(units, { turn = 5, options = p[2], map = { columns = 40, rows = 5 } })
    kessel.inject_dice{ 6 }
    local ev = expect.accepted(attack({ "m1", "m2" }, { "3103" }))
    expect.truthy(B.note(ev, "attack 6 against defence 1 in 3103: odds 6-1"), p[1] .. ": " .. B.all_notes(ev))
    B.setup(units, { step = "german_movement", turn = 5, options = p[2], map = { columns = 40, rows = 5 } })
    kessel.inject_dice{ 6 }
    ev = expect.accepted(kessel.act{ kind = "overrun", units = { "m1", "m2" }, target = "3103" })
    expect.truthy(B.note(ev, "attack 3 against defence 1 in 3103: odds 3-1"), p[1] .. ": " .. B.all_notes(ev))
  end
end)

-- WBC09 #10: GD (4-4-10) stacked with the two regiments of 14 Mot (3-3-10 each) keeps their
-- divisional integrity. They attack a 9-9-6 rifle: standard [7.3] (integrity broken by another
-- unit in the hex): 3 + 3 + 4 = 10 against 9, 1-1; WBC: 6 + 6 + 4 = 16 against 9, 1-1 as well
-- (rounded down [9.4]); against a 7-7-6: 10 to 7 is 1-1, 16 to 7 is 2-1.
kessel.test("wbc09_10_gd_keeps_a_two_regiment_motorized_division_intact", function()
  for _, p in ipairs(profiles("wbc09_10_integrity_with_gd_lehr")) do
    local wbc = p[1] == "wbc2009"
    B.setup({ reg("m1", "motorized", "14 Mot", "3-3-10", "0303"), reg("m2", "motorized", "14 Mot", "3-3-10", "0303"),
      reg("gd", "motorized", "GD", "4-4-10", "0303", { attrs = { independent = 1 } }), B.rifle("s", "0403", "7-7-6"),
      B.leader("l", "0706", 5) }, { options = p[2] })
    kessel.inject_dice{ 6 }
    local ev = expect.accepted(attack({ "m1", "m2", "gd" }, { "0403" }))
    local want = wbc and "attack 16 against defence 7 in 0403: odds 2-1" or "attack 10 against defence 7 in 0403: odds 1-1"
    expect.truthy(B.note(ev, want), p[1] .. ": " .. B.all_notes(ev))
  end
end)

-- WBC09 #11: after a successful overrun the stack may split and move on separately, all of it
-- before any other unit moves. Board: a and b (7-7-10) in 0303 overrun s (1-1-6) in 0403: 14 halved
-- 7 against 1, 7-1, roll 1: De; they enter 0403. Standard: a alone may not move on (the group moves
-- together). WBC: a goes to 0503, b to 0404; once c moves, a may not move again.
kessel.test("wbc09_11_successful_overrunners_may_split_and_finish_first", function()
  for _, p in ipairs(profiles("wbc09_11_overrun_stack_may_split")) do
    local wbc = p[1] == "wbc2009"
    B.setup({ B.pz("a", "0303", "7-7-10"), B.pz("b", "0303", "7-7-10"), B.pz("c", "0101"), B.rifle("s", "0403", "1-1-6"),
      B.leader("l", "0909", 5) }, { step = "german_movement", options = p[2] })
    kessel.inject_dice{ 1 }
    local ev = expect.accepted(kessel.act{ kind = "overrun", units = { "a", "b" }, target = "0403" })
    expect.truthy(B.note(ev, "odds 7-1, roll 1: De"), B.all_notes(ev))
    expect.eq(B.where("a"), "0403")
    local ok, why = kessel.act{ kind = "move", units = { "a" }, path = { "0503" } }
    if wbc then
      expect.accepted(ok, why)
      expect.accepted(kessel.act{ kind = "move", units = { "b" }, path = { "0404" } })
      expect.accepted(kessel.act{ kind = "move", units = { "c" }, path = { "0102" } })
      ok, why = kessel.act{ kind = "move", units = { "a" }, path = { "0504" } }
      expect.refused(ok, why, "6.5")
    else
      expect.refused(ok, why, "6.5")
      expect.accepted(kessel.act{ kind = "move", units = { "a", "b" }, path = { "0503" } })
    end
  end
end)

-- WBC09 #12: two leaders in one hex add to one attack, up to the combat units' own factors; and a
-- leader may join an overrun, its part halved with the rest. Board: rifle s (4-4-6) with leaders
-- l2 (2) and l3 (3) in 0403 attack g (2-2-10) in 0303. Standard [10.36]: one leader per hex: naming
-- both is refused; s with l3: 4 + 3 = 7 against 2, 3-1. WBC: 4 + min(5, 4) = 8 against 2, 4-1.
-- Overrun in the Soviet Movement Phase, s with l3 (s began the phase in command): standard refused
-- (a leader has no attack strength [10.2]); WBC 7 halved 3 against 2, 1-1.
kessel.test("wbc09_12_two_leaders_add_to_one_attack_and_a_leader_joins_an_overrun", function()
  for _, p in ipairs(profiles("wbc09_12_multiple_leaders")) do
    local wbc = p[1] == "wbc2009"
    local units = { B.rifle("s", "0403", "4-4-6"), B.leader("l2", "0403", 2), B.leader("l3", "0403", 3), B.pz("g", "0303", "2-2-10") }
    B.setup(units, { step = "soviet_combat", options = p[2] })
    kessel.inject_dice{ 6 }
    local ok, ev = attack({ "s", "l2", "l3" }, { "0303" })
    if wbc then
      expect.accepted(ok, ev)
      expect.truthy(B.note(ev, "attack 8 against defence 2 in 0303: odds 4-1"), B.all_notes(ev))
    else
      expect.refused(ok, ev, "10.36")
      B.setup(units, { step = "soviet_combat", options = p[2] })
      kessel.inject_dice{ 6 }
      ev = expect.accepted(attack({ "s", "l3" }, { "0303" }))
      expect.truthy(B.note(ev, "attack 7 against defence 2 in 0303: odds 3-1"), B.all_notes(ev))
    end
    B.setup({ B.rifle("s", "0403", "4-4-6"), B.leader("l3", "0403", 3), B.pz("g", "0303", "2-2-10") },
      { step = "soviet_movement", options = p[2],
        vars = { phase_start = { hexes = { s = "0403", l3 = "0403" }, command = { "s" }, step = 0, turn = 7 } } })
    kessel.inject_dice{ 6 }
    ok, ev = kessel.act{ kind = "overrun", units = { "s", "l3" }, target = "0303" }
    if wbc then
      expect.accepted(ok, ev)
      expect.truthy(B.note(ev, "attack 3 against defence 2 in 0303: odds 1-1"), B.all_notes(ev))
    else
      expect.refused(ok, ev, "10.2")
    end
  end
end)

-- WBC09 #13: Soviet lines of communication, like lines of supply, may enter swamp but not pass
-- through it. Board 12x1: leader l (3) in 0601, swamp in 0501. A rifle in 0401 (line through the
-- swamp): standard in supply, WBC out of it. A rifle in the swamp hex itself (line into it): in
-- supply in both. The leader's own line of supply may not pass through swamp in either [6.7].
kessel.test("wbc09_13_line_of_communication_into_but_not_through_swamp", function()
  local S = require("rules.supply")
  for _, p in ipairs(profiles("wbc09_13_loc_not_through_swamp")) do
    local wbc = p[1] == "wbc2009"
    local function supplied(at, leader_at, swamp)
      B.setup({ B.leader("l", leader_at or "0601", 3), B.rifle("r", at) }, { step = "soviet_movement", turn = 5, options = p[2],
        map = { columns = 12, rows = 1, terrain = { [swamp or "0501"] = "swamp" } } })
      return S.in_supply("r", "combat")
    end
    expect.eq(supplied("0401"), not wbc, p[1] .. ": through swamp")
    expect.truthy(supplied("0501"), p[1] .. ": into swamp")
    expect.falsy(supplied("0601", "0601", "0801"), p[1] .. ": the leader's line east may not pass the swamp in 0801")
  end
end)

-- WBC09 #14: destroyed rifle divisions come back only once every original one has arrived, and
-- two turns after their death at the soonest ("destroyed on turn 9 is available on turn 11").
-- Standard [12.4]: the dead pile is there as soon as the reserve is used up.
kessel.test("wbc09_14_a_division_destroyed_on_turn_9_returns_on_turn_11", function()
  local R = require("rules.reinforcements")
  local dead = { id = "d", name = "d", side = "soviet", type = "rifle", faces = { "3-3-6" }, location = "eliminated", vars = { elim_turn = 9 } }
  for _, p in ipairs(profiles("wbc09_14_rifle_recycling_delay")) do
    local wbc = p[1] == "wbc2009"
    for _, turn in ipairs{ 10, 11 } do
      B.setup({ dead, B.leader("l", "0909", 3) }, { step = "soviet_movement", turn = turn, options = p[2] })
      expect.eq(#R.available_rifles(), (wbc and turn == 10) and 0 or 1, p[1] .. " turn " .. turn)
    end
    -- an original division still to come (turn 12) keeps the pile closed under WBC
    B.setup({ dead, B.leader("l", "0909", 3), { id = "o", name = "o", side = "soviet", type = "rifle", hidden = true, pool = "rifle",
      enter = { turn = 12, area = "P2" } } }, { step = "soviet_movement", turn = 11, options = p[2],
      map = { columns = 10, rows = 10, areas = { P2 = { "1005" } } } })
    expect.eq(#R.available_rifles(), wbc and 0 or 1, p[1] .. ": an original still to come")
  end
end)

-- WBC09 #15: an air interdiction marker adds 1 MP to the overrun's cost in its hex. Board: the
-- panzer g has 3 MP left (7 of 10 spent) in 0303; the Soviet rifle s in 0403 under a Soviet
-- interdiction marker [13.4]. Standard: the overrun costs 3 [6.5]: allowed. WBC: 4: refused.
kessel.test("wbc09_15_interdiction_marker_adds_one_to_the_overrun_cost", function()
  for _, p in ipairs(profiles("wbc09_15_interdiction_on_overrun_cost")) do
    local wbc = p[1] == "wbc2009"
    B.setup({ B.pz("g", "0303", "8-8-10", { vars = { mp_spent = 14 } }), B.rifle("s", "0403", "1-1-6"), B.leader("l", "0907", 5) },
      { step = "german_movement", options = p[2], markers = { { kind = "soviet_interdiction", side = "soviet", at = "0403" } } })
    expect.eq(M.mp_left(kessel.units.get("g")), 3)
    kessel.inject_dice{ 1 }
    local ok, why = kessel.act{ kind = "overrun", units = { "g" }, target = "0403" }
    if wbc then expect.refused(ok, why, "6.5", "costs 4") else expect.accepted(ok, why) end
  end
end)

-- [15] [6.7] A city counts for the German only with a supply line to the west edge free of Soviet
-- units and zones (reference manual, Scoring; pgg-facts.md, 15), and a supply line may be traced
-- into a swamp hex but not through it (terrain effects chart). Board 10x10: German infantry a in
-- Town (0503, 30 VP), no Soviet unit near; column 03 is swamp from edge to edge, so every line west
-- must pass through a swamp hex. Expected at the end of turn 12: Town not held (German 0, -0:
-- Soviet Decisive). The engine traced the line through the swamp and scored Town. With the swamp
-- only in 0303-0308 (a way round by 0309-0310) the line holds and Town scores. The line that opens
-- the air markers east of column 40 [13.2] is the same line.
kessel.test("case_15_the_line_west_of_a_held_city_may_not_pass_through_swamp", function()
  local function final(swamp_rows)
    local terrain = {}
    for r = 1, swamp_rows do terrain[string.format("03%02d", r)] = "swamp" end
    B.setup({ B.inf("a", "0503"), B.leader("l", "1005", 2) },
      { step = "german_air_interdiction", turn = 12, last_turn = 12, map = { columns = 10, rows = 10, terrain = terrain },
        vars = { objectives = { { name = "Town", vp = 30, hexes = { "0503" } } } } })
    local ev = expect.accepted(kessel.act{ kind = "end_phase" })
    return ev
  end
  local ev = final(10)
  expect.truthy(B.note(ev, "final score: German 0, Soviet 0 (+0): Soviet Decisive"), B.all_notes(ev))
  expect.falsy(require("rules.victory").line_west("0503"), "no line west through the swamp")
  ev = final(8)
  expect.truthy(B.note(ev, "final score: German 30, Soviet 0 (+30): Soviet Marginal"), B.all_notes(ev))
  -- a city in the swamp itself: the line may start there (trace into a swamp)
  B.setup({ B.inf("a", "0303"), B.leader("l", "1005", 2) },
    { step = "german_combat", turn = 12, map = { columns = 10, rows = 10, terrain = { ["0303"] = "swamp" } } })
  expect.truthy(require("rules.victory").line_west("0303"), "a line from a swamp hex")
end)

-- [10.2] [6.5] WBC09 #12, as a GM reads `kessel odds`: a leader has no attack strength and joins
-- an overrun only under WBC09 #12 (the game refuses it otherwise: see
-- wbc09_12_two_leaders_add_to_one_attack_and_a_leader_joins_an_overrun). `kessel odds 4 1 --flag
-- leader=3 --flag overrun` gave 4 + 3 = 7 halved 3, 3-1, under the standard rules too. Expected:
-- standard 4 halved 2, 2-1, with a line saying the leader adds nothing [10.2]; WBC 3-1 as before.
-- Out of an overrun the leader adds in both.
kessel.test("case_10_2_odds_with_a_leader_in_an_overrun_follow_the_profile", function()
  local K = require("rules.combat")
  for _, p in ipairs(profiles("wbc09_12_multiple_leaders")) do
    local wbc = p[1] == "wbc2009"
    B.setup({ B.leader("l", "0909", 3) }, { options = p[2] })
    local m = K.odds_modifiers(4, 1, { "leader=3", "overrun" })
    expect.eq(m.attack, wbc and 3 or 2, p[1])
    local said = false
    for _, r in ipairs(m.modifiers) do if r.rule == "10.2" and r.message:find("WBC09 #12", 1, true) then said = true end end
    expect.eq(said, not wbc, p[1] .. ": the leader's absence is explained")
    m = K.odds_modifiers(4, 1, { "leader=3" })
    expect.eq(m.attack, 7, p[1] .. ": a leader adds to an attack")
  end
end)

-- [6.7] The terrain effects chart, the cells earlier tests did not sample, for every movement class
-- (types panzer, rifle_mot, motorized, cavalry, infantry; Soviet rifle, tank, mech, leader). Board
-- 10x3, the unit in 0502: a road 0502-0602 across a river hexside (roads do not bridge rivers for
-- movement: the road rate plus the river: German motorized ½ + 2, infantry and cavalry 1 + 2,
-- Soviet motorized and leaders ½ + 1, rifles 1 + 1); a road 0502-0503 into swamp (the road rate);
-- a minor city in 0402 (1 MP). And in combat: a defender in swamp or in a minor city is not doubled,
-- one in a major city in forest is tripled (doublings add [9.3]).
kessel.test("case_6_7_road_across_river_road_into_swamp_minor_city_every_class", function()
  local classes = {
    -- type, side, faces, { road across river, road into swamp, minor city }
    { "panzer", "german", { "4-4-10", "2-2-10" }, { 2.5, 0.5, 1 } },
    { "rifle_mot", "german", { "2-2-10", "1-1-10" }, { 2.5, 0.5, 1 } },
    { "motorized", "german", { "3-3-10", "2-2-10" }, { 2.5, 0.5, 1 } },
    { "cavalry", "german", { "4-4-5", "2-2-5" }, { 3, 1, 1 } },
    { "infantry", "german", { "9-9-7", "4-4-7", "2-2-7", "1-1-7" }, { 3, 1, 1 } },
    { "rifle", "soviet", { "3-3-6" }, { 2, 1, 1 } },
    { "tank", "soviet", { "4-4-10" }, { 1.5, 0.5, 1 } },
    { "mech", "soviet", { "4-4-10" }, { 1.5, 0.5, 1 } },
    { "leader", "soviet", { "0-3-10" }, { 1.5, 0.5, 1 } },
  }
  for _, c in ipairs(classes) do
    for i, h in ipairs{ "0602", "0503", "0402" } do
      local u = { id = "u", name = "u", side = c[2], type = c[1], faces = c[3], at = "0502" }
      if c[1] == "leader" then u.attrs = { rating = 3 } end
      kessel.setup{ map = { columns = 10, rows = 3, terrain = { ["0503"] = "swamp" },
          hexsides = { { "0502", "0602", "river" } },
          links = { { kind = "road", path = { "0602", "0502", "0503" } } },
          places = { { name = "Village", kind = "minor_city", hexes = { "0402" } } } },
        units = { u }, step = c[2] .. "_movement", turn = 7 }
      local ev = expect.accepted(kessel.act{ kind = "move", units = { "u" }, path = { h } })
      expect.eq(ev[1].cost, c[4][i], string.format("%s entering %s", c[1], h))
    end
  end
  -- combat: g (6-6-10) in 0303 attacks a 3-3-6 rifle in 0403: swamp 2-1, minor city 2-1,
  -- major city in forest 6 against 9: 1-2
  for _, t in ipairs{ { "swamp", nil, "attack 6 against defence 3 in 0403: odds 2-1" },
    { "clear", "minor_city", "attack 6 against defence 3 in 0403: odds 2-1" },
    { "forest", "major_city", "attack 6 against defence 9 in 0403: odds 1-2" } } do
    B.setup({ B.pz("g", "0303", "6-6-10"), B.rifle("s", "0403", "3-3-6"), B.leader("l", "0706", 5) },
      { map = { columns = 10, rows = 10, terrain = { ["0403"] = t[1] },
        places = t[2] and { { name = "Place", kind = t[2], hexes = { "0403" } } } or nil } })
    kessel.inject_dice{ 6 }
    local ev = expect.accepted(attack({ "g" }, { "0403" }))
    expect.truthy(B.note(ev, t[3]), t[1] .. "/" .. tostring(t[2]) .. ": " .. B.all_notes(ev))
  end
end)

-- [15] The end of the game on each boundary of the victory levels, the points coming from every
-- source at once, played to the end of the German Air Interdiction Phase of turn 12 in both
-- profiles. German: Town (0403, held with a line west) worth T, plus the South-Western Front
-- divisions called (10 calls: 5 x 1 + 5 x 2 = 15 [14.2]). Soviet: 5 per whole German division
-- destroyed: a panzer division whose three regiments are all eliminated counts; a motorized
-- division with one regiment left does not, nor the cavalry division, nor GD [15]; plus 2 per
-- recapture (one on turn 9). Soviet total 7. Differences: T + 15 - 7 = 0, 1, 25, 26, 49, 50, 79,
-- 80, 124, 125. Under WBC a bid agreed before the game (vp_bid 70) is the margin where a German
-- Marginal Victory starts, the other levels moved with it [WBC09 sides]: the same boundaries with
-- T 20 higher.
kessel.test("case_15_every_level_boundary_at_the_end_of_turn_12_points_from_every_source", function()
  local dead = { location = "eliminated" }
  local function d(u) for k, v in pairs(dead) do u[k] = v end return u end
  local cases = { { 0, "Soviet Decisive" }, { 1, "Soviet Strategic" }, { 25, "Soviet Strategic" }, { 26, "Soviet Marginal" },
    { 49, "Soviet Marginal" }, { 50, "German Marginal" }, { 79, "German Marginal" }, { 80, "German Strategic" },
    { 124, "German Strategic" }, { 125, "German Decisive" } }
  for _, p in ipairs(PROFILES) do
    local wbc = p[1] == "wbc2009"
    local bid = wbc and 70 or 0
    for _, c in ipairs(cases) do
      local town = c[1] - 15 + 7 + (wbc and bid - 50 or 0)
      B.setup({ B.inf("a", "0403"),
        d(B.pz("p1", nil, nil, { formation = "7 Pz" })), d(B.pz("p2", nil, "2-2-10", { formation = "7 Pz", type = "rifle_mot" })),
        d(B.pz("p3", nil, "2-2-10", { formation = "7 Pz", type = "rifle_mot" })),
        d(reg("m1", "motorized", "14 Mot", "3-3-10", nil)), reg("m2", "motorized", "14 Mot", "3-3-10", "0102"),
        d(B.cav("cav", nil)), d(reg("gd", "motorized", "GD", "4-4-10", nil, { attrs = { independent = 1 } })),
        B.leader("l", "0909", 3) },
        { step = "german_air_interdiction", turn = 12, last_turn = 12, options = with(p[2], { vp_bid = bid }),
          vars = { objectives = { { name = "Town", vp = town, hexes = { "0403" } } }, swf_count = 10,
            soviet_recaptures = { { city = "Elsewhere", turn = 9 } } } })
      local ev = expect.accepted(kessel.act{ kind = "end_phase" })
      local r = kessel.game.var("result")
      expect.truthy(r, p[1] .. ": a result at the end of turn 12")
      expect.eq(r.soviet_vp, 7, p[1] .. ": 7 Pz destroyed (5) and one recapture (2): " .. B.all_notes(ev))
      expect.eq(r.german_vp, town + 15, p[1])
      expect.eq(r.difference, c[1] + (wbc and bid - 50 or 0), p[1])
      expect.eq(r.bid, wbc and bid or nil, p[1])
      expect.eq(r.level, c[2], string.format("%s: difference %d", p[1], c[1]))
    end
  end
end)

-- WBC09 #14: "on the turn that the last of the original rifle divisions arrive" the destroyed ones
-- may come back as well. Board: turn 11, Soviet Movement Phase; the last original division o is
-- scheduled for turn 11 and still off the map (it enters during this phase); d died on turn 9.
-- Expected under WBC: d is available now (its turn has come: 9 + 2), not only once o has moved on.
-- The engine kept the pile closed while any original was off the map, so on the last schedule
-- turn a provisional or South-Western Front division could not come from it before o moved on
-- (and an original the Soviet delays [14.3] kept it closed for good). An original still due on a
-- later turn keeps it closed; standard: always open [12.4].
kessel.test("case_wbc09_14_the_dead_pile_opens_on_the_turn_the_last_original_arrives", function()
  local R = require("rules.reinforcements")
  local dead = { id = "d", name = "d", side = "soviet", type = "rifle", faces = { "3-3-6" }, location = "eliminated", vars = { elim_turn = 9 } }
  for _, p in ipairs(profiles("wbc09_14_rifle_recycling_delay")) do
    local wbc = p[1] == "wbc2009"
    for _, due in ipairs{ 10, 11, 12 } do
      B.setup({ dead, B.leader("l", "0909", 3), { id = "o", name = "o", side = "soviet", type = "rifle", hidden = true, pool = "rifle",
        enter = { turn = due, area = "P2" } } }, { step = "soviet_movement", turn = 11, options = p[2],
        map = { columns = 10, rows = 10, areas = { P2 = { "1005" } } } })
      local want = (wbc and due > 11) and 0 or 1
      expect.eq(#R.available_rifles(), want, string.format("%s: the last original due on turn %d, now turn 11", p[1], due))
    end
  end
end)

-- WBC09 #3 "(not including engaged)" and FAQ 5: the leader board of the #3 test above, the second
-- attack rolling 6 at 3-1: Eng. Both profiles agree: the retreated unit s survives, the leader
-- (the hex's only real defender) takes the Eng step, and so does h.
kessel.test("wbc09_03_engaged_spares_the_unit_retreated_onto_the_leader_in_both_profiles", function()
  for _, p in ipairs(profiles("wbc09_03_retreated_units_die_first")) do
    B.setup({ B.pz("g", "0303"), B.rifle("s", "0403"), B.leader("L", "0404", 3), B.pz("h", "0304", "9-9-10"), B.leader("sup", "0706", 5) },
      { options = p[2], map = { columns = 10, rows = 10, hexsides = { { "0403", "0503", "lake" }, { "0403", "0504", "lake" } } } })
    kessel.inject_dice{ 2 }
    expect.accepted(attack({ "g" }, { "0403" }))
    expect.accepted(choose("retreat"))
    expect.accepted(retreat({ "s" }, { "0404" }))
    if B.pending() then expect.accepted(kessel.act{ kind = "advance", skip = true }) end
    kessel.inject_dice{ 6 }
    local ev = expect.accepted(attack({ "h" }, { "0404" }))
    expect.truthy(B.note(ev, "attack 9 against defence 3 in 0404: odds 3-1, roll 6: Eng"), B.all_notes(ev))
    expect.eq(B.where("s"), "0404", p[1] .. ": Eng spares the retreated unit")
    expect.eq(B.where("L"), "eliminated", p[1] .. ": the leader takes the Eng step")
    expect.eq(kessel.units.get("h").step, 1, p[1])
  end
end)

-- [11.3] [9.3] [7.3] What a GM reads: the out-of-supply halving drops fractions, so where it falls
-- among the doublings decides the defence, and the lines must come in the order the sums are made.
-- `kessel odds 7 3 --flag defender_out_of_supply --flag forest` gave defence 2 (3 halved 1, forest
-- 2, the default option supply_halving_order = supply_then_terrain) under the lines "forest
-- doubles" then "halved", which read top-down give 3. Expected: the halving line first; with
-- terrain_then_supply the forest first (6, halved 3). In play the `odds` query's line for the unit
-- shows the working: a 3-3-6 rifle out of supply in forest: "3, halved 1, terrain ×2 2".
kessel.test("case_11_3_defence_lines_come_in_the_order_the_halving_is_made", function()
  local K = require("rules.combat")
  local function rules_of(m) local t = {} for _, r in ipairs(m.modifiers) do t[#t + 1] = r.rule end return table.concat(t, " ") end
  B.setup({ B.leader("l", "0909", 3) })
  local m = K.odds_modifiers(7, 3, { "defender_out_of_supply", "forest" })
  expect.eq(m.defence, 2)
  expect.eq(rules_of(m), "11.3 9.3", "halving first, then the forest")
  m = K.odds_modifiers(3, 2, { "defender_integrity", "defender_out_of_supply", "forest", "river" })
  expect.eq(m.defence, 6)
  expect.eq(rules_of(m), "7.3 11.3 9.3 9.3 9.3", "integrity, halving, forest, river, the sum")
  B.setup({ B.leader("l", "0909", 3) }, { options = { supply_halving_order = "terrain_then_supply" } })
  m = K.odds_modifiers(7, 3, { "defender_out_of_supply", "forest" })
  expect.eq(m.defence, 3)
  expect.eq(rules_of(m), "9.3 11.3", "the other order: forest first")
  -- in play: the odds query on a real position (the rifle has no leader: out of supply)
  B.setup({ B.pz("g", "0303", "7-7-10"), B.rifle("s", "0403", "3-3-6") },
    { map = { columns = 10, rows = 10, terrain = { ["0403"] = "forest" } } })
  local q = kessel.queries.ask("odds", { units = { "g" }, targets = { "0403" } })
  expect.eq(q.defence, 2)
  local line
  for _, x in ipairs(q.defence_modifiers) do if x.rule == "11.3" then line = x.message end end
  expect.eq(line, "s: out of supply, defence halved (3, halved 1, terrain ×2 2)")
end)
