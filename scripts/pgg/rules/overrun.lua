-- [6.5] Overrun and [6.6] disruption.
--
-- During a Movement Phase (for the German Mechanized Movement Phase, mechanized units only) a stack
-- may overrun an adjacent enemy hex: `overrun{units={ids}, target=hex}`. The overrunners attack from
-- one hex as a group (option overrun_group: they must have started the phase together, or may have
-- assembled there); each must have 3 MP left (WBC09 #15: +1 when an enemy air-interdiction marker is
-- in the target hex), which is spent. Supply is judged at that instant; strength is halved after
-- every other modifier, fractions dropped; the die is rolled at once on the CRT. Untried units
-- are revealed [12.2]. Disrupted units may not overrun; a Soviet combat unit must have begun the
-- phase within a working leader's radius [10.35]. Leaders join only under WBC09 #12 (their bonus
-- halved with the rest).
-- Results: the defender's part as in combat (loss or retreat, picked by the owner; the path by the
-- overrunner). A defender that suffers any loss or retreat (not Eng) is disrupted [6.6]: flag
-- "disrupted" — no move, no attack, no ZOC, defends normally, a disrupted leader gives nothing —
-- removed in its owner's next Disruption Removal Phase (option disruption_removal: in the next one).
-- If the hex is cleared the overrunners must enter it at no cost and may move on [6.5]; they ignore
-- the ZOC of the overrun units from the hex they attack from. Otherwise the overrun failed: any
-- result that leaves a defender in the hex (a defender who took a step loss rather than retreat,
-- Eng), a split result, or any loss or retreat of the overrunners stops them for the phase (flag
-- "stopped": no further move, no second overrun); under WBC09 #7, overrunners
-- who cleared the hex but take their loss as steps stay in the hex they came from and move no more
-- that player-turn (`O.end_turn`). No advance
-- after an overrun. After a successful overrun the group moves on together (game var
-- "overrun_group"), or under WBC09 #11 may split, finishing before any other unit moves (same var,
-- with `split = true`).
-- Rail cuts [6.37] WBC09 #6: overrunners who clear the hex move into it, so a German overrun may
-- carry `rail_cut = target` (and `lift`) as a move does; the cut goes down when they enter the hex
-- and not when the overrun fails (game var "overrun_rail_cut" holds the request meanwhile).
local C = require("rules.common")
local K = require("rules.combat")
local L = require("rules.leaders")
local U = require("rules.untried")
local M = require("rules.movement")
local O = {}

O.COST = 3

-- MP cost of an overrun into `target` for `side` [6.5]; the WBC09 #15 surcharge is interdiction.lua's.
function O.cost(side, target)
  return O.COST + require("rules.interdiction").overrun_surcharge(target, side)
end

-- MP left and spent: movement.lua keeps the count [6.1].
function O.mp_left(u) return M.mp_left(u) end
local function spend(ids, mp) M.spend(ids, mp) end

