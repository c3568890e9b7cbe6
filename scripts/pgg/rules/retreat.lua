-- [9.7] Retreat and [9.8] advance after combat.
--
-- [9.72] The owner decides to retreat; the OPPONENT picks each path, hex by hex, from the legal
-- set computed here (`retreat{units=, path=}`; an empty path when no legal path exists eliminates
-- the units). A path is exactly as long as the result (1 or 2 hexes), never enters a hex twice or
-- goes back to the starting hex, never enters enemy units, lake hexes or crosses lake hexsides, and
-- never enters a hex in an enemy zone of control unless a friendly unit is there [9.71].
-- [6.4] On turns 1–6 a Soviet unit may not retreat into columns 01–02: with no other path it dies.
-- [9.71] The path must end in an empty hex when one can be reached; otherwise on friends, within
-- stacking limits (units beyond the limit are eliminated [7], the owner choosing which; WBC09 #2:
-- the opponent).
-- [9.73] A unit retreated onto friends adds nothing to their defence and dies if that hex suffers
-- a further loss or retreat result this phase (Eng excepted) — flag "retreated_onto", cleared at
-- the end of the step. Retreats caused by overruns count too: the rest of that Movement Phase
-- (WBC09 #4 spells this out; its option changes nothing).
-- Standard: each retreating stack moves as one along one path; the opponent, who picks the paths,
-- picks which stack goes next [9.72].
-- WBC09 #1  absolute priority: empty hex, friendly hex out of enemy ZOC, friendly hex in enemy ZOC,
--           death — judged over all the units retreating from the combat, not stack by stack;
--           the search for the best placement is rules/retreat_search.lua (R.priority_reason).
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
-- Units that advanced cannot attack again this phase: only attackers advance in their own Combat
-- Phase and they have attacked, so the refusal is 9.1's (flag "advanced" records the advance). A
-- disrupted victor stays where it is: it may not move [6.6], and an advance is a move (a retreat
-- is a result and is made).
-- Ignoring enemy ZOC means not stopping in one; a leader still enters an enemy ZOC only together
-- with an attack-capable unit advancing with him [6.22].
local C = require("rules.common")
local Z = require("rules.zoc")
local K = require("rules.combat")
local U = require("rules.untried")
local R = {}

local ST = require("rules.stacking")
local RS = require("rules.retreat_search")

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
-- true: units a simulation has moved away or eliminated), ezoc (the enemy ZOC, when known),
-- open_01_02 (judge as if columns 01-02 were open to Soviet units on turns 1-6 [6.4]).
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
    if side == C.SOVIET and turn <= 6 and not ctx.open_01_02 and kessel.map.column(h) <= 2 then return false end
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
  -- WBC09 #1b names one result, D1/A1 against a single defender who was eliminated; other split
  -- results (D2/A1, De/A1) are left to FAQ 2, which lets attackers retreat into an emptied hex
  if C.option("wbc09_01b_no_retreat_into_lone_defender_hex") and cb.retreat.who == "attacker"
    and cb.result == "D1/A1" and #cb.defenders == 1 then
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
        local fkey = extra and (table.concat(C.ids(others), ",") .. ">" .. dest .. ":" .. RS.kinds(group))
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

-- WBC09 #1: the best placement of the whole combat's retreat is searched in retreat_search.lua.
R.priority_reason = RS.priority_reason
RS.use{ paths = function(...) return R.paths(...) end, forbidden = forbidden, remaining_groups = remaining_groups,
  limit_ok = R.limit_ok }

