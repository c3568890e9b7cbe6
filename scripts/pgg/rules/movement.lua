-- [6] Movement, with the first-turn rules [5.2] and reinforcement entry [14.3].
--
-- A `move` action moves a stack: `units` (ids in one hex, or pending reinforcements) along `path`.
-- A path of one non-adjacent hex means "to there by the cheapest way"; otherwise every hex of the
-- path is a step that must be adjacent to the one before. Each unit pays the terrain effects chart
-- for its own class [6.7] (the declared costs in init.lua), +1 MP to enter a hex holding an enemy
-- interdiction marker [13.3]; a stack may move in several legs a phase, never spending more than
-- its movement allowance [6.1], halved when out of supply [11.3].
--
-- Prohibitions: only in the owner's Movement Phase, and in the Mechanized Movement Phase only
-- German mechanized types [4]; never into enemy units [6.1]; entering an enemy ZOC ends the unit's
-- movement for the phase, even if the zone goes later in the phase (flag `zoc_stop`), and a unit
-- never leaves one voluntarily [6.22]; disrupted units don't move [6.6]; a leader enters
-- an enemy ZOC only together with an attack-capable unit [6.22]; on turns 1-6 no Soviet unit enters
-- columns 01-02 [6.4] (supply and leader lines may still be traced there).
--
-- MP spent are kept per unit in the unit var `mp_spent`, counted in HALF movement points (unit vars
-- are integers and road costs are ½ MP); read them through `M.mp_left` and change them through
-- `M.spend`. The var is cleared at the start of every Movement Phase.
local C = require("rules.common")
local Z = require("rules.zoc")
local S = require("rules.supply")
local SEQ = require("rules.sequence")
local M = {}

-- First-turn armies [5.2], by formation: the campaign's 16th and 19th (the roll) and 13th and
-- 20th (the whole allowance), or the scenario's `first_turn_roll_armies` and
-- `first_turn_full_ma_armies`, so that a scenario of its own starting on turn 1 with a "13 Army"
-- can leave it free.
function M.roll_armies() return kessel.scenario.var("first_turn_roll_armies") end
-- The game var holding an army's roll: first_turn_16 for the 16 Army.
function M.roll_var_of(formation) return "first_turn_" .. (formation:match("^(%d+)") or formation) end
local function listed(list, formation)
  for _, f in ipairs(list) do if f == formation then return true end end
  return false
end

-- Movement allowance and MP ----------------------------------------------------------------------

-- Movement allowance this phase: printed, halved (rounded down, at least 1) out of supply [11.3].
function M.ma(u)
  local ma = C.base_ma(u)
  if S.is_oos(u) then ma = math.max(1, math.floor(ma / 2)) end
  return ma
end

function M.spent(u) return ((u.vars and u.vars.mp_spent) or 0) / 2 end

-- Words for a refusal that a unit's allowance is halved out of supply [11.3]: " (out of supply
-- at the start of the phase: allowance 10 halved to 5 [11.3])", or "".
function M.halved_words(u)
  if not S.is_oos(u) then return "" end
  return string.format(" (out of supply at the start of the phase: allowance %d halved to %d [11.3])", C.base_ma(u), M.ma(u))
end

-- MP a unit still has this phase.
function M.mp_left(unit)
  local u = type(unit) == "string" and kessel.units.get(unit) or unit
  return math.max(0, M.ma(u) - M.spent(u))
end

