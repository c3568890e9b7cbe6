-- [11] Supply.
--
-- German [11.1]: a unit is in supply if it is within 20 hexes of a road hex that is joined by road
-- to the road-supply source (map tag `road_supply_source`, hex 0120), or within 20 MP of any hex
-- of the German's supply edges (the west edge; scenario var `german_supply_edges`). Roads carry supply across rivers [11.13]. Neither the line nor the road may pass enemy
-- units or enemy zones of control, except where a German unit stands (friendly units negate enemy
-- ZOC for supply) [11.1] [8], nor a Soviet interdiction marker [13.44]; lake hexes and lake
-- hexsides stop a line; swamp may be entered but not traced through [6.7].
-- The MP method counts the costs of the terrain effects chart at the unit's own movement type
-- (motorized units get the road rate, rivers cost a German +2) and only up to the edge hex, never
-- off the map [11.1]; WBC09 #8 says the same, so its option changes nothing.
--
-- Soviet [11.2]: a unit traces a line of communication of at most its leader's rating in hexes to
-- a leader who is not disrupted [6.6]; the leader traces a line of supply of any length to the
-- Soviet's supply edges (the east edge; scenario var `soviet_supply_edges`). The same blocks apply (friendly Soviet units negate German ZOC); the line of supply
-- may enter swamp but not pass through it, and under WBC09 #13 so may the line of communication.
-- Lines may run through columns 01-02 even on turns 1-6 [6.4].
--
-- Timing [11.3]: judged at the start of each Movement Phase for movement (flag `oos`, set by a
-- step_start hook) and at the instant of each attack or overrun for combat (`S.in_supply`).
-- Units that entered play this player-turn are in supply [14]. Effects: movement allowance halved
-- (movement.lua) and combat strength halved (combat.lua, using `S.in_supply`).
local C = require("rules.common")
local Z = require("rules.zoc")
local S = {}

local GERMAN_RADIUS, GERMAN_MP = 20, 20

-- Static terrain sets of the current map: lake hexes, swamp hexes, each side's supply edge hexes.
local function terrain_sets()
  local t = C.terrain_lists()
  return { lake = t.lake, swamp = kessel.hexset(t.swamp), german_edge = kessel.hexset(C.supply_edge_hexes(C.GERMAN)),
    soviet_edge = kessel.hexset(C.supply_edge_hexes(C.SOVIET)) }
end

-- Hexes a line of `side` may not enter: enemy units, enemy ZOC not negated by a friendly unit,
-- lake hexes, and (German lines) Soviet interdiction markers.
local function blocked_for(side, sets)
  local friends = C.occupied(side)
  local blocked = C.occupied(C.other(side)):union(Z.enemy_zoc(side):minus(friends))
  for _, h in ipairs(sets.lake) do blocked:add(h) end
  if side == C.GERMAN then
    for hex in pairs(C.markers_on_map("soviet_interdiction")) do blocked:add(hex) end
  end
  return blocked
end

