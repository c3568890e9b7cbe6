-- Situations from the reference material, eleventh tester pass (round 10): cases read one by one
-- against the rules, each played where the text is thin or was left open. Geometry of the 10x10
-- map: odd columns N, NE = c+1 r-1, SE = c+1 r, S, SW = c-1 r, NW = c-1 r-1; even columns NE = c+1 r,
-- SE = c+1 r+1, SW = c-1 r+1, NW = c-1 r.
local expect = kessel.expect
local B = require("testing.board10")

local function choose(c, units) return kessel.act{ kind = "choose", choice = c, units = units } end
local function retreat(units, path) return kessel.act{ kind = "retreat", units = units, path = path } end
local function end_phase() return expect.accepted(kessel.act{ kind = "end_phase" }) end

-- WBC09 #7: overrunners who cleared the hex but took their loss "end their turn and their movement
-- phase". Read: their movement is over for the player-turn, so units that overran in the German
-- Initial Movement Phase do not move again in the Mechanized Movement Phase; they still attack in
-- the Combat Phase (the item speaks of movement). Board: a (4-4-10) and b (2-2-10) in 0303 overrun
-- s (1-1-6) in 0403, 6 halved 3 against 1, 3-1, roll 4: D1/A1; s retreats to 0504, b takes the
-- step. A disrupted rifle t in 0402 (no zone [6.6]) is there to be attacked. Standard [6.5]: a and
-- b enter 0403 and stop for the phase; in the Mechanized Movement Phase they move again.
kessel.test("case_wbc09_07_overrunners_who_took_the_loss_do_not_move_in_the_mechanized_phase", function()
  for _, wbc in ipairs{ false, true } do
    local label = wbc and "WBC09 #7" or "standard"
    B.setup({ B.pz("a", "0303", "4-4-10"), B.pz("b", "0303", "2-2-10"), B.rifle("s", "0403", "1-1-6"),
      B.rifle("t", "0402", "1-1-6", { flags = { "disrupted" } }), B.leader("l", "0907", 5) },
      { step = "german_movement", options = { wbc09_07_overrun_loss_stays_put = wbc } })
    kessel.inject_dice{ 4 }
    local ev = expect.accepted(kessel.act{ kind = "overrun", units = { "a", "b" }, target = "0403" })
    expect.truthy(B.note(ev, "odds 3-1, roll 4: D1/A1"), B.all_notes(ev))
    expect.accepted(choose("retreat"))
    expect.accepted(retreat({ "s" }, { "0504" }))
    ev = expect.accepted(choose("loss", { "b" }))
    expect.eq(B.where("a"), wbc and "0303" or "0403", label)
    expect.eq(B.note(ev, "end their movement for the player-turn") ~= nil, wbc, label .. ": " .. B.all_notes(ev))
    end_phase()
    -- the Combat Phase: a may attack t (next to 0303 and to 0403 alike)
    local K = require("rules.combat")
    local why = K.attack_reasons({ kind = "attack", units = { "a" }, targets = { "0402" } })
    expect.eq(#why, 0, label .. ": " .. ((why[1] or {}).message or ""))
    end_phase()
    expect.eq(kessel.game.step().id, "german_mech_movement")
    local here = B.where("a")
    local to = here == "0303" and "0304" or "0404"
    local ok, whyr = kessel.act{ kind = "move", units = { "a" }, path = { to } }
    if wbc then
      expect.refused(ok, whyr, "WBC09 #7", "movement is over for the turn")
      local M = require("rules.movement")
      expect.eq(M.cannot_move(kessel.units.get("b")).rule, "WBC09 #7")
    else
      expect.accepted(ok, whyr)
    end
    -- the bar ends with the player-turn
    for _ = 1, 3 do end_phase() end
    expect.eq(kessel.game.step().id, "soviet_movement")
    expect.falsy(kessel.units.get("a").flags.turn_ended, label)
  end
end)

-- [10.1] A leader is rated 2 to 5, and nothing else: the odds flag `leader=N` (`kessel odds --flag
-- leader=9`) was taken at any value and added 9; a scenario's leader rated 9 (or not at all)
-- loaded without a word. Both are refused now, naming the range the ruleset declares. One flag is
-- one leader; leaders in several attacking hexes [10.36] (or several in one hex, WBC09 #12) are
-- one flag each and add up, still capped at the units' strength.
kessel.test("case_10_1_leader_ratings_outside_2_to_5_are_refused_by_odds_and_by_the_scenario_check", function()
  local K = require("rules.combat")
  -- a rating past the integers (1e20) or overflowing to infinity (1e400) is a float that equals its
  -- own floor: it reached the range message's `%d` and raised "number has no integer
  -- representation" at combat.lua instead of naming the flag and the range
  for _, bad in ipairs{ "leader=9", "leader=1", "leader=0", "leader=6", "leader=2.5", "leader=x", "leader=",
    "leader=1e20", "leader=1e400", "leader=-1e400" } do
    local ok, err = pcall(K.odds_modifiers, 12, 4, { bad })
    expect.falsy(ok, bad)
    expect.truthy(tostring(err):find("from 2 to 5 [10.1]", 1, true), bad .. ": " .. tostring(err))
    expect.truthy(tostring(err):find("`" .. bad .. "`", 1, true), bad .. ": " .. tostring(err))
  end
  for r = 2, 5 do
    local m = K.odds_modifiers(12, 4, { "leader=" .. r })
    expect.eq(m.attack, 12 + r, "leader=" .. r)
  end
  local m = K.odds_modifiers(12, 4, { "leader=3", "leader=5" })
  expect.eq(m.attack, 20)
  expect.truthy(m.modifiers[1].message:find("2 leaders add 8", 1, true), m.modifiers[1].message)
  m = K.odds_modifiers(3, 4, { "leader=4", "leader=5" })
  expect.eq(m.attack, 6, "capped at the units' 3")
  -- `--flag list` names the range
  local listed = K.odds_modifiers(1, 1, { "list" }).modifiers[1].message
  expect.truthy(listed:find("leader=N (N from 2 to 5, one flag per leader)", 1, true), listed)
  -- the scenario check: one problem per leader whose rating is impossible or missing
  local SU = require("rules.setup")
  B.setup({ B.leader("ok2", "0101", 2), B.leader("ok5", "0102", 5), B.leader("one", "0103", 1), B.leader("nine", "0104", 9),
    { id = "none", name = "none", side = "soviet", type = "leader", faces = { "0-3-10" }, at = "0105" } })
  local found = {}
  for _, p in ipairs(SU.leader_problems()) do found[#found + 1] = p.unit .. ": " .. p.message end
  table.sort(found)
  expect.eq(table.concat(found, " | "),
    "nine: leader `nine`: a leader's rating runs from 2 to 5 [10.1] (got 9) | "
    .. "none: leader `none`: a leader needs a rating [10.1]: give it `attrs = { rating = N }`, N from 2 to 5 | "
    .. "one: leader `one`: a leader's rating runs from 2 to 5 [10.1] (got 1)")
end)

-- [6.5] [12.3] A failed overrun stops the overrunners for the phase. Units committed to it face
-- down that a reveal takes out of the fight (a 0-1-6 has no attack strength and takes no part; a
-- 0-0-6 is removed) spent the overrun's MP with the rest; the engine stopped only the units that
-- fought, so after "the overrun has no effect" and the note that the overrunners stop, a 0-1-6
-- moved on with its MP. Now every committed unit still on the map stops when the overrun fails;
-- when it succeeds, the 0-1-6 that took no part stays where it was (it did not enter the hex).
-- Board: hidden s and t in 0303 (pool 0-0-6, 0-1-6), leader l in 0302, German g (2-2-10) in 0403.
kessel.test("case_6_5_a_failed_overrun_stops_the_units_a_reveal_took_out_of_the_fight", function()
  local function hidden(id, at) return { id = id, name = id, side = "soviet", type = "rifle", hidden = true, pool = "rifle", at = at } end
  kessel.setup{ map = { columns = 10, rows = 10 }, step = "soviet_movement", turn = 7, pools = { rifle = { "0-0-6", "0-1-6" } },
    units = { B.pz("g", "0403", "2-2-10"), hidden("s", "0303"), hidden("t", "0303"), B.leader("l", "0302", 5) } }
  kessel.inject_dice{ 1, 1 }
  local ev = expect.accepted(kessel.act{ kind = "overrun", units = { "s", "t" }, target = "0403" })
  expect.truthy(B.note(ev, "the overrun has no effect"), B.all_notes(ev))
  expect.truthy(B.note(ev, "the overrunners stop for the rest of the phase"), B.all_notes(ev))
  expect.eq(B.where("s"), "eliminated")
  expect.eq(B.where("g"), "0403")
  local ok, why = kessel.act{ kind = "move", units = { "t" }, path = { "0203" } }
  expect.refused(ok, why, "6.5", "stopped by its overrun")
  -- the same 0-1-6 beside a 9-9-6 that clears the hex: 9 halved 4 against 1, 4-1, roll 1: D2; the
  -- German retreats, r enters 0403, t stays in 0303 and keeps its MP less the overrun's 3
  kessel.setup{ map = { columns = 10, rows = 10 }, step = "soviet_movement", turn = 7, pools = { rifle = { "0-1-6" } },
    units = { B.pz("g", "0403", "1-1-10"), B.rifle("r", "0303", "9-9-6"), hidden("t", "0303"), B.leader("l", "0302", 5) } }
  kessel.inject_dice{ 1, 1 }
  ev = expect.accepted(kessel.act{ kind = "overrun", units = { "r", "t" }, target = "0403" })
  expect.truthy(B.note(ev, "attack 4 against defence 1 in 0403: odds 4-1, roll 1: D2"), B.all_notes(ev))
  expect.accepted(choose("retreat"))
  expect.accepted(retreat({ "g" }, { "0503", "0603" }))
  expect.eq(B.where("r"), "0403")
  expect.eq(B.where("t"), "0303")
  expect.falsy(kessel.units.get("t").flags.stopped)
  expect.eq(require("rules.movement").mp_left(kessel.units.get("t")), 3)
end)

-- [10.4] [6.22] An evacuated leader comes back alone at X, and a leader may enter an enemy zone of
-- control only together with an attack-capable unit. The engine put him on X whenever no German
-- stood there, so with a German next to X he came back alone into its zone, against [6.22], and was
-- held there by it [6.22]. Now he waits, turn by turn, with a note saying why, while every hex of
-- X is German-occupied or in a German zone, and comes back once one is open. Board: l (rating 2)
-- cut off in 0202 by g1-g3, X = 0808, g4 in 0807 next to it.
kessel.test("case_10_4_an_evacuated_leader_does_not_return_into_an_enemy_zone", function()
  local units = { B.leader("l", "0202", 2), B.pz("g1", "0302"), B.pz("g2", "0203"), B.pz("g3", "0101"), B.pz("g4", "0807") }
  B.setup(units, { step = "soviet_movement", options = { leader_evacuation = true },
    map = { columns = 10, rows = 10, areas = { X = { "0808" } } } })
  expect.accepted(kessel.act{ kind = "evacuate", leader = "l" })
  local ev
  for _ = 1, 9 do ev = end_phase() end
  expect.eq(kessel.game.step().id, "soviet_movement")
  expect.eq(B.where("l"), "pending", "X is in g4's zone")
  local n = B.note(ev, "cannot return at X this turn")
  expect.truthy(n, B.all_notes(ev))
  expect.eq(n.rule, "10.4")
  expect.truthy(n.text:find("may not enter [6.22]", 1, true), n.text)
  -- g4 leaves in the German player-turn: the next Soviet Movement Phase brings him back
  for _ = 1, 4 do end_phase() end
  expect.eq(kessel.game.step().id, "german_movement")
  expect.accepted(kessel.act{ kind = "move", units = { "g4" }, path = { "0806" , "0805" } })
  for _ = 1, 5 do ev = end_phase() end
  expect.eq(kessel.game.step().id, "soviet_movement")
  expect.eq(B.where("l"), "0808", "back at X")
  expect.truthy(B.note(ev, "returns from evacuation at 0808"), B.all_notes(ev))
end)

-- [6.6] [9.8] A disrupted unit may not move; it defends normally. The engine offered a disrupted
-- defender the advance after combat when the attacker retreated or died, so a unit an overrun had
-- disrupted moved into the hex the attacker left. An advance is a move: a disrupted defender now
-- stays, and naming it is refused citing 6.6; its undisrupted hex-mates advance as before.
-- Board: g (2-2-10) in 0303 attacks s (2-4-6, disrupted) and f (2-4-6) in 0403: 2 against 8, 1-3
-- (below the table), roll 4: A2; g retreats two hexes.
kessel.test("case_6_6_a_disrupted_defender_does_not_advance_after_combat", function()
  for _, mate in ipairs{ true, false } do
    local units = { B.pz("g", "0303", "2-2-10"), B.rifle("s", "0403", "2-4-6", { flags = { "disrupted" } }), B.leader("l", "0605", 5) }
    if mate then units[#units + 1] = B.rifle("f", "0403", "2-4-6") end
    B.setup(units)
    kessel.inject_dice{ 4 }
    local ev = expect.accepted(kessel.act{ kind = "attack", units = { "g" }, targets = { "0403" } })
    expect.truthy(B.note(ev, mate and "roll 4: A2" or "roll 4: A1"), B.all_notes(ev))
    expect.accepted(choose("retreat"))
    expect.accepted(retreat({ "g" }, mate and { "0202", "0102" } or { "0202" }))
    local p = B.pending()
    if mate then
      expect.eq(p and p.kind, "advance", "f may advance")
      expect.eq(table.concat(p.units, ","), "f")
      local ok, why = kessel.act{ kind = "advance", units = { "s" }, path = { "0303" } }
      expect.refused(ok, why, "6.6", "disrupted and may not advance")
      expect.accepted(kessel.act{ kind = "advance", units = { "f" }, path = { "0303" } })
      expect.eq(B.where("f"), "0303")
    else
      expect.eq(p, nil, "nobody to advance: s is disrupted")
    end
    expect.eq(B.where("s"), "0403")
  end
end)

-- [15] WBC09 sides: the VP options count victory points, never fewer than none. `vp_bid` took -10
-- (an agreed bid that added 10 VP to the German, where a bid in the bidding is refused below 0),
-- and `smolensk_vp` or `soviet_vp_per_division` took negative values. The ruleset now declares
-- them 0 or more (`min`), and a value below is refused wherever an option is set, here by
-- kessel.setup, naming the range.
kessel.test("case_15_vp_options_below_zero_are_refused_naming_the_range", function()
  for _, id in ipairs{ "vp_bid", "smolensk_vp", "soviet_vp_per_division" } do
    local ok, err = pcall(B.setup, { B.pz("a", "0303") }, { options = { [id] = -10 } })
    expect.falsy(ok, id)
    expect.truthy(tostring(err):find("option `" .. id .. "` takes a whole number from 0 to 1000 (-10 is out of range)", 1, true),
      id .. ": " .. tostring(err))
    B.setup({ B.pz("a", "0303") }, { options = { [id] = 0 } })
    expect.eq(kessel.game.option(id), 0, id)
  end
  -- and above 1000: Lua integers wrap past 2^63, so a huge value turned the German total over
  for _, id in ipairs{ "vp_bid", "smolensk_vp", "soviet_vp_per_division" } do
    for _, big in ipairs{ 1001, math.maxinteger } do
      local ok, err = pcall(B.setup, { B.pz("a", "0303") }, { options = { [id] = big } })
      expect.falsy(ok, id .. " = " .. big)
      expect.truthy(tostring(err):find("from 0 to 1000", 1, true), tostring(err))
    end
    B.setup({ B.pz("a", "0303") }, { options = { [id] = 1000 } })
    expect.eq(kessel.game.option(id), 1000, id)
  end
  -- a bid in the bidding: refused below 0 as before, and above 1000 VP
  B.setup({ B.pz("a", "0303") }, { step = "soviet_movement", turn = 1, options = { vp_bidding = true },
    vars = { first_turn_16 = "move", first_turn_19 = "move" } })
  expect.accepted(kessel.act{ kind = "bid_roll" })
  local ok, why = kessel.act{ kind = "bid", vp = -10 }
  expect.refused(ok, why, "WBC09 sides", "whole number")
  for _, big in ipairs{ 1001, 1e300, math.maxinteger } do
    ok, why = kessel.act{ kind = "bid", vp = big }
    expect.refused(ok, why, "WBC09 sides", "at most 1000 VP")
  end
  expect.accepted(kessel.act{ kind = "bid", vp = 1000 })
end)
