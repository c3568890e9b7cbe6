-- [9.7] Retreat and [9.8] advance after combat.
--
-- [9.72] The owner decides to retreat; the OPPONENT picks each path, hex by hex, from the legal
-- set computed here (`retreat{units=, path=}`; an empty path when no legal path exists eliminates
-- the units). A path is exactly as long as the result (1 or 2 hexes), never enters a hex twice or
-- goes back to the starting hex, never enters enemy units, lake hexes or crosses lake hexsides, and
-- never enters a hex in an enemy zone of control unless a friendly unit is there [9.71].
-- [6.4] On turns 1–6 a Soviet unit may not retreat into columns 01–02: with no other path it dies.
-- [9.71] The path must end in an empty hex when one can be reached; otherwise on friends, within
-- stacking limits (units beyond the limit are eliminated [7]).
-- [9.73] A unit retreated onto friends adds nothing to their defence and dies if that hex suffers
-- a further loss or retreat result this phase (Eng excepted) — flag "retreated_onto".
-- Standard: each retreating stack moves as one along one path, in the order of the stacks.
-- WBC09 #1  absolute priority: empty hex, friendly hex out of enemy ZOC, friendly hex in enemy ZOC,
--           death — judged over all the units retreating from the combat, not stack by stack:
--           the retreats must put as many units as possible into empty hexes, then as many as
--           possible into friendly hexes out of enemy ZOC, then into friendly hexes in enemy ZOC.
--           The best counts are worked out over every way the remaining stacks (moved whole: a
--           stack need not split) may retreat, in their order (WBC09 #2: in any order), each hex
--           judged as it is when that stack arrives, units over the stacking limit counting as
--           dead; a path (or, with no path, an elimination) is refused when the counts it leaves
--           attainable fall short of the best (R.priority_reason). The search (`reach`) is a
--           branch and bound over canonical states: it gives the same answers as trying every
--           way, without trying them all.
-- WBC09 #1a no retreating unit enters or passes a hex that another unit retreating from the same
--           combat occupied when its retreat began, whichever side it belongs to: after a split
--           result the attackers may not retreat into or through the hexes the defenders left.
-- WBC09 #1b after a split result against one defender who was eliminated, the attackers may not
--           retreat into its hex.
-- WBC09 #1c retreats of one combat are simultaneous: no path may leave another unit of the same
--           retreat without a path it still had, unless every path of the moving units would
--           (then not all can be saved and the opponent picks freely).
-- WBC09 #2  the opponent may split stacks and retreat units one by one in any order.
--
-- [9.8] Victorious units may advance at once into the hexes the loser left, along the retreat path
-- (as many hexes as the loser retreated), stopping anywhere and ignoring enemy zones of control;
-- when the hex was emptied by elimination they may advance two hexes, the first being that hex.
-- Units that advanced cannot attack again this phase (flag "advanced").
local C = require("rules.common")
local Z = require("rules.zoc")
local K = require("rules.combat")
local U = require("rules.untried")
local R = {}

local ST = require("rules.stacking")

-- Stacking [7.1] [7.2], as stacking.lua counts it.
function R.limit_ok(side, units) return (ST.limit_ok(side, units)) end

-- The kinds of `units` in order, as stacking counts them [7]: "L" a leader, "C" a combat unit.
local function kinds(units)
  local t = {}
  for i, u in ipairs(units) do t[i] = C.is_leader(u) and "L" or "C" end
  return table.concat(t)
end

local function units_after(hex, group, extra, gone)
  local list = {}
  for _, u in ipairs(kessel.units.at(hex)) do
    if not (gone and gone[u.id]) then list[#list + 1] = u end
  end
  for _, u in ipairs((extra and extra[hex]) or {}) do list[#list + 1] = u end
  for _, u in ipairs(group) do if u.hex ~= hex then list[#list + 1] = u end end
  return list
end

-- Every legal retreat path of `group` (units in one hex) of length `n`, each {path=, class=, fits=}:
-- class 1 empty hex, 2 friendly hex out of enemy ZOC, 3 friendly hex in enemy ZOC.
-- ctx: forbidden (hex → true), extra (hex → units placed there in a simulation), gone (unit id →
-- true: units a simulation has moved away or eliminated), ezoc (the enemy ZOC, when known).
function R.paths(group, n, ctx)
  ctx = ctx or {}
  local side = group[1].side
  local origin = group[1].hex
  local ezoc = ctx.ezoc or Z.enemy_zoc(side)
  local gone = ctx.gone or {}
  local ingroup = {}
  for _, u in ipairs(group) do ingroup[u.id] = true end
  local turn = kessel.game.turn()
  local function friends(h)
    for _, u in ipairs(kessel.units.at(h)) do
      if u.side == side and not ingroup[u.id] and not gone[u.id] then return true end
    end
    return ctx.extra and ctx.extra[h] and #ctx.extra[h] > 0
  end
  local function enemy(h)
    for _, u in ipairs(kessel.units.at(h)) do if u.side ~= side then return true end end
    return false
  end
  local function open(from, h)
    if kessel.map.has_side(from, h, "lake") or kessel.map.terrain(h) == "lake" then return false end
    if enemy(h) then return false end
    if ctx.forbidden and ctx.forbidden[h] then return false end
    if side == C.SOVIET and turn <= 6 and kessel.map.column(h) <= 2 then return false end
    if ezoc:has(h) and not friends(h) then return false end
    return true
  end
  local out = {}
  local path, used = {}, { [origin] = true }
  local function walk(from, depth)
    if depth == n then
      local last = path[#path]
      local class = 1
      if friends(last) then class = ezoc:has(last) and 3 or 2 end
      local copy = {}
      for i, h in ipairs(path) do copy[i] = h end
      out[#out + 1] = { path = copy, class = class, fits = R.limit_ok(side, units_after(last, group, ctx.extra, gone)) }
      return
    end
    for _, h in ipairs(kessel.hex.neighbors(from)) do
      if not used[h] and open(from, h) then
        used[h] = true
        path[#path + 1] = h
        walk(h, depth + 1)
        path[#path] = nil
        used[h] = nil
      end
    end
  end
  walk(origin, 0)
  return out
end

-- The paths the opponent may pick for this group alone. Standard [9.71]: the path must end in an
-- empty hex when one can be reached. WBC09 #1: every legal path, the priority being judged over the
-- whole combat (R.priority_reason).
function R.allowed(group, n, ctx)
  local all = R.paths(group, n, ctx)
  if C.option("wbc09_01_retreat_priority") then return all end
  local best = 4
  for _, p in ipairs(all) do if p.class < best then best = p.class end end
  local out = {}
  for _, p in ipairs(all) do
    if best ~= 1 or p.class == 1 then out[#out + 1] = p end
  end
  return out
end

-- The retreat in progress: fresh units still to retreat, grouped by hex in order.
local function remaining_groups(cb)
  local groups, order = {}, {}
  for _, id in ipairs(cb.retreat.remaining) do
    local u = kessel.units.get(id)
    if u and u.location == "map" then
      if not groups[u.hex] then groups[u.hex] = {}; order[#order + 1] = u.hex end
      table.insert(groups[u.hex], u)
    end
  end
  return groups, order
end

-- Where the units retreating from this combat started, whichever side they belong to (unit id ->
-- hex): the defenders who retreated and, after a split result, the attackers (WBC09 #1a).
local function retreat_origins(cb)
  return cb.retreat_origins or cb.retreat.origin
end

-- Was `hex` first occupied by another unit retreating from this combat? (WBC09 #1a)
local function origin_of_other(cb, group, hex)
  local mine = {}
  for _, u in ipairs(group) do mine[u.id] = true end
  for id, h in pairs(retreat_origins(cb)) do
    if h == hex and not mine[id] and h ~= group[1].hex then return true end
  end
  return false
end

-- Hexes no path of this retreat may enter (WBC09 #1a across both sides of the combat, #1b).
local function forbidden(cb, group)
  local f = {}
  if C.option("wbc09_01a_no_switching_places") then
    local mine = {}
    for _, u in ipairs(group) do mine[u.id] = true end
    for id, h in pairs(retreat_origins(cb)) do
      if not mine[id] and h ~= group[1].hex then f[h] = true end
    end
  end
  if C.option("wbc09_01b_no_retreat_into_lone_defender_hex") and cb.retreat.who == "attacker"
    and cb.result:find("/") and #cb.defenders == 1 then
    local d = kessel.units.get(cb.defenders[1])
    if d.location ~= "map" then f[cb.def_hexes[1]] = true end
  end
  return f
end

-- Does every other group that had a fitting path keep one if `group` goes to `dest`? (WBC09 #1c)
-- `memo` (optional): the answers already worked out for this state of the retreat.
local function cuts_off(cb, group, dest, memo)
  local key = table.concat(C.ids(group), ",") .. ">" .. tostring(dest)
  if memo and memo.cut[key] ~= nil then return memo.cut[key] or nil end
  local groups, order = remaining_groups(cb)
  local mine = {}
  for _, u in ipairs(group) do mine[u.id] = true end
  local victim = nil
  for _, h in ipairs(order) do
    local others = {}
    for _, u in ipairs(groups[h]) do if not mine[u.id] then others[#others + 1] = u end end
    if #others > 0 then
      -- (the answer depends on the other group, the hex and the kinds of units put there [7])
      local function has_fit(extra)
        local fkey = extra and (table.concat(C.ids(others), ",") .. ">" .. dest .. ":" .. kinds(group))
          or table.concat(C.ids(others), ",")
        if memo and memo.fit[fkey] ~= nil then return memo.fit[fkey] end
        local found = false
        for _, p in ipairs(R.allowed(others, cb.retreat.n, { forbidden = forbidden(cb, others), extra = extra,
          ezoc = memo and memo.ezoc })) do
          if p.fits then found = true; break end
        end
        if memo then memo.fit[fkey] = found end
        return found
      end
      if has_fit(nil) and not has_fit({ [dest] = group }) then victim = C.name(others[1]); break end
    end
  end
  if memo then memo.cut[key] = victim or false end
  return victim
end

-- WBC09 #1: the best placement of the whole combat's retreat ----------------------------------
--
-- A count is {empty, friendly out of enemy ZOC, friendly in enemy ZOC}: how many retreating units
-- end in each class of hex. Counts compare in that order (the most units in empty hexes first).

local function vec(e, f, z) return { e or 0, f or 0, z or 0 } end
local function vadd(a, b) return { a[1] + b[1], a[2] + b[2], a[3] + b[3] } end
local function vsub(a, b) return { a[1] - b[1], a[2] - b[2], a[3] - b[3] } end
local function vcmp(a, b)
  for i = 1, 3 do
    if a[i] ~= b[i] then return a[i] > b[i] and 1 or -1 end
  end
  return 0
end
local function vtext(v)
  return string.format("%d in empty hexes, %d in friendly hexes out of enemy ZOC, %d in friendly hexes in enemy ZOC", v[1], v[2], v[3])
end

-- Puts `group` in `dest` (a hex of class `class`) in the simulated `state`: the count it scores
-- and the state after, units beyond the stacking limit being eliminated [7].
-- With no `dest` the group is eliminated for want of a path [9.71].
local function simulate(group, dest, class, state)
  local survivors = {}
  if dest then
    local here = {}
    for _, u in ipairs(kessel.units.at(dest)) do
      if not state.gone[u.id] then here[#here + 1] = u end
    end
    for _, u in ipairs(state.extra[dest] or {}) do here[#here + 1] = u end
    for _, u in ipairs(group) do
      local trial = { table.unpack(here) }
      trial[#trial + 1] = u
      if R.limit_ok(u.side, trial) then here = trial; survivors[#survivors + 1] = u end
    end
  end
  local v = vec()
  if dest then v[class] = #survivors end
  local extra, gone = {}, {}
  for h, list in pairs(state.extra) do extra[h] = list end
  for id in pairs(state.gone) do gone[id] = true end
  for _, u in ipairs(group) do gone[u.id] = true end
  if dest then
    local list = { table.unpack(extra[dest] or {}) }
    for _, u in ipairs(survivors) do list[#list + 1] = u end
    extra[dest] = list
  end
  return v, { extra = extra, gone = gone }
end

-- The destinations a group may retreat to in the simulated state, each {dest=, class=}, best class
-- first; an empty list when it has no path.
-- The answer depends only on where the group starts and on which hexes within reach hold friends
-- (units of its side that have not moved away, or units the simulation has put there), so it is
-- kept per starting hex and pattern of friendly hexes.
local function destinations(cb, group, state, memo)
  local from = group[1].hex
  local near = memo.near[from]
  if not near then
    near = {}
    for _, h in ipairs(kessel.hex.range(from, cb.retreat.n)) do
      if h ~= from then
        local ids = {}
        for _, u in ipairs(kessel.units.at(h)) do if u.side == memo.side then ids[#ids + 1] = u.id end end
        near[#near + 1] = { hex = h, ids = ids }
      end
    end
    memo.near[from] = near
  end
  local pattern = { from }
  for i, x in ipairs(near) do
    local friendly = false
    local extra = state.extra[x.hex]
    if extra and #extra > 0 then friendly = true
    else
      for _, id in ipairs(x.ids) do if not state.gone[id] then friendly = true; break end end
    end
    pattern[i + 1] = friendly and "1" or "0"
  end
  local key = table.concat(pattern)
  if memo.dests[key] then return memo.dests[key] end
  local seen, out = {}, {}
  local paths = R.paths(group, cb.retreat.n, { forbidden = forbidden(cb, group), extra = state.extra,
    gone = state.gone, ezoc = memo.ezoc })
  for _, p in ipairs(paths) do
    local d = p.path[#p.path]
    if not seen[d] then seen[d] = true; out[#out + 1] = { dest = d, class = p.class } end
  end
  table.sort(out, function(a, b)
    if a.class ~= b.class then return a.class < b.class end
    return a.dest < b.dest
  end)
  memo.dests[key] = out
  return out
end

-- The canonical key of a search state: the stacks still to retreat (each by its hex and the kinds
-- of its units in order; in any order of stacks under WBC09 #2, when the order is free) and, hex by
-- hex, how many combat units and leaders the simulation has placed there. States with one key have
-- one best count: the search sees units only through their side, hex and kind, and the units it
-- has moved are exactly the retreating units no longer in a stack.
local function state_key(stacks, state, free)
  local parts = {}
  for i, g in ipairs(stacks) do parts[i] = g[1].hex .. ":" .. kinds(g) end
  if free then table.sort(parts) end
  parts[#parts + 1] = "|"
  for _, h in ipairs(C.keys(state.extra)) do
    local list = state.extra[h]
    if #list > 0 then
      local l = 0
      for _, u in ipairs(list) do if C.is_leader(u) then l = l + 1 end end
      parts[#parts + 1] = h .. "=" .. (#list - l) .. "+" .. l
    end
  end
  return table.concat(parts, ";")
end

-- How many of the retreating side's units `hex` holds that will stay there whatever the search does:
-- units that do not retreat and units the simulation has placed there.
local function settled(memo, hex, state)
  local n = memo.stay[hex]
  if n == nil then
    n = 0
    for _, u in ipairs(kessel.units.at(hex)) do
      if u.side == memo.side and not memo.retreating[u.id] then n = n + 1 end
    end
    memo.stay[hex] = n
  end
  local extra = state.extra[hex]
  return n + (extra and #extra or 0)
end

-- The most units the `stacks` could put into the hexes `take(hex)` accepts, each stack into its
-- destinations `opts[i]`, no hex beyond its `room`: a maximum flow (letting a stack split, so a
-- bound), one unit at a time along augmenting paths.
local function most_units(stacks, opts, room, take)
  local flow, into, placed = {}, {}, {}
  for i = 1, #stacks do flow[i] = {}; placed[i] = 0 end
  local function push(i, seen_hex, seen_stack)
    seen_stack[i] = true
    for _, d in ipairs(opts[i]) do
      local h = d.dest
      if take(h) and not seen_hex[h] then
        seen_hex[h] = true
        if (into[h] or 0) < room[h] then
          into[h] = (into[h] or 0) + 1
          flow[i][h] = (flow[i][h] or 0) + 1
          return true
        end
        for j = 1, #stacks do   -- make room: a stack with units there sends one elsewhere
          if not seen_stack[j] and (flow[j][h] or 0) > 0 and push(j, seen_hex, seen_stack) then
            flow[j][h] = flow[j][h] - 1
            flow[i][h] = (flow[i][h] or 0) + 1
            return true
          end
        end
      end
    end
    return false
  end
  local total, grew = 0, true
  while grew do
    grew = false
    for i, g in ipairs(stacks) do
      while placed[i] < #g and push(i, {}, {}) do
        placed[i] = placed[i] + 1
        total = total + 1
        grew = true
      end
    end
  end
  return total
end

-- A count no way of retreating the `stacks` from `state` can beat, `opts[i]` being the
-- destinations of `stacks[i]` now (`destinations`). No later placement opens a path: a hex in enemy
-- ZOC is entered only where friends already are, so the friendly hexes in enemy ZOC (hence the
-- paths and destinations of every stack) can only become fewer.
-- Empty hexes: each takes at most one stack (it is friendly once entered), so the most units in
-- empty hexes is the heaviest set of stacks that can each be given a different destination out of
-- enemy ZOC that is, or may become, empty (a matching: taking the stacks biggest first and keeping
-- each that an augmenting path can place gives the heaviest set). Hexes out of enemy ZOC, empty or
-- friendly, hold no more than the room left in them [7] (`most_units`); all hexes likewise, and
-- hexes in enemy ZOC on their own. A hex in enemy ZOC whose only friends are a full stack still to
-- retreat takes nobody: no room while the stack is there, no entry once it has gone.
local function upper(stacks, opts, state, memo)
  local cands, order, room, present = {}, {}, {}, {}
  local cap = ST.capacity(memo.side)
  for _, g in ipairs(stacks) do present[g[1].hex] = #g end
  for i = 1, #stacks do
    local list = {}
    for _, d in ipairs(opts[i]) do
      local h = d.dest
      local n = settled(memo, h, state)
      room[h] = math.max(cap - n, 0)
      if n == 0 then
        if not memo.ezoc:has(h) then list[#list + 1] = h
        elseif (present[h] or 0) >= cap then room[h] = 0 end
      end
    end
    cands[i] = list
    order[i] = i
  end
  table.sort(order, function(a, b)
    if #stacks[a] ~= #stacks[b] then return #stacks[a] > #stacks[b] end
    return a < b
  end)
  local owner = {}
  local function place(i, seen)
    for _, h in ipairs(cands[i]) do
      if not seen[h] then
        seen[h] = true
        if not owner[h] or place(owner[h], seen) then owner[h] = i; return true end
      end
    end
    return false
  end
  local e = 0
  for _, i in ipairs(order) do
    if #cands[i] > 0 and place(i, {}) then e = e + #stacks[i] end
  end
  local ezoc = memo.ezoc
  local out = most_units(stacks, opts, room, function(h) return not ezoc:has(h) end)
  local all = most_units(stacks, opts, room, function() return true end)
  local inside = most_units(stacks, opts, room, function(h) return ezoc:has(h) end)
  e = math.min(e, out)
  return vec(e, out - e, math.min(all - out, inside))
end

local ONE = vec(0, 0, 1) -- the smallest step between two counts

-- Can the `stacks` (lists of units, each moving whole) still reach a count of at least `need` from
-- `state`: in their order, or (WBC09 #2, `memo.free`) in any order? A stack with a legal path must
-- take one; one without is eliminated [9.71]. Returns true and a count the stacks can reach (at
-- least `need`), or false and a count they cannot beat (below `need`).
-- A branch and bound search: counts compare the same way after adding or taking away the same
-- count, so each branch is asked for what it must reach, the search stops at the first branch that
-- reaches it, and a state is dropped as soon as its bound (`upper`) falls short. What is learnt of
-- a state (a count it reaches, a count it cannot beat) is kept under its canonical key.
local function reach(cb, stacks, state, memo, need)
  if #stacks == 0 then
    local zero = vec()
    return vcmp(zero, need) >= 0, zero
  end
  local key = state_key(stacks, state, memo.free)
  local known = memo.best[key]
  if not known then known = {}; memo.best[key] = known end
  if known.lo and vcmp(known.lo, need) >= 0 then return true, known.lo end
  if known.hi and vcmp(known.hi, need) < 0 then return false, known.hi end
  local opts = {}
  for i, g in ipairs(stacks) do opts[i] = destinations(cb, g, state, memo) end
  local top = known.hi or upper(stacks, opts, state, memo)
  if vcmp(top, need) < 0 then
    known.hi = top
    return false, top
  end
  known.hi = top
  local bound
  -- which stack moves first: the first (or, in any order, each in turn, those with the fewest ways
  -- out first: they are the likeliest to lose them)
  local firsts = { 1 }
  if memo.free then
    local class1 = {}
    for i = 1, #stacks do
      firsts[i] = i
      local n = 0
      for _, o in ipairs(opts[i]) do if o.class == 1 then n = n + 1 end end
      class1[i] = n
    end
    table.sort(firsts, function(a, b)
      if class1[a] ~= class1[b] then return class1[a] < class1[b] end
      if #opts[a] ~= #opts[b] then return #opts[a] < #opts[b] end
      return a < b
    end)
  end
  for _, i in ipairs(firsts) do
    local g = stacks[i]
    local rest = {}
    for j, h in ipairs(stacks) do if j ~= i then rest[#rest + 1] = h end end
    local choices = opts[i]
    if #choices == 0 then choices = { { dest = nil } } end
    for _, o in ipairs(choices) do
      local v, after = simulate(g, o.dest, o.class, state)
      local ok, r = reach(cb, rest, after, memo, vsub(need, v))
      local total = vadd(v, r)
      if ok then
        if not known.lo or vcmp(total, known.lo) > 0 then known.lo = total end
        return true, total
      end
      if not bound or vcmp(total, bound) > 0 then bound = total end
    end
  end
  known.hi = bound
  return false, bound
end

-- Can the `stacks` still reach a count of at least `need` from `state`?
local function can_reach(cb, stacks, state, memo, need)
  return (reach(cb, stacks, state, memo, need))
end

-- The best count the `stacks` can still reach from `state` (see `reach`): a count they reach, raised
-- until nothing better can be reached.
local function best_count(cb, stacks, state, memo)
  local _, best = reach(cb, stacks, state, memo, vec(0, 0, 0))
  while true do
    local ok, r = reach(cb, stacks, state, memo, vadd(best, ONE))
    if not ok then return best end
    best = r
  end
end

-- The remaining stacks of the retreat as lists of units, in order, leaving out `without` (ids).
local function stacks_of(cb, without)
  local groups, order = remaining_groups(cb)
  local out = {}
  for _, h in ipairs(order) do
    local g = {}
    for _, u in ipairs(groups[h]) do if not (without and without[u.id]) then g[#g + 1] = u end end
    if #g > 0 then out[#out + 1] = g end
  end
  return out
end

-- A fresh memo for one state of a retreat (shared by the checks of one enumeration): answers
-- already worked out (`best` per canonical search state, `dests` per start and pattern of friendly
-- hexes, `allowed` per group, `checked`, `cut` and `fit` per move), the enemy ZOC, which no retreat changes, and what
-- the search needs to know of the hexes (`near`, `stay`).
local function new_memo(cb)
  local side = K.side_of(cb, cb.retreat.who)
  local retreating = {}
  for _, id in ipairs(cb.retreat.remaining) do retreating[id] = true end
  return { best = {}, free = C.option("wbc09_02_opponent_orders_retreats"), ezoc = Z.enemy_zoc(side),
    checked = {}, cut = {}, fit = {}, allowed = {}, stay = {}, near = {}, dests = {}, side = side, retreating = retreating }
end

-- WBC09 #1: why moving `group` along `path` (empty: eliminated for want of a path) would make the
-- best count of the combat's retreat unattainable, or nil. With `memo.explain` the reason also
-- gives the best count still attainable after the move.
function R.priority_reason(cb, group, path, memo)
  if not C.option("wbc09_01_retreat_priority") then return nil end
  memo = memo or new_memo(cb)
  local dest = path[#path]
  local ckey = table.concat(C.ids(group), ",") .. ">" .. tostring(dest)
  if memo.checked[ckey] ~= nil then return memo.checked[ckey] or nil end
  local empty = { extra = {}, gone = {} }
  memo.now = memo.now or best_count(cb, stacks_of(cb), empty, memo)
  local class
  if dest then
    for _, o in ipairs(destinations(cb, group, empty, memo)) do if o.dest == dest then class = o.class end end
  end
  local why = false
  if not (dest and not class) then   -- (a path that is no legal retreat is refused by 9.71 instead)
    local v, after = simulate(group, dest, class, empty)
    local moved = {}
    for _, u in ipairs(group) do moved[u.id] = true end
    local rest = stacks_of(cb, moved)
    if not can_reach(cb, rest, after, memo, vsub(memo.now, v)) then
      local text = string.format("retreats must put as many units as possible into empty hexes, then friendly hexes out of enemy ZOC, then friendly hexes in enemy ZOC: the best hex placement of this combat's retreat is %s",
        vtext(memo.now))
      if memo.explain then
        text = text .. string.format("; after this %s at most %s", dest and "path" or "elimination",
          vtext(vadd(v, best_count(cb, rest, after, memo))))
      end
      why = C.reason("WBC09 #1", "%s", text)
    end
  end
  memo.checked[ckey] = why
  return why or nil
end

-- Which groups the opponent may move next: standard, the first stack whole; WBC09 #2 any unit or
-- stack of the remaining ones.
local function candidate_groups(cb)
  local groups, order = remaining_groups(cb)
  local out = {}
  if C.option("wbc09_02_opponent_orders_retreats") then
    for _, h in ipairs(order) do
      out[#out + 1] = groups[h]
      if #groups[h] > 1 then
        for _, u in ipairs(groups[h]) do out[#out + 1] = { u } end
      end
    end
  elseif order[1] then
    out[1] = groups[order[1]]
  end
  return out
end

-- Who chooses which retreated units die when a retreat ends over the stacking limit: their owner
-- [7] [9.7], or under WBC09 #2 the opponent, who orders the retreats.
function R.excess_chooser(cb)
  local owner = K.side_of(cb, cb.retreat.who)
  if C.option("wbc09_02_opponent_orders_retreats") then return C.other(owner) end
  return owner
end

-- After a retreat into `cb.retreat.excess.hex`: eliminates retreated units beyond the stacking
-- limit. When the chooser has a real choice (more units that would help than must go) it becomes
-- the pending decision `retreat_excess`, answered by `eliminate_excess{unit=}` (stacking.lua),
-- which calls this again; otherwise the units go at once. Then the retreat goes on (R.ask).
function R.settle_excess(cb)
  cb = cb or K.current()
  local x = cb.retreat and cb.retreat.excess
  while x do
    local here = kessel.units.at(x.hex)
    local side = K.side_of(cb, cb.retreat.who)
    local over = here[1] and ST.excess(side, here) or 0
    local cands = {}
    for _, u in ipairs(here) do
      if C.contains(x.units, u.id) and ST.helps(u) then cands[#cands + 1] = u end
    end
    if over == 0 or #cands == 0 then break end
    local rule = side == C.SOVIET and "7.1" or "7.2"
    if #cands > over then
      K.save(cb)
      local chooser = R.excess_chooser(cb)
      kessel.emit.var("pending", {
        kind = "retreat_excess", side = chooser, rule = rule, hex = x.hex, units = C.ids(cands), n = over,
        prompt = string.format("%s: %d retreated unit(s) over the stacking limit; the %s names which is eliminated (eliminate_excess{unit=})",
          x.hex, over, chooser),
      })
      return
    end
    for _, u in ipairs(cands) do
      if ST.excess(side, kessel.units.at(x.hex)) > 0 and ST.helps(kessel.units.get(u.id)) then
        U.eliminate(u, rule, "retreated into an over-full hex (" .. x.hex .. ")")
      end
    end
  end
  cb.retreat.excess = nil
  R.ask(cb)
end

-- Sets the pending retreat decision (or finishes the retreat).
function R.ask(cb)
  local groups, order = remaining_groups(cb)
  if #order == 0 then
    cb.retreat = nil
    kessel.emit.var("pending", nil)
    K.proceed(cb)
    return
  end
  K.save(cb)
  kessel.emit.var("pending", {
    kind = "retreat_path", side = C.other(K.side_of(cb, cb.retreat.who)), rule = "9.72",
    who = cb.retreat.who, n = cb.retreat.n, units = cb.retreat.remaining,
    prompt = string.format("pick the %d-hex retreat path of the %s's units (retreat{units=, path=})", cb.retreat.n, cb.retreat.who),
  })
end

local function same_set(a, b)
  if #a ~= #b then return false end
  local s = {}
  for _, x in ipairs(a) do s[x] = true end
  for _, x in ipairs(b) do if not s[x] then return false end end
  return true
end

local function list_of(x) if type(x) == "table" then return x end return { x } end

local function retreat_check(a, memo)
  local p = kessel.game.var("pending")
  if not p or p.kind ~= "retreat_path" then return C.reason("9.72", "no retreat is waiting") end
  local cb = K.current()
  local ids = list_of(a.units or a.unit)
  if #ids == 0 then return C.reason("9.72", "name the retreating units") end
  local group = {}
  for _, id in ipairs(ids) do
    if not C.contains(cb.retreat.remaining, id) then
      return C.reason("9.72", "`%s` is not one of the units that must retreat", tostring(id))
    end
    group[#group + 1] = kessel.units.get(id)
  end
  for _, u in ipairs(group) do
    if u.hex ~= group[1].hex then return C.reason("9.72", "units retreating together must start in one hex") end
  end
  local ok_group = false
  for _, g in ipairs(candidate_groups(cb)) do
    if same_set(C.ids(g), ids) then ok_group = true end
  end
  if not ok_group then
    if C.option("wbc09_02_opponent_orders_retreats") then
      return C.reason("WBC09 #2", "these units cannot retreat as one group")
    end
    return C.reason("9.7", "the whole stack retreats together, stack by stack in order (WBC09 #2 lets the opponent split it)")
  end
  local path = a.path or {}
  local legal = memo and memo.allowed[table.concat(ids, ",")]
  if not legal then
    legal = R.allowed(group, cb.retreat.n, { forbidden = forbidden(cb, group), ezoc = memo and memo.ezoc })
    if memo then memo.allowed[table.concat(ids, ",")] = legal end
  end
  if #path == 0 then
    if #legal > 0 then return C.reason("9.71", "a legal retreat path exists: the units cannot be eliminated instead") end
    return R.priority_reason(cb, group, path, memo)
  end
  local key = table.concat(path, ",")
  local match
  for _, q in ipairs(legal) do if table.concat(q.path, ",") == key then match = q end end
  if not match then
    -- explain why
    local all = R.paths(group, cb.retreat.n, { forbidden = forbidden(cb, group) })
    for _, q in ipairs(all) do
      if table.concat(q.path, ",") == key then
        return C.reason("9.71", "a retreat must end in an empty hex when one can be reached")
      end
    end
    local from = group[1].hex
    for _, h in ipairs(path) do
      if not kessel.hex.valid(h) or not kessel.hex.adjacent(from, h) then
        return C.reason("9.71", "%s does not follow on from %s", tostring(h), from)
      end
      local enemy, friend = false, false
      for _, u in ipairs(kessel.units.at(h)) do
        if u.side ~= group[1].side then enemy = true else friend = true end
      end
      if enemy then return C.reason("9.71", "units never retreat into enemy units (%s)", h) end
      if kessel.map.has_side(from, h, "lake") then return C.reason("9.71", "units never retreat across a lake hexside (%s-%s)", from, h) end
      if group[1].side == C.SOVIET and kessel.game.turn() <= 6 and kessel.map.column(h) <= 2 then
        return C.reason("6.4", "on turns 1-6 Soviet units may not enter columns 01-02 (%s)", h)
      end
      local f = forbidden(cb, group)
      if f[h] then
        if origin_of_other(cb, group, h) then
          return C.reason("WBC09 #1a", "%s was occupied by another unit retreating from the same combat", h)
        end
        return C.reason("WBC09 #1b", "attackers may not retreat into the hex of the single defender they eliminated (%s)", h)
      end
      if Z.enemy_zoc(group[1].side):has(h) and not friend then
        return C.reason("9.71", "units never retreat into an enemy zone of control unless a friendly unit is there (%s)", h)
      end
      from = h
    end
    if #path ~= cb.retreat.n then
      return C.reason("9.71", "the retreat is exactly %d hex(es)", cb.retreat.n)
    end
    return C.reason("9.71", "not a legal retreat path")
  end
  local why = R.priority_reason(cb, group, path, memo)
  if why then return why end
  if C.option("wbc09_01c_simultaneous_retreats") then
    local victim = cuts_off(cb, group, path[#path], memo)
    if victim then
      -- the note binds only while another path (one the priority of WBC09 #1 allows) keeps every
      -- unit of the combat a way out; when every path cuts someone off, not all can be saved and
      -- the opponent picks freely
      for _, q in ipairs(legal) do
        if not R.priority_reason(cb, group, q.path, memo) and not cuts_off(cb, group, q.path[#q.path], memo) then
          return C.reason("WBC09 #1", "retreats of one combat are simultaneous: this path would leave %s with no retreat", victim)
        end
      end
    end
  end
end

function R.retreat_reasons(a)
  local cb = K.current()
  local memo = cb and cb.retreat and new_memo(cb) or nil
  if memo then memo.explain = true end
  return retreat_check(a, memo)
end

kessel.action{
  kind = "retreat", rule = "9.72",
  description = "the opponent picks a retreat path: retreat{units={ids}, path={hexes}}",
  validate = R.retreat_reasons,
  apply = function(a)
    local cb = K.current()
    local ids = list_of(a.units or a.unit)
    local path = a.path or {}
    local group = {}
    for _, id in ipairs(ids) do group[#group + 1] = kessel.units.get(id) end
    local from = group[1].hex
    local remaining = {}
    for _, id in ipairs(cb.retreat.remaining) do
      if not C.contains(ids, id) then remaining[#remaining + 1] = id end
    end
    cb.retreat.remaining = remaining
    if #path == 0 then
      for _, u in ipairs(group) do U.eliminate(u, "9.71", "no legal retreat path") end
      if cb.retreat.who then cb.eliminated[cb.retreat.who] = cb.eliminated[cb.retreat.who] end
      R.ask(cb)
      return
    end
    local dest = path[#path]
    local hosts = {}
    for _, u in ipairs(kessel.units.at(dest)) do hosts[#hosts + 1] = u end
    local onto = #hosts > 0
    local in_movement = C.in_movement_phase()
    local mark = onto and (not in_movement or C.option("wbc09_04_overrun_stack_defends_with_first"))
    local moved = {}
    for _, u in ipairs(group) do
      kessel.emit.move(u.id, path, 0)
      if mark then kessel.emit.flag(u.id, "retreated_onto") end
      moved[#moved + 1] = kessel.units.get(u.id)
    end
    -- [15] the retreating units are the last to pass through the hexes of their path
    require("rules.victory").passed_path(group[1].side, path)
    kessel.emit.note("9.72", string.format("%s retreat%s %s → %s", table.concat(C.ids(group), ", "),
      #group > 1 and "" or "s", from, table.concat(path, "-")))
    cb.retreat_paths[from] = cb.retreat_paths[from] or {}
    table.insert(cb.retreat_paths[from], path)
    -- stacking: retreated units beyond the limit are eliminated, their owner (WBC09 #2: the
    -- opponent) choosing which [7] [9.7]
    cb.retreat.excess = { hex = dest, units = ids }
    R.settle_excess(cb)
  end,
  enumerate = function(side)
    local p = kessel.game.var("pending")
    if not p or p.kind ~= "retreat_path" then return {} end
    if side and side ~= p.side then return {} end
    local cb = K.current()
    local out = {}
    local memo = new_memo(cb)
    for _, g in ipairs(candidate_groups(cb)) do
      local legal = R.allowed(g, cb.retreat.n, { forbidden = forbidden(cb, g), ezoc = memo.ezoc })
      for _, q in ipairs(legal) do
        local a = { kind = "retreat", units = C.ids(g), path = q.path }
        if not retreat_check(a, memo) then out[#out + 1] = a end
      end
      if #legal == 0 then
        local a = { kind = "retreat", units = C.ids(g), path = {} }
        if not retreat_check(a, memo) then out[#out + 1] = a end
      end
    end
    return out
  end,
}

-- Advance after combat [9.8] --------------------------------------------------------------------

function R.advance_reasons(a)
  local p = kessel.game.var("pending")
  if not p or p.kind ~= "advance" then return C.reason("9.8", "no advance after combat is on offer") end
  if a.skip then return nil end
  local ids = list_of(a.units or a.unit)
  if #ids == 0 then return C.reason("9.8", "name the advancing units, or skip") end
  local path = a.path or {}
  local option
  for _, o in ipairs(p.options) do
    for _, q in ipairs(o.paths) do
      if table.concat(q, ",") == table.concat(path, ",") then option = o end
    end
  end
  if not option then
    return C.reason("9.8", "an advance follows the path of retreat (or, when the hex was emptied by elimination, up to two hexes starting with it)")
  end
  local group = {}
  for _, id in ipairs(ids) do
    if not C.contains(p.units, id) then
      return C.reason("9.8", "`%s` may not advance: only victorious units of this combat that did not retreat", tostring(id))
    end
    local u = kessel.units.get(id)
    if not kessel.hex.adjacent(u.hex, option.hex) then
      return C.reason("9.8", "%s is not next to %s", C.name(u), option.hex)
    end
    group[#group + 1] = u
  end
  local dest = path[#path]
  if not R.limit_ok(group[1].side, units_after(dest, group)) then
    return C.reason("7.1", "advancing into %s would break the stacking limit", dest)
  end
end

kessel.action{
  kind = "advance", rule = "9.8",
  description = "advance after combat: advance{units={ids}, path={hexes}} or advance{skip=true}",
  validate = R.advance_reasons,
  apply = function(a)
    local p = kessel.game.var("pending")
    local cb = K.current()
    if a.skip then
      kessel.emit.var("pending", nil)
      K.proceed(cb)
      return
    end
    local ids = list_of(a.units or a.unit)
    for _, id in ipairs(ids) do
      kessel.emit.move(id, a.path, 0)
      kessel.emit.flag(id, "advanced")
    end
    -- [15] the advancing units are the last to pass through the hexes of their path
    require("rules.victory").passed_path(p.side, a.path)
    kessel.emit.note("9.8", table.concat(ids, ", ") .. " advance " .. table.concat(a.path, "-"))
    local left = {}
    for _, id in ipairs(p.units) do if not C.contains(ids, id) then left[#left + 1] = id end end
    if #left == 0 then
      kessel.emit.var("pending", nil)
      K.proceed(cb)
    else
      p.units = left
      kessel.emit.var("pending", p)
    end
  end,
  enumerate = function(side)
    local p = kessel.game.var("pending")
    if not p or p.kind ~= "advance" then return {} end
    if side and side ~= p.side then return {} end
    local out = { { kind = "advance", skip = true } }
    for _, o in ipairs(p.options) do
      local able = {}
      for _, id in ipairs(p.units) do
        if kessel.hex.adjacent(kessel.units.get(id).hex, o.hex) then able[#able + 1] = id end
      end
      if #able > 0 then
        for _, q in ipairs(o.paths) do
          local a = { kind = "advance", units = able, path = q }
          if not R.advance_reasons(a) then out[#out + 1] = a end
          if #able > 1 then
            for _, id in ipairs(able) do
              local b = { kind = "advance", units = { id }, path = q }
              if not R.advance_reasons(b) then out[#out + 1] = b end
            end
          end
        end
      end
    end
    return out
  end,
}

return R
