-- The campaign walked by an outside checker through turns 4-12 and the final score, with actions
-- only (kessel.act, kessel.validate, the reach and score queries), against pgg-facts.md. The
-- turns 1-3 walk is checker_campaign_data_test.lua. Run with the scenario loaded:
--   kessel test scenarios/pgg/tests --scenario scenarios/pgg/campaign.toml
local expect = kessel.expect

-- `action` refused by validation, citing `rule` and saying `text`.
local function refused(action, rule, text)
  local ok, why = kessel.validate(action)
  return expect.refused(ok, why, rule, text)
end

local function in_area(hex, area)
  for _, h in ipairs(kessel.map.area(area)) do
    if h == hex then return true end
  end
  return false
end

local function combat_units_at(hex)
  local n = 0
  for _, u in ipairs(kessel.units.at(hex)) do
    if u.type ~= "leader" then n = n + 1 end
  end
  return n
end

-- pgg-facts.md's schedules, turn -> area -> "rifle/armour leader" (Soviet) or the sorted division
-- numbers (German): what is due each turn and where.
local SOVIET = {
  [4] = { X = "5/1 Kachalov" }, [5] = { X = "4/1" }, [6] = { X = "4/0" }, [7] = { X = "4/0 Maslennikov" },
  [8] = { X = "4/0 Dalmatov" }, [9] = { X = "4/0 Zakharkin" }, [10] = { X = "4/0 Vishnevsky" },
  [11] = { X = "4/0 Onuprienko" }, [12] = {},
}
local GERMAN = {
  [4] = {}, [5] = { E = "137 23 263" }, [6] = { E = "258 292" }, [7] = { E = "15 17 268 7" },
  [8] = { F = "252 78" }, [9] = { G = "31 34" }, [10] = {}, [11] = {}, [12] = {},
}

