-- How the computer player scores moves: per moving group a scorer of destinations (German and
-- Soviet), with the attack set-up, rings around cities, leaders' cover and the look-ahead. Part of
-- ai/player.lua.

local C = require("rules.common")
local M = require("rules.movement")
local K = require("rules.combat")
local L = require("rules.leaders")
local Fr = require("ai.frame")
local NEG = Fr.NEG
local DG_MAX = Fr.DG_MAX
local GAP_MAX = Fr.GAP_MAX
local GAP_SLOPE = Fr.GAP_SLOPE
local sorted_keys = Fr.sorted_keys
local neighbors = Fr.neighbors
local is_rail = Fr.is_rail
local estimates = Fr.estimates
local odds_ev = Fr.odds_ev
local cached = Fr.cached
local lazy = Fr.lazy
local occupied_sig = Fr.occupied_sig
local goal_of = Fr.goal_of
local defence_estimate = Fr.defence_estimate
local attack_estimate = Fr.attack_estimate

local Mv = {}

-- Scores: movement ----------------------------------------------------------------------------
--
-- A move is scored in two parts: what depends only on the moving group (worked out once per group,
-- `group_scorer`) and what depends on the destination (the returned function).

local function group_units(F, ids)
  local out = {}
  for _, id in ipairs(ids) do
    local u = F.by_id[id] or kessel.units.get(id)
    out[#out + 1] = u
  end
  return out
end

-- Movement class a group travels with (the slowest).
local CLASS_RANK = { infantry = 1, cavalry = 2, leader = 3, motorized = 4 }
local function group_class(units)
  local rank = CLASS_RANK
  local best, br = "motorized", 99
  for _, u in ipairs(units) do
    local c = C.class(u) or "infantry"
    if (rank[c] or 1) < br then best, br = c, rank[c] or 1 end
  end
  if best == "leader" then best = "motorized" end
  return best
end

-- Per frame: combat units and all units of each side per hex (frame() fills them).
-- Units of `side` at `hex` (not counting `excluding`), as counts.
local function counts_at(F, hex, side, excluding)
  if not excluding then
    local cs = F.count[side]
    return cs.c[hex] or 0, cs.t[hex] or 0
  end
  local combat, total = 0, 0
  for _, u in ipairs(F.at[hex] or {}) do
    if u.side == side and not (excluding and excluding[u.id]) then
      total = total + 1
      if C.is_combat_unit(u) then combat = combat + 1 end
    end
  end
  return combat, total
end

local function over_limit(side, combat, total)
  if side == C.SOVIET then return combat > 3 or total > 4 end
  return total > 3
end

local DIVISION_TYPES = { panzer = true, rifle_mot = true, motorized = true }
local GERMAN = C.GERMAN
local FAR = 400

-- Attack set-up (strong Fr.level): in the Movement Phase before his Combat Phase a side weighs how a
-- move changes the attacks it can make next, hex by enemy hex: the attack strength already next to
-- the hex plus the movers' against its defence. An attack worth making (EV above the side's need,
-- see attack_score) is worth 1 + EV, times SETUP_WEIGHT of the side. Moves that bring several
-- stacks around one hex add up, so multi-hex attacks get built; leaving an attack short costs.
-- Sides that plan attacks this way at the fast Fr.level too.
local SETUP_FAST = { soviet = true }
local SETUP_NEED = { german = 0.85, soviet = 0.15 }
local SETUP_WEIGHT = { german = 4, soviet = 3 }
local function setup_potential(side, att, def)
  local ev = odds_ev(att, def)
  if ev < SETUP_NEED[side] then return 0 end
  return 1 + ev
end

-- A unit's attack as the set-up counts it, kept in `memo` (the step's: F.setup_att).
local function unit_attack(memo, u)
  local a = memo[u.id]
  if a == nil then a = attack_estimate({ u }, false); memo[u.id] = a end
  return a
end

