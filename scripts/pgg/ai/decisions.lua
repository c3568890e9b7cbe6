-- How the computer player scores attacks, overruns and the decisions a phase asks for (losses or
-- retreat, retreat paths, advances, markers, calls, bids, excess units). Part of ai/player.lua.

local C = require("rules.common")
local K = require("rules.combat")
local R = require("rules.retreat")
local B = require("rules.bidding")
local Book = require("ai.book")
local Fr = require("ai.frame")
local NEG = Fr.NEG
local sorted_keys = Fr.sorted_keys
local neighbors = Fr.neighbors
local odds_ev = Fr.odds_ev
local supply_status = Fr.supply_status
local goal_of = Fr.goal_of
local defence_estimate = Fr.defence_estimate
local attack_estimate = Fr.attack_estimate
local Mv = require("ai.moves")
local group_units = Mv.group_units
local group_class = Mv.group_class
local counts_at = Mv.counts_at

local D = {}

-- Scores: combat -------------------------------------------------------------------------------

-- Sides this player has seen attack in this game: side -> the first game-turn it did (its own
-- memory, like the measures below: a game loaded from a save starts it afresh, and a turn before
-- the one remembered means another game).
local attacked = {}
local function has_attacked(side, turn)
  local t = attacked[side]
  return t ~= nil and t <= turn
end
local LATE_FIRST_ATTACK = 5