-- Start-of-phase facts an overrun needs: where each phasing unit stood, and (Soviet) who was in
-- command [6.5] [10.35].
kessel.on("step_start", function()
  if not C.in_movement_phase() then return end
  local side = C.phasing()
  local where, command = {}, {}
  local hexes = side == C.SOVIET and L.command_hexes() or nil
  for _, u in ipairs(C.units_of(side)) do
    where[u.id] = u.hex
    if hexes and hexes[u.hex] then command[#command + 1] = u.id end
  end
  kessel.emit.var("phase_start", { hexes = where, command = command, step = kessel.game.step().index, turn = kessel.game.turn() })
end)

local function phase_start()
  -- (read once per state: every overrun an enumeration checks asks for it)
  local s = C.per_revision("overrun_phase_start", function() return kessel.game.var("phase_start") or false end)
  if s and s.step == kessel.game.step().index and s.turn == kessel.game.turn() then return s end
  return nil
end

-- Where a unit began the phase, for the option overrun_group = started_together [6.5]: its hex, or,
-- for a reinforcement that came on this phase, off the map in its entry area (units entering
-- together began together; a unit entering did not begin the phase with units already on the map).
function O.start_place(start, u)
  local h = start.hexes[u.id] or require("rules.reinforcements").provisional_start(u)
  if h then return "in " .. h end
  return "off the map" .. (u.enter_area and (" (entry area " .. u.enter_area .. ")") or "")
end

-- [6.5] [6.22] The first enemy unit not in `target` whose zone of control covers `from`
-- ("z at 0202"), or nil. Overrunners ignore the zone of the units they overrun, from the hex they
-- attack from, and no other: a stack in another enemy unit's zone ended its move on entering it
-- and may not leave it voluntarily, which a successful overrun (the cleared hex must be entered)
-- would make it do. Disrupted units have no zone [6.6]; none extends across a lake hexside [8].
function O.other_zone(side, from, target)
  for _, n in ipairs(kessel.hex.neighbors(from)) do
    if n ~= target and not kessel.map.has_side(from, n, "lake") then
      for _, u in ipairs(kessel.units.at(n)) do
        if u.side ~= side and not C.disrupted(u) then return C.name(u) .. " at " .. n end
      end
    end
  end
  return nil
end

-- The fields of an overrun (C.shape_reason): a malformed action is refused, naming the field.
local OVERRUN_FIELDS = { { name = "units", kind = "ids" }, { name = "target", kind = "hex" },
  { name = "rail_cut", kind = "hex" }, { name = "lift", kind = "hex" } }

function O.reasons(a)
  local shape = C.shape_reason(a, "6.5", OVERRUN_FIELDS)
  if shape then return { shape } end
  local reasons = {}
  local function no(rule, fmt, ...) reasons[#reasons + 1] = C.reason(rule, fmt, ...) end
  local p = kessel.game.var("pending")
  if p then no(p.rule or "9.6", "a decision is waiting: %s", p.prompt or p.kind); return reasons end
  if not C.in_movement_phase() then no("6.5", "overruns happen only in a Movement Phase"); return reasons end
  local side = C.phasing()
  local ids = a.units or {}
  if #ids == 0 then no("6.5", "an overrun needs units") return reasons end
  local target = a.target
  if type(target) ~= "string" or not kessel.hex.valid(target) then no("6.5", "an overrun needs a target hex") return reasons end
  local start = phase_start()
  local units, combat_units, leaders = {}, {}, {}
  local command
  local from
  local cost   -- (the same for every unit: worked out for the first)
  for _, id in ipairs(ids) do
    local u = kessel.units.get(id)
    if not u then no("6.5", "no unit `%s`", tostring(id))
    elseif u.location ~= "map" then no("6.5", "%s is not on the map", C.name(u))
    elseif u.side ~= side then no("6.5", "%s does not belong to the phasing player", C.name(u))
    else
      from = from or u.hex
      if u.hex ~= from then no("6.5", "overrunning units attack together from one hex (%s is in %s, not %s)", C.name(u), u.hex, from) end
      if C.disrupted(u) then no("6.6", "%s is disrupted and cannot move or attack", C.name_at(u)) end
      if u.flags.stopped then no("6.5", "%s was stopped by an earlier overrun this phase", C.name_at(u)) end
      if u.flags.turn_ended then
        no("WBC09 #7", "%s took its loss in an overrun earlier this player-turn and stayed where it was: its movement is over for the turn", C.name_at(u))
      end
      if C.step_is("german_mech_movement") and not C.is_mech(u) then
        no("4", "only mechanized units move in the Mechanized Movement Phase (%s)", C.name_at(u))
      end
      if C.is_leader(u) then
        leaders[#leaders + 1] = u
        if not C.option("wbc09_12_multiple_leaders") then
          no("10.2", "leaders have no attack strength and cannot overrun (WBC09 #12 lets them join)")
        end
      elseif not U.may_attack(u) then
        no("12.3", "%s has no attack strength and may only defend", C.name_at(u))
      else
        combat_units[#combat_units + 1] = u
        if u.side == C.SOVIET then
          local ok
          if start then
            ok = C.contains(start.command, u.id)
            -- [14.1] this turn's provisional division was placed at the start of the phase, after
            -- the record above was made: it began the phase where it appeared
            if not ok and not start.hexes[u.id] then
              local _, placed_in_command = require("rules.reinforcements").provisional_start(u)
              ok = placed_in_command == true
            end
          else command = command or L.command_hexes(); ok = L.in_command(u, command) end
          if not ok then
            if start and not start.hexes[u.id] and not require("rules.reinforcements").provisional_start(u) then
              -- (a reinforcement, a South-Western Front division: not on the map when the phase began)
              reasons[#reasons + 1] = L.outside_command_reason(u,
                "came onto the map this phase, so it did not begin the phase within a leader's command radius, and may not overrun [6.5]")
            else
              reasons[#reasons + 1] = L.outside_command_reason(u,
                "began the phase outside every leader's command radius and may not overrun [6.5]")
            end
          end
        end
      end
      if start and C.option("overrun_group") == "started_together" then
        local mine, first = O.start_place(start, u), O.start_place(start, kessel.units.get(ids[1]))
        if mine ~= first then
          no("6.5", "the overrunning units must have started the phase in one hex (option overrun_group): %s started %s, %s started %s",
            C.name(u), mine, C.name(kessel.units.get(ids[1])), first)
        end
      end
      cost = cost or O.cost(side, target)
      local left = O.mp_left(u)
      if left < cost then
        no("6.5", "%s has %s MP left%s; an overrun into %s costs %d", C.name_at(u), C.mp(left), M.halved_words(u), target, cost)
      end
      units[#units + 1] = u
    end
  end
  if #units > 0 and #combat_units == 0 then no("6.5", "an overrun needs combat units") end
  -- [6.5] an overrun is movement: part of the last overrun's stack may not go on without the
  -- rest, as by a move (WBC09 #11 lets it split)
  local split = M.overrun_split_reason(units)
  if split then reasons[#reasons + 1] = split end
  if #leaders > 0 then
    for _, r in ipairs(L.check_attack_leaders(leaders, combat_units)) do reasons[#reasons + 1] = r end
  end
  if from then
    if not kessel.hex.adjacent(from, target) then no("6.5", "%s is not next to %s", target, from)
    else
      local lake = K.lake_reason(from, target, "the overrunners in " .. from, "overrun")
      if lake then reasons[#reasons + 1] = lake end
    end
    local other = O.other_zone(side, from, target)
    if other then
      no("6.22", "the overrunners in %s are in the zone of control of %s, which they may not leave voluntarily; an overrun ignores only the zone of the units it attacks (%s)",
        from, other, target)
    end
  end
  if not C.enemy_at(target, side) then
    no("6.5", "%s holds no %s unit for the %s to overrun", target, C.side_name(C.other(side)), C.side_name(side))
  end
  -- [6.37] WBC09 #6 overrunners who clear the hex enter it, moving into it: the German may ask for
  -- a rail cut there, as on a move; it goes down only if they enter the hex
  if a.rail_cut and #units > 0 then
    local why
    if a.rail_cut ~= target then
      why = C.reason("6.37", "a rail cut asked with an overrun goes in the hex overrun (%s), which the overrunners enter if they clear it; not in %s", target, a.rail_cut)
    else
      why = require("rules.rail").cut_reason(units[1], { target }, a)
    end
    if why then reasons[#reasons + 1] = why end
  end
  -- [6.4] [6.5] overrunners who clear the hex must enter it: on turns 1-6 a Soviet overrun into
  -- columns 01-02 could not end as the rule demands, so it is not allowed (the first turn's 13th and
  -- 20th Armies, who may pass through those columns [5.2], excepted as they are for movement)
  if side == C.SOVIET and kessel.game.turn() <= 6 and C.column(target) <= 2 then
    local t1_full = false
    for _, u in ipairs(units) do if M.first_turn_full_ma(u) then t1_full = true end end
    if not t1_full then
      no("6.4", "overrunners who clear %s must enter it, and on turns 1-6 no Soviet unit may enter columns 01-02", target)
    end
  end
  return reasons
end

-- WBC09 #7: overrunners who cleared the hex but stayed in the hex they came from (a split result
-- taken as a loss, or Eng) "end their turn and their movement phase". Read: their movement is over
-- for the player-turn, so the German Initial Movement Phase's overrunners do not move again in the
-- Mechanized Movement Phase (flag "turn_ended", cleared when the next player-turn begins). The item
-- speaks of movement only: they still attack in the Combat Phase between (the standard rule [6.5]
-- stops overrunners for the phase alone).
function O.end_turn(units)
  if not C.step_is("german_movement") then return end
  local names = {}
  for _, u in ipairs(units) do
    kessel.emit.flag(u.id, "turn_ended")
    names[#names + 1] = C.name(u)
  end
  kessel.emit.note("WBC09 #7", table.concat(names, ", ") .. " end their movement for the player-turn: no move in the Mechanized Movement Phase")
end

kessel.on("step_start", function()
  if C.step_is("soviet_movement", "german_movement") then kessel.emit.clear_flag("turn_ended") end
end)

-- What happens to the overrunners once the results are in [6.5] [6.6].
K.finishers.overrun = function(cb)
  local target = cb.def_hexes[1]
  if cb.defender_hit and not cb.eng then
    for _, id in ipairs(cb.defenders) do
      local d = kessel.units.get(id)
      if d.location == "map" then
        kessel.emit.flag(id, "disrupted")
        kessel.emit.note("6.6", C.name(d) .. " is disrupted")
      end
    end
  end
  local alive = K.units_of(cb, "attacker")
  local cleared = true
  for _, u in ipairs(kessel.units.at(target)) do if u.side == cb.defender_side then cleared = false end end
  local adverse = cb.attacker_hit or cb.eng
  -- [6.5] any result that leaves a defender in the hex (a step loss taken instead of a retreat, a
  -- two-step unit flipped, Eng) is a failed overrun: the overrunners stop, as after an adverse result
  local failed = adverse or not cleared
  local stayed = {}
  for _, u in ipairs(alive) do
    if u.hex == cb.att_hexes[1] then stayed[#stayed + 1] = u end
  end
  if cleared and #stayed > 0 then
    if cb.eng then
      -- [9.5] Engaged: both sides take a step and remain in place, no advance; WBC09 #7 names Eng
      -- among the results after which overrunners stay in the hex they came from
      kessel.emit.note("9.5", "Engaged: the overrunners remain in " .. cb.att_hexes[1] .. " although " .. target .. " is cleared (no advance after Eng)")
      if C.option("wbc09_07_overrun_loss_stays_put") then O.end_turn(stayed) end
    elseif adverse and C.option("wbc09_07_overrun_loss_stays_put") then
      kessel.emit.note("WBC09 #7", "the overrunners took their loss and stay in " .. cb.att_hexes[1])
      O.end_turn(stayed)
    else
      for _, u in ipairs(stayed) do kessel.emit.move(u.id, { target }, 0) end
      -- [6.5] [6.22] clearing the hex lets the overrunners go on (the zone they stopped in to
      -- overrun was the defender's); entering another enemy zone there stops them again
      for _, u in ipairs(stayed) do
        if kessel.units.get(u.id).flags.zoc_stop then kessel.emit.flag(u.id, "zoc_stop", false) end
      end
      M.note_zoc_stops(stayed)
      -- [15] they may move on in the same phase: they were the last in the hex
      require("rules.victory").passed(target, cb.attacker_side, stayed)
      kessel.emit.note("6.5", "the hex is cleared: the overrunners enter " .. target .. " at no cost")
      -- [6.37] Soviet combat units entering a cut rail hex repair it, by overrun as by any move
      for _, u in ipairs(stayed) do require("rules.rail").repair(u, { target }) end
      -- [6.37] WBC09 #6 a German cut asked for with the overrun goes down in the hex they entered
      local cut = kessel.game.var("overrun_rail_cut")
      if cut and cut.rail_cut == target and cb.attacker_side == C.GERMAN then require("rules.rail").place_cut(cut) end
    end
  end
  if kessel.game.var("overrun_rail_cut") ~= nil then kessel.emit.var("overrun_rail_cut", nil) end
  if failed then
    -- [6.5] a failed overrun stops every unit committed to it: those that fought, and those a
    -- reveal took out of the fight (a 0-1-6 [12.3]), who spent the overrun's MP all the same
    for _, id in ipairs(cb.committed or C.ids(alive)) do
      local u = kessel.units.get(id)
      if u and u.location == "map" then kessel.emit.flag(id, "stopped") end
    end
    if not cleared and #alive > 0 then
      kessel.emit.note("6.5", "the overrun failed: a defender is still in " .. target)
    end
    kessel.emit.note("6.5", "the overrunners stop for the rest of the phase")
  elseif cleared and #stayed > 0 then
    -- WBC09 #11: when part of a split stack overran again, the rest of it still belongs to the
    -- stack that must finish before any other unit moves [6.5]; it stays in the group
    local ids, seen = C.ids(stayed), {}
    for _, id in ipairs(ids) do seen[id] = true end
    local before = M.overrun_group()
    if before then
      for _, id in ipairs(C.keys(before.active)) do
        if not seen[id] then ids[#ids + 1] = id end
      end
    end
    kessel.emit.var("overrun_group", { units = ids, split = C.option("wbc09_11_overrun_stack_may_split") })
  end
end

kessel.action{
  kind = "overrun", rule = "6.5",
  description = "overrun an adjacent enemy hex during movement: overrun{units={ids}, target=hex} (German: rail_cut=target, lift=hex, as on a move [6.37])",
  validate = C.sided(O.reasons),
  apply = function(a)
    local units = {}
    for _, id in ipairs(a.units) do units[#units + 1] = kessel.units.get(id) end
    -- another stack's overrun ends the move of the last overrun's group [6.5] (WBC09 #11)
    M.end_overrun_group_unless(units)
    local cost = O.cost(units[1].side, a.target)
    spend(a.units, cost)
    kessel.emit.note("6.5", string.format("overrun of %s from %s (%d MP)", a.target, units[1].hex, cost))
    -- a rail cut asked for, placed if the overrunners enter the hex (K.finishers.overrun)
    kessel.emit.var("overrun_rail_cut", a.rail_cut and { rail_cut = a.rail_cut, lift = a.lift } or nil)
    K.engage("overrun", units, { a.target }, { overrun = true })
  end,
  enumerate = C.sided_list(function(side)
    local out = {}
    if not C.in_movement_phase() or kessel.game.var("pending") then return out end
    local me = C.phasing()
    if side and side ~= me then return out end
    return require("ai.narrowing").listed("overrun", { side = me, stacks = kessel.units.occupied(me), moves = O.stack_overruns })
  end),
}

-- Overruns the phasing player's stack in `hex` may make now: its combat units together against
-- each adjacent enemy hex, or, when the group may not, each unit that may alone; under WBC09 #12
-- each of these also with the hex's leaders, who may join an overrun (as attacks are listed with
-- their hexes' leaders [10.36]).
function O.stack_overruns(hex)
  local out = {}
  local me = C.phasing()
  local ids, leader_ids = {}, {}
  local with_leaders = C.option("wbc09_12_multiple_leaders")
  for _, u in ipairs(kessel.units.at(hex)) do
    if u.side == me and not C.disrupted(u) and not u.flags.stopped then
      if C.is_combat_unit(u) then ids[#ids + 1] = u.id
      elseif with_leaders and C.is_leader(u) then leader_ids[#leader_ids + 1] = u.id end
    end
  end
  if #ids == 0 then return out end
  local function offer(units, n)
    local a = { kind = "overrun", units = units, target = n }
    if O.reasons(a)[1] then return false end
    out[#out + 1] = a
    if #leader_ids > 0 then
      local both = { table.unpack(units) }
      for _, id in ipairs(leader_ids) do both[#both + 1] = id end
      local b = { kind = "overrun", units = both, target = n }
      if not O.reasons(b)[1] then out[#out + 1] = b end
    end
    return true
  end
  local enemy = C.occupied(C.other(me))
  for _, n in ipairs(kessel.hex.neighbors(hex)) do
    if enemy:has(n) then
      if not offer(ids, n) then
        for _, id in ipairs(ids) do offer({ id }, n) end
      end
    end
  end
  return out
end

-- [6.6] Disruption ends in the owner's next Disruption Removal Phase (or, under option
-- disruption_removal = every_phase, in the next one): movement.lua clears the flag.

return O
