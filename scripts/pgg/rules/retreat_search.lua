-- WBC09 #1: the search behind the absolute retreat priority (required by retreat.lua).
--
-- The priority is judged over all the units retreating from one combat, not stack by stack: the
-- retreats must put as many units as possible into empty hexes, then as many as possible into
-- friendly hexes out of enemy ZOC, then into friendly hexes in enemy ZOC; a unit that ends beyond
-- the stacking limit [7] is not placed at all (a full friendly hex is no place to survive in), nor
-- is one with no path. The best counts are worked out over every way the remaining units may
-- retreat: each stack whole, in the order the opponent must take them, or under WBC09 #2 (the
-- opponent orders the retreats and may split stacks) in any order, each stack whole or one unit
-- at a time, exactly the groups the `retreat` action accepts. Each hex is judged as it is when a
-- group arrives. A path (or, with no path, an elimination) is refused when the counts it leaves
-- attainable fall short of the best (RS.priority_reason).
--
-- The search (`reach`) is a branch and bound over canonical states: it gives the same answers as
-- trying every way, without trying them all.
--
-- What it needs of the retreat rules (legal paths, the hexes a group may not enter, the groups
-- still to retreat, the stacking limit) retreat.lua hands it once through RS.use; this module holds
-- no rule of its own beyond the priority.
local C = require("rules.common")
local Z = require("rules.zoc")
local K = require("rules.combat")
local ST = require("rules.stacking")
local RS = {}

-- Set by retreat.lua: paths(group, n, ctx), forbidden(cb, group), remaining_groups(cb),
-- limit_ok(side, units).
local host = {}
function RS.use(h) host = h end

-- The kinds of `units` in order, as stacking counts them [7]: "L" a leader, "C" a combat unit.
function RS.kinds(units)
  local t = {}
  for i, u in ipairs(units) do t[i] = C.is_leader(u) and "L" or "C" end
  return table.concat(t)
end
local kinds = RS.kinds

local function remaining_groups(cb) return host.remaining_groups(cb) end
local function forbidden(cb, group) return host.forbidden(cb, group) end

-- Counts ----------------------------------------------------------------------------------------
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
      if host.limit_ok(u.side, trial) then here = trial; survivors[#survivors + 1] = u end
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
  local paths = host.paths(group, cb.retreat.n, { forbidden = forbidden(cb, group), extra = state.extra,
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
-- of its units in order; in any order of stacks when the order is free: the opponent orders them
-- [9.72]) and, hex by
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
        elseif not memo.split and (present[h] or 0) >= cap then room[h] = 0 end
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
-- `state`: in their order, or (`memo.free`: the opponent orders the stacks [9.72]) in any order?
-- Under WBC09 #2 (`memo.split`) he may also split them. A stack with a legal path must
-- take one; one without is eliminated [9.71]. Returns true and a count the stacks can reach (at
-- least `need`), or false and a count they cannot beat (below `need`).
-- A branch and bound search: counts compare the same way after adding or taking away the same
-- count, so each branch is asked for what it must reach, the search stops at the first branch that
-- reaches it, and a state is dropped as soon as its bound (`upper`) falls short. What is learnt of
-- a state (a count it reaches, a count it cannot beat) is kept under its canonical key.
-- The groups of `stack` that may retreat next: the whole stack; with `split` (WBC09 #2, the
-- opponent may split stacks) also one unit of each kind in it.
local function movable(stack, split)
  local out = { stack }
  if split and #stack > 1 then
    local seen = {}
    for _, u in ipairs(stack) do
      local k = C.is_leader(u) and "L" or "C"
      if not seen[k] then seen[k] = true; out[#out + 1] = { u } end
    end
  end
  return out
end

-- `stack` without the unit `u`.
local function without(stack, u)
  local out = {}
  for _, x in ipairs(stack) do if x.id ~= u.id then out[#out + 1] = x end end
  return out
end

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
    local whole = stacks[i]
    local choices = opts[i]
    if #choices == 0 then choices = { { dest = nil } } end
    -- the groups that may move: the whole stack, or under WBC09 #2 one unit of it (one of each
    -- kind: units of one kind are alike to the search) while the rest stays for later
    for _, g in ipairs(movable(whole, memo.split and opts[i][1] ~= nil)) do
      local rest = {}
      for j, h in ipairs(stacks) do
        if j ~= i then rest[#rest + 1] = h
        elseif #g < #whole then rest[#rest + 1] = without(whole, g[1]) end
      end
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
function RS.new_memo(cb)
  local side = K.side_of(cb, cb.retreat.who)
  local retreating = {}
  for _, id in ipairs(cb.retreat.remaining) do retreating[id] = true end
  return { best = {}, free = true, split = C.option("wbc09_02_opponent_orders_retreats"), ezoc = Z.enemy_zoc(side),
    checked = {}, cut = {}, fit = {}, allowed = {}, stay = {}, near = {}, dests = {}, side = side, retreating = retreating }
end

-- WBC09 #1: why moving `group` along `path` (empty: eliminated for want of a path) would make the
-- best count of the combat's retreat unattainable, or nil. With `memo.explain` the reason also
-- gives the best count still attainable after the move.
function RS.priority_reason(cb, group, path, memo)
  if not C.option("wbc09_01_retreat_priority") then return nil end
  memo = memo or RS.new_memo(cb)
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

return RS