-- Which groups the opponent may move next. He determines the retreat paths [9.72], and when a
-- combat has several retreating stacks (a multi-hex attack [9.23], attackers from several hexes)
-- the order he lays them out in is part of that: any remaining stack, whole [9.7]. WBC09 #2 lets
-- him split stacks too: any unit of the remaining ones.
local function candidate_groups(cb)
  local groups, order = remaining_groups(cb)
  local out = {}
  local split = C.option("wbc09_02_opponent_orders_retreats")
  for _, h in ipairs(order) do
    out[#out + 1] = groups[h]
    if split and #groups[h] > 1 then
      for _, u in ipairs(groups[h]) do out[#out + 1] = { u } end
    end
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

-- The fields of `retreat` and `advance` (C.shape_reason): a malformed action is refused.
local PATH_FIELDS = { { name = "units", kind = "ids", one = true }, { name = "unit", kind = "ids", one = true },
  { name = "path", kind = "hexes" } }

local function retreat_check(a, memo)
  local shape = C.shape_reason(a, "9.72", PATH_FIELDS)
  if shape then return shape end
  local p = kessel.game.var("pending")
  if not p or p.kind ~= "retreat_path" then return C.pending_reason() or C.reason("9.72", "no retreat is waiting") end
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
    if u.hex ~= group[1].hex then
      return C.reason("9.72", "units retreating together must start in one hex (%s is in %s, %s in %s)", C.name(group[1]), group[1].hex, C.name(u), u.hex)
    end
  end
  local ok_group = false
  for _, g in ipairs(candidate_groups(cb)) do
    if same_set(C.ids(g), ids) then ok_group = true end
  end
  if not ok_group then
    if C.option("wbc09_02_opponent_orders_retreats") then
      return C.reason("WBC09 #2", "%s cannot retreat as one group", C.names(group))
    end
    local whole = remaining_groups(cb)[group[1].hex] or {}
    return C.reason("9.7", "the whole stack retreats together (WBC09 #2 lets the opponent split it): %s in %s must retreat with %s",
      C.names(group), group[1].hex, C.names(whole))
  end
  local path = a.path or {}
  local legal = memo and memo.allowed[table.concat(ids, ",")]
  if not legal then
    legal = R.allowed(group, cb.retreat.n, { forbidden = forbidden(cb, group), ezoc = memo and memo.ezoc })
    if memo then memo.allowed[table.concat(ids, ",")] = legal end
  end
  if #path == 0 then
    if #legal > 0 then return C.reason("9.71", "a legal retreat path exists: the units cannot be eliminated instead (%s: %s)", C.names(group), table.concat(legal[1].path, "-")) end
    return RS.priority_reason(cb, group, path, memo)
  end
  local key = table.concat(path, ",")
  local match
  for _, q in ipairs(legal) do if table.concat(q.path, ",") == key then match = q end end
  if not match then
    -- explain why
    local all = R.paths(group, cb.retreat.n, { forbidden = forbidden(cb, group) })
    for _, q in ipairs(all) do
      if table.concat(q.path, ",") == key then
        return C.reason("9.71", "%s: a retreat must end in an empty hex when one can be reached (%s holds friendly units)", C.names(group), path[#path])
      end
    end
    -- name the units, the hex and what bars it [9.71]
    local who = C.names(group)
    local from = group[1].hex
    local seen = { [from] = true }
    for _, h in ipairs(path) do
      if not kessel.hex.valid(h) or not kessel.hex.adjacent(from, h) then
        return C.reason("9.71", "%s: %s is not next to %s (a retreat path is a chain of adjacent hexes)", who, tostring(h), from)
      end
      if seen[h] then
        return C.reason("9.71", "%s: a retreat never enters a hex twice nor goes back to the hex it left (%s)", who, h)
      end
      seen[h] = true
      local enemy, friend = false, false
      for _, u in ipairs(kessel.units.at(h)) do
        if u.side ~= group[1].side then enemy = true else friend = true end
      end
      if enemy then return C.reason("9.71", "%s: units never retreat into enemy units (%s)", who, h) end
      if kessel.map.has_side(from, h, "lake") then return C.reason("9.71", "%s: units never retreat across a lake hexside (%s-%s)", who, from, h) end
      if kessel.map.terrain(h) == "lake" then return C.reason("9.71", "%s: units never retreat into a lake hex (%s)", who, h) end
      if group[1].side == C.SOVIET and kessel.game.turn() <= 6 and kessel.map.column(h) <= 2 then
        return C.reason("6.4", "%s: on turns 1-6 Soviet units may not enter columns 01-02 (%s)", who, h)
      end
      local f = forbidden(cb, group)
      if f[h] then
        if origin_of_other(cb, group, h) then
          return C.reason("WBC09 #1a", "%s: %s was occupied by another unit retreating from the same combat", who, h)
        end
        return C.reason("WBC09 #1b", "%s: attackers may not retreat into the hex of the single defender they eliminated (%s)", who, h)
      end
      if Z.enemy_zoc(group[1].side):has(h) and not friend then
        return C.reason("9.71", "%s: units never retreat into an enemy zone of control unless a friendly unit is there (%s is in %s)",
          who, h, Z.zone_text(group[1].side, h))
      end
      from = h
    end
    if #path ~= cb.retreat.n then
      return C.reason("9.71", "%s: the retreat is exactly %d hex(es), this path has %d", who, cb.retreat.n, #path)
    end
    return C.reason("9.71", "%s: %s is not a legal retreat path", who, table.concat(path, "-"))
  end
  local why = RS.priority_reason(cb, group, path, memo)
  if why then return why end
  if C.option("wbc09_01c_simultaneous_retreats") then
    local victim = cuts_off(cb, group, path[#path], memo)
    if victim then
      -- the note binds only while another path (one the priority of WBC09 #1 allows) keeps every
      -- unit of the combat a way out, the moving units too: a path into a hex with no room for
      -- them [7] saves nobody, it only picks another unit to die; when every path cuts someone
      -- off, not all can be saved and the opponent picks freely
      for _, q in ipairs(legal) do
        if q.fits and not RS.priority_reason(cb, group, q.path, memo) and not cuts_off(cb, group, q.path[#q.path], memo) then
          return C.reason("WBC09 #1", "retreats of one combat are simultaneous: this path would leave %s with no retreat", victim)
        end
      end
    end
  end
end

function R.retreat_reasons(a)
  local cb = K.current()
  local memo = cb and cb.retreat and RS.new_memo(cb) or nil
  if memo then memo.explain = true end
  return retreat_check(a, memo)
end

kessel.action{
  kind = "retreat", rule = "9.72",
  description = "the opponent picks a retreat path: retreat{units={ids}, path={hexes}}",
  validate = C.sided(R.retreat_reasons),
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
      -- [6.4] say so when it is the closed columns 01-02 that leave the units no way out
      local rule, why = "9.71", "no legal retreat path"
      if group[1].side == C.SOVIET and kessel.game.turn() <= 6
        and #R.paths(group, cb.retreat.n, { forbidden = forbidden(cb, group), open_01_02 = true }) > 0 then
        rule, why = "6.4", "no legal retreat path: on turns 1-6 no Soviet unit may enter columns 01-02"
      end
      for _, u in ipairs(group) do U.eliminate(u, rule, why) end
      if cb.retreat.who then cb.eliminated[cb.retreat.who] = cb.eliminated[cb.retreat.who] end
      R.ask(cb)
      return
    end
    local dest = path[#path]
    local hosts = {}
    for _, u in ipairs(kessel.units.at(dest)) do hosts[#hosts + 1] = u end
    -- [9.73] onto friends: the retreated units add nothing there and die with its next loss or
    -- retreat result this phase, whether the retreat came from an attack or from an overrun in a
    -- Movement Phase (WBC09 #4 says the same for overruns; its option changes nothing)
    local mark = #hosts > 0
    local moved = {}
    for _, u in ipairs(group) do
      kessel.emit.move(u.id, path, 0)
      if mark then kessel.emit.flag(u.id, "retreated_onto") end
      moved[#moved + 1] = kessel.units.get(u.id)
    end
    -- [15] the retreating units are the last to pass through the hexes of their path
    require("rules.victory").passed_path(group[1].side, path, group)
    kessel.emit.note("9.72", string.format("%s retreat%s %s → %s", C.names(group),
      #group > 1 and "" or "s", from, table.concat(path, "-")))
    cb.retreat_paths[from] = cb.retreat_paths[from] or {}
    table.insert(cb.retreat_paths[from], path)
    -- stacking: retreated units beyond the limit are eliminated, their owner (WBC09 #2: the
    -- opponent) choosing which [7] [9.7]
    cb.retreat.excess = { hex = dest, units = ids }
    R.settle_excess(cb)
  end,
  enumerate = C.sided_list(function(side) return R.legal_retreats(side) end),
}

-- The retreats the opponent may pick now for the pending retreat [9.71] [9.72] (empty when no
-- retreat is pending or `side` is not the one choosing); an empty path eliminates the group.
function R.legal_retreats(side)
  local p = kessel.game.var("pending")
  if not p or p.kind ~= "retreat_path" then return {} end
  if side and side ~= p.side then return {} end
  local cb = K.current()
  local out = {}
  local memo = RS.new_memo(cb)
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
end

-- Advance after combat [9.8] --------------------------------------------------------------------

function R.advance_reasons(a)
  local shape = C.shape_reason(a, "9.8", PATH_FIELDS)
  if shape then return shape end
  local p = kessel.game.var("pending")
  if not p or p.kind ~= "advance" then return C.pending_reason() or C.reason("9.8", "no advance after combat is on offer") end
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
    -- lakes first: no advance crosses a lake hexside or enters a lake hex, whatever the path [6.7]
    for i = 2, #path do
      if kessel.map.has_side(path[i - 1], path[i], "lake") then
        return C.reason("6.7", "an advance may not cross the lake hexside between %s and %s", path[i - 1], path[i])
      end
    end
    for _, h in ipairs(path) do
      if kessel.map.terrain(h) == "lake" then return C.reason("6.7", "an advance may not enter the lake hex %s", h) end
    end
    -- a hex of the asked path that holds units: enemy units are never entered (the retreat may
    -- have passed through the loser's friends), and the second hex after an elimination must be
    -- empty [9.8] (a path of more than two hexes is refused below, whatever it enters)
    for i, h in ipairs(#path <= 2 and path or {}) do
      local here = kessel.units.at(h)
      if #here > 0 and here[1].side ~= p.side then
        return C.reason("9.8", "an advance never enters enemy units: %s holds %s", h, C.names(here))
      end
      if i == 2 and #here > 0 then
        return C.reason("9.8", "the second hex of an advance lies on the path of retreat or, after an elimination, is an empty hex: %s holds %s", h, C.names(here))
      end
    end
    local offered = {}
    for _, o in ipairs(p.options) do
      for _, q in ipairs(o.paths) do offered[#offered + 1] = table.concat(q, "-") end
    end
    return C.reason("9.8", "an advance follows the path of retreat (or, when every enemy unit of the combat was eliminated, up to two hexes starting with its hex; a hex emptied while other defenders of the combat survive is entered alone); on offer: %s",
      #offered > 0 and table.concat(offered, ", ") or "none")
  end
  local group = {}
  for _, id in ipairs(ids) do
    local d = kessel.units.get(id)
    if d and C.disrupted(d) then
      return C.reason("6.6", "%s is disrupted and may not advance after combat (a disrupted unit may not move)", C.name_at(d))
    end
    if not C.contains(p.units, id) then
      return C.reason("9.8", "`%s` may not advance: only victorious units of this combat that did not retreat", tostring(id))
    end
    local u = kessel.units.get(id)
    if not kessel.hex.adjacent(u.hex, option.hex) then
      return C.reason("9.8", "%s is not next to %s", C.name(u), option.hex)
    end
    group[#group + 1] = u
  end
  -- [6.22] [9.8] an advance ignores enemy ZOC (it need not stop there), but a leader still enters an
  -- enemy ZOC only together with an attack-capable unit: a leader advancing without one may not
  -- take a path with a hex in an enemy ZOC (judged as the advance is made)
  local escorted, leaders = false, false
  for _, u in ipairs(group) do
    if C.attack_capable(u) then escorted = true end
    if C.is_leader(u) then leaders = true end
  end
  if leaders and not escorted then
    local ezoc = Z.enemy_zoc(group[1].side)
    for _, h in ipairs(path) do
      if ezoc:has(h) then
        return C.reason(Z.ESCORT_RULE, "%s may not advance into %s, in %s: %s (advance them together)",
          C.names(group), h, Z.zone_text(group[1].side, h), Z.ESCORT_TEXT)
      end
    end
  end
  local dest = path[#path]
  local fits, why = ST.limit_ok(group[1].side, units_after(dest, group))
  if not fits then
    -- the case of the advancing side: [7.1] Soviet, [7.2] German
    return C.reason(why.rule, "advancing into %s would break the stacking limit: %s", dest, why.message)
  end
end

kessel.action{
  kind = "advance", rule = "9.8",
  description = "advance after combat: advance{units={ids}, path={hexes}} or advance{skip=true}",
  validate = C.sided(R.advance_reasons),
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
    require("rules.victory").passed_path(p.side, a.path, ids)
    local advanced = {}
    for _, id in ipairs(ids) do advanced[#advanced + 1] = kessel.units.get(id) end
    kessel.emit.note("9.8", C.names(advanced) .. " advance " .. table.concat(a.path, "-"))
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
  enumerate = C.sided_list(function(side)
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
  end),
}

return R
