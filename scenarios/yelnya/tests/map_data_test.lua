-- The Yelnya example plays on a copy of the campaign map (docs/scenario-guide.md: copy
-- scenarios/pgg/map.toml, then paint 3119 forest and add the Yelnya stream). The copy must keep
-- the map facts of the project's reference notes that the campaign's data tests check
-- (scenarios/pgg/tests): an older copy had the Dnieper come in at 0122-0123 instead of by the
-- road-supply source 0120, the Desna far east of Roslavl, and a lake hexside in mid-map.
local expect = kessel.expect

kessel.test("data_yelnya_map_keeps_the_campaign_map_facts", function()
  local c, r = kessel.map.size()
  expect.eq(c .. "x" .. r, "59x31")
  -- cities where the notes put them, major and minor
  for name, hexes in pairs{ Vitebsk = { "0412", "0513" }, Orsha = { "0420" }, Mogilev = { "0424", "0525" },
      Smolensk = { "2216", "2217" }, Roslavl = { "2626" }, Rzhev = { "3901" }, Vyazma = { "4015" },
      Gzhatsk = { "4607" }, Kaluga = { "5921" }, Yelnya = { "3020" } } do
    for _, h in ipairs(hexes) do
      local p = kessel.map.place(h)
      expect.eq(p and (p.name .. " " .. p.kind), name .. " major_city", h)
    end
  end
  for name, h in pairs{ Velizh = "1509", Bely = "3005", Mstislavl = "1524", Krichev = "1427" } do
    local p = kessel.map.place(h)
    expect.eq(p and (p.name .. " " .. p.kind), name .. " minor_city", h)
  end
  -- the German road-supply source on the highway, with the Dnieper beside it on the west edge
  expect.eq(table.concat(kessel.map.tagged("road_supply_source"), " "), "0120")
  local dnieper = false
  for _, n in ipairs(kessel.hex.neighbors("0120")) do
    if kessel.map.has_side("0120", n, "river") then dnieper = true end
  end
  expect.truthy(dnieper, "the Dnieper comes in at the west edge by 0120")
  for _, pair in ipairs{ { "2216", "2217" }, { "0424", "0525" }, { "0412", "0513" } } do
    expect.truthy(kessel.map.has_side(pair[1], pair[2], "river"), "river between " .. pair[1] .. " and " .. pair[2])
  end
  -- the guide's two edits
  expect.eq(kessel.map.terrain("3119"), "forest", "3119 painted forest")
  expect.truthy(kessel.map.has_side("2920", "3020", "river") and kessel.map.has_side("2921", "3020", "river"),
    "a river along Yelnya's west side")
  -- swamp and lakes only where the notes put them (see the campaign's data tests)
  local function lake_ok(h)
    local col, row = tonumber(h:sub(1, 2)), tonumber(h:sub(3, 4))
    return (col >= 4 and col <= 18 and row <= 7) or (col >= 54 and row <= 5)
  end
  for _, h in ipairs(kessel.map.hexes()) do
    local col, row = tonumber(h:sub(1, 2)), tonumber(h:sub(3, 4))
    if kessel.map.terrain(h) == "swamp" then
      expect.truthy(row >= 2 and row <= 18 and col >= 6 and col <= 34, "swamp " .. h)
    end
    for _, n in ipairs(kessel.hex.neighbors(h)) do
      if h < n and kessel.map.has_side(h, n, "lake") then
        expect.truthy(lake_ok(h) and lake_ok(n), "lake hexside " .. h .. "/" .. n .. " lies in the far north-west or north-east")
      end
    end
  end
end)
