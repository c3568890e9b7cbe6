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
--           attainable fall short of the best (R.priority_reason).
-- WBC09 #1a no retreating unit enters a hex that another unit retreating from the same combat
--           occupied when the retreat began.
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

-- Hexes no path of this retreat may enter (WBC09 #1a, #1b).
local function forbidden(cb, group)
  local f = {}
  if C.option("wbc09_01a_no_switching_places") then
    local mine = {}
    for _, u in ipairs(group) do mine[u.id] = true end
    for id, h in pairs(cb.retreat.origin) do
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
      local function has_fit(extra)
        for _, p in ipairs(R.allowed(others, cb.retreat.n, { forbidden = forbidden(cb, others), extra = extra,
          ezoc = memo and memo.ezoc })) do
          if p.fits then return true end
        end
        return false
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
local function destinations(cb, group, state, memo)
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
  return out
end

local function state_key(stacks, state)
  local parts = {}
  for _, g in ipairs(stacks) do parts[#parts + 1] = table.concat(C.ids(g), ",") end
  local hexes = C.keys(state.extra)
  parts[#parts + 1] = "|"
  for _, h in ipairs(hexes) do parts[#parts + 1] = h .. "=" .. table.concat(C.ids(state.extra[h]), ",") end
  return table.concat(parts, ";")
end

-- The best count the `stacks` (lists of units, each moving whole) can still reach from `state`:
-- in their order, or (WBC09 #2, `memo.free`) in any order. A stack with a legal path must take one;
-- one without is eliminated [9.71].
local function best_count(cb, stacks, state, memo)
  if #stacks == 0 then return vec() end
  local key = state_key(stacks, state)
  if memo.best[key] then return memo.best[key] end
  local units = 0
  for _, g in ipairs(stacks) do units = units + #g end
  local top = vec(units)                 -- nothing can beat every unit in an empty hex
  local best
  local firsts = memo.free and #stacks or 1
  for i = 1, firsts do
    local g = stacks[i]
    local rest = {}
    for j, h in ipairs(stacks) do if j ~= i then rest[#rest + 1] = h end end
    local opts = destinations(cb, g, state, memo)
    if #opts == 0 then opts = { { dest = nil } } end
    for _, o in ipairs(opts) do
      local v, after = simulate(g, o.dest, o.class, state)
      local total = vadd(v, best_count(cb, rest, after, memo))
      if not best or vcmp(total, best) > 0 then best = total end
      if vcmp(best, top) == 0 then break end
    end
    if vcmp(best, top) == 0 then break end
  end
  memo.best[key] = best
  return best
end

-- Can the `stacks` still reach a count of at least `need` from `state`? (The same search as
-- best_count, stopped as soon as the answer is known; counts compare the same way after adding or
-- taking away the same count, and no completion beats every remaining unit in an empty hex.)
local function can_reach(cb, stacks, state, memo, need)
  local units = 0
  for _, g in ipairs(stacks) do units = units + #g end
  if vcmp(vec(units), need) < 0 then return false end
  if #stacks == 0 then return true end
  local key = state_key(stacks, state) .. "#" .. table.concat(need, ",")
  if memo.reach[key] ~= nil then return memo.reach[key] end
  local ok = false
  local firsts = memo.free and #stacks or 1
  for i = 1, firsts do
    local g = stacks[i]
    local rest = {}
    for j, h in ipairs(stacks) do if j ~= i then rest[#rest + 1] = h end end
    local opts = destinations(cb, g, state, memo)
    if #opts == 0 then opts = { { dest = nil } } end
    for _, o in ipairs(opts) do
      local v, after = simulate(g, o.dest, o.class, state)
      if can_reach(cb, rest, after, memo, vsub(need, v)) then ok = true; break end
    end
    if ok then break end
  end
  memo.reach[key] = ok
  return ok
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
-- already worked out, and the enemy ZOC, which no retreat changes.
local function new_memo(cb)
  local side = K.side_of(cb, cb.retreat.who)
  return { best = {}, reach = {}, free = C.option("wbc09_02_opponent_orders_retreats"), ezoc = Z.enemy_zoc(side),
    checked = {}, cut = {} }
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
  local legal = R.allowed(group, cb.retreat.n, { forbidden = forbidden(cb, group), ezoc = memo and memo.ezoc })
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
        if C.contains(cb.retreat.initial, h) then
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
    -- stacking: units beyond the limit are eliminated [7]
    local here = hosts
    for _, u in ipairs(moved) do
      local trial = { table.unpack(here) }
      trial[#trial + 1] = u
      if R.limit_ok(u.side, trial) then here = trial
      else U.eliminate(u, u.side == C.SOVIET and "7.1" or "7.2", "retreated into an over-full hex (" .. dest .. ")") end
    end
    R.ask(cb)
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