local function due(side, turn)
  local by = {}
  for _, u in ipairs(kessel.units.all{ side = side }) do
    if u.enter_turn == turn then
      local a = u.enter_area
      by[a] = by[a] or { rifle = 0, armour = 0, leaders = {}, divisions = {} }
      local b = by[a]
      if u.type == "leader" then b.leaders[#b.leaders + 1] = u.name
      elseif u.type == "rifle" then b.rifle = b.rifle + 1
      elseif side == "soviet" then b.armour = b.armour + 1 end
      b.divisions[#b.divisions + 1] = (u.formation or ""):match("^(%d+)")
    end
  end
  local out = {}
  for a, b in pairs(by) do
    if side == "soviet" then
      table.sort(b.leaders)
      out[a] = b.rifle .. "/" .. b.armour .. (#b.leaders > 0 and (" " .. table.concat(b.leaders, " ")) or "")
    else
      table.sort(b.divisions)
      out[a] = table.concat(b.divisions, " ")
    end
  end
  return out
end

local function expect_same(got, want, what)
  for k, v in pairs(want) do expect.eq(got[k], v, what .. ", area " .. k) end
  for k, v in pairs(got) do expect.eq(want[k], v, what .. ", area " .. k .. " is not in the schedule") end
end

-- A straight path from `from` (entering there first when `first`) to the nearest hex with no
-- unit and not in `used` that the move validates (the reach query would do, but it costs a whole
-- movement field per unit).
local function short_move(units, first, from, used)
  for d = 2, 5 do
    for _, b in ipairs(kessel.hex.ring(from, d)) do
      if not used[b] and #kessel.units.at(b) == 0 then
        local path = first and { first } or {}
        for i, step in ipairs(kessel.hex.line(from, b)) do
          if i > 1 then path[#path + 1] = step.hex end
        end
        if kessel.validate{ kind = "move", units = units, path = path } then return path end
      end
    end
  end
end

-- Brings on every reinforcement of `side` due by `turn` (but those in `skip`) by a hex of its
-- area, each to a hex of its own.
local function bring_on(side, turn, skip)
  local used, count = {}, 0
  for _, u in ipairs(kessel.units.all{ side = side }) do
    if u.location == "pending" and u.enter_turn and u.enter_turn <= turn and not (skip and skip[u.id]) then
      local path
      for _, entry in ipairs(kessel.map.area(u.enter_area)) do
        path = path or short_move({ u.id }, entry, entry, used)
      end
      expect.truthy(path, u.id .. " enters by area " .. u.enter_area .. " on turn " .. turn)
      expect.accepted(kessel.act{ kind = "move", units = { u.id }, path = path })
      used[path[#path]] = true
      count = count + 1
    end
  end
  return count
end

-- The campaign's position at the start of turn 4 with the map cleared: every unit still to come
-- (the schedule's, the provisional and South-Western Front reserves) as the scenario has it, and
-- one German division and one Soviet leader on the map, so the walk stays inside a test's budget.
local function turn_4_position()
  local units = {}
  for _, u in ipairs(kessel.units.all()) do
    if u.location == "pending" and (u.enter_turn or 99) >= 4 then
      local spec = { id = u.id, name = u.name, side = u.side, type = u.type, formation = u.formation,
        hidden = u.hidden or nil, pool = u.pool, attrs = u.attrs }
      if u.enter_turn then spec.enter = { turn = u.enter_turn, area = u.enter_area } end
      if u.type == "infantry" then spec.faces = { "9-9-7", "4-4-7", "2-2-7", "1-1-7" }
      elseif not u.hidden then spec.faces = { string.format("%d-%d-%d", u.attack, u.defence, u.movement) } end
      units[#units + 1] = spec
    end
  end
  return units
end
-- [14.1] [14.2] [14.3] [13.2] [13.4] [13.45] [16] [15] Turns 4-12 played phase by phase with
-- nothing but arrivals, provisional divisions, South-Western Front calls and markers: every
-- arrival is the schedule's, in its area, on its turn, never earlier, and may wait a turn; each
-- provisional roll puts its division on the entrance of the die (turn 12 has none: 14.3's
-- "nothing enters on turn 12", rules-coverage 14.1); the South-Western Front sends five a turn,
-- ten a game, only at or east of Z, none on turn 12; the Soviet marker is used three times and
-- never on a German unit; German air markers stay at or west of column 40 with Smolensk not
-- held; the final score counts it all.
kessel.test("data_14_16_15_turns_4_to_12_played_to_the_final_score", function()
  local units = turn_4_position()
  units[#units + 1] = { id = "ldr", side = "soviet", type = "leader", faces = { "0-5-10" }, attrs = { rating = 5 }, at = "4015" }
  for i, id in ipairs{ "pz", "s1", "s2" } do
    units[#units + 1] = { id = id, side = "german", type = i == 1 and "panzer" or "rifle_mot",
      faces = i == 1 and { "4-4-10", "2-2-10" } or { "2-2-10", "1-1-10" }, formation = "12 Pz", at = "0420" }
  end
  kessel.setup{ turn = 3, step = "german_air_interdiction", units = units, markers = {
    { kind = "air_interdiction", side = "german", count = 3 },
    { kind = "soviet_interdiction", side = "soviet", count = 3 },
  } }
  local rolls = { [4] = 1, [5] = 2, [6] = 4, [7] = 5, [8] = 6, [9] = 3, [10] = 1, [11] = 2 }
  kessel.inject_dice{ rolls[4] }
  expect.accepted(kessel.act{ kind = "end_phase" })
  local swf = { "3131", "3831", "4331", "4531", "5431" }
  local marker = { [4] = "3020", [5] = "3021", [6] = "3022" }
  for t = 4, 12 do
    while kessel.game.turn() == t and not kessel.game.finished() do
      local s = kessel.game.step().id
      if s == "soviet_movement" then
        local p = kessel.game.var("provisional_last")
        if rolls[t] then
          expect.eq(p and p.roll, rolls[t], "turn " .. t .. "'s provisional roll")
          expect.truthy(in_area(p.hex, "P" .. rolls[t]), ("turn %d: die %d puts the division on entrance %d, not %s"):format(t, rolls[t], rolls[t], tostring(p.hex)))
          expect.accepted(kessel.act{ kind = "move", units = { p.unit }, path = short_move({ p.unit }, nil, p.hex, {}) })
        else
          expect.eq(p and p.hex, nil, "no provisional division on turn 12")
        end
        expect_same(due("soviet", t), SOVIET[t], "Soviet arrivals of turn " .. t)
        if t <= 10 then
          local next_one
          for _, u in ipairs(kessel.units.all{ side = "soviet" }) do
            if u.enter_turn == t + 1 and u.type == "rifle" then next_one = u.id break end
          end
          refused({ kind = "move", units = { next_one }, path = { "5907" } }, "14.3", "not earlier")
        end
        if t == 4 then
          refused({ kind = "swf_call", hex = "1831" }, "14.2", "east of entrance Z")
          for _, h in ipairs(swf) do expect.accepted(kessel.act{ kind = "swf_call", hex = h }) end
          refused({ kind = "swf_call", hex = "3131" }, "14.2", "at most 5")
        elseif t == 5 then
          for _, h in ipairs(swf) do expect.accepted(kessel.act{ kind = "swf_call", hex = h }) end
        elseif t == 6 then
          refused({ kind = "swf_call", hex = "3831" }, "14.2", "all 10")
        elseif t == 12 then
          refused({ kind = "swf_call", hex = "3831" }, "14.3", "turn 12")
        end
        local n = bring_on("soviet", t, t == 4 and { ["s-t4x-r5"] = true } or nil)
        if t == 4 then expect.eq(n, 6, "turn 4's arrivals but the one held back") end
        if t == 5 then expect.eq(kessel.units.get("s-t4x-r5").location, "map", "a turn-4 division entered on turn 5") end
        if t == 12 then expect.eq(n, 0, "nothing enters on turn 12") end
      elseif s == "german_movement" then
        expect_same(due("german", t), GERMAN[t], "German arrivals of turn " .. t)
        bring_on("german", t)
      elseif s == "soviet_interdiction" then
        if t == 4 then refused({ kind = "place_marker", hex = "0420" }, "13.45", "German-occupied") end
        if marker[t] then expect.accepted(kessel.act{ kind = "place_marker", hex = marker[t] }) end
        if t == 7 then refused({ kind = "place_marker", hex = "3023" }, "13.4", "three times") end
      elseif s == "german_air_interdiction" then
        if t == 5 then
          refused({ kind = "place_marker", hex = "4515" }, "13.2", "column 40")
          expect.accepted(kessel.validate{ kind = "place_marker", hex = "4015" })
        end
        if rolls[t + 1] then kessel.inject_dice{ rolls[t + 1] } end
      end
      expect.accepted(kessel.act{ kind = "end_phase" })
    end
  end
  expect.truthy(kessel.game.finished(), "the game is over after turn 12")
  local on_map = 0
  for _, u in ipairs(kessel.units.all{ side = "soviet" }) do
    if u.formation == "Provisional" and u.location == "map" then on_map = on_map + 1 end
  end
  expect.eq(on_map, 8, "one provisional division each turn 4-11")
  -- [15] the German holds Orsha with a line and the German infantry passed through nothing else;
  -- the ten South-Western Front calls are 5 x 1 + 5 x 2; nothing for the Soviet
  local score = kessel.queries.ask("score")
  local held = {}
  for _, c in ipairs(score.held) do held[#held + 1] = type(c) == "table" and c.name or c end
  table.sort(held)
  expect.eq(table.concat(held, " "), "Orsha")
  expect.eq(score.german_vp, 5 + 15, "Orsha and the South-Western Front")
  expect.eq(score.soviet_vp, 0)
  expect.eq(score.level, "Soviet Strategic", "20 is in 1-25")
end)

-- [15] The objectives the final score reads: pgg-facts.md's VP, Smolensk at the default 25.
kessel.test("data_15_every_objective_s_vp_in_the_score", function()
  local want = { Vitebsk = 10, Orsha = 5, Mogilev = 5, Smolensk = 25, Roslavl = 10, Rzhev = 5, Vyazma = 15,
    Gzhatsk = 5, Kaluga = 20, Yelnya = 10, ["5907"] = 20, ["5915"] = 20 }
  local seen, total = 0, 0
  for _, o in ipairs(kessel.queries.ask("score").objectives) do
    local key = want[o.name] and o.name or o.hexes[1].hex
    expect.eq(o.vp, want[key], o.name)
    seen, total = seen + 1, total + o.vp
  end
  expect.eq(seen, 12)
  expect.eq(total, 150)
end)

local function german(id, at, division, type_, faces, attrs)
  return { id = id, side = "german", type = type_ or "panzer", faces = faces or { "4-4-10", "2-2-10" },
    formation = division, at = at, attrs = attrs, location = (not at) and "eliminated" or nil }
end

-- Turn 12 played from the Soviet Movement Phase to the end: Smolensk and Vyazma held, the 7th
-- Panzer Division destroyed (the cavalry and GD eliminated too, which score nothing), Orsha
-- retaken on turn 12. With `bid` the German Marginal Victory starts at that margin (WBC09 sides,
-- rules-coverage "WBC09 bidding").
local function final_turn(bid)
  local rm = { "2-2-10", "1-1-10" }
  kessel.setup{ turn = 12, step = "soviet_movement", options = { vp_bid = bid }, units = {
    german("a", "2216", "12 Pz"), german("b", "2217", "12 Pz", "rifle_mot", rm), german("c", "4015", "20 Pz"),
    german("x1", nil, "7 Pz"), german("x2", nil, "7 Pz", "rifle_mot", rm), german("x3", nil, "7 Pz", "rifle_mot", rm),
    german("cav", nil, "1 Cav", "cavalry", { "4-4-5", "2-2-5" }),
    german("gd", nil, nil, "motorized", nil, { independent = 1 }),
    { id = "r", side = "soviet", type = "rifle", faces = { "3-3-6" }, at = "0420" },
    { id = "ldr", side = "soviet", type = "leader", faces = { "0-5-10" }, attrs = { rating = 5 }, at = "0520" },
  }, vars = { german_held = { "Orsha", "Smolensk", "Vyazma" }, city_owner = { ["0420"] = "german" } } }
  while not kessel.game.finished() do expect.accepted(kessel.act{ kind = "end_phase" }) end
  return kessel.queries.ask("score")
end

-- [15] [WBC09 sides] The end of turn 12 scored from every source: cities held with a line,
-- divisions destroyed (not the cavalry, not GD), a recapture, the difference, the level and a bid.
kessel.test("data_15_the_final_score_from_every_source", function()
  local score = final_turn(0)
  expect.eq(score.german_vp, 25 + 15, "Smolensk and Vyazma")
  expect.eq(#score.destroyed, 1, "7 Pz; neither 1 Cav nor GD is a division for the Soviet's VP")
  expect.eq(#score.recaptures, 1, "Orsha retaken")
  expect.eq(score.recaptures[1].turn, 12)
  expect.eq(score.soviet_vp, 5 + 2)
  expect.eq(score.difference, 33)
  expect.eq(score.level, "Soviet Marginal")
  score = final_turn(30)
  expect.eq(score.bid, 30)
  expect.eq(score.level, "German Marginal", "33 beats a bid of 30")
  expect.eq(final_turn(34).level, "Soviet Marginal", "33 is short of a bid of 34")
end)

-- [6.4] Columns 01-02 are closed to Soviet units on turns 1-6 and open from turn 7.
kessel.test("data_6_4_columns_01_02_open_on_turn_7_on_the_campaign_map", function()
  for _, t in ipairs{ 6, 7 } do
    kessel.setup{ turn = t, step = "soviet_movement", units = {
      { id = "r", side = "soviet", type = "rifle", faces = { "3-3-6" }, at = "0405" },
      { id = "ldr", side = "soviet", type = "leader", faces = { "0-5-10" }, attrs = { rating = 5 }, at = "0405" },
    } }
    local ok, why = kessel.validate{ kind = "move", units = { "r" }, path = { "0305", "0205", "0105" } }
    if t == 6 then expect.refused(ok, why, "6.4", "columns 01-02") else expect.accepted(ok, why) end
  end
end)

-- [13.2] [13.4] The German's air markers go east of column 40 one turn after he holds Smolensk
-- (he keeps 2217 by having been there last) and no longer once the Soviet retakes a hex of it;
-- the Soviet marker never on turn 12.
kessel.test("data_13_2_13_4_markers_east_of_column_40_and_on_turn_12", function()
  kessel.setup{ turn = 6, step = "german_air_interdiction", run_step_start = true, units = {
    german("a", "2216", "7 Pz"), german("b", "2217", "12 Pz"),
    { id = "r", side = "soviet", type = "rifle", faces = { "3-3-6" }, at = "2520" },
    { id = "ldr", side = "soviet", type = "leader", faces = { "0-5-10" }, attrs = { rating = 5 }, at = "2520" },
  }, markers = { { kind = "air_interdiction", side = "german", count = 3 } } }
  local function on_to(step)
    repeat expect.accepted(kessel.act{ kind = "end_phase" }) until kessel.game.step().id == step
  end
  refused({ kind = "place_marker", hex = "4515" }, "13.2", "column 40")
  on_to("german_movement")
  expect.accepted(kessel.act{ kind = "move", units = { "b" }, path = { "2117" } })
  on_to("german_air_interdiction")
  expect.eq(kessel.game.turn(), 7)
  expect.accepted(kessel.validate{ kind = "place_marker", hex = "4515" })
  expect.accepted(kessel.validate{ kind = "place_marker", hex = "5907" })
  on_to("soviet_movement")
  expect.accepted(kessel.act{ kind = "move", units = { "r" }, path = { "2217" } })
  on_to("german_air_interdiction")
  expect.eq(kessel.game.turn(), 8)
  refused({ kind = "place_marker", hex = "4515" }, "13.2", "column 40")
  for _, t in ipairs{ 11, 12 } do
    kessel.setup{ turn = t, step = "soviet_interdiction", units = {
      { id = "ldr", side = "soviet", type = "leader", faces = { "0-5-10" }, attrs = { rating = 5 }, at = "4015" },
    }, markers = { { kind = "soviet_interdiction", side = "soviet" } } }
    local ok, why = kessel.validate{ kind = "place_marker", hex = "3020" }
    if t == 11 then expect.accepted(ok, why) else expect.refused(ok, why, "13.4", "turn 12") end
  end
end)

-- [14.1] An entrance held by a German unit or in German ZOC sends the provisional division to the
-- nearest open hex toward the east (entrance 1 is nine hexes: its first open one).
kessel.test("data_14_1_a_held_or_watched_entrance_sends_the_division_east", function()
  for _, c in ipairs{ { 2, {}, "3901" }, { 2, { "3901" }, "4101" }, { 2, { "3902" }, "4101" },
      { 4, { "4331" }, "4531" }, { 6, { "1830" }, "2031" }, { 1, { "1901" }, "2101" } } do
    local roll, germans, want = c[1], c[2], c[3]
    local units = {
      { id = "ldr", side = "soviet", type = "leader", faces = { "0-5-10" }, attrs = { rating = 5 }, at = "4015" },
      { id = "p", side = "soviet", type = "rifle", formation = "Provisional", hidden = true, pool = "rifle" },
    }
    for i, h in ipairs(germans) do units[#units + 1] = german("g" .. i, h, "7 Pz") end
    kessel.setup{ turn = 4, step = "german_air_interdiction", units = units }
    kessel.inject_dice{ roll }
    expect.accepted(kessel.act{ kind = "end_phase" })
    expect.eq(kessel.units.get("p").hex, want, ("die %d, German units at %s"):format(roll, table.concat(germans, " ")))
  end
end)
