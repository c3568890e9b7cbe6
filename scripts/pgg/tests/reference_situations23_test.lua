-- Situations from the reference material, rules32 pass: the extended sequence of play step by step
-- (the pre-game under the WBC profile, each phase's bookkeeping at its moment), the terrain effects
-- chart and the results table, played as a checker plays them. Geometry of the 10x10 map: odd
-- columns N, NE = c+1 r-1, SE = c+1 r, S, SW = c-1 r, NW = c-1 r-1; even columns NE = c+1 r,
-- SE = c+1 r+1, SW = c-1 r+1, NW = c-1 r.
local expect = kessel.expect
local B = require("testing.board10")

-- Where the first note holding `text` is in `events` (nil when none does).
local function note_index(events, text)
  for i, e in ipairs(events or {}) do
    if e.text and e.text:find(text, 1, true) then return i end
  end
  return nil
end

-- WBC09 sides: the players roll a die for who bids first, and then roll for the 16th and 19th
-- Armies [5.2] before the bidding starts. The first die of the pre-game is the bidding's (5: player
-- 2 bids first), the next two the armies' (2: the 16th moves; 5: the 19th stands). With a bid agreed
-- before the game (vp_bid) there is no bidding and the first die is the 16th Army's.
kessel.test("case_wbc09_sides_the_die_for_who_bids_first_comes_before_the_armies_roll", function()
  local function board(options)
    B.setup({ B.rifle("a", "0505", "2-2-6", { formation = "16 Army" }), B.rifle("b", "0805", "2-2-6", { formation = "19 Army" }),
      B.leader("l", "0706", 3), B.inf("g", "0209") },
      { step = "soviet_movement", turn = 1, options = options })
  end
  board({ vp_bidding = true })
  kessel.inject_dice{ 5, 2, 5 }
  local ev = expect.accepted(kessel.act{ kind = "first_turn_roll" })
  local first, army16, army19 = note_index(ev, "player 2 rolls to bid first (5)"), note_index(ev, "16 Army rolls 2"),
    note_index(ev, "19 Army rolls 5")
  expect.truthy(first and army16 and army19, B.all_notes(ev))
  expect.truthy(first < army16 and army16 < army19, "who bids first, then the 16th, then the 19th: " .. B.all_notes(ev))
  expect.eq(kessel.game.var("first_turn_16"), "move")
  expect.eq(kessel.game.var("first_turn_19"), "stand")
  expect.eq(kessel.game.var("pending"), nil, "the bidding has not started yet")
  local ok, why = kessel.act{ kind = "bid", vp = 3 }
  expect.refused(ok, why, "WBC09 sides", "no bidding open")
  -- the bidding then starts with the player the first die named, and rolls no die of its own
  ev = expect.accepted(kessel.act{ kind = "bid_roll" })
  expect.falsy(note_index(ev, "rolls to bid first"), "no second die for who bids first: " .. B.all_notes(ev))
  expect.eq(B.pending().kind, "bid")
  expect.eq(require("rules.bidding").state().to_bid, 2)
  expect.accepted(kessel.act{ kind = "bid", vp = 4 })
  expect.accepted(kessel.act{ kind = "bid", pass = true })
  expect.eq(require("rules.bidding").state().german, 2, "player 1 passed: player 2 plays the German")

  board({ vp_bidding = true, vp_bid = 7 })
  kessel.inject_dice{ 5, 2 }
  ev = expect.accepted(kessel.act{ kind = "first_turn_roll" })
  expect.truthy(note_index(ev, "16 Army rolls 5"), B.all_notes(ev))
  expect.eq(kessel.game.var("first_turn_16"), "stand")
  expect.eq(kessel.game.var("first_turn_19"), "move")
  expect.falsy(require("rules.bidding").state(), "no die for who bids first under an agreed bid")
end)

