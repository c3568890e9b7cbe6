-- Shared helpers: the module and its sides, campaign variables, dice (dr = one die, DR = two),
-- notes and records that cite their case, and unit classification.
local C = {}

function C.module() return kessel.game.option("module") end
function C.pb() return C.module() == "pb" end

-- the two sides of the campaign game in play, German first
function C.sides() return C.pb() and { "german", "british" } or { "german", "russian" } end
function C.allied() return C.pb() and "british" or "russian" end
function C.other(side) return side == "german" and C.allied() or "german" end

-- Campaign variables: a game variable when set, else the scenario's var, else the default.
-- the CG Date after the scenario just played: the scenario's `next_date` if it names one, else
-- the date after `date` in the module's list (`pb_dates`, `rb_days`), cut at a scenario's
-- `last_date`; nil after the last CG Date [9.602] [9.6058] [9.6121]
function C.upcoming_date()
  -- `false`: the scenario's next_date is spent, the CG Date having moved on to it [9.6121]
  local n = C.var("next_date")
  if n then return n end
  local d = C.var("date")
  if d == nil or d == C.var("last_date") then return nil end
  local list = kessel.game.constant(C.pb() and "pb_dates" or "rb_days")
  for i, x in ipairs(list) do if x == d then return list[i + 1] end end
  return nil
end

-- [11.6057] the RB Isolated Areas are the players' record (`isolated_areas`), each its hexes; a
-- non-ground-level Pocket (upper-level or RB Cellar Locations, which no ground-level Perimeter
-- marker shows) also names its Location levels, `levels = { 1, 2 }`. An area without `levels`
-- holds every Location of its hexes that no listed level Pocket claims. Does area i hold the
-- Location (hex, level)?
function C.rb_area_holds(areas, i, hex, level)
  local a = areas[i]
  if type(a) ~= "table" or type(a.hexes) ~= "table" then return false end
  local listed = false
  for _, h in ipairs(a.hexes) do if h == hex then listed = true end end
  if not listed then return false end
  level = level or 0
  if type(a.levels) == "table" then
    for _, l in ipairs(a.levels) do if l == level then return true end end
    return false
  end
  for j, b in ipairs(areas) do
    if j ~= i and type(b) == "table" and type(b.levels) == "table" and type(b.hexes) == "table" then
      for _, h in ipairs(b.hexes) do
        if h == hex then for _, l in ipairs(b.levels) do if l == level then return false end end end
      end
    end
  end
  return true
end
-- the index and record of the listed RB Isolated Area holding a Location, or nil
function C.rb_area_at(hex, level)
  local areas = C.var("isolated_areas", {}) or {}
  for i, a in ipairs(areas) do if C.rb_area_holds(areas, i, hex, level) then return i, a end end
  return nil
end
-- [11.6051] is a hex one the players' Perimeters leave outside both Perimeter Areas (No Man's
-- Land, var `no_mans_land`)? The ruleset does not draw the Perimeters (11.6053-.6058): this is
-- their record, as `isolated_areas` is
function C.rb_no_mans_land(hex)
  for _, h in ipairs(C.var("no_mans_land", {}) or {}) do if h == hex then return true end end
  return false
