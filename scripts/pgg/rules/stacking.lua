-- [7] Stacking. Soviet: at most 3 combat units in a hex, or 4 units in all when leaders are among
-- them [7.1] (WBC09 #12: several leaders may share a hex within the four-unit limit). German: at
-- most 3 units [7.2]. Units may pass through crowded hexes; the limit is checked at checkpoints:
-- the end of the owner's Movement Phase(s) and throughout combat, or for the German at the end of
-- every phase (option `german_stacking_checkpoint`). Excess units are eliminated, the owner
-- choosing which (`eliminate_excess`); the phase cannot end while a hex is over the limit.
-- A retreat that ends over the limit [7] [9.7]: the retreated units beyond it are eliminated, and
-- which of them is decided by their owner (WBC09 #2: by the opponent) as a pending decision
-- `retreat_excess`, answered with the same `eliminate_excess{unit=}` (retreat.lua sets it up).
-- No elimination is offered or accepted while any other decision is pending (the WBC bidding
-- among them).
local C = require("rules.common")
local SEQ = require("rules.sequence")
local ST = {}

-- Units of `side` among `units` that count: {combat=, leaders=, total=}.
local function count(side, units)
  local n = { combat = 0, leaders = 0, total = 0 }
  for _, u in ipairs(units) do
    if u.side == side then
      n.total = n.total + 1
      if C.is_leader(u) then n.leaders = n.leaders + 1 else n.combat = n.combat + 1 end
    end
  end
  return n
end

-- How many units over the limit a group of `side` units is (0 = legal).
function ST.excess(side, units)
  local n = count(side, units)
  if side == C.SOVIET then
    return math.max(n.combat - 3, n.total - 4, 0), n
  end
  return math.max(n.total - 3, 0), n
end

-- The most units of `side` one hex may hold, whatever their kinds [7.1] [7.2].
function ST.capacity(side) return side == C.SOVIET and 4 or 3 end

-- True if `units` (the units that would be in one hex) respect `side`'s limit; else false and a
-- reason {rule, message}.
function ST.limit_ok(side, units)
  local excess, n = ST.excess(side, units)
  if excess == 0 then return true end
  if side == C.SOVIET then
    if n.combat > 3 then
      return false, C.reason("7.1", "%d Soviet combat units in one hex (limit 3)", n.combat)
    end
    return false, C.reason("7.1", "%d Soviet units in one hex (limit 4 when leaders are present)", n.total)
  end
  return false, C.reason("7.2", "%d German units in one hex (limit 3)", n.total)
end

-- The stacking problem of a hex (for the side occupying it), or nil.
function ST.check_hex(hex)
  local units = kessel.units.at(hex)
  if #units == 0 then return nil end
  local ok, why = ST.limit_ok(units[1].side, units)
  if ok then return nil end
  why.message = "hex " .. hex .. ": " .. why.message
  return why
end

-- Is the current step a stacking checkpoint for `side`?
function ST.checkpoint(side)
  if C.in_combat_phase() then return true end
  if side == C.SOVIET then return C.step_is("soviet_movement") end
  if C.option("german_stacking_checkpoint") == "every_phase" then return true end
  return C.step_is("german_movement", "german_mech_movement")
end

-- Overstacked hexes of `side` (hex -> reason).
function ST.overstacked(side)
  local out, count = {}, {}
  for _, u in ipairs(C.units_of(side)) do count[u.hex] = (count[u.hex] or 0) + 1 end
  -- (no hex of three units or fewer is over either side's limit)
  for hex, n in pairs(count) do
    if n > 3 then
      local r = ST.check_hex(hex)
      if r then out[hex] = r end
    end
  end
  return out
end

-- Reasons the current phase may not end: hexes over the limit at a checkpoint (with `first`, the
-- first is enough).
function ST.end_phase_problems(first)
  local out = {}
  for _, side in ipairs({ C.SOVIET, C.GERMAN }) do
    if ST.checkpoint(side) then
      local over = ST.overstacked(side)
      for _, hex in ipairs(C.keys(over)) do
        local r = over[hex]
        local n = ST.excess(side, kessel.units.at(hex))
        -- (while a unit there can still move away, moving is the way out; elimination only after)
        if ST.stuck(hex, side) then
          out[#out + 1] = C.reason(r.rule, "%s: the owner must eliminate %d unit(s) (eliminate_excess)", r.message, n)
        else
          out[#out + 1] = C.reason(r.rule, "%s: %d unit(s) too many; move them away (they still can) before the phase ends", r.message, n)
        end
        if first then return out end
      end
    end
  end
  return out
end
SEQ.add_end_phase_check(ST.end_phase_problems)

-- Would eliminating `u` reduce its hex's excess?
function ST.helps(u) return (ST.helps_raw(u)) end
local function helps(u) return ST.helps_raw(u) end
function ST.helps_raw(u)
  local others = {}
  for _, x in ipairs(kessel.units.at(u.hex)) do if x.id ~= u.id then others[#others + 1] = x end end
  return ST.excess(u.side, others) < ST.excess(u.side, kessel.units.at(u.hex))
end

-- May the owner of overstacked `hex` (side `s`) be asked to eliminate units now? In his own
-- Movement Phase only once no unit there can still move away by a move the movement rules offer
-- (M.can_move_away, the test the move enumerator itself applies), and not while his units are
-- only held up for a moment: before the German's initial air markers are down or the first-turn
-- roll is made [13.2] [5.2].
function ST.stuck(hex, s)
  if not (C.in_movement_phase() and C.phasing() == s) then return true end
  local M = require("rules.movement")
  if s == C.SOVIET and (M.initial_air_pending() or M.roll_needed()) then return false end
  local base
  for _, u in ipairs(kessel.units.at(hex)) do
    if u.side == s then
      base = base or M.side_base(s, true)
      if M.can_move_away(u, base) then return false end
    end
  end
  return true
end

-- Why the Soviet Movement Phase of turn 1 has not reached its first move yet, or nil: the set-up
-- is open [5.1], the German's initial air markers are awaited [13.2], or the first-turn roll is to
-- be made [5.2]. Stacking is checked at the end of that phase [7.1], so nothing is eliminated as
-- excess before (the set-up itself may stack over the limit where the scenario says).
function ST.before_first_move()
  if kessel.game.turn() ~= 1 or not C.step_is("soviet_movement") then return nil end
  if require("rules.setup").open() then
    return C.reason("5.1", "the Soviet set-up is still open (end_setup ends it): stacking is checked at the end of the Soviet Movement Phase [7.1], not before the first move")
  end
  local M = require("rules.movement")
  if M.initial_air_pending() then
    return C.reason("13.2", "the German's initial air markers come before the first Soviet move: stacking is checked at the end of the Soviet Movement Phase [7.1]")
  end
  if M.roll_needed() then
    return C.reason("5.2", "the first-turn roll for the 16th and 19th Armies comes first: stacking is checked at the end of the Soviet Movement Phase [7.1]")
  end
  return nil
end

-- The retreat excess decision waiting, or nil [7] [9.7].
local function retreat_excess()
  local p = kessel.game.var("pending")
  if p and p.kind == "retreat_excess" then return p end
end

local function retreat_excess_reasons(a, p)
  local u = a.unit and kessel.units.get(a.unit)
  if not u or not C.on_map(u) or u.hex ~= p.hex or not C.contains(p.units, u.id) then
    return C.reason(p.rule, "name one of the units that retreated into %s: %s", p.hex, table.concat(p.units, ", "))
  end
  if not helps(u) then
    return C.reason(p.rule, "eliminating %s would not bring hex %s nearer the limit (too many combat units)", C.name(u), u.hex)
  end
end

kessel.action{
  kind = "eliminate_excess", rule = "7", description = "eliminate a unit of an overstacked hex (owner's choice; after a retreat, as pending)",
  validate = function(a)
    local shape = C.shape_reason(a, "7", { { name = "unit", kind = "string" } })
    if shape then return shape end
    local p = retreat_excess()
    if p then
      local why = C.actor_reason(a)   -- the chooser named by the pending decision
      if why then return why end
      return retreat_excess_reasons(a, p)
    end
    local pr = C.pending_reason()
    if pr then return pr end
    local u = a.unit and kessel.units.get(a.unit)
    if not u or not C.on_map(u) then return C.reason("7", "no unit `%s` on the map", tostring(a.unit)) end
    -- at a checkpoint the owner eliminates his own excess [7], whoever is phasing
    if a.side ~= nil and a.side ~= u.side then
      return C.reason(u.side == C.SOVIET and "7.1" or "7.2", "the owner (the %s player) eliminates his excess, not his opponent", u.side == C.SOVIET and "Soviet" or "German")
    end
    if not ST.checkpoint(u.side) then
      return C.reason(u.side == C.SOVIET and "7.1" or "7.2", "stacking is not checked now for the %s", u.side)
    end
    local early = u.side == C.SOVIET and ST.before_first_move()
    if early then return early end
    if ST.check_hex(u.hex) == nil then
      return C.reason(u.side == C.SOVIET and "7.1" or "7.2", "hex %s is within the stacking limit", u.hex)
    end
    if not helps(u) then
      -- (only a Soviet hex can be over its limit in combat units alone: a leader there helps nothing)
      return C.reason(u.side == C.SOVIET and "7.1" or "7.2", "eliminating %s would not bring hex %s nearer the limit (too many combat units)", C.name(u), u.hex)
    end
  end,
  apply = function(a)
    local u = kessel.units.get(a.unit)
    local p = retreat_excess()
    require("rules.untried").eliminate(u, u.side == C.SOVIET and "7.1" or "7.2",
      (p and "retreated into an over-full hex (" .. u.hex .. "), chosen by the " .. p.side or "eliminated for overstacking at " .. u.hex))
    if p then require("rules.retreat").settle_excess() end
  end,
  enumerate = function(side)
    local out = {}
    local p = retreat_excess()
    if p then
      if side and side ~= p.side then return out end
      for _, id in ipairs(p.units) do
        local u = kessel.units.get(id)
        if u and C.on_map(u) and u.hex == p.hex and helps(u) then out[#out + 1] = { kind = "eliminate_excess", unit = id } end
      end
      return out
    end
    if kessel.game.var("pending") or kessel.game.finished() then return out end
    for _, s in ipairs({ C.SOVIET, C.GERMAN }) do
      -- the owner eliminates his own excess [7]
      if ST.checkpoint(s) and (side == nil or side == s) then
        for _, hex in ipairs(C.keys(ST.overstacked(s))) do
          -- in a Movement Phase, offered only once no unit of the hex can still move away
          if ST.stuck(hex, s) then
            for _, u in ipairs(kessel.units.at(hex)) do
              if helps(u) then out[#out + 1] = { kind = "eliminate_excess", unit = u.id } end
            end
          end
        end
      end
    end
    return out
  end,
}

return ST