-- [4] One full game-turn played phase by phase, with each phase's bookkeeping at its moment and at
-- no other: what each `end_phase` brings (the step's end and the next step's start) is read from
-- its notes. Turn 5, 10x10 map. Soviet: leader l (rating 3) on the east edge at 1007, rifle s at
-- 0909 (in l's radius), rifle rd at 0505 (disrupted, five hexes from l), rifle far at 0110.
-- German: x (9-9-7) at 1010, cut off by s's zone (1009 and 0910); g (4-4-10) at 0810; gd
-- (disrupted) at 0305. The turn before, the German placed an air marker at 0606.
--   Soviet Movement Phase starts: Soviet supply judged (far and rd out of supply [11.2] [11.3]).
--   It ends: the German air marker comes off [13.33].
--   Soviet Disruption Removal Phase: rd recovers, gd (German) does not [6.6].
--   Soviet Interdiction Phase: the Soviet marker goes on 0404 [13.4].
--   German Initial Movement Phase starts: German supply judged (x out of supply); the Soviet
--   marker stays. g moves into 0910 (and stops in s's zone [6.22]), which opens x's line.
--   German Mechanized Movement Phase starts: German supply judged again (x back in supply).
--   German Disruption Removal Phase: gd recovers [6.6].
--   End of the German Air Interdiction Phase: the Soviet marker comes off [13.4]; turn 6 begins
--   with the Soviet supply judged again.
kessel.test("case_4_one_game_turn_bookkeeping_phase_by_phase", function()
  B.setup({ B.leader("l", "1007", 3), B.rifle("s", "0909", "2-2-6"), B.rifle("rd", "0505", "2-2-6", { flags = { "disrupted" } }),
    B.rifle("far", "0110", "2-2-6"), B.inf("x", "1010"), B.pz("g", "0810"), B.pz("gd", "0305", "4-4-10", { flags = { "disrupted" } }) },
    { step = "german_air_interdiction", turn = 4,
      markers = { { kind = "air_interdiction", side = "german", count = 3 }, { kind = "soviet_interdiction", side = "soviet", count = 3 } } })
  -- the bookkeeping notes an event list holds, as "rule: text" lines
  local KEEP = { ["11.3"] = true, ["13.33"] = true, ["13.4"] = true, ["6.6"] = true }
  local function kept(ev)
    local out = {}
    for _, e in ipairs(ev or {}) do
      if e.text and KEEP[e.rule] then out[#out + 1] = e.rule .. ": " .. e.text end
    end
    return out
  end
  local function has(lines, rule, text)
    for _, l in ipairs(lines) do
      if l:find(rule .. ": ", 1, true) == 1 and l:find(text, 1, true) then return true end
    end
    return false
  end
  local function next_phase(id)
    local ev = expect.accepted(kessel.act{ kind = "end_phase" })
    expect.eq(kessel.game.step().id, id)
    return kept(ev)
  end
  local function placed(kind) return #kessel.markers.all{ kind = kind, placed = true } end

  expect.accepted(kessel.act{ kind = "place_marker", hex = "0606" })
  local k = next_phase("soviet_movement")
  expect.eq(kessel.game.turn(), 5)
  expect.truthy(has(k, "11.3", "far at 0110 is out of supply") and has(k, "11.3", "rd at 0505 is out of supply"), table.concat(k, " | "))
  expect.falsy(has(k, "11.3", "s at") or has(k, "11.3", "x at"), "only the Soviet's units are judged: " .. table.concat(k, " | "))
  expect.eq(placed("air_interdiction"), 1, "the German marker is on the map through the Soviet Movement Phase")
  k = next_phase("soviet_combat")
  expect.truthy(has(k, "13.33", "0606"), table.concat(k, " | "))
  expect.eq(placed("air_interdiction"), 0)
  k = next_phase("soviet_disruption_removal")
  expect.truthy(has(k, "6.6", "rd at 0505"), table.concat(k, " | "))
  expect.falsy(has(k, "6.6", "gd"), "the German's marker stays until his own phase: " .. table.concat(k, " | "))
  expect.falsy(kessel.units.get("rd").flags.disrupted)
  expect.truthy(kessel.units.get("gd").flags.disrupted)
  k = next_phase("soviet_interdiction")
  expect.eq(#k, 0, table.concat(k, " | "))
  expect.accepted(kessel.act{ kind = "place_marker", hex = "0404" })
  k = next_phase("german_movement")
  expect.truthy(has(k, "11.3", "x at 1010 is out of supply"), table.concat(k, " | "))
  expect.falsy(has(k, "13.4", "removed"), "the Soviet marker stays for both German Movement Phases")
  expect.eq(placed("soviet_interdiction"), 1)
  expect.truthy(kessel.units.get("x").flags.oos)
  expect.accepted(kessel.act{ kind = "move", units = { "g" }, path = { "0910" } })
  expect.truthy(kessel.units.get("x").flags.oos, "the movement judgement stands for the rest of the phase")
  k = next_phase("german_combat")
  expect.eq(#k, 0, table.concat(k, " | "))
  k = next_phase("german_mech_movement")
  expect.falsy(kessel.units.get("x").flags.oos, "judged again at the start of the Mechanized Movement Phase: g's hex opens x's line")
  k = next_phase("german_disruption_removal")
  expect.truthy(has(k, "6.6", "gd (Fgd) at 0305"), table.concat(k, " | "))
  expect.falsy(kessel.units.get("gd").flags.disrupted)
  k = next_phase("german_air_interdiction")
  expect.eq(#k, 0, table.concat(k, " | "))
  expect.eq(placed("soviet_interdiction"), 1, "still on the map in the Air Interdiction Phase")
  k = next_phase("soviet_movement")
  expect.eq(kessel.game.turn(), 6)
  expect.truthy(has(k, "13.4", "0404"), table.concat(k, " | "))
  expect.eq(placed("soviet_interdiction"), 0)
end)

-- [6.7] [6.3] The chart's railroad row: a railway hex costs what its other terrain costs. Outside a
-- rail move a railway is no road: one step from 0303 into 0403 along a railway pays the clear,
-- forest or swamp of 0403 at the mover's own rate, and a river hexside under the railway its full
-- surcharge (+2 German, +1 Soviet). The same step by Soviet rail movement ignores the terrain
-- (one of the thirty rail hexes, 6.3) and a German never rides.
kessel.test("case_6_7_railroad_hex_costs_its_other_terrain_outside_rail_movement", function()
  local rail = { { kind = "railway", path = { "0303", "0403", "0503" } } }
  local movers = {
    { id = "inf", side = "german", unit = function() return B.inf("m", "0303") end },
    { id = "cav", side = "german", unit = function() return B.cav("m", "0303") end },
    { id = "mot", side = "german", unit = function() return B.pz("m", "0303") end },
    { id = "rifle", side = "soviet", unit = function() return B.rifle("m", "0303", "4-4-6") end },
    { id = "tank", side = "soviet", unit = function()
      return { id = "m", name = "m", side = "soviet", type = "tank", faces = { "5-5-10" }, at = "0303" } end },
    { id = "leader", side = "soviet", unit = function() return B.leader("m", "0303", 5) end },
  }
  local cells = {
    { "clear", {}, { inf = 1, cav = 1, mot = 1, rifle = 1, tank = 1, leader = 1 } },
    { "forest", { terrain = { ["0403"] = "forest" } }, { inf = 1, cav = 2, mot = 2, rifle = 1, tank = 2, leader = 1 } },
    { "swamp", { terrain = { ["0403"] = "swamp" } }, { inf = 2, cav = 2, mot = 2, rifle = 2, tank = 2, leader = 2 } },
    { "river", { hexsides = { { "0303", "0403", "river" } } }, { inf = 3, cav = 3, mot = 3, rifle = 2, tank = 2, leader = 2 } },
  }
  for _, m in ipairs(movers) do
    for _, cell in ipairs(cells) do
      local map = { columns = 10, rows = 10, links = rail }
      for k, v in pairs(cell[2]) do map[k] = v end
      B.setup({ m.unit() }, { map = map, step = m.side .. "_movement" })
      local ok, ev = kessel.act{ kind = "move", units = { "m" }, path = { "0403" } }
      expect.accepted(ok, ev)
      expect.eq(ev[1].cost, cell[3][m.id], m.id .. " along a railway into " .. cell[1])
    end
  end
  -- by rail the river, the forest and the swamp are ignored: two hexes are two of the thirty
  B.setup({ B.rifle("m", "0303", "4-4-6"), B.leader("l", "0304", 5) },
    { step = "soviet_movement", map = { columns = 10, rows = 10, links = rail,
      terrain = { ["0403"] = "forest", ["0503"] = "swamp" }, hexsides = { { "0303", "0403", "river" } } } })
  local ev = expect.accepted(kessel.act{ kind = "rail_move", units = { "m" }, path = { "0503" } })
  expect.truthy(B.note(ev, "2 rail hexes"), B.all_notes(ev))
  expect.eq(B.where("m"), "0503")
  B.setup({ B.pz("m", "0303") }, { step = "german_movement", map = { columns = 10, rows = 10, links = rail } })
  local ok, why = kessel.act{ kind = "rail_move", units = { "m" }, path = { "0503" } }
  expect.refused(ok, why, "6.3", "only the Soviet player moves by rail")
end)

-- [9.4] [9.5] [11.3] [9.3] [6.6] [13] The results table's column in play, every modifier the
-- defence can take: s (5-5-6) in forest at 0505, attacked by g (12-12-10) from 0404 solely across
-- a river, out of supply (no leader), disrupted by an overrun, under a German air marker. The
-- defence is halved for supply (2), then forest and river add up (x3): 6; disruption and the air
-- marker have no effect on combat (a disrupted unit defends normally [6.6]; the markers act on
-- movement and supply [13]), and no modifier line speaks of them. 12 against 6 is 2-1, and die
-- roll 1 there is D2. With option supply_halving_order = terrain_then_supply the same hex defends
-- 15 halved, 7: 12 against 7 is 1-1, where die roll 1 is D1.
kessel.test("case_9_5_column_in_play_supply_and_terrain_in_order_disruption_and_air_change_nothing", function()
  local function board(options)
    B.setup({ B.rifle("s", "0505", "5-5-6", { flags = { "disrupted" } }), B.pz("g", "0404", "12-12-10") },
      { options = options, markers = { { kind = "air_interdiction", side = "german", at = "0505" } },
        map = { columns = 10, rows = 10, terrain = { ["0505"] = "forest" }, hexsides = { { "0404", "0505", "river" } } } })
  end
  board({})
  kessel.inject_dice{ 1 }
  local ev = expect.accepted(B.attack({ "g" }, { "0505" }))
  local f = kessel.log.records{ kind = "combat", last = 1 }[1].fields
  expect.eq(f.attack, 12)
  expect.eq(f.defence, 6, B.all_notes(ev))
  expect.eq(f.odds, "2-1")
  expect.eq(f.result, "D2")
  -- (the hex's terrain lines come first; the unit's supply line works its sums out in the order
  -- they are made)
  local function lines(fields)
    local out = {}
    for _, m in ipairs(fields.defence_modifiers) do out[#out + 1] = m.rule .. " " .. m.message end
    return table.concat(out, " | ")
  end
  expect.eq(lines(f), "9.3 0505: forest doubles the defender | 9.3 0505: attacked solely across a river, doubled"
    .. " | 9.3 0505: terrain multipliers add up to ×3 | 11.3 s: out of supply, defence halved (5, halved 2, terrain ×3 6)")
  board({ supply_halving_order = "terrain_then_supply" })
  kessel.inject_dice{ 1 }
  expect.accepted(B.attack({ "g" }, { "0505" }))
  f = kessel.log.records{ kind = "combat", last = 1 }[1].fields
  expect.eq(f.defence, 7)
  expect.eq(f.odds, "1-1")
  expect.eq(f.result, "D1")
  expect.truthy(lines(f):find("(5, terrain ×3 15, halved 7)", 1, true), lines(f))
end)