-- Per frame: enemy hex -> { def = estimated defence, adj = attack of own units next to it } for the
-- phasing side, or false outside a Movement Phase that comes before the side's Combat Phase.
lazy.setup = function(F)
  if not C.step_is("german_movement", "soviet_movement") then return false end
  local me = C.phasing()
  if Fr.level ~= "strong" and not SETUP_FAST[me] then return false end
  local enemy = C.other(me)
  -- (the enemy does not move in this phase: its defences are kept for the phase)
  local defs = cached("setup_def:" .. occupied_sig(enemy), function()
    local d = {}
    for hex, list in pairs(F.at) do
      local e = false
      for _, u in ipairs(list) do
        if u.side == enemy and C.is_combat_unit(u) then e = true; break end
      end
      if e then d[hex] = defence_estimate({ hex }, {}) end
    end
    return d
  end)
  -- the hexes next to an enemy stack, where a move can change an attack (kept like the defences)
  rawset(F, "setup_near", cached("setup_near:" .. occupied_sig(enemy), function()
    local near = {}
    for hex in pairs(defs) do
      for _, n in ipairs(neighbors(hex)) do near[n] = true end
    end
    return near
  end))
  local att_memo = cached("setup_att", function() return {} end)
  rawset(F, "setup_att", att_memo)
  local out = {}
  for hex, d in pairs(defs) do out[hex] = { def = d, adj = 0 } end
  for _, u in ipairs(F.units[me]) do
    if C.is_combat_unit(u) and C.on_map(u) and not C.disrupted(u) then
      local a = unit_attack(att_memo, u)
      for _, n in ipairs(neighbors(u.hex)) do
        local t = out[n]
        if t then t.adj = t.adj + a end
      end
    end
  end
  return out
end

-- The set-up scorer of a moving group from `from` (nil when it enters): function(dest) -> the
-- change in attack potential, or nil when the Fr.level or phase does not plan attacks.
local function setup_scorer(F, units, from)
  local info = F.setup
  if not info or not from then return nil end   -- (units entering the map are left to their own scores)
  local side = units[1].side
  -- (a group's attack is the sum of its units' [9.1]: each unit's is kept for the phase, as the
  -- attacks next to each enemy hex are)
  local att, n = 0, 0
  local memo = F.setup_att
  for _, u in ipairs(units) do
    if C.is_combat_unit(u) then
      att, n = att + unit_attack(memo, u), n + 1
    end
  end
  if n == 0 then return nil end
  local w = SETUP_WEIGHT[side]
  -- what leaving costs: the attacks next to `from` lose the movers
  local here, loss = {}, 0
  if from then
    for _, n in ipairs(neighbors(from)) do
      local t = info[n]
      if t then
        here[n] = true
        loss = loss + setup_potential(side, t.adj, t.def) - setup_potential(side, t.adj - att, t.def)
      end
    end
  end
  local near = F.setup_near
  return function(dest)
    -- (away from every enemy stack a move adds to no attack: only what leaving costs counts)
    if not near[dest] then return w * (0 - loss) end
    local best = 0
    for _, n in ipairs(neighbors(dest)) do
      local t = info[n]
      if t then
        local base = here[n] and t.adj - att or t.adj
        local g = setup_potential(side, base + att, t.def) - setup_potential(side, base, t.def)
        if g > best then best = g end
      end
    end
    return w * (best - loss)
  end
end

-- Encircling: the hexes around each objective hex the German does not own and the Soviet holds,
-- outside the German's zone of control now. A German stack whose zone covers them closes the
-- defenders' lines [11.2] (out of supply, they defend at half [11.3]). Kept per hex a stack might
-- end on: how many such hexes its zone would cover (one count per objective hex they touch).
local RING_W = 1.0
local RING_TURNS = 4   -- over the last four turns, as the attack threshold falls
lazy.ring = function(F)
  local ring = {}
  if kessel.game.last_turn() - F.turn >= RING_TURNS then return ring end
  local gz = require("rules.zoc").zoc_of(C.GERMAN)
  for _, t in ipairs(F.targets) do
    local held = false
    for _, u in ipairs(F.at[t] or {}) do if u.side == C.SOVIET then held = true; break end end
    if held then
      for _, n in ipairs(neighbors(t)) do
        if not gz:has(n) and kessel.map.terrain(n) ~= "lake" then
          local sov = false
          for _, u in ipairs(F.at[n] or {}) do if u.side == C.SOVIET then sov = true; break end end
          if not sov then ring[n] = (ring[n] or 0) + 1 end
        end
      end
    end
  end
  local cover = {}
  for n, k in pairs(ring) do
    cover[n] = (cover[n] or 0) + k
    for _, h in ipairs(neighbors(n)) do cover[h] = (cover[h] or 0) + k end
  end
  return cover