-- Charges `mp` to each unit (call inside an action's apply).
function M.spend(unit_ids, mp)
  for _, id in ipairs(unit_ids) do
    local u = kessel.units.get(id)
    local half = ((u.vars and u.vars.mp_spent) or 0) + math.ceil(mp * 2 - 1e-9)
    kessel.emit.unit_var(id, "mp_spent", half)
  end
end

-- Phases and first-turn rules --------------------------------------------------------------------

local function is_t1(u, key)
  return kessel.game.turn() == 1 and u.side == C.SOVIET and u.enter_turn == nil and u.formation ~= nil
    and listed(kessel.scenario.var(key), u.formation)
end
function M.first_turn_full_ma(u) return is_t1(u, "first_turn_full_ma_armies") end
function M.first_turn_roll_var(u) return is_t1(u, "first_turn_roll_armies") and M.roll_var_of(u.formation) or nil end

-- On turn 1 the German places his air markers before the Soviet moves [13.2].
function M.initial_air_pending()
  if kessel.game.turn() ~= 1 or not C.step_is("soviet_movement") then return false end
  if kessel.game.var("air_initial_done") then return false end
  return #kessel.markers.all{ kind = "air_interdiction", side = C.GERMAN, placed = false } > 0
    and #kessel.markers.all{ kind = "air_interdiction", side = C.GERMAN, placed = true } < 3
end

-- Why a unit may not move at all now, or nil. `entering` = it comes on as a reinforcement.
function M.cannot_move(u, entering)
  if not C.in_movement_phase() then return C.reason("4", "units move only in a Movement Phase") end
  if u.side ~= C.phasing() then return C.reason("4", "%s is not the phasing player's unit", C.name_at(u)) end
  if C.step_is("german_mech_movement") and not C.is_mech(u) then
    return C.reason("4", "%s is not a mechanized unit: only panzer, motorized and cavalry units move in the Mechanized Movement Phase", C.name_at(u))
  end
  if C.disrupted(u) then return C.reason("6.6", "%s is disrupted and may not move", C.name_at(u)) end
  if u.flags.stopped then
    return C.reason("6.5", "%s was stopped by its overrun and may not move again this phase", C.name_at(u))
  end
  -- (while the zone is still there, the no-exit refusal says whose it is)
  if u.flags.zoc_stop and not Z.enemy_zoc(u.side):has(u.hex) then
    return C.reason("6.22", "%s entered an enemy zone of control this phase and stopped there: its movement is over for the phase, although that zone has gone", C.name_at(u))
  end
  if u.flags.turn_ended then
    return C.reason("WBC09 #7", "%s took its loss in an overrun earlier this player-turn and stayed where it was: its movement is over for the turn", C.name_at(u))
  end
  if u.side == C.SOVIET and M.initial_air_pending() then
    -- the Soviet set-up comes before the German's initial markers [5.1]: name what is waiting now
    if require("rules.setup").open() then
      return C.reason("5.1", "the Soviet set-up comes first (end_setup ends it), then the German's initial air markers [13.2]")
    end
    return C.reason("13.2", "the German player first places his air interdiction markers")
  end
  if not entering then
    local var = M.first_turn_roll_var(u)
    if var then
      local roll = kessel.game.var(var)
      if roll == nil then
        return C.reason("5.2", "the first-turn die roll for the %s has not been made (first_turn_roll)", u.formation)
      end
    end
  end
  if M.mp_left(u) <= 0 then return C.reason("6.1", "%s has no movement points left", C.name_at(u)) end
end

-- Rule context for a moving group --------------------------------------------------------------

-- Hexes of columns 01-02 (labels).
function M.columns_01_02()
  return C.per_map("columns_01_02", function()
    local cols = {}
    for _, h in ipairs(kessel.map.hexes()) do if C.column(h) <= 2 then cols[#cols + 1] = h end end
    return cols
  end)
end

-- The parts of the movement rules that are the same for every stack of `side` at this moment:
-- enemy units and zones of control, the columns closed by [6.4], enemy interdiction markers.
-- Build it once and pass it to M.context when looking at many stacks (enumeration); `lean` leaves
-- out the per-hex ZOC texts that only explanations need.
local function build_side_base(side, lean)
  local base = { side = side }
  base.ezoc = Z.enemy_zoc(side)
  base.enemy = C.occupied(C.other(side))
  if side == C.SOVIET and kessel.game.turn() <= 6 then base.cols = kessel.hexset(M.columns_01_02()) end
  if not lean then base.zoc_messages = Z.zoc_messages(side) end
  local marker_kind = side == C.SOVIET and "air_interdiction" or "soviet_interdiction"
  base.marked_list = C.keys(C.markers_on_map(marker_kind, C.other(side)))
  base.marked = kessel.hexset(base.marked_list)
  return base
end

-- (kept per state revision: every stack of an enumeration, and the validation after it, share it)
function M.side_base(side, lean)
  return C.per_revision("side_base:" .. side .. (lean and ":lean" or ""), function()
    return build_side_base(side, lean)
  end)
end

-- The rule sets for `units` of `side` moving from `from`: forbid / stop / surcharge lists in
-- kessel.paths.field form, a step hook and a cannot_leave reason. `base` (M.side_base) may be
-- shared between stacks of the same side. (What it reads of the units, ways_key below reads too:
-- groups with the same key share one search, so a new unit-dependent rule here goes there as well.)
function M.context(units, from, base)
  local side = units[1].side
  base = base or M.side_base(side)
  local ctx = { side = side, forbid = {}, stop = {}, surcharge = {}, from = from }
  local ezoc = base.ezoc
  ctx.ezoc = ezoc
  ctx.forbid[#ctx.forbid + 1] = { set = base.enemy, rule = "6.1", message = "the hex holds enemy units" }
  local t1_full, t1_all = false, true
  for _, u in ipairs(units) do
    if M.first_turn_full_ma(u) then t1_full = true else t1_all = false end
  end
  ctx.t1_full = t1_full
  -- [5.2] lets the 13th and 20th Armies cross columns 01-02 on turn 1; a unit of another army
  -- in their stack gains nothing by it, so with one aboard the stack keeps out [6.4]
  if base.cols and not (t1_full and t1_all) then
    ctx.forbid[#ctx.forbid + 1] = { set = base.cols, rule = "6.4", message = "on turns 1-6 no Soviet unit may enter columns 01-02" }
  end
  local capable = false
  for _, u in ipairs(units) do if C.attack_capable(u) then capable = true end end
  if not capable then
    ctx.forbid[#ctx.forbid + 1] = { set = ezoc, rule = Z.ESCORT_RULE, message = Z.ESCORT_TEXT }
  end
  if t1_full then
    local visited = {}
    for _, u in ipairs(units) do
      for f in pairs(u.flags) do
        local h = f:match("^t1v_(%d+)$")
        if h then visited[#visited + 1] = h end
      end
    end
    visited[#visited + 1] = from
    table.sort(visited)
    ctx.forbid[#ctx.forbid + 1] = { set = visited, rule = "5.2",
      message = "on the first turn the 13th and 20th Armies may not re-enter a hex" }
    -- NW and SW lead into the column to the west; N, S, NE, SE stay in it or go east
    -- (the search asks for every step: C.column keeps the columns per map)
    local column = C.column
    ctx.column = column
    ctx.hook = function(a, b)
      if column(b) < column(a) then
        return false, "on the first turn the 13th and 20th Armies move only north, south or east", "5.2"
      end
    end
  end
  ctx.stop[1] = { set = ezoc, rule = "6.22", message = "entered enemy ZOC", messages = base.zoc_messages }
  ctx.lean = base.zoc_messages == nil
  if #base.marked_list > 0 then ctx.surcharge[1] = { set = base.marked, mp = 1, rule = "13.3" } end
  ctx.marked = base.marked
  if from and ezoc:has(from) then
    ctx.cannot_leave = C.reason("6.22", "the stack at %s is in %s and may not leave it voluntarily",
      from, Z.zone_text(side, from, base.zoc_messages))
  end
  return ctx
end

-- Groups units by movement class with the smallest budget of each class.
local function by_class(units, budget_of)
  local out, order = {}, {}
  for _, u in ipairs(units) do
    local cl = C.class(u)
    if not out[cl] then out[cl] = { class = cl, budget = math.huge, units = {} }; order[#order + 1] = cl end
    local b = budget_of(u)
    if b < out[cl].budget then out[cl].budget, out[cl].who = b, u end
    table.insert(out[cl].units, u)
  end
  local list = {}
  for _, cl in ipairs(order) do list[#list + 1] = out[cl] end
  return list
end

-- A field over several movement classes: a hex is reachable if every class reaches it.
local Multi = {}
Multi.__index = Multi
function Multi:cost(h)
  local worst = nil
  for _, g in ipairs(self.groups) do
    local c = g.field:cost(h)
    if c == nil then return nil end
    worst = math.max(worst or 0, c)
  end
  return worst
end
function Multi:path(h)
  if self:cost(h) == nil then return nil end
  return self.groups[1].field:path(h)
end
function Multi:stops(h)
  for _, g in ipairs(self.groups) do if g.field:stops(h) then return true end end
  return false
end
-- The raw reason of the first class that can't get there ({kind, rule, message}) or nil.
function Multi:why_not_raw(h)
  for _, g in ipairs(self.groups) do
    local w = g.field:why_not(h)
    if w then return w end
  end
  return nil
end
-- Why a hex can't be reached, with the rule case ({rule, message}), or nil if it can.
function Multi:why_not(h)
  if self:cost(h) ~= nil then return nil end
  return M.explain(self.units, self.from, h, self.budget_of, self.ctx, self)
end
function Multi:reachable()
  local out = nil
  for _, g in ipairs(self.groups) do
    local r = g.field:reachable()
    if out == nil then out = r else
      for h, c in pairs(out) do
        if r[h] == nil then out[h] = nil else out[h] = math.max(c, r[h]) end
      end
    end
  end
  return out or {}
end
-- The reachable hexes sorted by label (one class: the field's own sorted list).
function Multi:hexes()
  if #self.groups == 1 then return self.groups[1].field:hexes() end
  return C.keys(self:reachable())
end
-- The field of the class a unit moves with.
function Multi:field_of(u)
  for _, g in ipairs(self.groups) do if g.class == C.class(u) then return g.field end end
end

-- Builds the movement field of `units` from `from` with `budget_of(u)` (defaults: mp left).
function M.build_field(units, from, budget_of, ctx)
  ctx = ctx or M.context(units, from)
  local groups = by_class(units, budget_of or M.mp_left)
  for _, g in ipairs(groups) do
    g.field = kessel.paths.field{
      from = from, budget = math.max(0, g.budget), class = g.class, side = ctx.side,
      stop = ctx.stop, forbid = ctx.forbid, surcharge = ctx.surcharge,
      cannot_leave = ctx.cannot_leave, hook = ctx.hook,
    }
  end
  return setmetatable({ groups = groups, ctx = ctx, units = units, from = from, budget_of = budget_of or M.mp_left }, Multi)
end

-- The stack's movement field with every rule applied (the contract other modules use).
function M.field(unit_ids)
  local units = {}
  for _, id in ipairs(unit_ids) do units[#units + 1] = kessel.units.get(id) end
  return M.build_field(units, units[1].hex)
end

-- Cost of one step a -> b for a class, from the declared costs (nil = prohibited).
local function step_cost(class, side, a, b)
  return (kessel.paths.cost{ from = a, to = b, class = class, side = side })
end

-- Checks an explicit path step by step; returns per-class costs or a reason.
local function check_path(units, from, path, ctx, budget_of)
  local groups = by_class(units, budget_of or M.mp_left)
  if ctx.cannot_leave then return nil, ctx.cannot_leave end
  local spent = {}
  local prev = from
  for i, h in ipairs(path) do
    if not kessel.hex.valid(h) then return nil, C.reason("6.1", "%s is not a hex of the map", tostring(h)) end
    if not kessel.hex.adjacent(prev, h) then
      return nil, C.reason("6.1", "%s is not adjacent to %s: a path is a chain of adjacent hexes", h, prev)
    end
    if i > 1 and ctx.ezoc:has(prev) then
      return nil, C.reason("6.22", "cannot enter %s: %s", h, Z.stop_text(ctx.side, prev))
    end
    for _, f in ipairs(ctx.forbid) do
      local set = type(f.set) == "table" and kessel.hexset(f.set) or f.set
      if set:has(h) then return nil, C.reason(f.rule, "cannot enter %s: %s", h, f.message) end
    end
    if ctx.hook then
      local ok, msg, rule = ctx.hook(prev, h)
      if ok == false then return nil, C.reason(rule, "cannot enter %s: %s", h, msg) end
    end
    local extra = ctx.marked:has(h) and 1 or 0
    for _, g in ipairs(groups) do
      local c = step_cost(g.class, ctx.side, prev, h)
      if c == nil then
        local sides = kessel.map.sides(prev, h)
        local why = C.contains(sides, "lake") and "lake hexsides may not be crossed" or "lake hexes may not be entered"
        return nil, C.reason("6.7", "cannot enter %s: %s", h, why)
      end
      spent[g.class] = (spent[g.class] or 0) + c + extra
      if spent[g.class] > g.budget + 1e-9 then
        local who = g.who or g.units[1]
        return nil, C.reason("6.1", "cannot reach %s: needs %s MP, %s has %s MP left%s", h,
          C.mp(spent[g.class]), C.name(who), C.mp(g.budget), M.halved_words(who))
      end
    end
    prev = h
  end
  return spent
end

-- Why `dest` is not in the field: the field's own reason, or, when the search never got there,
-- the first enemy ZOC hex on the cheapest way ignoring stops, or the MP that way needs.
function M.explain(units, from, dest, budget_of, ctx, field)
  if ctx.lean then
    -- built without the per-hex ZOC texts (M.side_base lean): rebuild with them to explain
    local full = M.context(units, from)
    full.cannot_leave = ctx.cannot_leave
    ctx, field = full, M.build_field(units, from, budget_of, full)
  end
  local why = field:why_not_raw(dest) or { message = "no way there" }
  if why.kind == "forbidden" or why.kind == "cannot_leave" or why.kind == "beyond_stop" then
    local msg = why.message
    if why.kind == "beyond_stop" and why.rule == "6.22" and why.at then msg = Z.stop_text(ctx.side, why.at)
    elseif why.kind == "beyond_stop" then msg = "stop: " .. msg end
    return { rule = why.rule or "6.1", message = "cannot reach " .. dest .. ": " .. msg }
  end
  local free = {}
  for k, v in pairs(ctx) do free[k] = v end
  free.stop = {}
  local wide = M.build_field(units, from, function() return 1000 end, free)
  local path = wide:path(dest)
  if path then
    for _, h in ipairs(path) do
      if h ~= dest and ctx.ezoc:has(h) then
        return C.reason("6.22", "cannot reach %s: %s", dest, Z.stop_text(ctx.side, h))
      end
    end
    local worst = nil
    for _, u in ipairs(units) do
      local c = wide:field_of(u):cost(dest)
      if c > budget_of(u) and (worst == nil or c - budget_of(u) > worst.over) then
        worst = { over = c - budget_of(u), need = c, has = budget_of(u), u = u }
      end
    end
    if worst then
      return C.reason("6.1", "cannot reach %s: needs %s MP, %s has %s MP left%s", dest, C.mp(worst.need), C.name(worst.u), C.mp(worst.has), M.halved_words(worst.u))
    end
  end
  return { rule = why.rule or "6.1", message = "cannot reach " .. dest .. ": " .. why.message }
end

-- The fields of a move (C.shape_reason): a malformed action is refused, naming the field.
local MOVE_FIELDS = { { name = "units", kind = "ids" }, { name = "unit", kind = "string" }, { name = "path", kind = "hexes" },
  { name = "rail_cut", kind = "hex" }, { name = "lift", kind = "hex" } }

-- [6.5] After a successful overrun the group goes on as one stack (WBC09 #11 lets it split): the
-- reason a move of `units` (snapshots) that takes part of the group and leaves the rest is
-- refused, or nil.
function M.overrun_split_reason(units)
  local group = M.overrun_group()
  if group and not group.split then
    local inside = 0
    for _, u in ipairs(units) do if group.active[u.id] then inside = inside + 1 end end
    if inside > 0 and inside < group.count then
      return C.reason("6.5", "after its overrun the stack moves on together: move %s as one stack",
        table.concat(group.names, ", "))
    end
  end
  return nil
end

-- Why `units` may not end a move in `dest` whatever the way there, or nil: on the first turn the
-- 13th and 20th Armies may pass through columns 01-02 but not end a move there [5.2]. (M.plan
-- refuses such a move; the `reach` query leaves such hexes out, as a move there is refused.)
function M.end_reason(units, dest)
  local t1_full = false
  for _, u in ipairs(units) do if M.first_turn_full_ma(u) then t1_full = true end end
  if t1_full and C.column(dest) <= 2 then
    return C.reason("5.2", "on the first turn the 13th and 20th Armies may not end their move in columns 01-02 (%s, %s)", C.names(units), dest)
  end
  return nil
end

-- Resolves a move into {units, from, entering, legs = {unit id -> {path, cost}}} or a reason.
function M.plan(a)
  local shape = C.shape_reason(a, "6.1", MOVE_FIELDS)
  if shape then return nil, shape end
  local pr = C.pending_reason()
  if pr then return nil, pr end
  local ids = a.units or (a.unit and { a.unit }) or {}
  if #ids == 0 then return nil, C.reason("6.1", "no units to move") end
  local path = a.path or {}
  if #path == 0 then return nil, C.reason("6.1", "no path given") end
  local units = {}
  for _, id in ipairs(ids) do
    local u = kessel.units.get(id)
    if not u then return nil, C.reason("6.1", "no unit `%s`", tostring(id)) end
    units[#units + 1] = u
  end
  local entering = units[1].location == "pending"
  local from = units[1].hex
  for _, u in ipairs(units) do
    if (u.location == "pending") ~= entering then
      return nil, C.reason("6.1", "units on the map and reinforcements move separately (%s, %s)", C.name(units[1]), C.name(u))
    end
    if not entering and u.location ~= "map" then
      return nil, C.reason("6.1", "%s is not on the map (%s)", C.name(u), C.off_map_words(u))
    end
    if not entering and u.hex ~= from then
      return nil, C.reason("6.1", "%s is not in %s with the rest of the stack", C.name(u), tostring(from))
    end
    if u.side ~= units[1].side then return nil, C.reason("6.1", "units of both sides cannot move together (%s, %s)", C.name(units[1]), C.name(u)) end
  end
  for _, u in ipairs(units) do
    local r = M.cannot_move(u, entering)
    if r then return nil, r end
  end
  local split = M.overrun_split_reason(units)
  if split then return nil, split end
  local budget_of = M.mp_left
  local dest = path[#path]
  local plan = { units = units, entering = entering, legs = {}, dest = dest }
  if entering then
    local R = require("rules.reinforcements")
    local entry, why = R.entry_check(units, path[1])
    if not entry then return nil, why end
    -- entering costs the entry hex's terrain, +1 MP under an enemy interdiction marker [13.3];
    -- the rest is an ordinary move from there
    local costs = {}
    for _, u in ipairs(units) do
      local c = R.entry_mp(u, entry)
      if c == nil then return nil, C.reason("6.7", "%s cannot enter %s (prohibited terrain)", C.name(u), entry) end
      if c > M.mp_left(u) then return nil, C.reason("6.1", "%s needs %s MP to enter %s, has %s", C.name(u), C.mp(c), entry, C.mp(M.mp_left(u))) end
      costs[u.id] = c
    end
    budget_of = function(u) return M.mp_left(u) - costs[u.id] end
    from = entry
    plan.entry, plan.entry_costs = entry, costs
    local ctx = M.context(units, from, M.side_base(units[1].side, true))
    ctx.cannot_leave = nil
    if ctx.ezoc:has(entry) and #path > 1 then
      return nil, C.reason("6.22", "cannot enter %s: %s", path[2], Z.stop_text(units[1].side, entry))
    end
    for _, f in ipairs(ctx.forbid) do
      local set = type(f.set) == "table" and kessel.hexset(f.set) or f.set
      if f.rule ~= "5.2" and set:has(entry) then return nil, C.reason(f.rule, "cannot enter %s: %s", entry, f.message) end
    end
    path = { table.unpack(path, 2) }
    plan.ctx = ctx
    if #path == 0 then
      for _, u in ipairs(units) do plan.legs[u.id] = { path = {}, cost = costs[u.id] } end
      plan.from = from
      return plan
    end
  end
  plan.from = from
  -- a path of the stack's own hex alone goes nowhere: refused, as the rail move's is [6.3] (a path
  -- that leaves and comes back is a move, and pays for it)
  if #path == 1 and dest == from then
    return nil, C.reason("6.1", "a move must leave %s: the path names only the hex the stack is in", from)
  end
  local ctx = plan.ctx or M.context(units, from, M.side_base(units[1].side, true))
  plan.ctx = ctx
  -- first-turn standing armies [5.2]: one hex only, and only to cure overstacking: every unit
  -- that shifts must bring its hex nearer the limit [7.1] (not a leader leaving four rifles behind,
  -- not two rifles where one is enough)
  local excess_checked = false
  for _, u in ipairs(units) do
    local var = M.first_turn_roll_var(u)
    if var and kessel.game.var(var) == "stand" then
      local ST = require("rules.stacking")
      if ST.check_hex(u.hex) == nil then
        return nil, C.reason("5.2", "the %s rolled to stand on the first turn: %s may move only to cure overstacking", u.formation, C.name_at(u))
      end
      if #path ~= 1 or not kessel.hex.adjacent(from, dest) or M.spent(u) > 0 then
        return nil, C.reason("5.2", "the %s rolled to stand on the first turn: %s may shift one hex only", u.formation, C.name(u))
      end
      if not excess_checked then
        excess_checked = true
        local here, moving, rest = kessel.units.at(u.hex), {}, {}
        for _, x in ipairs(units) do moving[x.id] = true end
        for _, x in ipairs(here) do if not moving[x.id] then rest[#rest + 1] = x end end
        local before, after = ST.excess(u.side, here), ST.excess(u.side, rest)
        if before - after < #units then
          -- (it said "leaves 2216 0 unit(s) over the limit" of a whole stack of seven, which
          -- reads as a cure: what is wrong there is how many go)
          return nil, C.reason("5.2", "the %s rolled to stand on the first turn: its units may shift only to cure overstacking, one for each unit %s is over the limit [7.1]; moving %s takes it from %d to %d over, so at most %d of these %d may go",
            u.formation, u.hex, C.names(units), before, after, before - after, #units)
        end
      end
    end
  end
  local no_end = M.end_reason(units, dest)
  if no_end then return nil, no_end end
  if #path == 1 and not kessel.hex.adjacent(from, dest) then
    local field = M.build_field(units, from, budget_of, ctx)
    if field:cost(dest) == nil then return nil, M.explain(units, from, dest, budget_of, ctx, field) end
    for _, u in ipairs(units) do
      local f = field:field_of(u)
      plan.legs[u.id] = { path = f:path(dest), cost = f:cost(dest) + (plan.entry_costs and plan.entry_costs[u.id] or 0) }
    end
    return plan
  end
  local spent, why = check_path(units, from, path, ctx, budget_of)
  if not spent then return nil, why end
  for _, u in ipairs(units) do
    plan.legs[u.id] = { path = path, cost = spent[C.class(u)] + (plan.entry_costs and plan.entry_costs[u.id] or 0) }
  end
  return plan
end

-- Applies a plan: places entering units, moves each unit along its path, charges MP, records
-- first-turn hexes and rail cuts (rail.lua) and clears rail cuts a Soviet unit enters [6.37].
function M.execute(plan, a)
  local turn = kessel.game.turn()
  local V = require("rules.victory")
  for _, u in ipairs(plan.units) do
    local leg = plan.legs[u.id]
    if plan.entering then
      kessel.emit.place(u.id, plan.entry)
      kessel.emit.unit_var(u.id, "entered_turn", turn)
      -- where it came on: an arrival still there with only its entry paid may ride on [6.3] [14.3]
      kessel.emit.unit_var(u.id, "entered_at", plan.entry)
      V.passed(plan.entry, u.side, u)
    end
    if #leg.path > 0 then kessel.emit.move(u.id, leg.path, leg.cost) end
    -- a city is held by the side whose unit was last in or through it [15]
    V.passed_path(u.side, leg.path, u)
    M.spend({ u.id }, leg.cost)
    if M.first_turn_full_ma(u) then
      kessel.emit.flag(u.id, "t1v_" .. plan.from)
      for _, h in ipairs(leg.path) do kessel.emit.flag(u.id, "t1v_" .. h) end
    end
  end
  M.end_overrun_group_unless(plan.units)
  local Rail = require("rules.rail")
  Rail.after_move(plan, a)
  M.note_zoc_stops(plan.units)
end

-- [6.22] A unit that has entered an enemy ZOC stops: its movement is over for the phase (flag
-- `zoc_stop`, cleared when the phase ends), even if the zone is taken away later in the phase
-- (another stack overruns the unit exerting it). `units`: snapshots or ids that just entered a
-- hex; those now in an enemy ZOC are flagged. Apply stage only.
function M.note_zoc_stops(units)
  for _, x in ipairs(units) do
    local u = kessel.units.get(type(x) == "string" and x or x.id)
    if u and u.location == "map" and Z.enemy_zoc(u.side):has(u.hex) then kessel.emit.flag(u.id, "zoc_stop") end
  end
end

-- The overrun group's move is over once another unit moves [6.5] — by a move, a rail move or an
-- overrun of its own; under WBC09 #11 its units must finish before any other unit moves, so they
-- stop then too. `units`: the units (snapshots or ids) about to move. Apply stage only.
function M.end_overrun_group_unless(units)
  local group = M.overrun_group()
  if not group then return end
  for _, u in ipairs(units) do
    if group.active[type(u) == "string" and u or u.id] then return end
  end
  -- (in id order: `pairs` order changes from run to run, and the events go in the log)
  for _, id in ipairs(C.keys(group.active)) do kessel.emit.flag(id, "stopped") end
  kessel.emit.var("overrun_group", nil)
  kessel.emit.note(group.split and "WBC09 #11" or "6.5",
    "another stack moved: the units that overran (" .. table.concat(group.names, ", ") .. ") end their move")
end

-- The units of the last successful overrun that may still move on this phase (game var
-- `overrun_group`, set by overrun.lua), or nil: { active = {id = true}, count, names, split }.
function M.overrun_group()
  local g = kessel.game.var("overrun_group")
  if not g or not C.in_movement_phase() then return nil end
  local active, names, count = {}, {}, 0
  for _, id in ipairs(g.units or {}) do
    local u = kessel.units.get(id)
    if u and u.location == "map" and not u.flags.stopped and u.side == C.phasing() and M.mp_left(u) > 0 then
      active[id] = true
      count = count + 1
      names[#names + 1] = C.name(u)
    end
  end
  if count == 0 then return nil end
  table.sort(names)
  return { active = active, count = count, names = names, split = g.split }
end

-- The plan of the last move validated, and what it was worked out for: the action, the turn and
-- step, and where its units stood with how many MP spent (a cache, not game state).
local last_plan = nil
local function plan_key(a)
  local parts = { kessel.game.turn(), kessel.game.step().index, table.concat(a.path or {}, ","),
    tostring(a.rail_cut), tostring(a.lift), tostring(kessel.game.var("pending") ~= nil) }
  for _, id in ipairs(a.units or (a.unit and { a.unit }) or {}) do
    local u = kessel.units.get(id)
    parts[#parts + 1] = id .. "@" .. tostring(u and u.location) .. tostring(u and u.hex) .. ":" .. tostring(u and u.vars.mp_spent)
  end
  return table.concat(parts, "|")
end

kessel.action{
  kind = "move", rule = "6.1", description = "move a stack (or bring on reinforcements) along a path",
  validate = C.sided(function(a)
    local plan, why = M.plan(a)
    if not plan then return why end
    local Rail = require("rules.rail")
    local refused = Rail.check_cut_request(plan, a)
    if refused == nil then last_plan = { key = plan_key(a), plan = plan } end
    return refused
  end),
  apply = function(a)
    -- the engine validates an action just before applying it: reuse that plan when nothing moved
    local plan
    if last_plan and last_plan.key == plan_key(a) then plan = last_plan.plan else plan = assert(M.plan(a)) end
    last_plan = nil
    M.execute(plan, a)
  end,
  enumerate = C.sided_list(function(side)
    return M.enumerate()
  end),
}

-- Units of the phasing side in `hex` that could move now: free movers, and units of a first-turn
-- army that rolled to stand [5.2] (they may only shift one hex, one by one, to cure overstacking).
function M.movers_at(hex)
  local out, standing = {}, {}
  for _, u in ipairs(kessel.units.at(hex)) do
    if M.cannot_move(u) == nil then
      local var = M.first_turn_roll_var(u)
      if var == nil or kessel.game.var(var) == "move" then out[#out + 1] = u
      else standing[#standing + 1] = u end
    end
  end
  return out, standing
end

-- Destinations (sorted labels) a group of units standing together in `hex` may move to now, by
-- the same rules `move` validates with. `base` is an optional M.side_base.
function M.destinations(units, hex, base)
  -- a stack in an enemy ZOC may not leave it [6.22]: nothing to work out
  if base and base.ezoc:has(hex) then return {}, nil end
  local field = M.build_field(units, hex, nil, M.context(units, hex, base))
  local out = {}
  for _, h in ipairs(field:hexes()) do
    if not (field.ctx.t1_full and field.ctx.column(h) <= 2) then out[#out + 1] = h end
  end
  return out, field
end

-- The moves of a group to its destinations. A path of one non-adjacent hex means "by the cheapest
-- way", but a path of one ADJACENT hex is the single step into it: when that step costs more than
-- the way round (a road around a river), the move lists the cheapest path itself, hex by hex, so
-- that what is listed is what `move` accepts.
--
-- `compact` (for a narrowing enumeration, ai/narrowing.lua): instead of one action per destination,
-- add one record for the group, { kind = "move", units = ids, dests = {...}, paths = {...},
-- ways = w }: the destinations in the same order, and paths[i] the path where it is not
-- { dests[i] } (`true` where it is) (M.expand turns an entry back into the action the full list
-- would hold); `ways` is the same table in the records of groups of one stack with the same
-- destinations and paths, and a reader changes none of them.
-- Is the field's own way to the adjacent hex `h` the single step, for every class of the group?
-- The field took that step by the rules check_path applies (costs, surcharges, prohibitions, the
-- step hook), so the step needs no second check.
local function direct_in_field(field, h)
  for _, g in ipairs(field.groups) do
    local p = g.field:path(h)
    if p == nil or #p ~= 1 then return false end
  end
  return true
end

-- What a group's movement field depends on besides its hex and the side's base (M.context,
-- by_class): its classes in order with the MP each has left, whether it must spend its whole
-- allowance on the first turn and the hexes it has visited then [5.2], and whether it can enter an
-- enemy ZOC [8]. Groups of one stack with the same key have the same destinations and paths.
local function ways_key(units)
  local parts, seen = {}, {}
  local t1_full, t1_others, capable = false, false, false
  for _, u in ipairs(units) do
    local cl = C.class(u)
    local left = M.mp_left(u)
    local i = seen[cl]
    if i == nil then
      parts[#parts + 1] = left
      seen[cl] = #parts
      parts[#parts + 1] = cl
    elseif left < parts[i] then
      parts[i] = left
    end
    if M.first_turn_full_ma(u) then t1_full = true else t1_others = true end
    if C.attack_capable(u) then capable = true end
  end
  if t1_full then
    -- (M.context lifts the 6.4 ban only for a stack of those armies alone)
    if t1_others then parts[#parts + 1] = "t1mixed" end
    local visited, seen_hex = {}, {}
    for _, u in ipairs(units) do
      for f in pairs(u.flags) do
        if not seen_hex[f] and f:match("^t1v_%d+$") then seen_hex[f] = true; visited[#visited + 1] = f end
      end
    end
    table.sort(visited)
    parts[#parts + 1] = "t1:" .. table.concat(visited, ",")
  end
  parts[#parts + 1] = capable and "capable" or "leaders"
  return table.concat(parts, "|")
end

-- The destinations of a group and the path of each (`true`: the destination alone), or nil.
local function group_ways(units, hex, base)
  local dests, field = M.destinations(units, hex, base)
  if #dests == 0 then return nil end
  local next_to = {}
  for _, n in ipairs(kessel.hex.neighbors(hex)) do next_to[n] = true end
  local ways = { dests = {}, paths = {} }
  for _, h in ipairs(dests) do
    local path = true
    if next_to[h] and not direct_in_field(field, h) and not check_path(units, hex, { h }, field.ctx) then
      path = nil
      for _, g in ipairs(field.groups) do
        local p = g.field:path(h)
        if p and check_path(units, hex, p, field.ctx) then path = p; break end
      end
    end
    if path then
      ways.dests[#ways.dests + 1] = h
      ways.paths[#ways.dests] = path
    end
  end
  return ways
end

-- `memo` (optional, one stack's enumeration): ways_key -> the ways of a group already worked out
-- (false: none), so that a stack's units moving alone share the search of the whole stack when
-- nothing tells them apart.
local function group_moves(units, hex, base, out, compact, memo)
  local ids = C.ids(units)
  local ways
  if memo then
    local key = ways_key(units)
    ways = memo[key]
    if ways == nil then ways = group_ways(units, hex, base) or false; memo[key] = ways end
  else
    ways = group_ways(units, hex, base)
  end
  if not ways then return end
  if compact then
    -- (the record reads the group's ways, shared by the records of groups that move alike and
    -- never changed: a reader may compare `ways`)
    out[#out + 1] = { kind = "move", units = ids, dests = ways.dests, paths = ways.paths, ways = ways }
  else
    for i, h in ipairs(ways.dests) do
      local path = ways.paths[i]
      out[#out + 1] = { kind = "move", units = ids, path = path == true and { h } or path }
    end
  end
end

-- The action of entry `i` of a compact group record (group_moves).
function M.expand(rec, i)
  local path = rec.paths[i]
  return { kind = rec.kind, units = rec.units, path = path ~= true and path or { rec.dests[i] } }
end

-- One-hex shifts a unit of a standing first-turn army may make (only to cure overstacking) [5.2].
local function standing_moves(x)
  local out = {}
  for _, n in ipairs(kessel.hex.neighbors(x.hex)) do
    local a = { kind = "move", units = { x.id }, path = { n } }
    if M.plan(a) then out[#out + 1] = a end
  end
  return out
end

-- Every move of one stack: the whole stack of movers to each destination; when several units could
-- move, each of them alone as well (splitting the stack) [6.1]; standing units' shifts [5.2].
-- `want(units, whole)` (optional, for a narrowing enumeration, ai/narrowing.lua) says which groups to
-- work out: the whole stack (`whole` true) or one unit alone.
-- `compact`: group records instead of actions for the movers' groups (group_moves).
-- `kept` (optional): hex -> the ways of groups worked out there (group_moves' memo), kept by a
-- caller that knows nothing they depend on has changed since (ai/narrower.lua keeps it while the
-- enemy's units and markers and the step stay the same).
function M.stack_moves(hex, base, want, compact, kept)
  local out = {}
  local movers, standing = M.movers_at(hex)
  for _, x in ipairs(standing) do
    for _, a in ipairs(standing_moves(x)) do out[#out + 1] = a end
  end
  if #movers > 0 then
    local memo = kept and kept[hex] or {}
    if kept then kept[hex] = memo end
    if want == nil or want(movers, true) then group_moves(movers, hex, base, out, compact, memo) end
    if #movers > 1 then
      for _, u in ipairs(movers) do
        if want == nil or want({ u }, false) then group_moves({ u }, hex, base, out, compact, memo) end
      end
    end
  end
  return out
end

-- Can `u` (on the map) still leave its hex by a move the rules offer? The stacking rules ask this
-- before they let the owner eliminate excess units [7].
function M.can_move_away(u, base)
  if M.cannot_move(u) ~= nil then return false end
  local var = M.first_turn_roll_var(u)
  if var ~= nil and kessel.game.var(var) ~= "move" then return #standing_moves(u) > 0 end
  return #M.destinations({ u }, u.hex, base) > 0
end

-- One move per reachable destination per stack (and per unit of a stack), plus reinforcement
-- entries.
function M.enumerate()
  local out = {}
  if not C.in_movement_phase() or kessel.game.var("pending") then return out end
  local side = C.phasing()
  local base
  -- [6.5] a stack that just overran moves on whole: leave out moves that would split it
  local group = M.overrun_group()
  local function whole(a)
    if not group or group.split then return true end
    local inside = 0
    for _, id in ipairs(a.units or {}) do if group.active[id] then inside = inside + 1 end end
    return inside == 0 or inside == group.count
  end
  return require("ai.narrowing").listed("move", {
    side = side,
    stacks = kessel.units.occupied(side),
    moves = function(hex, want, compact, kept)
      base = base or M.side_base(side, true)
      local list = M.stack_moves(hex, base, want, compact, kept)
      if not group or group.split then return list end
      local kept = {}
      for _, a in ipairs(list) do if whole(a) then kept[#kept + 1] = a end end
      return kept
    end,
    expand = M.expand,
    extra = function() return require("rules.reinforcements").entry_moves(side) end,
  })
end

-- The first-turn roll for the 16th and 19th Armies [5.2] -------------------------------------

-- When the roll is made. The sequence of play has it at the start of the first Soviet Movement
-- Phase, after the Soviet set-up [5.1] and the German's initial air markers [13.2] (so the German
-- places them not knowing whether the 16th and 19th Armies will move); under the WBC bidding the
-- players roll for who bids first, then for the armies, and bid after (WBC09 sides), so then it
-- comes at once, before the bidding.
local function roll_before_bidding()
  return C.option("vp_bidding") and (C.option("vp_bid") or 0) == 0
end

-- Rolls for each army not yet rolled (inside an apply or a setup hook).
function M.roll_first_turn()
  -- WBC09 sides: the die for who bids first comes before this roll
  if roll_before_bidding() then require("rules.bidding").roll_first_bidder() end
  for _, formation in ipairs(M.roll_armies()) do
    local var = M.roll_var_of(formation)
    if kessel.game.var(var) == nil then
      local r = kessel.dice.roll("first turn: " .. formation .. " (1-3 moves, 4-6 stands) [5.2]")
      kessel.emit.var(var, r <= 3 and "move" or "stand")
      kessel.emit.note("5.2", string.format("%s rolls %d: it %s on the first turn", formation, r, r <= 3 and "moves" or "stands"))
    end
  end
end

function M.roll_needed()
  if kessel.game.turn() ~= 1 or not C.step_is("soviet_movement") then return false end
  for _, f in ipairs(M.roll_armies()) do if kessel.game.var(M.roll_var_of(f)) == nil then return true end end
  return false
end

-- Rolls when it is due (inside an apply or a setup hook): the roll is needed and nothing it waits
-- for is still open.
function M.roll_first_turn_if_due()
  if M.roll_needed() and (roll_before_bidding() or not M.initial_air_pending()) then M.roll_first_turn() end
end

kessel.action{
  kind = "first_turn_roll", rule = "5.2", description = "roll for the 16th and 19th Armies' first-turn movement",
  validate = C.sided(function(a)
    if not M.roll_needed() then return C.reason("5.2", "the first-turn roll is made once, in the first Soviet Movement Phase") end
    if M.initial_air_pending() and not roll_before_bidding() then
      return C.reason("5.2", "the first-turn roll comes after the Soviet set-up and the German's initial air markers [13.2]")
    end
  end),
  apply = function(a) M.roll_first_turn() end,
  enumerate = C.sided_list(function(side)
    if M.roll_needed() and (roll_before_bidding() or not M.initial_air_pending()) then return { { kind = "first_turn_roll" } } end
    return {}
  end),
}

kessel.on("setup", function()
  if kessel.game.turn() == 1 and C.step_is("soviet_movement") then M.roll_first_turn_if_due() end
end)

-- An overrun group's right to move on ends with its phase [6.5].
kessel.on("step_start", function()
  if kessel.game.var("overrun_group") ~= nil then kessel.emit.var("overrun_group", nil) end
end)

-- The 13th and 20th Armies must spend their whole movement allowance on turn 1 [5.2]: the phase
-- may not end while one of them has MP left and somewhere to go. With `first`, the first such
-- unit is enough.
function M.end_phase_problems(first)
  local out = {}
  if kessel.game.turn() ~= 1 or not C.step_is("soviet_movement") then return out end
  -- the Soviet set-up [5.1] and the German's initial air markers [13.2] come before the Soviet
  -- moves: the phase does not end under them (the German ends his placement with
  -- end_air_placement, not by ending the Soviet's phase)
  if M.initial_air_pending() then
    if require("rules.setup").open() then
      out[#out + 1] = C.reason("5.1", "the Soviet set-up comes first, then the German's initial air markers [13.2]: end_setup ends the set-up")
    else
      out[#out + 1] = C.reason("13.2", "the German places his initial air markers first (place_marker, or end_air_placement to place no more)")
    end
    return out
  end
  local base
  for _, u in ipairs(C.units_of(C.SOVIET)) do
    if M.first_turn_full_ma(u) and M.cannot_move(u) == nil then
      base = base or M.side_base(C.SOVIET, true)
      if #M.destinations({ u }, u.hex, base) > 0 then
        -- (C.name already names the army)
        out[#out + 1] = C.reason("5.2", "%s in %s must spend its full movement allowance on the first turn (%s MP left)",
          C.name(u), u.hex, C.mp(M.mp_left(u)))
        if first then return out end
      end
    end
  end
  return out
end
SEQ.add_end_phase_check(M.end_phase_problems)

-- Phase bookkeeping: fresh MP each Movement Phase; disruption removal [6.6].
kessel.on("step_start", function()
  if C.in_movement_phase() then kessel.emit.clear_unit_var("mp_spent") end
  if C.step_is("soviet_disruption_removal", "german_disruption_removal") then
    -- [6.6] The standard reading lifts only the phasing player's own markers (pgg-facts.md); the
    -- manual and the sequence of play say no more than "remove the markers", which option
    -- disruption_removal = every_phase reads as all of them, whoever's they are.
    local every = C.option("disruption_removal") == "every_phase"
    local side = not every and C.phasing() or nil
    local names = {}
    for _, u in ipairs(kessel.units.all{ side = side, location = "map", flag = "disrupted" }) do
      names[#names + 1] = C.name(u) .. " at " .. u.hex
    end
    kessel.emit.clear_flag("disrupted", side)
    if #names > 0 then
      kessel.emit.note("6.6", string.format("disruption removed (%s): %s",
        every and "every marker, option disruption_removal = every_phase" or "the owner's Disruption Removal Phase",
        table.concat(names, ", ")))
    end
  end
end)

return M