-- The German supply context: hexes supplied by road, and what the MP method needs.
local function german_ctx()
  local sets = terrain_sets()
  local blocked = blocked_for(C.GERMAN, sets)
  local sources = {}
  for _, src in ipairs(kessel.map.tagged("road_supply_source")) do
    if not blocked:has(src) then sources[#sources + 1] = src end
  end
  local by_road = nil   -- a hexset (only membership is asked)
  if #sources > 0 then
    -- the road net joined to a source, through open hexes only
    local net = kessel.paths.reach_set{ from = sources, step = { hex = true, only_along = { "road" } },
      passage = { blocked = blocked } }
    -- along the net for free, then up to 20 hexes out (traced from the road toward the unit):
    -- never across a lake hexside, never into a closed hex, never on from a swamp hex but the
    -- start [6.7]
    by_road = kessel.paths.reach_set{ from = sources, budget = GERMAN_RADIUS,
      step = { hex = true, blocked_by = { "lake" }, free_along = { "road" }, free_within = net },
      passage = { blocked = blocked, enter_only = sets.swamp } }
  end
  return { side = C.GERMAN, sets = sets, blocked = blocked, by_road = by_road }
end

local function german_supplied(ctx, u)
  -- [13.44] the marker interrupts German supply in its hex: no line runs through it, nor out of it
  -- for a unit that moved in after it was placed (the road method never reached such a hex; the
  -- MP method traced from it)
  ctx.marked = ctx.marked or C.markers_on_map("soviet_interdiction")
  if ctx.marked[u.hex] then
    return false, string.format("%s is under a Soviet interdiction marker, which interrupts German supply in its hex [13.44]", u.hex), "13.44"
  end
  if ctx.by_road and ctx.by_road:has(u.hex) then return true, "within 20 hexes of a road to " .. table.concat(kessel.map.tagged("road_supply_source"), "/"), "11.1" end
  local class = C.class(u)   -- by the unit's own movement type [11.1] (WBC09 #8)
  -- the MP from every hex to the supply edge, by one search per movement type and position
  ctx.west_mp = ctx.west_mp or {}
  local mp = ctx.west_mp[class]
  if mp == nil then
    mp = kessel.paths.trace_costs{
      budget = GERMAN_MP, step = { class = class, side = C.GERMAN },
      passage = { blocked = ctx.blocked, enter_only = ctx.sets.swamp }, target = ctx.sets.german_edge,
    }
    ctx.west_mp[class] = mp
  end
  local cost = mp[u.hex]
  if cost then return true, string.format("%s MP from %s", C.mp(cost), C.edge_text(C.GERMAN)), "11.1" end
  local sources = kessel.map.tagged("road_supply_source")
  if #sources == 0 then
    -- (a map of a test or a scenario of one's own may have no supply road at all)
    return false, string.format("no line free of Soviet units and ZOC within 20 MP of %s, and no supply road (the map tags no road_supply_source hex) [11.1]",
      C.edge_text(C.GERMAN)), "11.1"
  end
  return false, string.format("no line free of Soviet units and ZOC within 20 hexes of a road to %s, nor within 20 MP of %s [11.1]",
    table.concat(sources, "/"), C.edge_text(C.GERMAN)), "11.1"
end

-- The Soviet supply context: every hex within the radius of a leader with a line of supply.
local function soviet_ctx()
  local sets = terrain_sets()
  local blocked = blocked_for(C.SOVIET, sets)
  local covered = {}   -- { hexset, leader } per working leader, in unit order
  local leaders_ok = {}
  local loc_enter_only = C.option("wbc09_13_loc_not_through_swamp") and sets.swamp or nil
  local leaders, hexes = {}, {}
  local idle = {}   -- disrupted leaders, for the explanation of a unit out of supply [6.6]
  for _, l in ipairs(C.units_of(C.SOVIET)) do
    if C.is_leader(l) and not C.disrupted(l) then
      leaders[#leaders + 1] = l
      hexes[#hexes + 1] = l.hex
    elseif C.is_leader(l) then
      idle[#idle + 1] = l
    end
  end
  -- each leader's line of supply to the supply edge, of any length: one search for all of them,
  -- the disrupted ones too (their own supply, below)
  for _, l in ipairs(idle) do hexes[#hexes + 1] = l.hex end
  local lines = #hexes > 0 and kessel.paths.trace_costs{
    from = hexes, budget = 1e6, step = { class = "infantry", side = C.SOVIET },
    passage = { blocked = blocked, enter_only = sets.swamp }, target = sets.soviet_edge,
  } or {}
  local function loc_reach(l)
    return kessel.paths.reach_set{
      from = l.hex, budget = C.rating(l), step = { hex = true, blocked_by = { "lake" } },
      passage = { blocked = blocked, enter_only = loc_enter_only },
    }
  end
  local cut = {}   -- working leaders with no line to the east edge, for the explanation
  for _, l in ipairs(leaders) do
    if lines[l.hex] then
      leaders_ok[l.id] = true
      covered[#covered + 1] = { loc_reach(l), l }
    else
      cut[#cut + 1] = l
    end
  end
  -- [6.6] a disrupted leader gives his units nothing, but he "defends normally": his own line of
  -- supply to the east edge keeps him in supply, as it does a working leader (his own supply is
  -- not one of the functions he loses; read otherwise, disruption alone would halve his defence)
  local idle_line = {}
  for _, l in ipairs(idle) do idle_line[l.id] = lines[l.hex] ~= nil end
  return { side = C.SOVIET, covered = covered, leaders_ok = leaders_ok, cut = cut, idle = idle, idle_line = idle_line,
    loc_reach = loc_reach }
end

-- Why a Soviet unit that no working leader supplies is out of supply: a leader whose rating
-- reaches it but who has no line of supply to the east edge [11.2], or one who is disrupted and
-- gives no line of communication [6.6]; else no leader's rating reaches it [11.2]. The sets are
-- made once per judgement, and only when a unit is out of supply.
local function soviet_why_not(ctx, u)
  -- a disrupted leader is judged by his own line, as a working one is
  local edge = C.edge_text(C.SOVIET)
  if ctx.idle_line[u.id] == false then return string.format("no line of supply to %s [11.2]", edge), "11.2" end
  if ctx.near == nil then
    ctx.near = {}
    for _, l in ipairs(ctx.cut) do ctx.near[#ctx.near + 1] = { ctx.loc_reach(l), l, "cut" } end
    -- (a disrupted leader's rating, as if he were working, not 0)
    for _, l in ipairs(ctx.idle) do ctx.near[#ctx.near + 1] = { ctx.loc_reach(l), l, "idle" } end
  end
  for _, n in ipairs(ctx.near) do
    if n[1]:has(u.hex) and n[3] == "cut" then
      if n[2].id == u.id then return string.format("no line of supply to %s [11.2]", edge), "11.2" end
      return string.format("the leader in range, %s (rating %d), has no line of supply to %s [11.2]", C.name_at(n[2]), C.rating(n[2]), edge), "11.2"
    end
  end
  for _, n in ipairs(ctx.near) do
    if n[1]:has(u.hex) and n[3] == "idle" then
      return string.format("the leader in range, %s, is disrupted and gives no line of communication [6.6]", C.name_at(n[2])), "6.6"
    end
  end
  return string.format("no line of communication within a leader's rating to a leader with a line of supply to %s [11.2]", edge), "11.2"
end

local function soviet_supplied(ctx, u)
  local by = nil
  for _, c in ipairs(ctx.covered) do
    if c[1]:has(u.hex) then by = C.name(c[2]); break end
  end
  if by then return true, "line of communication to " .. by, "11.2" end
  if ctx.idle_line[u.id] then
    return true, "disrupted, he gives no line of communication [6.6], but has his own line of supply to " .. C.edge_text(C.SOVIET), "11.2"
  end
  local why, rule = soviet_why_not(ctx, u)
  return false, why, rule
end

-- Entered play during the current player-turn (in supply for it) [14].
function S.just_entered(u)
  return u.vars and u.vars.entered_turn == kessel.game.turn() and C.phasing() == u.side
end

local function ctx_for(side)
  return C.per_revision("supply:" .. side, function()
    return side == C.GERMAN and german_ctx() or soviet_ctx()
  end)
end

local function judge(ctx, u)
  if S.just_entered(u) then return true, "entered play this player-turn", "14" end
  if u.side == C.GERMAN then return german_supplied(ctx, u) end
  return soviet_supplied(ctx, u)
end

-- Can `unit` trace a line now (ignoring the first-player-turn grace of entering units)?
function S.traced(unit)
  local u = type(unit) == "string" and kessel.units.get(unit) or unit
  local ctx = ctx_for(u.side)
  if u.side == C.GERMAN then return german_supplied(ctx, u) end
  return soviet_supplied(ctx, u)
end

-- Is `unit` (a snapshot or an id) in supply now? purpose "movement" or "combat" (both judged now).
-- Returns bool, text, and the rule case the judgement rests on.
function S.in_supply(unit, purpose)
  local u = type(unit) == "string" and kessel.units.get(unit) or unit
  if not u or not C.on_map(u) then return true, "not on the map" end
  return judge(ctx_for(u.side), u)
end

-- One evaluation of `side`'s network, then unit by unit: returns function(u) -> bool, text (the
-- judgement of S.in_supply, for many units at one instant).
function S.judge_with(side)
  local ctx = ctx_for(side)
  return function(u)
    if not u or not C.on_map(u) then return true, "not on the map" end
    return judge(ctx, u)
  end
end

-- Supply of every unit of `side` on the map, in one evaluation: id -> {ok=, why=, rule=}.
function S.status(side)
  local ctx, out = ctx_for(side), {}
  for _, u in ipairs(C.units_of(side)) do
    local ok, why, rule = judge(ctx, u)
    out[u.id] = { ok = ok, why = why, rule = rule }
  end
  return out
end

-- Out of supply for movement: the flag set at the start of the Movement Phase.
function S.is_oos(unit)
  local u = type(unit) == "string" and kessel.units.get(unit) or unit
  return u ~= nil and u.flags.oos == true
end

-- Sets or clears `oos` on every unit of the phasing side (start of each Movement Phase) [11.3].
function S.mark(side)
  local st = S.status(side)
  for _, u in ipairs(C.units_of(side)) do
    local oos = not st[u.id].ok
    if oos ~= (u.flags.oos == true) then
      kessel.emit.flag(u.id, "oos", oos)
      if oos then kessel.emit.note("11.3", C.name(u) .. " at " .. u.hex .. " is out of supply: " .. st[u.id].why) end
    end
  end
end

-- [11.2] A Soviet side whose units could never be in supply, as `check` problems: combat units
-- and no leader at all, or leaders none of whom could ever trace a line of supply to the supply
-- edges, judged on the map alone (lake hexes and hexsides, swamp entered but not passed [6.7]),
-- from where each stands or the area he enters by. Soviet supply runs only through a leader, so
-- such a scenario plays every Soviet unit at half strength and half movement all game [11.3];
-- a cut of the map has no leader unless the scenario gives one, and nothing said so.
-- (No leader at all is a problem once the scenario has victory objectives: a skeleton being
-- filled in unit by unit, which the scenario guide has its maker check after each one, has
-- none yet, and a check hook's problem is an error, there being no note a hook can give.)
function S.leader_problems()
  local combat, leaders = 0, {}
  for _, u in ipairs(kessel.units.all{ side = C.SOVIET }) do
    if u.location == "map" or u.location == "pending" then
      if C.is_leader(u) then leaders[#leaders + 1] = u else combat = combat + 1 end
    end
  end
  if combat == 0 then return {} end
  local edge = C.edge_text(C.SOVIET)
  if #leaders == 0 then
    -- a skeleton being filled in (no objectives yet) may have its first Soviet unit before its
    -- leader (the scenario guide checks after each unit added): there it is a note
    local filling_in = #require("rules.victory").objectives() == 0
    return { { note = filling_in, message = string.format(
      "the Soviet side has %d combat unit(s) and no leader: a Soviet unit is in supply only within its leader's rating of a leader with a line of supply to %s [11.2], so every one would be out of supply all game; give the Soviet a leader (type = \"leader\", faces = [\"0-3-10\"], attrs = { rating = 3 })",
      combat, edge) } }
  end
  local from = {}
  for _, l in ipairs(leaders) do
    if l.location == "map" then
      from[#from + 1] = l.hex
    else
      for _, h in ipairs(kessel.map.area(l.enter_area or "") or {}) do from[#from + 1] = h end
    end
  end
  local sets = terrain_sets()
  local lines = #from > 0 and kessel.paths.trace_costs{
    from = from, budget = 1e6, step = { class = "infantry", side = C.SOVIET },
    passage = { blocked = kessel.hexset(sets.lake), enter_only = sets.swamp }, target = sets.soviet_edge,
  } or {}
  for _, h in ipairs(from) do
    if lines[h] then return {} end
  end
  return { { unit = leaders[1].id, message = string.format(
    "no Soviet leader could ever trace a line of supply to %s (lakes and swamp stand in the way, or the edge is not on this map's side of them) [11.2]: a Soviet unit is in supply only through such a leader, so every one would be out of supply all game; set the leaders up where a line can run, or name the edges they trace to (soviet_supply_edges)",
    edge) } }
end

-- [11.1] [11.2] supply edges a scenario names that no map has; a Soviet side with no way to supply
kessel.on("check", function()
  local problems = C.supply_edge_problems()
  if #problems > 0 then return problems end
  return S.leader_problems()
end)

kessel.on("step_start", function()
  if C.in_movement_phase() then S.mark(C.phasing()) end
end)
kessel.on("setup", function()
  if C.in_movement_phase() then S.mark(C.phasing()) end
end)

return S