end

local function german_scorer(F, units, from, extra)
  local D = goal_of(F, group_class(units))
  local tset, vp = F.tset, F.obj.vp
  local ids, forms = {}, {}
  for _, u in ipairs(units) do
    ids[u.id] = true
    if u.formation then forms[u.formation] = true end
  end
  local n = #units
  local const, per_mp = 0, 1.0
  local garrison = F.garrison
  local mech_only = true   -- (infantry makes the better garrison: the panzers are for the advance)
  for _, u in ipairs(units) do if C.class(u) ~= "motorized" then mech_only = false end end
  if from then
    const = D[from] or FAR
    local c0, t0 = counts_at(F, from, C.GERMAN)
    if over_limit(C.GERMAN, c0, t0) then const = const + 50 end   -- leaving an over-full hex
    -- leaving a threatened city hex empty
    if garrison[from] and t0 <= n then const = const - garrison[from] end
    for _, u in ipairs(F.at[from] or {}) do
      -- breaking up a division [7.3]
      if not ids[u.id] and u.formation and forms[u.formation] and DIVISION_TYPES[u.type] then const = const - 6 end
    end
  else
    const, per_mp = 60, 0.05   -- reinforcements come in
  end
  local mech = F.mech_phase
  local dz = F.dz
  local setup = setup_scorer(F, units, from)
  local ring = F.ring
  local at = F.at
  local gc, gt = F.count[GERMAN].c, F.count[GERMAN].t
  return function(dest)
    local c1, t1
    if dest == from then c1, t1 = counts_at(F, dest, GERMAN, ids)
    else c1, t1 = gc[dest] or 0, gt[dest] or 0 end
    if t1 + n > 3 then return -1000 + extra end   -- (over_limit, written out: this runs for every destination)
    local score = const - (D[dest] or FAR) * per_mp
    if setup then score = score + setup(dest) end
    score = score + RING_W * (ring[dest] or 0)
    if tset[dest] and t1 == 0 then score = score + 15 + (vp[dest] or 0) / 2 end   -- capture
    if garrison[dest] and t1 == 0 and dest ~= from then   -- garrison an empty threatened city hex
      score = score + garrison[dest] * (mech_only and 0.6 or 1)
    end
    local here = at[dest]
    if here then
      for _, u in ipairs(here) do
        if u.side == GERMAN and not ids[u.id] then
          if u.formation and forms[u.formation] then score = score + 2 else score = score - 0.5 end
        end
      end
    end
    if (dz[dest] or 99) <= 1 then
      if mech then score = score - 0.5 else score = score + 0.5 end
    end
    return score + extra
  end
end

-- Defensive worth of a hex's terrain (kept per map: C.per_map).
local function terrain_bonus(hex)
  local terrain_memo = C.per_map("ai_terrain_bonus", function() return {} end)
  local v = terrain_memo[hex]
  if v == nil then
    v = 0
    if kessel.map.terrain(hex) == "forest" then v = v + 0.5 end
    local p = kessel.map.place(hex)
    if p and p.kind == "major_city" then v = v + 1 end
    terrain_memo[hex] = v
  end
  return v
end

