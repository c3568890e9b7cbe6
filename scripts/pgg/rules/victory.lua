-- [15] Victory.
--
-- Ownership: each objective hex belongs to the side that had a combat unit in it last, or was the
-- last to pass through it with one (leaders neither take nor keep a city) [15], remembered in game
-- var "city_owner" (hex → side). It is read from the units' positions at the end of every step,
-- and recorded the moment a combat unit moves through or into a hex (V.passed / V.passed_path): retreats and advances after combat (retreat.lua) and the
-- overrunners' entry into a cleared hex (overrun.lua) call it. Ordinary moves and rail moves are
-- made by movement.lua and rail.lua, which must call V.passed_path with each executed path for a
-- unit moving through a city without stopping to take it (see docs/rules-coverage.md, case 15).
-- German VP at the end of turn 12: every objective whose hexes are all German-owned and from which
-- a line, free of Soviet units and of Soviet zones of control (German units negate them), runs to
-- the west edge [15]. Smolensk at the printed 25 is worth option smolensk_vp. South-Western Front: game var
-- "swf_count" divisions committed, VP each as the scenario's `swf_vp` list says (1 each for the first
-- five, 2 each for the next five) [14.2].
-- Soviet VP: option soviet_vp_per_division for each German division wholly eliminated (not the
-- cavalry division; GD and Lehr are not divisions) [15]; 2 VP each time, at the end of his
-- player-turn, the Soviet holds a city (V.is_city: not a VP hex that is no city) that the German
-- held with a line at the end of the previous German player-turn (game vars "german_held",
-- "soviet_recaptures").
-- Levels on German minus Soviet VP from the scenario [15]; option german_marginal_is_draw; with
-- a German bid in force (the bidding's result, bidding.lua, or an agreed option vp_bid) the bid is
-- the margin where a German Marginal Victory starts, the other levels moved with it [WBC09 sides].
-- Final result: game var "result" = {german_vp=, soviet_vp=, difference=, bid=, level=}.
local C = require("rules.common")
local Z = require("rules.zoc")
local V = {}

-- Smolensk's VP as the campaign prints it [15]: the value option smolensk_vp stands in for.
V.PRINTED_SMOLENSK_VP = 25

V.DEFAULT_LEVELS = {
  { name = "Soviet Decisive", max = 0 }, { name = "Soviet Strategic", max = 25 },
  { name = "Soviet Marginal", max = 49 }, { name = "German Marginal", max = 79 },
  { name = "German Strategic", max = 124 }, { name = "German Decisive" },
}

-- Objectives: the scenario's, or game var "objectives" (inline test positions).
-- (Kept per state revision, like every derived value: callers only read the list.)
function V.objectives()
  return C.per_revision("objectives", function()
    -- the scenario's objectives, those on the map in play: a position set up inline over a
    -- loaded scenario (`kessel.setup{ map = ... }` under `--scenario`) has another map, on which
    -- the scenario's cities are not; it takes its objectives from game var `objectives`
    local list = {}
    for _, o in ipairs(kessel.scenario.objectives()) do
      local on_map = true
      for _, h in ipairs(o.hexes or {}) do if not kessel.hex.valid(h) then on_map = false end end
      if on_map then list[#list + 1] = o end
    end
    if #list == 0 then list = kessel.game.var("objectives") or {} end
    local out = {}
    for _, o in ipairs(list) do
      if o.side == nil or o.side == C.GERMAN then
        local vp = o.vp
        -- option smolensk_vp picks between the sources' 25 and 20 for the printed objective; a
        -- scenario that gives Smolensk a value of its own (a cut of the map, a shorter game)
        -- keeps it
        if o.name == "Smolensk" and vp == V.PRINTED_SMOLENSK_VP then vp = C.option("smolensk_vp") end
        out[#out + 1] = { name = o.name, vp = vp, hexes = o.hexes, city = o.city }
      end
    end
    return out
  end)
end

-- Is objective `o` a city [15]? The Soviet scores a recapture for a city only: the German scores
-- cities and other hexes (the campaign's two east-edge exits, 5907 and 5915, are VP hexes, not
-- cities). An objective is a city when each of its hexes is a hex of a major or minor city of the
-- map [6.7]; an objective given inline (game var `objectives`) may say so itself (`city = false`),
-- and on a map with no city at all (a bare test position) every objective is taken for one.
function V.is_city(o)
  if o.city ~= nil then return o.city == true end
  local cities = C.per_revision("city_hexes", function()
    local t, any = {}, false
    for _, p in ipairs(kessel.map.places()) do
      if p.kind == "major_city" or p.kind == "minor_city" then
        any = true
        for _, h in ipairs(p.hexes) do t[h] = true end
      end
    end
    return { hexes = t, any = any }
  end)
  if not cities.any then return true end
  for _, h in ipairs(o.hexes) do
    if not cities.hexes[h] then return false end
  end
  return #o.hexes > 0
end

function V.levels()
  local l = kessel.scenario.levels()
  if #l == 0 then l = kessel.game.var("levels") or V.DEFAULT_LEVELS end
  return l
end

-- Does `units` (a unit, a list of units, or nil for "not known") hold a combat unit? Only combat
-- units occupy a city [15]: a leader has no combat strength [10.2] and neither takes nor keeps one.
local function occupies(units)
  if units == nil then return true end
  if units.id then return C.is_combat_unit(units) end
  for _, u in ipairs(units) do
    if C.is_combat_unit(type(u) == "string" and kessel.units.get(u) or u) then return true end
  end
  return false
end

-- Owner of each objective hex, updated from the combat units now on the map [15].
function V.owners()
  local owner = kessel.game.var("city_owner") or {}
  for _, o in ipairs(V.objectives()) do
    for _, h in ipairs(o.hexes) do
      for _, u in ipairs(kessel.units.at(h)) do
        if C.is_combat_unit(u) then owner[h] = u.side; break end
      end
    end
  end
  return owner
end

-- Is `hex` a hex of some objective?
function V.objective_hex(hex)
  local set = C.per_revision("objective_hexes", function()
    local t = {}
    for _, o in ipairs(V.objectives()) do
      for _, h in ipairs(o.hexes) do t[h] = true end
    end
    return t
  end)
  return set[hex] == true
end

-- A unit of `side` has just passed through (or entered) `hex`: if it is an objective hex, `side`
-- now owns it [15], provided `units` (the unit or units that moved; nil: not known) hold a combat
-- unit. Apply stage only.
function V.passed(hex, side, units)
  if not V.objective_hex(hex) or not occupies(units) then return end
  local owner = kessel.game.var("city_owner") or {}
  if owner[hex] == side then return end
  owner[hex] = side
  kessel.emit.var("city_owner", owner)
end

-- Every hex of a path a unit of `side` has just moved along (the start hex excluded) [15].
function V.passed_path(side, path, units)
  if not occupies(units) then return end
  for _, h in ipairs(path or {}) do V.passed(h, side) end
end

-- Which of `hexes` have a line to the west edge (the German's supply edges, scenario var
-- `german_supply_edges`) free of Soviet units and zones of control [15]: a set of them (one search
-- for all). The reference calls it a supply line, so it follows the
-- terrain effects chart's supply column [6.7] as German supply does: it may go into a swamp hex
-- but not on through it (it may start in one), and never across a lake; and a Soviet interdiction
-- marker on the map closes its hex as it closes German supply [13.44].
function V.lines_west(hexes)
  local ezoc = Z.enemy_zoc(C.GERMAN)
  local soviet = C.occupied(C.SOVIET)
  local german = C.occupied(C.GERMAN)
  -- closed: Soviet units, Soviet ZOC without a German unit, Soviet interdiction markers, lake
  -- hexes and hexsides
  local t = C.terrain_lists()
  local edge = kessel.hexset(C.supply_edge_hexes(C.GERMAN))
  local blocked = soviet:union(ezoc:minus(german))
  for _, h in ipairs(t.lake) do blocked:add(h) end
  for hex in pairs(C.markers_on_map("soviet_interdiction")) do blocked:add(hex) end
  local found = #hexes > 0 and kessel.paths.trace_costs{
    from = hexes,
    step = { hex = true, blocked_by = { "lake" } },
    passage = { blocked = blocked, enter_only = kessel.hexset(t.swamp) },
    target = edge,
  } or {}
  local out = {}
  for _, hex in ipairs(hexes) do
    -- (or the objective hex itself on the edge, or blocked at the start)
    if found[hex] or (edge:has(hex) and not soviet:has(hex)) then out[hex] = true end
  end
  return out
end

-- A line from `hex` to the west edge free of Soviet units and zones of control [15].
function V.line_west(hex)
  return V.lines_west({ hex })[hex] == true
end

-- Objectives the German now holds with a line [15]: every hex of the city German-owned, and a
-- line to the west edge from every one of them (a city of two hexes whose German units in one hex
-- are cut off is not held, whichever of its hexes the scenario lists first).
function V.german_held(owner)
  owner = owner or V.owners()
  local held, owned, all_hexes = {}, {}, {}
  for _, o in ipairs(V.objectives()) do
    local all = #o.hexes > 0
    for _, h in ipairs(o.hexes) do if owner[h] ~= C.GERMAN then all = false end end
    if all then
      owned[#owned + 1] = o
      for _, h in ipairs(o.hexes) do all_hexes[#all_hexes + 1] = h end
    end
  end
  local lines = V.lines_west(all_hexes)
  for _, o in ipairs(owned) do
    local ok = true
    for _, h in ipairs(o.hexes) do if not lines[h] then ok = false end end
    if ok then held[#held + 1] = o.name end
  end
  return held
end

-- German divisions wholly eliminated [15]: by formation, not the cavalry, not GD or Lehr.
function V.divisions_destroyed()
  local forms, order = {}, {}
  for _, u in ipairs(kessel.units.all{ side = C.GERMAN }) do
    local independent = (u.attrs.independent or 0) ~= 0
    if u.formation and u.formation ~= "" and u.type ~= "cavalry" and not independent then
      if not forms[u.formation] then forms[u.formation] = { alive = false, count = 0 }; order[#order + 1] = u.formation end
      forms[u.formation].count = forms[u.formation].count + 1
      if u.location ~= "eliminated" and u.location ~= "removed" then forms[u.formation].alive = true end
    end
  end
  local out = {}
  for _, f in ipairs(order) do if not forms[f].alive then out[#out + 1] = f end end
  return out
end

-- The victory level of a German-minus-Soviet difference [15]: the first level whose `max` it does
-- not exceed; option german_marginal_is_draw renames German Marginal.
function V.level_for(diff)
  local level
  for _, l in ipairs(V.levels()) do
    if l.max == nil or diff <= l.max then level = l.name; break end
  end
  if level == "German Marginal" and C.option("german_marginal_is_draw") then level = "Draw" end
  return level
end

-- German VP for the first `n` South-Western Front divisions called [14.2]: the scenario's `swf_vp`
-- list (the printed 1 each for the first five, 2 each for the next five), 2 for any beyond it, the
-- same list the call itself reads (reinforcements.lua).
function V.swf_vp(n)
  local list = kessel.scenario.var("swf_vp") or {}
  local vp = 0
  for i = 1, n or 0 do vp = vp + (tonumber(list[i]) or 2) end
  return vp
end

function V.score()
  local owner = V.owners()
  local held = V.german_held(owner)
  local german = 0
  local heldset = {}
  for _, n in ipairs(held) do heldset[n] = true end
  for _, o in ipairs(V.objectives()) do if heldset[o.name] then german = german + o.vp end end
  german = german + V.swf_vp(kessel.game.var("swf_count"))
  local destroyed = V.divisions_destroyed()
  local soviet = #destroyed * C.option("soviet_vp_per_division")
  soviet = soviet + V.recapture_vp() * #(kessel.game.var("soviet_recaptures") or {})
  local diff = german - soviet
  -- [WBC09 sides] the German bid the margin he can take: reaching it is where a German Marginal
  -- Victory starts, and the other levels keep their distances from it (the one won in the
  -- bidding, or one agreed before the game, option vp_bid, whether or not vp_bidding is on)
  local bid = require("rules.bidding").german_bid()
  local judged = bid and diff - bid + V.german_marginal_from() or diff
  return { german_vp = german, soviet_vp = soviet, difference = diff, bid = bid, level = V.level_for(judged),
    held = held, destroyed = destroyed }
end

-- The least margin of a German Marginal Victory [15] (50 in the printed chart): one more than the
-- highest margin of the level before it. A scenario's own chart without that level (the learning
-- scenario's "German win") has its first German level instead.
function V.german_marginal_from()
  local below, first_german = nil, nil
  for _, l in ipairs(V.levels()) do
    local from = (below or 0) + 1
    if l.name == "German Marginal" then return from end
    if first_german == nil and l.name:match("^German") then first_german = from end
    below = l.max
  end
  return first_german or 0
end

-- Where a score's points come from, as lines a GM can check against the board [15]: each city
-- the German holds with a line west and its VP, the South-Western Front divisions, any bid; each
-- German division destroyed and each Soviet recapture.
function V.breakdown(r)
  local g = {}
  local heldset = {}
  for _, n in ipairs(r.held) do heldset[n] = true end
  for _, o in ipairs(V.objectives()) do if heldset[o.name] then g[#g + 1] = string.format("%s (%d)", o.name, o.vp) end end
  local swf = kessel.game.var("swf_count") or 0
  if swf > 0 then g[#g + 1] = string.format("%d South-Western Front division(s) called (%d)", swf, V.swf_vp(swf)) end
  local s = {}
  local per = C.option("soviet_vp_per_division")
  for _, f in ipairs(r.destroyed) do s[#s + 1] = string.format("%s destroyed (%d)", f, per) end
  for _, x in ipairs(kessel.game.var("soviet_recaptures") or {}) do
    s[#s + 1] = string.format("%s retaken on turn %d (%d)", x.city, x.turn, V.recapture_vp())
  end
  local out = {
    string.format("German VP %d: %s", r.german_vp, #g > 0 and table.concat(g, ", ") or ("nothing held with a line to " .. C.edge_text(C.GERMAN))),
    string.format("Soviet VP %d: %s", r.soviet_vp, #s > 0 and table.concat(s, ", ") or "no German division destroyed, no city retaken"),
  }
  if r.bid then
    out[#out + 1] = string.format("the German bid %d VP: a margin of %d or more is a German Marginal Victory [WBC09 sides]",
      r.bid, r.bid)
  end
  return out
end

-- Soviet VP for each city retaken [15]: the scenario's `soviet_vp_recapture` (declared default 2).
function V.recapture_vp() return kessel.scenario.var("soviet_vp_recapture") end

kessel.on("step_end", function(index)
  local step = kessel.game.step()
  local owner = V.owners()
  kessel.emit.var("city_owner", owner)
  if step.id == "german_air_interdiction" then
    -- end of the German player-turn: remember what he holds with a line
    kessel.emit.var("german_held", V.german_held(owner))
  elseif step.id == "soviet_interdiction" then
    -- end of the Soviet player-turn: recaptures [15]
    local before = kessel.game.var("german_held") or {}
    local rec = kessel.game.var("soviet_recaptures") or {}
    local added = false
    for _, o in ipairs(V.objectives()) do
      if C.contains(before, o.name) and V.is_city(o) then
        local soviet_has, german_all = false, true
        for _, h in ipairs(o.hexes) do
          if owner[h] == C.SOVIET then soviet_has = true end
          if owner[h] ~= C.GERMAN then german_all = false end
        end
        if soviet_has and not german_all then
          rec[#rec + 1] = { city = o.name, turn = kessel.game.turn() }
          kessel.emit.note("15", string.format("the Soviet retakes %s: %d VP", o.name, V.recapture_vp()))
          added = true
        end
      end
    end
    if added then kessel.emit.var("soviet_recaptures", rec) end
  end
  if kessel.game.turn() >= kessel.game.last_turn() and step.id == "german_air_interdiction" then
    local r = V.score()
    kessel.emit.var("result", { german_vp = r.german_vp, soviet_vp = r.soviet_vp, difference = r.difference, bid = r.bid,
      level = r.level })
    for _, line in ipairs(V.breakdown(r)) do kessel.emit.note("15", line) end
    kessel.emit.note("15", string.format("final score: German %d, Soviet %d (%+d): %s", r.german_vp, r.soviet_vp, r.difference, r.level))
  end
end)

-- Who holds each objective by the rules [15]: the German once he owns every hex of it, the Soviet
-- otherwise (every city is his at the start). The lab's per-turn control (objectives changing
-- hands, the report's map) reads it; judged by whose unit stood there last instead, a city the
-- German took empty or passed through would never change hands in its figures.
function V.control()
  local owner = V.owners()
  local out = {}
  for _, o in ipairs(V.objectives()) do
    local all = #o.hexes > 0
    for _, h in ipairs(o.hexes) do if owner[h] ~= C.GERMAN then all = false end end
    out[o.name] = all and C.GERMAN or C.SOVIET
  end
  return out
end

-- How the game stands [15], for `kessel simulate` and the balance lab. This is the first `result`
-- hook registered (init.lua requires the rules before the computer player), so it gives the level,
-- scores and control; later hooks (ai/player.lua's measures, a variant's) may only add `metrics`.
kessel.on("result", function()
  local r = V.score()
  return { level = r.level, scores = { german = r.german_vp, soviet = r.soviet_vp }, control = V.control() }
end)

return V
