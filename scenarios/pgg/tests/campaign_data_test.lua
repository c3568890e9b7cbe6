-- The campaign's data, fact by fact, against the project's reference notes (pgg-facts.md and the
-- reference manual): the order of battle of both sides, the Soviet set-up [5.1], the reinforcement
-- schedules [14.3] [16.1] [16.2], the untried counter mixes [12], the objectives [15] and the map
-- facts the rules lean on. Run with the scenario loaded:
--   kessel test scenarios/pgg/tests --scenario scenarios/pgg/campaign.toml
-- Each table below is written from the notes, not from the scenario file, so an edit of the file
-- that breaks a fact fails here with the fact named.
local expect = kessel.expect

local function count_by(list, key)
  local t = {}
  for _, x in ipairs(list) do
    local k = key(x)
    t[k] = (t[k] or 0) + 1
  end
  return t
end

local function describe(t)
  local keys = {}
  for k in pairs(t) do keys[#keys + 1] = tostring(k) end
  table.sort(keys)
  local out = {}
  for _, k in ipairs(keys) do out[#out + 1] = k .. "=" .. tostring(t[k]) end
  return table.concat(out, ", ")
end

-- The hexes of a range "0101..0501" along a row or a column (both ends included).
local function span(a, b)
  local ca, ra, cb, rb = tonumber(a:sub(1, 2)), tonumber(a:sub(3, 4)), tonumber(b:sub(1, 2)), tonumber(b:sub(3, 4))
  local out = {}
  for c = math.min(ca, cb), math.max(ca, cb) do
    for r = math.min(ra, rb), math.max(ra, rb) do out[#out + 1] = string.format("%02d%02d", c, r) end
  end
  return out
end

local function same_hexes(got, want, what)
  local g, w = {}, {}
  for _, h in ipairs(got or {}) do g[#g + 1] = h end
  for _, h in ipairs(want) do w[#w + 1] = h end
  table.sort(g); table.sort(w)
  expect.eq(table.concat(g, " "), table.concat(w, " "), what)
end

local function soviet_units(pred)
  local out = {}
  for _, u in ipairs(kessel.units.all()) do
    if u.side == "soviet" and pred(u) then out[#out + 1] = u end
  end
  return out
end

local function kind(u)
  if u.type == "leader" then return "leader" end
  if u.type == "rifle" then return "rifle" end
  return "armour"
end

-- [12] The untried counter mixes: 78 rifle divisions (MA 6) and 20 armoured divisions (MA 10).
kessel.test("data_12_untried_counter_mixes", function()
  local rifle = {
    ["9-8-6"] = 1, ["8-8-6"] = 2, ["6-8-6"] = 1, ["5-8-6"] = 3, ["3-8-6"] = 1,
    ["7-7-6"] = 1, ["6-7-6"] = 1, ["4-7-6"] = 1, ["3-7-6"] = 1,
    ["7-6-6"] = 1, ["6-6-6"] = 1, ["4-6-6"] = 1, ["2-6-6"] = 1,
    ["6-5-6"] = 1, ["5-5-6"] = 3, ["4-5-6"] = 5, ["3-5-6"] = 3, ["2-5-6"] = 3, ["1-5-6"] = 1,
    ["5-4-6"] = 1, ["4-4-6"] = 2, ["3-4-6"] = 6, ["2-4-6"] = 5, ["1-4-6"] = 1,
    ["4-3-6"] = 1, ["3-3-6"] = 3, ["2-3-6"] = 4, ["1-3-6"] = 5,
    ["2-2-6"] = 3, ["1-2-6"] = 1, ["2-1-6"] = 2, ["1-1-6"] = 3, ["0-1-6"] = 1, ["0-0-6"] = 8,
  }
  -- tank 0 x3, 3 x3, 4, 5 x2, 7; mechanized 1, 2, 4 x3, 5, 6, 8 x3 (one value for attack and defence)
  local armour = { ["0-0-10"] = 3, ["1-1-10"] = 1, ["2-2-10"] = 1, ["3-3-10"] = 3, ["4-4-10"] = 4,
    ["5-5-10"] = 3, ["6-6-10"] = 1, ["7-7-10"] = 1, ["8-8-10"] = 3 }
  for id, want in pairs{ rifle = rifle, armour = armour } do
    local got = count_by(kessel.game.pool(id), function(f) return f end)
    expect.eq(describe(got), describe(want), "pool " .. id)
  end
  expect.eq(#kessel.game.pool("rifle"), 78)
  expect.eq(#kessel.game.pool("armour"), 20)
end)

-- [5.1] The Soviet set-up, army by army: rifle and armoured divisions face down (drawn from the
-- matching pool), the army's leader face up with his rating, in the printed hex or set-up area.
kessel.test("data_5_1_soviet_setup_by_army", function()
  local armies = {
    { formation = "24 Army", rifle = 5, armour = 1, leader = "Rakutin", rating = 2, hexes = { "4015" } },
    { formation = "16 Army", rifle = 6, armour = 0, leader = "Lukin", rating = 3, hexes = { "2216" } },
    { formation = "19 Army", rifle = 4, armour = 0, leader = "Konev", rating = 5, hexes = { "1414" } },
    { formation = "13 Army", rifle = 7, armour = 1, leader = "Remezov", rating = 4, hexes = span("0123", "0126") },
    { formation = "20 Army", rifle = 6, armour = 4, leader = "Kurochkin", rating = 4, hexes = span("0108", "0115") },
  }
  local total = 0
  for _, a in ipairs(armies) do
    local units = soviet_units(function(u) return u.formation == a.formation end)
    local n = count_by(units, kind)
    expect.eq(describe(n), describe{ rifle = a.rifle, armour = a.armour > 0 and a.armour or nil, leader = 1 }, a.formation)
    local allowed = {}
    for _, h in ipairs(a.hexes) do allowed[h] = true end
    for _, u in ipairs(units) do
      total = total + 1
      expect.eq(u.location, "map", u.id .. " is set up on the map")
      expect.truthy(allowed[u.hex], string.format("%s (%s) sets up in %s, not %s", u.id, a.formation, table.concat(a.hexes, "/"), tostring(u.hex)))
      expect.eq(u.enter_turn, nil, u.id .. " is no reinforcement")
      if kind(u) == "leader" then
        expect.eq(u.name, a.leader, a.formation .. "'s leader")
        expect.eq(u.attrs.rating, a.rating, a.leader .. "'s rating")
        expect.eq(u.defence, a.rating, a.leader .. " defends with his rating [10.2]")
        expect.eq(u.movement, 10, a.leader .. "'s MA [10.2]")
        expect.falsy(u.hidden, "leaders are never hidden")
      else
        expect.truthy(u.hidden, u.id .. " starts untried [12]")
        expect.eq(u.pool, kind(u) == "rifle" and "rifle" or "armour", u.id .. "'s pool")
      end
    end
    if #a.hexes > 1 then
      local area
      for _, u in ipairs(units) do area = area or u.setup_area end
      expect.truthy(area ~= nil, a.formation .. " has a set-up area")
      same_hexes(kessel.map.area(area), a.hexes, a.formation .. "'s set-up area " .. tostring(area))
    end
  end
  expect.eq(total, 39, "Soviet units at set-up")
  expect.eq(#soviet_units(function(u) return u.location == "map" end), 39, "nothing else on the map")
end)

-- [5.1] [11.2] [7.1] The default arrangement of the armies with a set-up area (the engine spreads
-- them over the area in file order; the Soviet may rearrange them before he ends his set-up) is
-- one a player would make: no hex over the stacking limit, and every combat unit within its
-- leader's rating, so each army starts in supply (the 20th Army's Kurochkin used to stand in 0108,
-- leaving 0113-0115 five to seven hexes away and three divisions out of supply at the start).
kessel.test("data_5_1_default_spread_keeps_every_army_in_its_leaders_radius", function()
  local S = require("rules.supply")
  for _, formation in ipairs{ "13 Army", "20 Army" } do
    local units = soviet_units(function(u) return u.formation == formation end)
    local leader
    for _, u in ipairs(units) do if kind(u) == "leader" then leader = u end end
    local per_hex = {}
    for _, u in ipairs(units) do
      if kind(u) ~= "leader" then
        per_hex[u.hex] = (per_hex[u.hex] or 0) + 1
        local d = kessel.hex.distance(u.hex, leader.hex)
        expect.truthy(d <= leader.attrs.rating, string.format("%s in %s is %d hexes from %s in %s (rating %d)",
          u.id, u.hex, d, leader.name, leader.hex, leader.attrs.rating))
        expect.truthy(S.in_supply(u.id, "move"), u.id .. " in " .. u.hex .. " starts in supply [11.2]")
      end
    end
    for h, n in pairs(per_hex) do expect.truthy(n <= 3, formation .. ": " .. n .. " combat units in " .. h .. " [7.1]") end
  end
end)

-- [14.3] [16.1] The Soviet schedule: rifle/armour/leader by turn and entry area; none on turn 12.
kessel.test("data_16_1_soviet_reinforcement_schedule", function()
  local schedule = {
    ["1 X"] = { rifle = 6, leader = "Rokossovsky", rating = 5 },
    ["1 V"] = { rifle = 5, leader = "Ershakov", rating = 3 },
    ["2 W"] = { rifle = 3, armour = 1, leader = "Khomenko", rating = 3 },
    ["2 X"] = { rifle = 4 },
    ["3 Z"] = { rifle = 5, armour = 2, leader = "Gerasimenko", rating = 2 },
    ["3 X"] = { rifle = 4 },
    ["4 X"] = { rifle = 5, armour = 1, leader = "Kachalov", rating = 2 },
    ["5 X"] = { rifle = 4, armour = 1 },
    ["6 X"] = { rifle = 4 },
    ["7 X"] = { rifle = 4, leader = "Maslennikov", rating = 3 },
    ["8 X"] = { rifle = 4, leader = "Dalmatov", rating = 2 },
    ["9 X"] = { rifle = 4, leader = "Zakharkin", rating = 3 },
    ["10 X"] = { rifle = 4, leader = "Vishnevsky", rating = 2 },
    ["11 X"] = { rifle = 4, leader = "Onuprienko", rating = 2 },
  }
  local got = {}
  for _, u in ipairs(soviet_units(function(u) return u.enter_turn ~= nil end)) do
    local key = u.enter_turn .. " " .. tostring(u.enter_area)
    got[key] = got[key] or { units = {} }
    table.insert(got[key].units, u)
  end
  for key, want in pairs(schedule) do
    local g = got[key]
    expect.truthy(g ~= nil, "Soviet reinforcements " .. key)
    local n = count_by(g.units, kind)
    expect.eq(describe(n), describe{ rifle = want.rifle, armour = want.armour, leader = want.leader and 1 or nil }, "Soviet reinforcements " .. key)
    for _, u in ipairs(g.units) do
      expect.eq(u.location, "pending", u.id)
      if kind(u) == "leader" then
        expect.eq(u.name, want.leader, key .. "'s leader")
        expect.eq(u.attrs.rating, want.rating, want.leader .. "'s rating")
      else
        expect.truthy(u.hidden, u.id .. " enters untried [3]")
      end
    end
  end
  for key in pairs(got) do expect.truthy(schedule[key] ~= nil, "no Soviet reinforcements are scheduled for " .. key) end
  -- the entry areas [16.1]: V on the north edge 1901-2701, W Rzhev 3901, X 5907, Z 3131
  same_hexes(kessel.map.area("V"), span("1901", "2701"), "area V")
  same_hexes(kessel.map.area("W"), { "3901" }, "area W")
  same_hexes(kessel.map.area("X"), { "5907" }, "area X")
  same_hexes(kessel.map.area("Z"), { "3131" }, "area Z")
end)

-- [14.1] [14.2] The reserves the rules bring in: provisional divisions (a die a turn, entrances 1-6)
-- and the South-Western Front (from turn 2, 5 a turn, 10 a game, at or east of Z).
kessel.test("data_14_provisional_and_south_western_front", function()
  local entrances = { P1 = span("1901", "2701"), P2 = { "3901" }, P3 = { "5101" }, P4 = { "4331" }, P5 = { "3131" }, P6 = { "1831" } }
  local listed = kessel.scenario.var("provisional_entrances")
  expect.eq(table.concat(listed, " "), "P1 P2 P3 P4 P5 P6")
  for id, hexes in pairs(entrances) do same_hexes(kessel.map.area(id), hexes, "provisional entrance " .. id) end
  expect.eq(kessel.scenario.var("swf_first_turn"), 2)
  expect.eq(kessel.scenario.var("swf_max_per_turn"), 5)
  expect.eq(kessel.scenario.var("swf_max_total"), 10)
  expect.eq(table.concat(kessel.scenario.var("swf_vp"), " "), "1 1 1 1 1 2 2 2 2 2")
  expect.eq(kessel.scenario.var("swf_area"), "Z")
  local swf = soviet_units(function(u) return u.formation == kessel.scenario.var("swf_formation") end)
  expect.eq(#swf, 10, "South-Western Front divisions in reserve")
  for _, u in ipairs(swf) do expect.eq(kind(u), "rifle", u.id) end
end)

-- [16.2] The German order of battle: which divisions enter when and where, and their counters.
kessel.test("data_16_2_german_schedule_and_counters", function()
  local schedule = {
    ["1 C"] = { "7 Pz", "12 Pz", "20 Pz", "14 Mot", "20 Mot" },
    ["2 A"] = { "19 Pz", "18 Mot", "Lehr" },
    ["2 B"] = { "6 Inf", "26 Inf" },
    ["3 D"] = { "5 Inf", "35 Inf", "161 Inf" },
    ["3 E"] = { "10 Pz", "17 Pz", "18 Pz", "29 Mot", "SS DR", "GD" },
    ["3 H"] = { "3 Pz", "4 Pz", "10 Mot", "1 Cav" },
    ["5 E"] = { "23 Inf", "137 Inf", "263 Inf" },
    ["6 E"] = { "258 Inf", "292 Inf" },
    ["7 E"] = { "7 Inf", "15 Inf", "17 Inf", "268 Inf" },
    ["8 F"] = { "78 Inf", "252 Inf" },
    ["9 G"] = { "31 Inf", "34 Inf" },
  }
  local by_key, by_formation = {}, {}
  for _, u in ipairs(kessel.units.all()) do
    if u.side == "german" then
      expect.eq(u.location, "pending", u.id .. ": no German unit on the map at the start [3]")
      local f = u.formation or (u.attrs.independent == 1 and u.name) or "?"
      local key = tostring(u.enter_turn) .. " " .. tostring(u.enter_area)
      by_key[key] = by_key[key] or {}
      by_key[key][f] = true
      by_formation[f] = by_formation[f] or {}
      table.insert(by_formation[f], u)
    end
  end
  for key, list in pairs(schedule) do
    local want = {}
    for _, f in ipairs(list) do want[f] = true end
    expect.eq(describe(by_key[key] or {}), describe(want), "German entry " .. key)
  end
  for key in pairs(by_key) do expect.truthy(schedule[key] ~= nil, "no German entry is scheduled for " .. key) end
  -- counters: {type, face, steps} of each regiment or division; MA mechanized 10, infantry 7, cavalry 5
  local panzer = { { "panzer", "4-4-10", 2 }, { "rifle_mot", "2-2-10", 2 }, { "rifle_mot", "2-2-10", 2 } }
  local motorized2 = { { "motorized", "3-3-10", 2 }, { "motorized", "3-3-10", 2 } }
  local function shape(f)
    if f == "SS DR" then return { { "motorized", "3-3-10", 2 }, { "motorized", "3-3-10", 2 }, { "motorized", "3-3-10", 2 } } end
    if f == "GD" then return { { "motorized", "4-4-10", 2 } } end
    if f == "Lehr" then return { { "motorized", "3-3-10", 2 } } end
    if f == "1 Cav" then return { { "cavalry", "4-4-5", 2 } } end
    if f:find(" Pz$") then return panzer end
    if f:find(" Mot$") then return motorized2 end
    return { { "infantry", "9-9-7", 4 } }
  end
  local infantry, panzers = 0, 0
  for _, list in pairs(schedule) do
    for _, f in ipairs(list) do
      local want, got = {}, {}
      for _, s in ipairs(shape(f)) do want[#want + 1] = table.concat({ s[1], s[2], s[3] }, " ") end
      for _, u in ipairs(by_formation[f] or {}) do
        got[#got + 1] = string.format("%s %d-%d-%d %d", u.type, u.attack, u.defence, u.movement, u.steps)
      end
      table.sort(want); table.sort(got)
      expect.eq(table.concat(got, ", "), table.concat(want, ", "), f .. "'s counters")
      if f:find(" Inf$") then infantry = infantry + 1 end
      if f:find(" Pz$") then panzers = panzers + 1 end
      -- GD and Lehr are independent regiments, not divisions [15]
      if f == "GD" or f == "Lehr" then
        expect.eq(by_formation[f][1].formation, nil, f .. " belongs to no division")
        expect.eq(by_formation[f][1].attrs.independent, 1, f .. " is independent")
      end
    end
  end
  expect.eq(infantry, 18, "German infantry divisions")
  expect.eq(panzers, 9, "panzer divisions")
  -- the German entry areas on the west and north edges
  local areas = { A = span("0101", "0501"), B = span("0101", "0112"), C = span("0108", "0115"), D = span("0113", "0117"),
    E = span("0118", "0122"), F = span("0123", "0126"), G = span("0124", "0128"), H = span("0128", "0131") }
  for id, hexes in pairs(areas) do same_hexes(kessel.map.area(id), hexes, "German entry area " .. id) end
end)

-- [15] Objectives and victory levels; cities where the notes put them.
kessel.test("data_15_objectives_levels_and_cities", function()
  local vp = { Vitebsk = { 10, { "0412", "0513" } }, Orsha = { 5, { "0420" } }, Mogilev = { 5, { "0424", "0525" } },
    Smolensk = { 25, { "2216", "2217" } }, Roslavl = { 10, { "2626" } }, Rzhev = { 5, { "3901" } },
    Vyazma = { 15, { "4015" } }, Gzhatsk = { 5, { "4607" } }, Kaluga = { 20, { "5921" } }, Yelnya = { 10, nil } }
  local seen, total, edge = {}, 0, {}
  for _, o in ipairs(kessel.scenario.objectives()) do
    total = total + o.vp
    local want = vp[o.name]
    if want then
      seen[o.name] = true
      expect.eq(o.vp, want[1], o.name .. " VP")
      if want[2] then same_hexes(o.hexes, want[2], o.name .. "'s hexes") end
      local p = kessel.map.place(o.hexes[1])
      expect.eq(p and p.kind, "major_city", o.name .. " is a major city")
    else
      expect.eq(#o.hexes, 1, o.name)
      edge[#edge + 1] = o.hexes[1] .. "=" .. o.vp
    end
  end
  for name in pairs(vp) do expect.truthy(seen[name], name .. " is an objective") end
  table.sort(edge)
  expect.eq(table.concat(edge, " "), "5907=20 5915=20", "east-edge VP hexes")
  -- [15] the Soviet's recaptures count cities only: every city objective is one for the rules,
  -- the two east-edge VP hexes are not
  local V = require("rules.victory")
  local cities, not_cities = {}, {}
  for _, o in ipairs(V.objectives()) do
    if V.is_city(o) then cities[#cities + 1] = o.name else not_cities[#not_cities + 1] = o.hexes[1] end
  end
  expect.eq(#cities, 10, "the ten cities: " .. table.concat(cities, ", "))
  table.sort(not_cities)
  expect.eq(table.concat(not_cities, " "), "5907 5915")
  expect.eq(total, 150)
  local levels = {}
  for _, l in ipairs(kessel.scenario.levels()) do levels[#levels + 1] = l.name .. "<=" .. tostring(l.max) end
  expect.eq(table.concat(levels, ", "), "Soviet Decisive<=0, Soviet Strategic<=25, Soviet Marginal<=49, "
    .. "German Marginal<=79, German Strategic<=124, German Decisive<=nil")
  for name, hex in pairs{ Velizh = "1509", Bely = "3005", Mstislavl = "1524", Krichev = "1427" } do
    local p = kessel.map.place(hex)
    expect.eq(p and p.name, name, hex)
    expect.eq(p and p.kind, "minor_city", name)
  end
end)

-- [6.7] [11.1] [6.3] Map facts the rules lean on: the grid, the German road-supply source on the
-- highway, the Dnieper between the two Smolensk hexes and past Mogilev, rail exits on the south
-- edge, terrain of the supply source.
kessel.test("data_map_facts", function()
  local c, r = kessel.map.size()
  expect.eq(c .. "x" .. r, "59x31")
  same_hexes(kessel.map.tagged("road_supply_source"), { "0120" }, "German road-supply source")
  expect.truthy(kessel.map.has_link("0120", "road"), "0120 is on a road")
  for _, pair in ipairs{ { "2216", "2217" }, { "0424", "0525" }, { "0412", "0513" } } do
    expect.truthy(kessel.map.has_side(pair[1], pair[2], "river"), "river between " .. pair[1] .. " and " .. pair[2])
  end
  for _, h in ipairs{ "1831", "3131", "3831", "4331", "4531", "5431" } do
    expect.truthy(kessel.map.has_link(h, "railway"), "railway exit at " .. h)
  end
  -- roads and railways join the places the notes name (a search along hexsides of the kind)
  local function joined(kind, from, to)
    local seen, queue = { [from] = true }, { from }
    while #queue > 0 do
      local h = table.remove(queue, 1)
      if h == to then return true end
      for _, n in ipairs(kessel.hex.neighbors(h)) do
        if not seen[n] and kessel.map.has_side(h, n, kind) then
          seen[n] = true
          queue[#queue + 1] = n
        end
      end
    end
    return false
  end
  local roads = {
    { "0120", "0420" }, { "0420", "2216" }, { "2216", "4015" }, { "4015", "4607" }, { "4607", "5907" },   -- the highway
    { "0513", "0420" }, { "0513", "1509" }, { "2217", "2626" }, { "2626", "5915" }, { "2217", "3020" },
  }
  for _, r in ipairs(roads) do expect.truthy(joined("road", r[1], r[2]), "road " .. r[1] .. "-" .. r[2]) end
  local rails = {
    { "0513", "2216" }, { "0420", "2216" }, { "0420", "0525" }, { "0525", "1427" }, { "1427", "2626" }, { "2217", "2626" },
    { "2216", "4015" }, { "2217", "3020" }, { "3901", "4015" }, { "4015", "4607" }, { "4607", "5907" }, { "4015", "5921" },
  }
  for _, r in ipairs(rails) do expect.truthy(joined("railway", r[1], r[2]), "railway " .. r[1] .. "-" .. r[2]) end
end)

-- [6.7] [6.37] [13] The rest of the notes' map and counter facts: the roads and railways that run
-- off the map (Vitebsk - Velizh - north edge; Smolensk - Yelnya - Sukhinichi to the south edge),
-- Yelnya on that railway, swamp only in the north (rows 02-18, columns 06-34), lakes only in the far
-- north-west (columns 05-16 of rows 01-03) and north-east (columns 55-59), the Dnieper at the
-- road-supply source, and the marker counts: 3 German air markers, 3 Soviet, 6 rail cuts.
kessel.test("data_map_edges_swamps_lakes_and_markers", function()
  local function reaches(kind, from, pred)
    local seen, queue = { [from] = true }, { from }
    while #queue > 0 do
      local h = table.remove(queue, 1)
      if pred(h) then return h end
      for _, n in ipairs(kessel.hex.neighbors(h)) do
        if not seen[n] and kessel.map.has_side(h, n, kind) then seen[n] = true; queue[#queue + 1] = n end
      end
    end
  end
  expect.truthy(reaches("road", "1509", function(h) return kessel.map.on_edge(h, "north") end), "road Velizh - north edge")
  expect.truthy(reaches("railway", "3020", function(h) return kessel.map.on_edge(h, "south") end), "railway Yelnya - south edge")
  local p = kessel.map.place("3020")
  expect.eq(p and p.name, "Yelnya")
  expect.truthy(kessel.map.has_link("3020", "railway"), "Yelnya is on the railway")
  for _, h in ipairs(kessel.map.hexes()) do
    local t = kessel.map.terrain(h)
    local c, r = tonumber(h:sub(1, 2)), tonumber(h:sub(3, 4))
    if t == "swamp" then
      expect.truthy(r >= 2 and r <= 18 and c >= 6 and c <= 34, "swamp " .. h .. " lies in rows 02-18, columns 06-34")
    elseif t == "lake" then
      expect.truthy(r <= 3 and ((c >= 5 and c <= 16) or c >= 55), "lake " .. h .. " lies in the far north-west or north-east")
    end
  end
  local dnieper = false
  for _, n in ipairs(kessel.hex.neighbors("0120")) do
    if kessel.map.has_side("0120", n, "river") then dnieper = true end
  end
  expect.truthy(dnieper, "the Dnieper comes in at the west edge by 0120")
  local function count(kind, side)
    return #kessel.markers.all{ kind = kind, side = side }
  end
  expect.eq(count("air_interdiction", "german"), 3, "German air markers [13.2]")
  expect.eq(count("soviet_interdiction", "soviet"), 3, "Soviet interdiction markers [13.4]")
  expect.eq(count("rail_cut", "german"), 6, "rail cut markers [6.37]")
end)

-- [14.3] [6.7] Where reinforcements come in along a road: the entry-area hexes where a road runs
-- off the map are the Minsk highway's 0120 (German area E) and the Moscow highway's 5907 (Soviet
-- area X, where evacuated leaders return too); a panzer regiment or a leader entering there pays
-- the road's 1/2 MP, an infantry or rifle division 1, and the other hexes of E cost their terrain.
kessel.test("data_14_3_entry_hexes_where_a_road_runs_off_the_map", function()
  local R = require("rules.reinforcements")
  local found = {}
  local areas = { "A", "B", "C", "D", "E", "F", "G", "H", "V", "W", "X", "Z", "P1", "P2", "P3", "P4", "P5", "P6" }
  local seen = {}
  for _, a in ipairs(areas) do
    for _, h in ipairs(kessel.map.area(a) or {}) do
      if not seen[h] and R.road_off_map(h) then seen[h] = true; found[#found + 1] = a .. ":" .. h end
    end
  end
  expect.eq(table.concat(found, " "), "E:0120 X:5907")
  local function first(pred)
    for _, u in ipairs(kessel.units.all{}) do if pred(u) then return u end end
  end
  local pz = first(function(u) return u.type == "panzer" end)
  local inf = first(function(u) return u.type == "infantry" end)
  local leader = first(function(u) return u.type == "leader" end)
  local rifle = first(function(u) return u.type == "rifle" end)
  expect.eq(R.entry_cost(pz, "0120"), 0.5, "panzer along the highway")
  expect.eq(R.entry_cost(inf, "0120"), 1, "infantry along the highway")
  expect.eq(R.entry_cost(leader, "5907"), 0.5, "leader along the Moscow highway")
  expect.eq(R.entry_cost(rifle, "5907"), 1, "rifle along the Moscow highway")
  for _, h in ipairs(kessel.map.area("E")) do
    if h ~= "0120" then
      local want = kessel.map.terrain(h) == "forest" and 2 or (kessel.map.terrain(h) == "swamp" and 2 or 1)
      expect.eq(R.entry_cost(pz, h), want, "panzer entering " .. h .. " (" .. tostring(kessel.map.terrain(h)) .. ")")
    end
  end
end)

-- [9.6] [16.2] The German step tracks, face by face: panzer regiment 4-10 then 2-10, the panzer
-- divisions' rifle regiments 2-10 then 1-10, motorized, SS and Lehr regiments 3-10 then 2-10, GD
-- 4-10 then 2-10, the cavalry division 4-5 then 2-5, an infantry division 9-7, 4-7, 2-7, 1-7.
-- (The snapshot shows only the current face, so each unit is stepped down through its faces.)
kessel.test("data_9_6_german_step_tracks_face_by_face", function()
  local tracks = {
    panzer = "4-4-10 2-2-10", rifle_mot = "2-2-10 1-1-10", motorized = "3-3-10 2-2-10",
    cavalry = "4-4-5 2-2-5", infantry = "9-9-7 4-4-7 2-2-7 1-1-7",
  }
  local n = 0
  for _, u in ipairs(kessel.units.all()) do
    if u.side == "german" then
      local want = tracks[u.type]
      if u.id == "g-gd" then want = "4-4-10 2-2-10" end
      expect.truthy(want ~= nil, u.id .. " has a known type (" .. tostring(u.type) .. ")")
      local faces = {}
      for s = 0, u.steps - 1 do
        kessel.emit.step(u.id, s)
        local v = kessel.units.get(u.id)
        faces[#faces + 1] = string.format("%d-%d-%d", v.attack, v.defence, v.movement)
      end
      expect.eq(table.concat(faces, " "), want, u.id .. " (" .. tostring(u.formation or u.name) .. ") step track")
      n = n + 1
    end
  end
  expect.eq(n, 61, "German counters stepped through")
end)

-- [10.2] Every Soviet leader, set-up or reinforcement: one face, defence = rating (2-5), no
-- attack, MA 10, one step.
kessel.test("data_10_2_every_leader_counter", function()
  local n = 0
  for _, u in ipairs(kessel.units.all()) do
    if u.side == "soviet" and u.type == "leader" then
      n = n + 1
      local r = u.attrs.rating
      expect.truthy(r and r >= 2 and r <= 5, u.name .. "'s rating is 2-5")
      expect.eq(string.format("%d-%d-%d x%d", u.attack, u.defence, u.movement, u.steps),
        string.format("0-%d-10 x1", r), u.name .. "'s counter")
    end
  end
  expect.eq(n, 15, "Soviet leaders")
end)

-- [6.7] Lakes, hexsides as well as whole hexes, lie only where the notes put them: in the far
-- north-west (around 0502-1602: read as columns 04-18, rows 01-07, the lake country north of the
-- Western Dvina) and in the north-east (around 5503-5901: columns 54-59, rows 01-05). A lake
-- hexside closes movement, ZOC, supply and combat, so one in the middle of the map (Lake Kasplya
-- by 1813, beside the 19th Army's set-up, used to be) changes play where the printed map does not.
kessel.test("data_6_7_lakes_only_in_the_far_north_west_and_north_east", function()
  local function where_lakes_may_be(h)
    local c, r = tonumber(h:sub(1, 2)), tonumber(h:sub(3, 4))
    return (c >= 4 and c <= 18 and r <= 7) or (c >= 54 and r <= 5)
  end
  local nw, ne = 0, 0
  for _, h in ipairs(kessel.map.hexes()) do
    for _, n in ipairs(kessel.hex.neighbors(h)) do
      if h < n and kessel.map.has_side(h, n, "lake") then
        expect.truthy(where_lakes_may_be(h) and where_lakes_may_be(n),
          "lake hexside " .. h .. "/" .. n .. " lies in the far north-west or north-east")
        if tonumber(h:sub(1, 2)) <= 18 then nw = nw + 1 else ne = ne + 1 end
      end
    end
    if kessel.map.terrain(h) == "lake" then
      expect.truthy(where_lakes_may_be(h), "lake hex " .. h .. " lies in the far north-west or north-east")
    end
  end
  expect.truthy(nw > 0 and ne > 0, "lakes in both corners (north-west " .. nw .. ", north-east " .. ne .. " hexsides)")
end)

-- The grid as the notes give it (flat-topped hexes in columns, even columns half a hex lower:
-- odd c has NE (c+1, r-1) and SE (c+1, r), even c has NE (c+1, r) and SE (c+1, r+1)), and [6.7]
-- the chart's 1 MP to enter a major or minor city: cities are not terrain here, so every city hex
-- must be clear (a city drawn on forest would cost motorized units 2 and double its defender twice).
kessel.test("data_6_7_grid_orientation_and_city_hexes_clear", function()
  local function set(list) table.sort(list); return table.concat(list, " ") end
  expect.eq(set{ table.unpack(kessel.hex.neighbors("0303")) }, set{ "0302", "0304", "0402", "0403", "0202", "0203" }, "neighbours of odd column 0303")
  expect.eq(set{ table.unpack(kessel.hex.neighbors("0404")) }, set{ "0403", "0405", "0504", "0505", "0304", "0305" }, "neighbours of even column 0404")
  local n = 0
  for _, p in ipairs(kessel.map.places()) do
    for _, h in ipairs(p.hexes) do
      n = n + 1
      expect.eq(kessel.map.terrain(h), "clear", p.name .. " (" .. p.kind .. ") in " .. h .. " costs 1 MP to enter [6.7]")
    end
  end
  expect.truthy(n >= 17, "the cities of the notes (10 major in 13 hexes, 4 minor) are all there")
end)