-- How much a Soviet combat unit is worth at `hex` with `n` combat units there (itself included).
-- Look-ahead at the German's next turn (strong Fr.level, Soviet Movement Phase): per objective hex,
-- the attack the German stacks could bring against it (each stack whose movement field, by the
-- terrain effects chart at its own movement allowance and ignoring zones of control, reaches the
-- hex or a hex next to it, at half again its strength for divisional integrity [7.3]) and the
-- hex's terrain multiplier; a Soviet stack there is then worth its objective's VP times the chance
-- that such an attack does not hurt it (no D result), so the cities and exits the German can reach
-- draw the units that keep his odds down.
local THREAT_WEIGHT = 2.5
lazy.threat = function(F)
  if Fr.level ~= "strong" or not C.step_is("soviet_movement") then return false end
  return cached("threat:" .. occupied_sig(C.GERMAN), function()
    local stacks = {}
    for _, u in ipairs(F.units.german) do
      if C.is_combat_unit(u) and C.on_map(u) and not C.disrupted(u) then
        local st = stacks[u.hex]
        if not st then st = { units = {} }; stacks[u.hex] = st end
        st.units[#st.units + 1] = u
      end
    end
    local att_at = {}   -- hex -> German attack that can reach it or a hex next to it
    for _, hex in ipairs(sorted_keys(stacks)) do
      local units = stacks[hex].units
      local ma = 99
      for _, u in ipairs(units) do ma = math.min(ma, M.ma(u)) end
      local a = attack_estimate(units, false) * 1.5
      local field = kessel.paths.reach{ from = { hex }, budget = ma,
        step = { class = group_class(units), side = C.GERMAN } }
      local near = {}
      for h in pairs(field) do
        near[h] = true
        for _, n in ipairs(neighbors(h)) do near[n] = true end
      end
      for h in pairs(near) do
        if F.obj.vp[h] then att_at[h] = (att_at[h] or 0) + a end
      end
    end
    local out = {}
    for h, att in pairs(att_at) do
      out[h] = { att = att, mult = K.terrain_multiplier(h, {}), vp = F.obj.vp[h] }
    end
    return out
  end)
end

local RAIL_GAP, RAIL_BONUS = 5, 0.6
local SLACK_W = 1.5

-- The part of a Soviet unit's worth at `hex` that does not depend on the stack there: its
-- distance from the front, terrain, command; with the objective's weight and whether the hex is at
-- the front. It depends on the leaders and the German units only, as the command hexes `cmd` do, so
-- it is kept with that table (a new one whenever either changes).
local hex_memo = setmetatable({}, { __mode = "k" })
local function worth_memo(cmd)
  local memo = hex_memo[cmd]
  if memo == nil then memo = { base = {}, vpw = {}, front = {} }; hex_memo[cmd] = memo end
  return memo
end
local function hex_worth(F, hex, cmd)
  local memo = worth_memo(cmd)
  local base = memo.base[hex]
  if base ~= nil then return base, memo.vpw[hex], memo.front[hex] end
  local dg = F.dg[hex] or DG_MAX
  local v
  if dg <= 1 then v = 1.5 elseif dg == 2 then v = 2 elseif dg == 3 then v = 1
  else v = 1 - (dg - 3) * 0.35 end
  local vp = F.obj.vp[hex]
  local vpw = false
  if vp then
    vpw = 3 + vp / 5
    if dg <= 10 then vpw = vpw * 1.5 end
  end
  local front = dg <= 3
  if front then v = v + terrain_bonus(hex) end
  if not cmd[hex] then
    -- out of every working leader's radius [10.35] [11.2]: worse the farther beyond it, so that a
    -- unit left behind walks back toward a leader instead of staying put
    local gap = math.max(F.leader_gap(hex), 0)
    v = v - 3 - GAP_SLOPE * math.min(gap, GAP_MAX)
    -- far from every leader, a railway hex is the way back: next turn the unit may ride up to 30
    -- hexes [6.3] instead of walking at half speed [11.3]
    if gap >= RAIL_GAP and dg >= 6 and is_rail(hex) then v = v + RAIL_BONUS * math.min(gap, 15) end
  elseif front then
    -- near the front, at the rim of the radius: the German's next move cuts such a line with
    -- a detour of a hex [11.2]; a hex or two to spare keeps it
    local spare = -F.leader_gap(hex)
    if spare < 2 then v = v - SLACK_W * (2 - math.max(spare, 0)) end
  end
  memo.base[hex], memo.vpw[hex], memo.front[hex] = v, vpw, front
  return v, vpw, front
end

-- The worth of a unit at a hex whose own worth is `v, vpw, front` (hex_worth), with `n` combat
-- units and `total` units there.
local function unit_value_at(F, hex, v, vpw, front, n, total)
  if n > 3 or total > 4 then return -500 end
  if vpw and n <= 3 then v = v + vpw * (4 - n) / 3 end
  if front then v = v + 0.4 * (n - 1) end
  local th = F.threat and F.threat[hex]
  if th and n > 0 then
    -- (the stack's share of what holding the hex against the German's next attack is worth)
    local _, hurt = odds_ev(th.att, n * estimates().rifle.d * th.mult)
    v = v + THREAT_WEIGHT * th.vp * (1 - hurt) / n
  end
  return v
end

local function soviet_unit_value(F, hex, n, total, cmd)
  if n > 3 or total > 4 then return -500 end
  local v, vpw, front = hex_worth(F, hex, cmd)
  return unit_value_at(F, hex, v, vpw, front, n, total)
end

local function soviet_leader_value(F, hex, combat, total)
  local dg = F.dg[hex] or 40
  if combat > 3 or total > 4 then return -500 end
  -- (capped: far from the front a leader stays with the units it keeps in supply)
  local v = -math.min(math.abs(dg - 3), 8) * 0.5
  if dg <= 1 then v = v - 4 end
  if combat > 0 then v = v + 1 end
  return v
end

-- Combat units a leader of rating `r` at `hex` would reach by hex distance [10.35] and no other
-- leader (outside `moving`) does: what a leader's place is worth for supply [11.2].
local LEADER_COVER = 0.6
-- Hexes within `r` of `hex` (by hex distance), as a set; kept per map (a bounded number of them).
local within_memo, within_count, within_epoch = {}, 0, nil
local function within(hex, r)
  local key = hex .. ":" .. r
  local epoch = C.map_epoch()
  if epoch ~= within_epoch then within_memo, within_count, within_epoch = {}, 0, epoch end
  local set = within_memo[key]
  if set == nil then
    if within_count >= 4000 then within_memo, within_count = {}, 0 end
    set = {}
    for _, h in ipairs(kessel.hex.range(hex, r)) do set[h] = true end
    within_memo[key] = set
    within_count = within_count + 1
  end
  return set
end
-- Per frame: each Soviet combat unit with the working leaders whose rating reaches it.
lazy.cover_info = function(F)
  local leaders, out = {}, {}
  for _, l in ipairs(F.units.soviet) do
    if L.rating(l) > 0 then leaders[#leaders + 1] = l end
  end
  local reach = {}
  for i, l in ipairs(leaders) do reach[i] = within(l.hex, L.rating(l)) end
  for _, u in ipairs(F.units.soviet) do
    if C.is_combat_unit(u) then
      local by = {}
      for i, l in ipairs(leaders) do
        if reach[i][u.hex] then by[#by + 1] = l.id end
      end
      out[#out + 1] = { id = u.id, hex = u.hex, by = by }
    end
  end
  return out
end
-- The hexes of the combat units outside `moving` that no leader outside `moving` reaches (they
-- depend on the moving group only: worked out once per group, kept by the group's id table).
local function uncovered(F, moving)
  local memo = F.uncovered_memo
  if memo == nil then memo = {}; F.uncovered_memo = memo end
  local list = memo[moving]
  if list == nil then
    list = {}
    for _, c in ipairs(F.cover_info) do
      if not moving[c.id] then
        local other = false
        for _, id in ipairs(c.by) do
          if not moving[id] then other = true; break end
        end
        if not other then list[#list + 1] = c.hex end
      end
    end
    memo[moving] = list
  end
  return list
end
-- (Counted per hex, per moving group and rating: how many of those units are within `r` of it,
-- and half for each just beyond, within `r` + 2: such a unit can still walk back into the
-- radius.)
local cover_counts, cover_count_n = {}, 0
local function cover_table(F, r, moving)
  local memo = F.cover_memo
  if memo == nil then memo = {}; F.cover_memo = memo end
  local per = memo[moving]
  if per == nil then per = {}; memo[moving] = per end
  local count = per[r]
  if count == nil then
    -- (the same uncovered units give the same counts: kept across decisions, a bounded number)
    local list = uncovered(F, moving)
    local key = r .. ":" .. table.concat(list, ",")
    count = cover_counts[key]
    if count == nil then
      -- (worked out per hex when first asked: a group asks for its destinations only, a few
      -- dozen hexes, where the whole table covers every hex near every uncovered unit)
      local near, far = {}, {}
      for i, h in ipairs(list) do near[i], far[i] = within(h, r), within(h, r + 2) end
      count = setmetatable({}, { __index = function(t, x)
        local n = false
        for i = 1, #list do
          if far[i][x] then n = (n or 0) + (near[i][x] and 1 or 0.5) end
        end
        t[x] = n
        return n
      end })
      if cover_count_n >= 200 then cover_counts, cover_count_n = {}, 0 end
      cover_counts[key] = count
      cover_count_n = cover_count_n + 1
    end
    per[r] = count
  end
  return count
end

local function soviet_scorer(F, units, from, extra)
  local cmd = F.cmd
  local ids = {}
  local nc, nl = 0, 0
  local lr = 0   -- the best working rating among the moving leaders
  for _, u in ipairs(units) do
    ids[u.id] = true
    if C.is_leader(u) then nl = nl + 1; lr = math.max(lr, L.rating(u)) else nc = nc + 1 end
  end
  local const
  if from then
    local oc, ot = counts_at(F, from, C.SOVIET)
    const = -(nc * soviet_unit_value(F, from, oc, ot, cmd) + nl * soviet_leader_value(F, from, oc, ot))
    -- the units staying behind gain from the room
    local rest_c = oc - nc
    if rest_c > 0 then
      local was = soviet_unit_value(F, from, oc, ot, cmd)
      local now = soviet_unit_value(F, from, rest_c, ot - nc - nl, cmd)
      const = const + rest_c * (now - was)
    end
  else
    const = 2   -- off the map: coming in is worth it
  end
  local cover = lr > 0 and cover_table(F, lr, ids) or nil
  if cover and from then const = const - LEADER_COVER * (cover[from] or 0) end
  local setup = setup_scorer(F, units, from)
  local cs = F.count[C.SOVIET]
  local cs_c, cs_t = cs.c, cs.t
  -- (hex_worth's memo for these command hexes, read here without a call per destination)
  local hm = worth_memo(cmd)
  local h_base, h_vpw, h_front = hm.base, hm.vpw, hm.front
  local threat = F.threat
  return function(dest)
    local dc, dt
    if dest == from then dc, dt = counts_at(F, dest, C.SOVIET, ids)
    else dc, dt = cs_c[dest] or 0, cs_t[dest] or 0 end
    local after_c, after_t = dc + nc, dt + nc + nl
    if after_c > 3 or after_t > 4 then return -1000 + extra end
    local v, vpw, front = h_base[dest], nil, nil
    if v == nil then v, vpw, front = hex_worth(F, dest, cmd) else vpw, front = h_vpw[dest], h_front[dest] end
    local now
    if threat then now = unit_value_at(F, dest, v, vpw, front, after_c, after_t)
    else
      -- unit_value_at without the look-ahead, written out (this runs for every destination)
      now = v
      if vpw then now = now + vpw * (4 - after_c) / 3 end
      if front then now = now + 0.4 * (after_c - 1) end
    end
    local score = const + nc * now + (nl > 0 and nl * soviet_leader_value(F, dest, after_c, after_t) or 0)
    if setup and cmd[dest] then score = score + setup(dest) end
    if dc > 0 then   -- the units already there lose room
      local was = unit_value_at(F, dest, v, vpw, front, dc, dt)
      score = score + dc * (now - was)
    end
    if cover then score = score + LEADER_COVER * (cover[dest] or 0) end
    return score + extra
  end
end

-- The scorer of a group's moves: function(dest) -> score.
local function group_scorer(F, ids, kind)
  local units = group_units(F, ids)
  if #units == 0 then return function() return NEG end end
  local side = units[1].side
  local from = units[1].location == "map" and units[1].hex or nil
  local extra = kind == "rail_move" and -0.5 or 0
  -- first turn: the 13th and 20th Armies must spend their movement [5.2]
  if F.turn == 1 and from and side == C.SOVIET then
    for _, u in ipairs(units) do if M.first_turn_full_ma(u) then extra = extra + 0.2 end end
  end
  -- (the scorers add `extra` last, as a separate term)
  if side == C.GERMAN then return german_scorer(F, units, from, extra) end
  return soviet_scorer(F, units, from, extra)
end

local function move_score(F, a)
  return group_scorer(F, a.units or {}, a.kind)(a.path[#a.path])
end

Mv.group_units = group_units
Mv.group_class = group_class
Mv.counts_at = counts_at
Mv.over_limit = over_limit
Mv.group_scorer = group_scorer
Mv.unit_attack = unit_attack
Mv.move_score = move_score

return Mv