local function attack_score(F, a, overrun)
  local units = group_units(F, a.units or {})
  if #units == 0 then return NEG end
  local side = units[1].side
  local targets = a.targets or { a.target }
  local att_hexes = {}
  local seen = {}
  for _, u in ipairs(units) do if not seen[u.hex] then seen[u.hex] = true; att_hexes[#att_hexes + 1] = u.hex end end
  local att = attack_estimate(units, overrun)
  local def = defence_estimate(targets, att_hexes)
  local ev, hurt = odds_ev(att, def)
  local obj = F.obj
  local bonus = 0
  -- in the last two turns a city the German would score at the end [15] is worth its VP to
  -- either side: to the Soviet who takes a hex of it back, to the German who takes it at last
  -- (the defender pushed out, the attackers advancing in): what is not taken then never is
  local closing = F.turn >= kessel.game.last_turn() - 1
  for _, t in ipairs(targets) do
    local vp = obj.vp[t]
    if vp then
      bonus = bonus + (side == C.SOVIET and 1.0 or 0.3) + vp / 50
      if closing and ev > -1 then bonus = bonus + hurt * vp / 8 end
    end
  end
  -- the Soviet's prizes: a stack out of supply or disrupted, a unit on its last step, above all a
  -- division's last steps (5 VP [15]), each weighed by the chance the attack hurts the defender
  if side == C.SOVIET and not overrun then
    local gstatus = supply_status(C.GERMAN)
    local prize = 0
    local forms = {}
    for _, t in ipairs(targets) do
      for _, d in ipairs(K.defenders_at(t)) do
        local st = gstatus[d.id]
        if st and not st.ok then prize = prize + 0.4 end
        if C.disrupted(d) then prize = prize + 0.4 end
        if (d.steps_left or 1) <= 1 then prize = prize + 0.4 end
        if d.formation and d.formation ~= "" and d.type ~= "cavalry" and (d.attrs.independent or 0) == 0 then
          forms[d.formation] = (forms[d.formation] or 0) + (d.steps_left or 1)
        end
      end
    end
    -- a division whose every surviving unit is among the defenders: the fewer steps left, the
    -- nearer its end
    for _, f in ipairs(sorted_keys(forms)) do
      local here, left = forms[f], 0
      for _, m in ipairs(kessel.units.all{ side = C.GERMAN, formation = f }) do
        if m.location ~= "eliminated" and m.location ~= "removed" then left = left + (m.steps_left or 1) end
      end
      if left == here and left > 0 then prize = prize + 2.5 / left end
    end
    if ev > -0.4 then bonus = bonus + math.min(prize, 2.5) * hurt end
  end
  -- Germans want 3-1 or better (EV 0.92), Soviets 2-1 (EV 0.38); overruns about 4-1
  local need = side == C.GERMAN and 0.85 or 0.15
  -- the German's threshold falls over the last four turns, to 2-1 (EV 0.39) on the last: what is
  -- not taken by then is not taken at all [15]
  if side == C.GERMAN then
    local left = kessel.game.last_turn() - F.turn
    if left < 4 then need = need - (4 - left) * 0.12 end
  end
  -- a Soviet who has not attacked yet this game (as far as this player remembers) takes 1-1 from
  -- the fifth turn: a whole game in his lines gives the German every city for free
  if side == C.SOVIET and not overrun and not has_attacked(C.SOVIET, F.turn) and F.turn >= LATE_FIRST_ATTACK then
    need = math.min(need, -0.35)
  end
  if overrun then need = 1.0 end
  -- the fewer units the better: every attacker may have to retreat or lose a step, and units
  -- not used can attack elsewhere
  local s = ev + bonus - need - (side == C.GERMAN and 0.05 or 0.03) * #units
  if overrun then s = s * 4 + 2 end
  return s
end

-- Scores: decisions ------------------------------------------------------------------------------

local function unit_worth(u)
  if C.is_leader(u) then return 20 end
  if u.hidden then return 3.5 end
  return (u.attack or 0) + (u.defence or 0) + (u.steps_left or 1)
end

-- Would the stack(s) of `ids` have somewhere to retreat `n` hexes?
local function retreat_possible(ids, n)
  local groups = {}
  for _, id in ipairs(ids) do
    local u = kessel.units.get(id)
    if u and C.on_map(u) then
      groups[u.hex] = groups[u.hex] or {}
      table.insert(groups[u.hex], u)
    end
  end
  for _, hex in ipairs(sorted_keys(groups)) do
    if #R.allowed(groups[hex], n, {}) == 0 then return false end
  end
  return true
end

local function choose_score(F, a, p)
  local side = p.side
  local units = group_units(F, p.units or {})
  local in_city = false
  for _, u in ipairs(units) do if F.obj.vp[u.hex] then in_city = true end end
  local can_retreat = retreat_possible(p.units or {}, p.n)
  if a.choice == "retreat" then
    if not can_retreat then return -10 end
    if in_city and p.who == "defender" then return 0.5 end
    return 2
  end
  -- loss
  local steps = 0
  for _, u in ipairs(units) do steps = steps + (u.steps_left or 1) end
  local s
  if side == C.GERMAN then
    s = (in_city and steps >= p.n + 3) and 1 or 0
  else
    s = (in_city and #units > p.n) and 1 or 0
  end
  -- a big attacking group gives up a step or two rather than fall back (and may then advance)
  if p.who == "attacker" and #units >= 3 and #units > p.n then s = 3 end
  if not can_retreat then s = 5 end
  if a.units then
    local u = F.by_id[a.units[1]] or kessel.units.get(a.units[1])
    s = s + 0.5 - unit_worth(u) / 100
  end
  return s
end

local function retreat_score(F, a, p)
  local picker = p.side
  local path = a.path or {}
  if #path == 0 then return 10 * #(a.units or {}) end
  local dest = path[#path]
  local s = 0
  for _, n in ipairs(neighbors(dest)) do
    for _, u in ipairs(F.at[n] or {}) do if u.side == picker then s = s + 2; break end end
  end
  for _, u in ipairs(F.at[dest] or {}) do if u.side ~= picker then s = s + 3; break end end
  local col = C.column(dest)
  if picker == C.GERMAN then s = s - col / 10 else s = s + col / 10 end
  return s
end

local function advance_score(F, a, p)
  if a.skip then return 0 end
  local units = group_units(F, a.units or {})
  local dest = a.path[#a.path]
  local obj = F.obj
  local s = -0.2
  if p.side == C.GERMAN then
    local targets = F.targets
    local D = goal_of(F, group_class(units))
    local from = units[1].hex
    s = s + ((D[from] or 400) - (D[dest] or 400))
    for _, t in ipairs(targets) do if t == dest then s = s + 10 end end
    if obj.vp[from] then s = s - 3 end
    local _, here = counts_at(F, from, C.GERMAN)
    if F.garrison[from] and here <= #units then s = s - F.garrison[from] end
    -- keep divisions together: the whole group, not pieces
    s = s + 0.1 * #units
  else
    if obj.vp[dest] then s = s + 5 end
    if obj.vp[units[1].hex] then s = s - 5 end
  end
  return s
end

local function marker_score(F, a)
  local hex = a.hex
  if C.step_is("soviet_interdiction") then
    local t = kessel.game.turn()
    if t < 4 or (t - 4) % 3 ~= 0 then return -1 end
    local s = 0.5 + C.column(hex) / 20
    if kessel.map.has_link(hex, "road") then s = s + 2 end
    return s
  end
  local s = 0.5
  for _, u in ipairs(F.at[hex] or {}) do if u.side == C.SOVIET then s = s + 1 end end
  if kessel.map.has_link(hex, "railway") then s = s + 2 end
  if (F.dg[hex] or 99) <= 8 then s = s + 2 end
  if kessel.game.turn() == 1 then s = s + (60 - C.column(hex)) / 30 end
  return s
end

local function swf_score(F, a)
  local t = kessel.game.turn()
  if t < 3 then return -1 end
  local sov, ger = 0, 0
  for _, u in ipairs(F.units.soviet) do if C.is_combat_unit(u) then sov = sov + 1 end end
  for _, u in ipairs(F.units.german) do if C.is_combat_unit(u) then ger = ger + 1 end end
  if sov >= ger * 1.3 then return -1 end
  -- enter nearest the front (the divisions walk, and out of a leader's reach they are out of
  -- supply [11.2] and crawl at half speed), but not next to a German unit
  local dg = F.dg[a.hex] or 40
  if dg <= 1 then return 0.5 end
  return 1 + (40 - math.min(dg, 40)) / 100
end

-- Bidding for the German side (WBC 2009 sides): raise to the highest listed bid up to the margin
-- the German side is worth in this scenario under the options in force (ai/book.lua), and pass
-- once the next bid would be above it. Two computer players with the same book settle at that
-- worth.
local function bid_score(a)
  local s = B.state() or {}
  local next_bid = (s.high or -1) + 1
  local worth = Book.german_worth()
  if a.pass then return next_bid > worth and 1 or -1 end
  if a.vp >= next_bid and a.vp <= worth then return 1 + a.vp / 10000 end
  return -1
end

local function eliminate_score(F, a)
  local u = F.by_id[a.unit] or kessel.units.get(a.unit)
  return 10 - unit_worth(u)
end

-- Remembers that `side` attacked on game-turn `turn` (AI.pick, after choosing an attack).
local function note_attack(side, turn)
  if not has_attacked(side, turn) then attacked[side] = turn end
end

D.has_attacked = has_attacked
D.note_attack = note_attack
D.attack_score = attack_score
D.unit_worth = unit_worth
D.choose_score = choose_score
D.retreat_score = retreat_score
D.advance_score = advance_score
D.marker_score = marker_score
D.swf_score = swf_score
D.bid_score = bid_score
D.eliminate_score = eliminate_score

return D