end
-- an area as a note names it: "E5 F5", "E5, levels 1, 2"
function C.rb_area_text(a)
  local t = table.concat(a.hexes or {}, " ")
  if type(a.levels) == "table" then
    local l = {}
    for _, x in ipairs(a.levels) do l[#l + 1] = tostring(x) end
    t = t .. ", level" .. (#l == 1 and " " or "s ") .. table.concat(l, ", ")
  end
  return t
end

-- the Isolated Area a unit is in, as a key to compare, or nil when it is not Isolated: PB its
-- Isolated Setup Area [9.6052], RB the Isolated Area of the players' Perimeters (`isolated_areas`)
-- [11.606]; an Isolated unit outside any listed area is its own Location
function C.isolated_area(u)
  if not u or not u.vars.isolated then return nil end
  if C.pb() then
    local r = u.vars.reph
    return "area " .. tostring(r and r.area or ("hex " .. tostring(u.hex) .. "/" .. C.level(u)))
  end
  local i = C.rb_area_at(u.hex, C.level(u))
  if i then return "isolated area " .. i end
  return "hex " .. tostring(u.hex) .. "/" .. C.level(u)
end

-- is a Weapon vehicular-mounted (marked so, or mounted on a vehicle)? [9.6142] [11.6132]
function C.vehicular(w) return (w.vars.vehicular ~= nil and w.vars.vehicular ~= false) or w.vars.mounted_on ~= nil end

-- is a vehicular Weapon an MG (BMG, CMG, AAMG, RMG, an MG main armament)? its face's own `kind`
-- ("mg") when it declares one, else its name: the vehicular MG abbreviations all hold "MG"
-- [9.61421] [11.6133]
function C.vehicular_mg(w)
  if not C.vehicular(w) then return false end
  local f = w.face or {}
  if type(f.kind) == "string" then return f.kind == "mg" end
  return tostring(f.weapon or ""):find("MG", 1, true) ~= nil
end

-- the kind of a SW ("mg", "atr", ...): its face's own `kind`, else the ruleset's table by weapon
-- name (data.lua `sw_kinds`); nil for a Gun, a vehicular Weapon or a weapon of no known kind
function C.sw_kind(w)
  if w.type ~= "sw" or C.vehicular(w) then return nil end
  local f = w.face or {}
  if type(f.kind) == "string" then return f.kind end
  return kessel.game.constant("sw_kinds")[f.weapon or ""]
end

-- is a Weapon (SW, Gun, vehicular weapon) Isolated? Its own mark, its possessor's or its vehicle's,
-- else its Location: in an Isolated Setup Area of its side [9.6052] or a listed Isolated Area
-- [11.606] (a SW is not classified itself in 9.605; it shares its possessor's fate)
function C.weapon_isolated(w)
  if w.vars.isolated then return true end
  for _, k in ipairs({ "possessed_by", "mounted_on" }) do
    local o = w.vars[k] and kessel.units.get(w.vars[k])
    if o and o.vars.isolated then return true end
  end
  if w.location ~= "map" or not w.hex then return false end
  if C.pb() then
    local st = kessel.game.var("setup_areas")
    for _, a in ipairs(st and st.areas and st.areas[w.side] or {}) do
      if a.isolated and (a.level or 0) == C.level(w) then
        for _, h in ipairs(a.hexes) do if h == w.hex then return true end end
      end
    end
  elseif C.rb_area_at(w.hex, C.level(w)) then
    return true
  end
  return false
end

-- is the scenario just played on the last CG Date (the scenario's `last_date`, or the module's
-- last date)? A date the module does not list is not the last [9.6] [11.6]
function C.last_date_reached()
  local d = C.var("date")
  if d == nil then return false end
  if d == C.var("last_date") then return true end
  if C.var("next_date") then return false end
  local list = kessel.game.constant(C.pb() and "pb_dates" or "rb_days")
  return list[#list] == d
end

function C.var(key, default)
  local v = kessel.game.var(key)
  if v ~= nil then return v end
  local ok, s = pcall(kessel.scenario.var, key)
  if ok and s ~= nil then return s end
  return default
end

-- the Eligible Entry Areas of a side, sorted: the names the var `entry_areas` marks true (a name
-- set to false is listed but not Eligible)
function C.entry_names(side)
  local names = (C.var("entry_areas", {}) or {})[side] or {}
  local out = {}
  for _, k in ipairs(C.sorted_keys(names)) do if names[k] then out[#out + 1] = k end end
  return out
end

-- a number as a GM reads it: 150 rather than 150.0, 1.5 as it is
function C.num(x)
  if type(x) == "number" and x == math.floor(x) and math.abs(x) < 2 ^ 53 then return string.format("%d", x) end
  return tostring(x)
end

function C.copy(t)
  if type(t) ~= "table" then return t end
  local out = {}
  for k, v in pairs(t) do out[k] = C.copy(v) end
  return out
end

-- Is the hex one a unit or a Fortification can be set up in [9.62022]? Not a water hex: no unit
-- enters it (the paths of 9.6052, 9.6061 and 9.613 are blocked there), and a Setup Area, every
-- hex within two of a Strategic Location [9.605], takes in the water beside a bridge
function C.enterable(hex) return kessel.map.terrain(hex) ~= "water" end

-- the number of a letters-numbered hex (`Z28` is 28), as 9.6152 Note 3 counts it
function C.hex_number(h) return tonumber(tostring(h):match("(%d+)$")) or 0 end

function C.sorted_keys(t)
  local out = {}
  for k in pairs(t or {}) do out[#out + 1] = k end
  table.sort(out, function(a, b) return tostring(a) < tostring(b) end)
  return out
end

-- Sets one field of a table-valued game var (copying it: snapshots are shared).
-- `opts` as kessel.emit.var's: `{ secret_to = side }` keeps the table that side's secret
-- Both read the scenario's `[vars]` table when the game has not set the variable yet (a scenario's
-- starting CPP, SAN or casualty counts), as C.var does.
function C.set_in(key, field, value, opts)
  local t = C.copy(C.var(key) or {})
  t[field] = value
  kessel.emit.var(key, t, opts)
end

function C.get_in(key, field, default)
  local t = C.var(key)
  if t == nil or t[field] == nil then return default end
  return t[field]
end

-- Hidden units (HIP, a hidden Set DC: unit var `hidden`) are hidden by the engine from the other
-- side (`kessel.emit.hide`), so its view (`kessel view --as`) does not show them; `reveal` shows
-- them to all when the rules place them on-map [9.602] [11.602]
-- hidden from every side of the game but its own: a campaign-game scenario names the two sides
-- of its module (`sides = ["german", "british"]` in PB), so the Russians, who take no part in PB,
-- have no view to hide it from (without `sides`, as in the ruleset's tests, every side but its own)
function C.conceal(u)
  if #kessel.units.hidden_from(u.id) > 0 then return end
  kessel.emit.hide(u.id)
end
function C.reveal(u)
  if #kessel.units.hidden_from(u.id) > 0 then kessel.emit.show(u.id) end
end
-- A hidden Fortification (a marker with value `hidden`: a HIP minefield, a hidden entrenchment) is
-- hidden by the engine from every side but its owner's, so no other view shows its hex, kind or
-- strength [9.602]; `reveal_marker` shows it to all when the rules reveal it [9.6073]
function C.is_hidden_marker(m) return type(m.value) == "table" and m.value.hidden == true end
function C.conceal_marker(m)
  if #kessel.markers.hidden_from(m.id) > 0 then return end
  kessel.emit.hide_marker(m.id)
end
function C.reveal_marker(m)
  if #kessel.markers.hidden_from(m.id) > 0 then kessel.emit.show_marker(m.id) end
end

-- A side's CPP. PB: the German's, in the game var `cpp` (`{ german = n }`), his secret [9.617].
-- RB: each side's own game var `cpp_<side>`, secret to that side: its CPP Replenishment DR is a
-- Secret DR [11.616], and the total would tell the other side its band [11.6162]. A scenario's
-- [vars] `cpp = { side = n }` gives the starting CPP (public, as the scenario is).
function C.cpp(side)
  if not C.pb() then
    local v = kessel.game.var("cpp_" .. side)
    if v ~= nil then return v end
  end
  return C.get_in("cpp", side, 0)
end
function C.set_cpp(side, n)
  if C.pb() then C.set_in("cpp", side, n, { secret_to = "german" })
  else kessel.emit.var("cpp_" .. side, n, { secret_to = side }) end
end

-- A side's FPP [9.619] and its Fortification purchases, each side's own (game vars `fpp_<side>`
-- and `fortifications_<side>`, secret to that side): the German's FPP come from an M1 RG, whose
-- purchase he may keep secret [9.617], and what a side bought (HIP, mines) is set up unseen
-- (our reading of 9.619, which has each side record them on its CG Roster). A scenario's [vars]
-- `fpp = { side = n }` gives the starting FPP.
function C.fpp(side)
  local v = kessel.game.var("fpp_" .. side)
  if v ~= nil then return v end
  return C.get_in("fpp", side, 0)
end
function C.set_fpp(side, n) kessel.emit.var("fpp_" .. side, n, { secret_to = side }) end
function C.fortifications(side) return kessel.game.var("fortifications_" .. side) or {} end

-- Notes and records ------------------------------------------------------------------------------
-- `opts` (`{ secret_to = side }`) makes a note, a record or a roll one side's secret
function C.note(case, text, opts) kessel.emit.note(case, "[" .. case .. "] " .. text, opts) end
-- The CG is over [9.6] [11.6]: the rest of the RePh is not played, and a campaign file plays no
-- game after this one (the engine's campaign end, said where the next game would start).
function C.end_cg(case, text)
  kessel.emit.var("cg_over", true)
  C.note(case, text)
  kessel.emit.end_campaign(case, text)
end
function C.record(kind, case, fields, opts)
  kessel.emit.record{ kind = kind, rule = case, fields = fields or {}, secret_to = opts and opts.secret_to }
end
function C.refuse(case, text) return { rule = case, message = "[" .. case .. "] " .. text } end
-- a choice that leaves out what it is about: refused naming the parameters it needs and how the
-- action is written (a player who typed `hero_harden{ unit = "g1" }` read "no such Retained Hero",
-- `remove_fortification{}` "no such Fortification on the map", `repossess{}` "nil is no ... SW")
function C.missing(a, case, fields, usage)
  local gone = {}
  for _, f in ipairs(fields) do if a[f] == nil then gone[#gone + 1] = "`" .. f .. "`" end end
  if #gone > 0 then
    return C.refuse(case, "name " .. table.concat(gone, " and ") .. ": " .. usage)
  end
end
-- the first id a list names twice (a GM may type a unit twice: it would count twice in a DRM), or nil
function C.repeated(list)
  local seen = {}
  for _, id in ipairs(type(list) == "table" and list or {}) do
    if type(id) == "string" then
      if seen[id] then return id end
      seen[id] = true
    end
  end
  return nil
end
-- the unit an action names, or nil when there is none by that id (a parameter a player typed may
-- be anything: a number, a table)
-- a unit named by an action's parameter; a unit hidden from the acting side `side` is, to it, no
-- unit at all (a refusal naming its owner would tell that the hidden counter exists)
function C.unit(id, side)
  if type(id) ~= "string" then return nil end
  local u = kessel.units.get(id)
  if u and side then
    for _, s in ipairs(kessel.units.hidden_from(id)) do if s == side then return nil end end
  end
  return u
end

-- why a unit named in a choice is not Retained: an id no unit in play has (or one hidden from the
-- acting side: the same words, so they tell nothing) is said to be unknown; an Eliminated or
-- removed one is said to be out of play (a GM who typed a wrong id read "zz9 is not Retained")
function C.not_retained(id, u)
  if not u then return tostring(id) .. " is not Retained: no unit of that id is in play" end
  return tostring(id) .. " is not Retained: it is " .. tostring(u.location)
end

-- a choice about a unit is its owner's: refused when the acting side (`action.side`, when the
-- action names one) is another
function C.not_owner(a, u, case)
  if a.side and u and a.side ~= u.side then
    return C.refuse(case, "only its owner (" .. u.side .. ") decides about " .. u.id .. ", not the " .. a.side)
  end
end

-- DRM with their reasons, so a note names each one a GM checks: `local m = C.mods()`,
-- `m.add(1, "Isolated")`, then `m.drm` and `m.text()` (" (+1 Isolated)", or "" when none)
function C.mods()
  local m = { drm = 0, list = {} }
  function m.add(d, why)
    if d and d ~= 0 then m.drm = m.drm + d; m.list[#m.list + 1] = string.format("%+d %s", d, why) end
  end
  function m.text() return #m.list > 0 and (" (" .. table.concat(m.list, ", ") .. ")") or "" end
  return m
end

-- Dice: every roll is an engine roll (`kessel.dice.roll`), so tests inject them.
function C.dr(purpose, opts) return kessel.dice.roll(purpose, 6, opts) end
function C.DR(purpose, opts)
  local a = kessel.dice.roll(purpose, 6, opts)
  local b = kessel.dice.roll(purpose, 6, opts)
  return a + b, a, b
end

-- Units ------------------------------------------------------------------------------------------
function C.utype(u) return kessel.game.unit_type(u.type) or {} end
function C.is_mmc(u) return C.utype(u).mmc == true end
function C.is_smc(u) return C.utype(u).smc == true end
function C.is_leader(u) return u.type == "leader" or u.type == "armor_leader" end
function C.is_personnel(u) return C.is_mmc(u) or C.is_smc(u) end
function C.is_vehicle(u) return u.type == "vehicle" end
-- a vehicle with functioning MA [9.6051] [9.6053] [9.605]: one whose MA is not Disabled; an unarmed
-- vehicle (a truck, a Kfz 1: `unarmed`) has no MA at all, so it is one "without functioning MA"
-- a wreck (vars.wreck: "burning" or "burnt_out") is a vehicle counter no more: it is not Personnel
-- or a vehicle of a side for the 9.6056 chart, Control, Escape, Shift, Capture or the RB clearing
-- (9.609/11.609 alone deal with it)
function C.is_wreck(u) return u.type == "vehicle" and u.vars.wreck ~= nil and u.vars.wreck ~= false end
function C.has_functioning_ma(v) return not v.vars.ma_disabled and not v.vars.unarmed end
function C.is_equipment(u) return C.utype(u).equipment == true end
function C.is_hs(u) return u.type == "squad" and u.step == 1 end
function C.face_label(u)
  if u.type == "squad" or u.type == "crew" or u.type == "hero" then
    local f = u.face
    return f and string.format("%s-%s-%s", f.firepower, f.range, f.morale) or "?"
  end
  return u.face and (u.face.label or u.face.name or u.face.weapon) or "?"
end
-- a squad's full-strength face (its HS face is face 2): kept in vars.squad_face (a trailing `r`,
-- an old spelling of a Russian face, is dropped: the nationality is the side)
function C.squad_face(u)
  if u.vars.squad_face then return (u.vars.squad_face:gsub("r$", "")) end
  if u.type == "squad" and u.step == 0 then return C.face_label(u) end
  return nil
end

-- the `squads` data row of a nationality's squad face (hs, replaced_by, hardens_to, elite), or nil
function C.squad_data(side, face)
  if face == nil then return nil end
  return (kessel.game.constant("squads")[side] or {})[(face:gsub("r$", ""))]
end

-- is the unit an Assault Engineer (a squad or its HS)? Its own mark, else its nationality's squad
-- data (`assault_engineer`: the German 8-3-8, the Russian 6-2-8) [11.6134] [11.615]. Our text
-- counts Assault Engineer squads without saying which squads are (11.617 gives the 8-3-8s ELR 5,
-- no more): which faces are is a declared data choice of the ruleset, from chapter A, outside the
-- text, and every note that counts them says so (`C.assault_engineer_basis`). A scenario may mark
-- any unit `assault_engineer = true` itself.
function C.assault_engineer(u)
  if u.vars.assault_engineer then return true end
  if u.type ~= "squad" then return false end
  return (C.squad_data(u.side, C.squad_face(u)) or {}).assault_engineer == true
end

-- the data choice behind the Assault Engineer count of a side, for its notes: the faces the
-- `squads` data mark, which our text does not name
function C.assault_engineer_basis(side)
  local faces = {}
  for face, d in pairs(kessel.game.constant("squads")[side] or {}) do
    if d.assault_engineer then faces[#faces + 1] = face end
  end
  table.sort(faces)
  return string.format("Assault Engineer squads by the ruleset's squad data, not our text: %s",
    #faces > 0 and table.concat(faces, ", ") or "none of the " .. side .. " faces")
end

-- half-squad equivalents [A1.31]: a squad counts 2, a HS or crew 1, SMC 0
function C.hs_equiv(u)
  if u.type == "squad" then return u.step == 0 and 2 or 1 end
  if u.type == "crew" then return 1 end
  return 0
end

-- a leader face table from its printed strength, "9-1" -> { morale = 9, drm = -1 }, "6+1" -> drm +1
function C.leader_face(label)
  local m, sign, d = label:match("^(%d+)([%-%+])(%d+)$")
  if not m then error("`" .. label .. "` is not a leader strength") end
  local drm = tonumber(d)
  if sign == "-" then drm = -drm end
  return { morale = tonumber(m), drm = drm, label = label }
end

-- squad faces: { squad, half-squad } for a side's squad face string
function C.squad_faces(face, side)
  face = face:gsub("r$", "")
  local d = C.squad_data(side, face)
  if not d then error("no " .. tostring(side) .. " squad `" .. face .. "` is known (add it to the `squads` data)") end
  return { face, d.hs }
end

-- the on-map units of a side (all sides if nil), in scenario order
function C.on_map(side)
  return kessel.units.all{ side = side, location = "map" }
end

-- the units a unit stands with (same hex and level), itself included
function C.level(u) return (u.vars and u.vars.level) or 0 end

-- [A5.1] a side's Personnel in a Location (hex, level) as its stacking limit counts them:
-- HS-equivalents and SMC, not a vehicle's crew nor a prisoner (our reading); `except`, a unit id
-- left out (the one that would move in). The limit is the `stacking_limit` data.
function C.stack_count(side, hex, level, except)
  local hs, smc = 0, 0
  for _, o in ipairs(kessel.units.at(hex)) do
    if o.id ~= except and o.side == side and C.level(o) == level and C.is_personnel(o) and not o.vars.prisoner_of and not C.crewing(o) then
      if C.is_smc(o) then smc = smc + 1 else hs = hs + C.hs_equiv(o) end
    end
  end
  return hs, smc
end
-- is a count of C.stack_count over the limit? Which of the two is: "squads", "smc" or nil
function C.over_limit(hs, smc)
  local limit = kessel.game.constant("stacking_limit")
  if hs > 2 * limit.squads then return "squads" end
  if smc > limit.smc then return "smc" end
  return nil
end
-- a building hex, which has upper-level Locations: one of a building terrain (a Factory among
-- them), or in a place of kind `building` unless a fire has left rubble or shellholes there
-- (9.6094 rubbles every Location of a burnt building down to its ground level)
local BUILDING_TERRAIN = { wooden_building = true, stone_building = true, factory = true }
local RUINS = { wooden_rubble = true, stone_rubble = true, shellholes = true }
function C.is_building(hex)
  local t = kessel.map.terrain(hex)
  if BUILDING_TERRAIN[t] then return true end
  if RUINS[t] then return false end
  local p = kessel.map.place(hex)
  return p ~= nil and p.kind == "building"
end
function C.same_location(u)
  local out = {}
  for _, o in ipairs(kessel.units.at(u.hex)) do
    if C.level(o) == C.level(u) then out[#out + 1] = o end
  end
  return out
end

-- the DRM a leader or Hero lends a stack (chapter A values, data outside the text): a leader's
-- printed DRM, one worse if wounded (A17.2; never worse than 0, and never better: a wounded 6+1
-- stays +1 — it was made 0); a Hero -1 (A15.2). Used where the text names a Leader/Hero DRM
-- [9.606] [11.6063] (there a 6+1's +1 counts too: X.drm) or leadership DRM [9.6041] [9.6042]
kessel.constant("hero_drm", -1)
function C.leadership(o)
  if o.type == "hero" then return kessel.game.constant("hero_drm") end
  if (o.type ~= "leader" and o.type ~= "armor_leader") or not o.face or not o.face.drm then return 0 end
  local d = o.face.drm
  if o.vars.wounded then d = math.max(d, math.min(0, d + 1)) end
  return d
end

-- best (lowest) leadership DRM among the side's leaders with a unit (a Hero is no leader here).
-- PB lets it apply at the owner's choice ("may apply" [9.6041], "can apply" [9.6042]): a DRM above
-- 0 is never taken. RB says "Leader DRM apply" [11.6041] [11.6042]: the best leader's DRM applies
-- whatever its sign (a 6+1's +1 was left out, as in PB)
function C.leader_drm(u)
  if u.hex == nil then return 0 end
  local best = C.pb() and 0 or nil
  for _, o in ipairs(C.same_location(u)) do
    if o.id ~= u.id and o.side == u.side and o.type == "leader" then
      local d = C.leadership(o)
      if best == nil or d < best then best = d end
    end
  end
  return best or 0
end

-- Casualty Reduction [A7.302]: a squad becomes its HS, a HS or crew is Eliminated, and an SMC is
-- wounded [A17.1]: a Wound Severity dr [A17.11] (+1 if he is wounded already) of 5 or more is a
-- mortal wound (Eliminated), else he is (still) wounded (var `wounded`: the +1 Escape DRM, a
-- leader's DRM one worse, no portage [9.606] [9.613]). Chapter A, outside the RePh text: our
-- reading of "Casualty Reduced" wherever the text applies it to a stack or to each unit (the
-- Escape table, a minefield NTC, a Shift's casualty dr); before, an SMC was Eliminated. What he
-- carried on an Escape or a Shift stays with him: the portage limit is for the attempt, checked
-- before it [9.606] [9.613].
function C.casualty_reduce(u, case, opts)
  if u.type == "squad" and u.step == 0 then
    kessel.emit.step(u.id, 1)
    C.note(case, u.id .. " suffers Casualty Reduction to a half-squad")
  elseif C.is_smc(u) then
    local drm = u.vars.wounded and 1 or 0
    local r = C.dr("wound_severity")
    local final = r + drm
    local how = string.format("Wound Severity dr %d%s = %d [A17.11]", r, drm > 0 and " +1 (wounded already)" or "", final)
    C.record("wound", case, { unit = u.id, dr = r, drm = drm, final = final, wounded_before = u.vars.wounded == true,
      result = final >= 5 and "eliminated" or "wounded", chapter_a = "A7.302 A17.11" })
    if final >= 5 then
      C.eliminate(u.id, case, "Casualty Reduction of an SMC [A7.302]: " .. how .. ", a mortal wound", opts)
    else
      kessel.emit.unit_var(u.id, "wounded", true)
      C.note(case, u.id .. " suffers Casualty Reduction: an SMC is wounded [A7.302] [A17.1]; " .. how .. ": " .. (u.vars.wounded and "he stays wounded" or "a minor wound"))
    end
  else
    C.eliminate(u.id, case, "Casualty Reduction", opts)
  end
end

-- Replacement [A19.13]: a squad or HS is replaced by the next lower quality (data `replaced_by`)
function C.replace(u, case)
  if u.type ~= "squad" then return false end
  local squad = (C.squad_data(u.side, C.squad_face(u)) or {}).replaced_by
  if not squad then return false end
  kessel.emit.change_unit(u.id, { faces = C.squad_faces(squad, u.side) })
  kessel.emit.unit_var(u.id, "squad_face", squad)
  C.note(case, u.id .. " is Replaced by a " .. squad .. (u.step == 1 and " half-squad" or ""))
  return true
end

-- every Elimination goes through the engine; the casualty hook (rules/cpp) counts it
-- The SW a unit held is left unpossessed in its Location: the text says so for an Encircled unit
-- [9.6041] and gives an escapee's its own dr [9.6061]; elsewhere it is silent, and we read it the
-- same way (a SW stayed "held" by a unit no longer in play). `opts.keep_equipment`: the caller
-- decides about the SW itself (9.6041's Rearmed prisoner, 9.6061's dr)
function C.eliminate(id, case, why, opts)
  local u = kessel.units.get(id)
  if not u or u.location == "eliminated" then return end
  local held = (opts and opts.keep_equipment) and {} or C.possessed(id)
  -- `opts.with_crew`: the vehicle goes with its crew (Recall, a stun or Shock result), so the armor
  -- leader in it goes too: he shares its fate (D3.4, our reading; he was left on the map alone)
  local inside = {}
  if opts and opts.with_crew and C.is_vehicle(u) then
    for _, l in ipairs(kessel.units.all{ type = "armor_leader" }) do
      if C.crewing(l) == id then inside[#inside + 1] = l end
    end
  end
  kessel.emit.eliminate(id)
  C.note(case, id .. " is Eliminated" .. (why and (" (" .. why .. ")") or ""))
  for _, w in ipairs(held) do
    kessel.emit.unit_var(w.id, "possessed_by", nil)
    C.note(case, w.id .. " is left unpossessed in " .. tostring(u.hex or "its Location") .. " (its possessor " .. id .. " was Eliminated)")
  end
  for _, l in ipairs(inside) do
    kessel.emit.unit_var(l.id, "in_vehicle", nil)
    C.eliminate(l.id, case, "the armor leader in " .. id .. ", which is Eliminated with its crew")
  end
  -- a vehicle's mounted Weapons are part of it: Eliminated with it
  if C.is_vehicle(u) then
    for _, w in ipairs(kessel.units.all()) do
      if w.vars.mounted_on == id and w.location ~= "eliminated" and w.location ~= "removed" then
        kessel.emit.eliminate(w.id)
        C.note(case, w.id .. " (mounted on " .. id .. ") is Eliminated with it")
      end
    end
  end
end

-- What goes where a unit goes: the SW it holds, for a vehicle its mounted Weapons (`mounted_on`),
-- and the prisoners it Guards (`guarded_by`: a prisoner is in its Guard's Location, and 9.608
-- [11.608] decides about him where the Guard is — he stayed behind when his Guard Escaped or was
-- Retained elsewhere [9.6053] [9.6061] [11.6064]); `C.follow(u)` puts them where `u` is now (its
-- hex, or off-map with it)
function C.carried(id)
  local out = C.possessed(id)
  for _, w in ipairs(kessel.units.all()) do
    if (w.vars.mounted_on == id or C.crewing(w) == id or (w.vars.prisoner_of and w.vars.guarded_by == id))
      and w.location ~= "eliminated" and w.location ~= "removed" then out[#out + 1] = w end
  end
  return out
end
-- the vehicle an armor leader is in (`in_vehicle`, a vehicle still in play), or nil: he goes where
-- it goes, and its Escape DR is his [9.606] [11.6063]
function C.crewing(u)
  if u.type ~= "armor_leader" or not u.vars.in_vehicle then return nil end
  local v = kessel.units.get(u.vars.in_vehicle)
  if not v or v.location == "eliminated" or v.location == "removed" then return nil end
  return v.id
end
function C.follow(u)
  u = kessel.units.get(u.id)
  for _, w in ipairs(C.carried(u.id)) do
    if u.location == "map" then
      if w.location ~= "map" or w.hex ~= u.hex then kessel.emit.place(w.id, u.hex) end
    elseif u.location == "pending" and w.location ~= "pending" then
      kessel.emit.withdraw(w.id)
    end
  end
end
-- A piece of Equipment passes to `side`: Captured when `side` is not its original owner, its owner's
-- own again when it is (a Captured piece retaken is no Captured piece: 9.61422/11.6135 roll only for
-- the enemy's, 9.6142/11.6132 repair only one's own). Returns true when it is now Captured. The one
-- place Equipment changes hands [9.6041] [9.6071] [11.6041] [11.6072] [11.6134]; before, a retaken
-- piece was marked Captured by its own side, and the Equipment a Rearmed prisoner took from its
-- Guard stayed the Guard's side's.
function C.change_hands(w, side)
  if w.side == side then return w.vars.captured == true end
  kessel.emit.change_unit(w.id, { side = side })
  if w.vars.captured and w.vars.original_side == side then
    kessel.emit.unit_var(w.id, "captured", nil)
    kessel.emit.unit_var(w.id, "original_side", nil)
    return false
  end
  kessel.emit.unit_var(w.id, "captured", true)
  kessel.emit.unit_var(w.id, "original_side", w.side)
  return true
end
-- a Captured vehicle's mounted Weapons are Captured with it [9.6071] [11.6072] (9.61422/11.6135
-- then roll for them)
function C.capture_mounted(v, side)
  for _, w in ipairs(kessel.units.all()) do
    if w.vars.mounted_on == v.id and w.location ~= "eliminated" and w.location ~= "removed" and w.side ~= side then
      C.change_hands(w, side)
    end
  end
end

-- The Entrenchments (B27) as Fortification markers: a foxhole, a trench, an A-T ditch, or a marker
-- named `entrenchment`. One list for every step that names them: hidden ones placed on-map
-- [9.602], Strategic Locations ("E" on the PB map [9.605]), removal [11.615], the fire steps
-- [9.6095] [11.6097]. Before, each step had its own list and most lacked trench or A-T ditch.
C.ENTRENCHMENT = { entrenchment = true, foxhole = true, trench = true, at_ditch = true }
-- every Fortification marker kind: the Entrenchments, pillboxes, wire, roadblocks, mines, and a
-- marker named `fortification` (a marker whose value says `fortification = true` is one too)
-- (a `fortified_building` marker is a Fortified Building Location: revealed with the hidden
-- Fortifications [11.6073], Eliminated by a Blaze [11.6097], and keeping a Gun/AFV on the map [11.607])
C.FORTIFICATION = { fortification = true, pillbox = true, wire = true, roadblock = true, ap_mine = true, at_mine = true,
  fortified_building = true }
for k in pairs(C.ENTRENCHMENT) do C.FORTIFICATION[k] = true end
function C.is_fortification(m)
  return C.FORTIFICATION[m.kind] == true or (type(m.value) == "table" and m.value.fortification == true)
end

-- the Equipment a unit possesses: its SW and the Guns it holds (`possessed_by`). A Gun is
-- possessed as a SW is [9.6041] [9.6053] [9.606] [11.6063]; where a Gun may not go with its
-- possessor (an Escape unless dm, a Shift, a sewer, a Fortified Location on clearing) the step
-- leaves it behind with `C.leave_guns`. Before, only SW counted: a held Gun kept pointing at a
-- possessor Eliminated, escaped or Shifted away, and RB's clearing left it on the map
function C.possessed(id)
  local out = {}
  for _, w in ipairs(kessel.units.all()) do
    if (w.type == "sw" or w.type == "gun") and w.vars.possessed_by == id and w.location ~= "eliminated" and w.location ~= "removed" then
      out[#out + 1] = w
    end
  end
  return out
end

function C.is_dm_gun(w) return w.type == "gun" and w.face ~= nil and w.face.dm == true end

-- a unit lets go of the Guns it holds (`opts.keep_dm`: not a dm Gun, which may be portaged): each
-- stays where it is, unpossessed; `why` says why the Gun may not go along. Returns the Guns left.
function C.leave_guns(u, case, why, opts)
  local left = {}
  for _, w in ipairs(C.possessed(u.id)) do
    if w.type == "gun" and not (opts and opts.keep_dm and C.is_dm_gun(w)) then
      kessel.emit.unit_var(w.id, "possessed_by", nil)
      C.note(case, string.format(why, w.id) .. "; " .. u.id .. " leaves it unpossessed" .. (w.hex and (" in " .. w.hex) or ""))
      left[#left + 1] = w
    end
  end
  return left
end

-- the current step's rule group id (e.g. "9.606")
function C.step_id() return kessel.game.step().id end

return C
