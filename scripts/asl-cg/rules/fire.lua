-- RePh step 9.609 (PB) / 11.609 (RB): Extinguishing Flames and Blazes, as map changes.
-- Fires are markers `flame`/`blaze` (value { level = n }); a burning wreck is a vehicle with
-- vars.wreck = "burning"; buildings are map places of kind `building` (else the hex alone).
local C = require("rules.common")
local S = require("rules.sequence")
local F = {}

local BUILDING = { wooden_building = "wooden_rubble", stone_building = "stone_rubble" }
local BURNABLE = { wooden_building = true, stone_building = true, factory = true, wooden_rubble = true,
  stone_rubble = true, woods = true, brush = true, orchard = true, grain = true }
F.BURNABLE = BURNABLE

local function fires_at(hex, kinds)
  local out = {}
  for _, m in ipairs(kessel.markers.at(hex)) do
    if kinds[m.kind] and m.hex == hex then out[#out + 1] = m end
  end
  return out
end

local function building_hexes(hex)
  local p = kessel.map.place(hex)
  if p and p.kind == "building" then return p.hexes end
  return { hex }
end

local function burn_out_wrecks(hex, case)
  for _, u in ipairs(kessel.units.at(hex)) do
    if C.is_vehicle(u) and u.vars.wreck ~= "burnt_out" then
      kessel.emit.unit_var(u.id, "wreck", "burnt_out")
      C.note(case, u.id .. " becomes a Burnt-Out wreck")
    end
  end
end

local function remove_fires(hex, kinds)
  for _, m in ipairs(fires_at(hex, kinds)) do kessel.emit.marker(m.id) end
end

-- [9.6095] is an Isolated unit "confined to setting up in" consumed Locations? It sets up only in
-- its own Isolated Setup Area [9.62021]: confined when every hex of that area was consumed; a unit
-- whose area is not known (no 9.605 run) is confined to its own hex
local function confined(u, consumed_set)
  local st = kessel.game.var("setup_areas")
  local id = u.vars.reph and u.vars.reph.area
  for _, area in ipairs(st and st.areas and st.areas[u.side] or {}) do
    if area.id == id and (area.level or 0) == C.level(u) then
      for _, h in ipairs(area.hexes) do if not consumed_set[h] then return false end end
      return true
    end
  end
  return consumed_set[u.hex] == true
end

-- "Isolated units/Equipment ... confined to setting up" where the fire was are Eliminated: the SW
-- an Isolated unit holds is Isolated Equipment confined with it [9.6095] [11.6094]-[11.6096]
function F.eliminate_with_equipment(u, case, why)
  for _, w in ipairs(C.possessed(u.id)) do C.eliminate(w.id, case, "held by " .. u.id .. ": " .. why) end
  C.eliminate(u.id, case, why)
end

-- RB: an AFV Eliminated by fire becomes a Burnt-Out Wreck [11.6096] [11.6097] [11.6072]: it is
-- Eliminated first, so its Casualty VP count for 11.616 (a unit already a wreck counts none: it
-- was made a wreck and then Eliminated, and its loss was not counted), with the Weapons, armor
-- leader and SW that go with it
function F.burn_afv(v, case, why)
  for _, w in ipairs(C.possessed(v.id)) do C.eliminate(w.id, case, "held by " .. v.id .. ": " .. why) end
  C.eliminate(v.id, case, why .. "; a Burnt-Out Wreck", { with_crew = true })
  kessel.emit.unit_var(v.id, "wreck", "burnt_out")
end

-- Fortifications and Equipment in a consumed Location are Eliminated [9.6095] [11.6097]
-- The Entrenchments are foxholes, trenches and A-T ditches as well as a marker of that name (as
-- 9.602 and 11.615 read them): RB keeps each of them, and a Pillbox [11.6097 EXC]; before, only a
-- marker named `entrenchment` was kept, so a foxhole burnt away, and a trench or an A-T ditch was
-- no Fortification at all here
local ENTRENCHMENT = C.ENTRENCHMENT
local FORTIFICATION = C.FORTIFICATION
local function eliminate_contents(hex, case, opts)
  for _, m in ipairs(kessel.markers.at(hex)) do
    local keep = opts.keep_entrenchments and (ENTRENCHMENT[m.kind] or m.kind == "pillbox")
    if m.hex == hex and (ENTRENCHMENT[m.kind] or FORTIFICATION[m.kind]) and not keep then
      kessel.emit.marker(m.id)
      C.note(case, m.kind .. " in " .. hex .. " is Eliminated")
    end
  end
  for _, u in ipairs(kessel.units.at(hex)) do
    local wreck_gone = opts.rubbled and C.is_vehicle(u) and u.vars.wreck
    if u.type == "sw" or u.type == "gun" or wreck_gone then C.eliminate(u.id, case, "consumed by fire")
    elseif opts.afv and C.is_vehicle(u) and not C.is_wreck(u) and kessel.units.get(u.id).location == "map" then
      -- RB: an AFV is Equipment (11.6072 names its Elimination a Wreck or Burnt-Out Wreck), so one
      -- left on the map in a Blazing non-Factory Location is Eliminated, a Burnt-Out Wreck [11.6097]
      F.burn_afv(u, case, "Equipment in a Location the fire consumed")
    end
    if opts.isolated_units and u.vars.isolated and kessel.units.get(u.id).location == "map" then
      if confined(u, opts.consumed_set) then
        F.eliminate_with_equipment(u, case, "Isolated, confined to setting up where the fire was")
      else
        C.note(case, u.id .. " is Isolated in " .. hex .. ", but its Isolated Setup Area has Locations the fire did not consume: it stays")
      end
    end
  end
end

-- [9.6094] [11.6094] a burning building is rubbled, each of its hexes once: its fires of `kinds`
-- go, the hex is consumed; `after(hex)` does what a module adds for each hex rubbled
local function rubble_building(h, kinds, rubbled, consumed, case, why, after)
  for _, b in ipairs(building_hexes(h)) do
    if not rubbled[b] and BUILDING[kessel.map.terrain(b)] then
      rubbled[b] = true
      kessel.emit.terrain(b, BUILDING[kessel.map.terrain(b)])
      remove_fires(b, kinds)
      C.note(case, b .. " is rubbled (" .. why .. ")")
      consumed[#consumed + 1] = b
      if after then after(b) end
    end
  end
end

function F.pb()
  local any = { flame = true, blaze = true }
  -- [9.6091] a Burning Wreck becomes Burnt-Out; its Blaze passes to a building/rubble Location
  for _, v in ipairs(C.on_map()) do
    if C.is_vehicle(v) and v.vars.wreck == "burning" then
      kessel.emit.unit_var(v.id, "wreck", "burnt_out")
      local t = kessel.map.terrain(v.hex)
      if (BUILDING[t] or t:match("rubble$")) and not v.vars.bypass then
        kessel.emit.create_marker{ kind = "blaze", hex = v.hex, value = { level = 0 } }
        C.note("9.6091", v.id .. " becomes a Burnt-Out wreck; its Blaze becomes a terrain Blaze in " .. v.hex)
      else
        C.note("9.6091", v.id .. " becomes a Burnt-Out wreck; its Blaze is removed")
      end
    end
  end
  local consumed, rubbled = {}, {}
  for _, h in ipairs(kessel.map.hexes()) do
    if #fires_at(h, any) > 0 then
      local t = kessel.map.terrain(h)
      if t == "wooden_rubble" then
        remove_fires(h, any)
        kessel.emit.terrain(h, "shellholes")
        burn_out_wrecks(h, "9.6092")
        C.note("9.6092", h .. ": the wooden rubble burns away to shellholes")
        consumed[#consumed + 1] = h
      elseif t == "stone_rubble" then
        remove_fires(h, any)
        burn_out_wrecks(h, "9.6093")
        C.note("9.6093", h .. ": the fire goes out; the stone rubble stays")
        consumed[#consumed + 1] = h
      elseif BUILDING[t] then
        rubble_building(h, any, rubbled, consumed, "9.6094", "its building burned")
      else
        remove_fires(h, any)
        C.note("9.609", "the fire in " .. h .. " goes out")
      end
    end
  end
  local consumed_set = {}
  for _, h in ipairs(consumed) do consumed_set[h] = true end
  for _, h in ipairs(consumed) do eliminate_contents(h, "9.6095", { rubbled = rubbled[h], isolated_units = true, consumed_set = consumed_set }) end
  C.record("fires", "9.609", { consumed = consumed })
end

function F.rb()
  local blaze = { blaze = true }
  -- [11.6091] a burning wreck's Blaze passes to the Burnable Terrain of its Location, if any
  for _, v in ipairs(C.on_map()) do
    if C.is_vehicle(v) and v.vars.wreck == "burning" then
      if v.vars.cupola then
        C.eliminate(v.id, "11.6091", "a burning armored cupola is removed")
      else
        kessel.emit.unit_var(v.id, "wreck", "burnt_out")
      end
      if BURNABLE[kessel.map.terrain(v.hex)] then
        kessel.emit.create_marker{ kind = "blaze", hex = v.hex, value = { level = 0 } }
        C.note("11.6091", v.id .. ": its Blaze passes to the terrain of " .. v.hex)
      end
    end
  end
  local consumed, rubbled, gutted = {}, {}, {}
  for _, h in ipairs(kessel.map.hexes()) do
    if #fires_at(h, blaze) > 0 then
      local t = kessel.map.terrain(h)
      if t == "brush" or t == "orchard" or t == "wooden_rubble" then
        remove_fires(h, blaze)
        kessel.emit.terrain(h, "shellholes")
        C.note("11.6092", h .. " burns away to shellholes")
        consumed[#consumed + 1] = h
      elseif t == "stone_rubble" then
        remove_fires(h, blaze)
        C.note("11.6093", h .. ": the stone rubble stays")
        consumed[#consumed + 1] = h
      elseif BUILDING[t] then
        rubble_building(h, blaze, rubbled, consumed, "11.6094", "no Cellar", function(b)
          -- a Flame above ground drops to the rubble
          for _, m in ipairs(fires_at(b, { flame = true })) do
            if type(m.value) == "table" and (m.value.level or 0) > 0 then kessel.emit.marker_value(m.id, { level = 0 }) end
          end
        end)
      elseif t == "factory" then
        for _, b in ipairs(building_hexes(h)) do
          if not gutted[b] then
            gutted[b] = true
            kessel.emit.tag(b, "gutted")
            remove_fires(b, blaze)
          end
        end
        C.note("11.6095", "the Factory of " .. h .. " is Gutted")
      else
        -- any other Blazing Location (woods, grain ...) is "fully consumed by the fire" too [11.609]:
        -- no terrain change is given for it, but 11.6097 Eliminates the Fortifications and Equipment
        -- in it (before, its Blaze went without a word and a SW or wire there survived)
        remove_fires(h, blaze)
        C.note("11.609", h .. " (" .. t .. ") is consumed by its Blaze: the Blaze is removed")
        consumed[#consumed + 1] = h
      end
    end
  end
  -- [11.6094] [11.6095] Isolated units confined there are Eliminated, and the formerly Isolated
  -- hexes of that building/Factory become Controlled by the opponent: each hex that held an
  -- Isolated unit, and each hex of the listed Isolated Area it was in that lies in the building
  -- (one Control marker per hex: the Isolated side's marker goes)
  local function pass_control(burnt, case)
    local to = {}
    for _, h in ipairs(C.sorted_keys(burnt)) do
      for _, u in ipairs(kessel.units.at(h)) do
        if u.vars.isolated and u.side then
          to[h] = C.other(u.side)
          for _, a in ipairs(C.var("isolated_areas", {}) or {}) do
            local inside = false
            for _, x in ipairs(a.hexes or {}) do if x == h then inside = true end end
            for _, x in ipairs(inside and a.hexes or {}) do if burnt[x] and to[x] == nil then to[x] = C.other(u.side) end end
          end
        end
      end
    end
    for _, h in ipairs(C.sorted_keys(to)) do
      for _, m in ipairs(kessel.markers.at(h)) do
        if m.kind == "control" and m.hex == h and (type(m.value) ~= "table" or (m.value.level or 0) == 0) then kessel.emit.marker(m.id) end
      end
      kessel.emit.create_marker{ kind = "control", side = to[h], hex = h, value = { level = 0 } }
      C.note(case, h .. " was Isolated: it becomes Controlled by the " .. to[h])
    end
  end
  pass_control(rubbled, "11.6094")
  pass_control(gutted, "11.6095")
  for _, h in ipairs(C.sorted_keys(rubbled)) do
    for _, u in ipairs(kessel.units.at(h)) do
      if u.vars.isolated then F.eliminate_with_equipment(u, "11.6094", "Isolated in a building that burned down") end
    end
  end
  for _, h in ipairs(C.sorted_keys(gutted)) do
    for _, u in ipairs(kessel.units.at(h)) do
      if u.vars.isolated then F.eliminate_with_equipment(u, "11.6095", "Isolated in a Factory that was Gutted") end
      if u.type == "sw" or u.type == "gun" then C.eliminate(u.id, "11.6097", "in a newly-Gutted Factory")
      elseif C.is_vehicle(u) and not C.is_wreck(u) and u.location == "map" and kessel.units.get(u.id).location == "map" then
        F.burn_afv(u, "11.6097", "Equipment in a newly-Gutted Factory")
      end
    end
  end
  -- [11.6096] each Flame becomes a Blaze and sets a Blaze in each adjacent Burnable hex
  local spread = {}
  for _, m in ipairs(kessel.markers.all{ kind = "flame", placed = true }) do
    if gutted[m.hex] and kessel.map.terrain(m.hex) == "factory" then
      kessel.emit.marker(m.id)
    else
      kessel.emit.marker(m.id)
      kessel.emit.create_marker{ kind = "blaze", hex = m.hex, value = { level = 0 } }
      spread[#spread + 1] = m.hex
    end
  end
  local added = {}
  for _, h in ipairs(spread) do
    for _, n in ipairs(kessel.hex.neighbors(h)) do
      if BURNABLE[kessel.map.terrain(n)] and #fires_at(n, { flame = true, blaze = true }) == 0 and not added[n] then
        added[n] = true
        kessel.emit.create_marker{ kind = "blaze", hex = n, value = { level = 0 } }
      end
    end
  end
  local new = C.sorted_keys(added)
  if #spread > 0 then C.note("11.6096", "Flames become Blazes in " .. table.concat(spread, ", ") .. "; new Blazes in " .. (#new > 0 and table.concat(new, ", ") or "none (no Burnable Terrain next to them without a fire)")) end
  -- a Location "now containing a Blaze": a new one, or a Flame flipped to its Blaze side
  local blazing = C.copy(added)
  for _, h in ipairs(spread) do blazing[h] = true end
  for _, h in ipairs(C.sorted_keys(blazing)) do
    for _, u in ipairs(kessel.units.at(h)) do
      if u.vars.isolated and kessel.units.get(u.id).location == "map" then
        if C.is_vehicle(u) and not C.is_wreck(u) then
          F.burn_afv(u, "11.6096", "Isolated in a Location now Blazing")
        else
          F.eliminate_with_equipment(u, "11.6096", "Isolated in a Location now Blazing")
        end
      end
    end
  end
  for _, h in ipairs(consumed) do
    if kessel.map.terrain(h) ~= "factory" then eliminate_contents(h, "11.6097", { keep_entrenchments = true, afv = true }) end
  end
  C.record("fires", "11.609", { consumed = consumed, spread = new })
end

S.on_end("blazes", function()
  if C.pb() then F.pb() else F.rb() end
end)

return F
