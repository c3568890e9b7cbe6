-- A computer player for both sides of Panzergruppe Guderian, for `kessel simulate`.
--
-- It only ever picks one of the actions the rules enumerate (the `ai` hook returns an index into
-- the engine's list) and the engine validates the pick like a player's. It is simple on purpose:
-- a scoring function per kind of action, the best score wins, and a phase ends (`end_phase`, score
-- 0) once nothing scores above zero. Equally good actions are told apart by the engine's seeded
-- `tiebreak` (never the game's dice): the same seed gives the same game.
--
-- German: each stack moves toward the nearest objective it does not own yet (distance by its own
-- movement class, so the highway and roads pull), panzer regiments stay together (integrity),
-- stacks never end over the limit; a city hex it owns is not left empty while a Soviet unit is
-- within 6 hexes, and an empty one so threatened draws a garrison (infantry before motorized): one
-- Soviet unit in one hex retakes the city [15]; around an objective hex the Soviet holds, a stack
-- is drawn, over the last four turns, to where its zone of control covers the hexes no German zone
-- covers yet, so the ring closes and the defenders, their lines cut [11.2], defend at half [11.3]
-- (earlier it pushed the campaign's games some 30 VP further the German's way); overruns and
-- attacks at good odds (attacks at 3-1 or better, or what the CRT makes as good, falling to 2-1
-- over the last four turns; in the last two, a city it would score is worth its VP weighed by the
-- chance of pushing the defender out), defending cities with step losses, advancing toward
-- objectives. Air markers go on Soviet stacks near the front and on railways.
-- Soviet: rifle divisions garrison threatened objectives (three to a city hex), the rest form a
-- line a hex or two in front of the Germans, inside a leader's command radius, in good terrain;
-- leaders stay just behind the line, drawn to the combat units no other leader reaches (and to
-- those just beyond its radius, who can walk back into it), never pulled to the front so hard that
-- they leave an army behind; a unit outside every leader's radius is pulled back toward the
-- nearest, a point a hex (out of supply otherwise [11.2]), and when it is five hexes or more beyond
-- it, toward a railway hex, from which it can ride back next turn [6.3] rather than walk at half
-- speed [11.3]; near the front a unit at the rim of its leader's radius pays for the hex it lacks
-- to spare (the German's next move cuts such lines with a one-hex detour); the distance to the
-- front is counted over the whole map, so units entering on a far edge know where to go, and
-- while the German has no unit on the map (turn 1) from the hexes his units enter by the next
-- turn (without it the first turn's moves had no front to face: every hex was equally far); rail
-- moves bring far units forward; attacks at 2-1 or
-- better, more readily for a prize (a stack out of supply or disrupted, a unit on its last step, a
-- division's last steps), weighed by the chance of a D result; at worse odds to retake a city, all
-- the more in the last two turns, when the city is worth its VP; a Soviet who has not attacked
-- yet this game takes 1-1 from the fifth turn (its own memory of the game); retreats rather than losses
-- unless holding a city; South-Western Front divisions when outnumbered, entering nearest the
-- front; interdiction on the German road behind the spearhead three times a game.
-- Both: the opponent's retreat paths end next to one's own units or on crowded hexes; excess units
-- eliminated are the weakest.
--
-- Levels (the `ai` hook's 4th argument, `kessel simulate --ai german=ai:strong`): `fast`, the
-- above, for the balance lab's sweeps; `strong`, for play. Attack set-up: in the Movement Phase
-- before its Combat Phase a move earns what it adds to the attacks the side can make next (the
-- attack already next to each enemy hex plus the movers', at the side's odds) and pays for what it
-- takes away, so stacks converge on one hex for multi-hex attacks; the Soviet does this at both
-- levels (without it he went whole games without an attack), the German at the strong level only
-- (at the fast level it made the German some 35 VP stronger and the lab's games lopsided). The
-- strong level's combat phases also list every group of the units that may attack each hex (the
-- smallest group at good odds wins and the others stay free), and its Soviet looks ahead at the
-- German's next turn: a stack on an objective hex is worth the objective's VP times the chance that
-- the attack the German stacks could bring against it next turn does not hurt it, two and a half
-- times over (lazy.threat; at once, measured no better than the fast Soviet).
-- It costs about half as much CPU again.
--
-- What it cannot do: at the fast level it weighs only the short attack list (all units that can
-- reach a hex, each attacking hex alone, each with its leaders), not every group; at both, stacks
-- split only into single units (the move enumerator's groups), and it looks no further ahead than
-- the next Combat Phase.
--
-- Measures: a second `result` hook (after the rules' own, rules/victory.lua) reports, per game-turn, combat units on the map and out of supply,
-- cities the Soviet retook, German divisions destroyed and combat phases ended while attacks were
-- listed (kept by the hook itself, not game state); the lab records them per game.
--
-- Speed: the hook asks the engine only for the kinds of action it weighs (the phase-ending
-- actions, whose checks are costly, only when nothing else is worth doing). On its first call it
-- installs a narrower (ai/narrowing.lua) for that call only: the move, rail_move and overrun
-- enumerators then hand their candidates, stack by stack, to `Nr.narrow`, which keeps the best
-- few (scores cached per stack and re-checked lazily, only a short list of each stack's best
-- moves kept for the re-check) so that each list stays short. (Reads of units, markers and the
-- clock are kept per state revision by the engine itself; the units by hex and side are kept from
-- one decision to the next and updated from the units the last action changed; units of one stack
-- that move and score alike are scored once; what a hex is worth to a Soviet unit, its stack
-- aside, is kept while the leaders and the German units stand still.) Tests, scripts and the
-- editor never call the hook and always see full lists.
--
-- Files: this one holds the hooks (`ai`, `result`) and the choice among listed actions;
-- ai/frame.lua what one decision looks at (units by hex, distances, objectives, supply, combat
-- estimates) and the caches kept between decisions; ai/moves.lua the scores of moves;
-- ai/decisions.lua the scores of attacks and of every other decision; ai/narrower.lua the
-- narrower that keeps each stack's best few moves; ai/book.lua what a side is worth in the
-- bidding.
local C = require("rules.common")
local S = require("rules.supply")
local V = require("rules.victory")
local Narrowing = require("ai.narrowing")
local Fr = require("ai.frame")
local frame = Fr.frame
local Mv = require("ai.moves")
local move_score = Mv.move_score
local D = require("ai.decisions")
local note_attack = D.note_attack
local attack_score = D.attack_score
local choose_score = D.choose_score
local retreat_score = D.retreat_score
local advance_score = D.advance_score
local marker_score = D.marker_score
local swf_score = D.swf_score
local bid_score = D.bid_score
local eliminate_score = D.eliminate_score
local Nr = require("ai.narrower")

local AI = {}

-- Levels: `fast` for the balance lab's sweeps, `strong` for play (slower: it weighs every group of
-- attackers, and moves that bring units up for an attack).
kessel.ai_level{ id = "fast", description = "greedy scores per action, short candidate lists: for balance sweeps" }
kessel.ai_level{ id = "strong", description = "also plans attacks: every group of attackers, units brought up to attack" }


-- Scoring any listed action.
local NARROWED = { move = true, rail_move = true, overrun = true }

local function score(F, a, p)
  local k = a.kind
  if k == "end_phase" or k == "end_air_placement" or k == "end_setup" then return 0 end
  if k == "first_turn_roll" then return 100 end
  if NARROWED[k] then
    for _, x in ipairs(Nr.scored) do
      if C.same_action(x[1], a) then return x[2] end
    end
  end
  if k == "move" or k == "rail_move" then return move_score(F, a) end
  if k == "overrun" then return attack_score(F, a, true) end
  if k == "attack" then return attack_score(F, a, false) end
  if k == "choose" then return choose_score(F, a, p) end
  if k == "retreat" then return retreat_score(F, a, p) end
  if k == "advance" then return advance_score(F, a, p) end
  if k == "place_marker" then return marker_score(F, a) end
  if k == "swf_call" then return swf_score(F, a) end
  if k == "eliminate_excess" then return eliminate_score(F, a) end
  if k == "bid" then return bid_score(a) end
  if k == "bid_roll" then return 100 end
  return -1
end

-- The hooks ------------------------------------------------------------------------------------

-- The best of `actions` (first of the best on a tie): index and score.
-- Equally good actions worth doing (the best score above zero, shared within a hair) are told
-- apart by the engine's `tiebreak`, a seeded draw of the chooser's own (never the game's dice), so
-- how a tie is broken is one documented rule and `kessel simulate --ai-variations` can break it
-- otherwise to see how much the AI's choices move the results. At zero or below (nothing worth
-- doing) the first listed wins, so the phase-ending actions keep their declaration order.
local tiebreak = nil
local TIE = 1e-9

-- Scores of the listed actions already worked out in this choice (the same tables are weighed
-- again when the ending kinds join in): action -> score. AI.pick starts it afresh.
local scored = {}

local function best_index(actions)
  if #actions == 1 then return 1, 0 end
  local F = frame()
  local p = kessel.game.var("pending")
  local best, bs = nil, nil
  local scores = {}
  for i, a in ipairs(actions) do
    local s = scored[a]
    if s == nil then s = score(F, a, p); scored[a] = s end
    scores[i] = s
    if bs == nil or s > bs then best, bs = i, s end
  end
  if tiebreak and bs > 0 then
    local tied = {}
    for i, s in ipairs(scores) do
      if bs - s <= TIE * math.max(1, math.abs(bs)) then tied[#tied + 1] = i end
    end
    if #tied > 1 then best = tied[tiebreak(#tied)] end
  end
  return best, bs
end

-- Kinds that only end something (score 0): listed only when nothing else is worth doing.
local ENDING = { end_phase = true, end_air_placement = true, end_setup = true }

-- The hook: `legal(kind)` lists the actions of one kind, `kinds` names them in declaration order.
-- First every kind but the ending ones; when nothing there scores above zero (or nothing is
-- listed), the ending kinds join in and the choice is made among all of them in declaration
-- order, exactly as if everything had been listed at once.
local function choose(legal, kinds)
  local lists, all = {}, {}
  for _, kind in ipairs(kinds) do
    if not ENDING[kind] then
      lists[kind] = legal(kind)
      for _, a in ipairs(lists[kind]) do all[#all + 1] = a end
    end
  end
  local chosen = nil
  if #all > 1 then
    local i, s = best_index(all)
    if s > 0 then chosen = all[i] end
  end
  if chosen == nil then
    all = {}
    for _, kind in ipairs(kinds) do
      for _, a in ipairs(lists[kind] or legal(kind)) do all[#all + 1] = a end
    end
    if #all > 0 then chosen = all[(best_index(all))] end
  end
  return chosen
end

-- Combat phases the computer player ended while attacks were listed, by game-turn and side (a
-- measure of how it plays, for the balance lab's `result` metrics; not game state).
local passed_with_attacks = {}

local function note_pass(chosen, legal)
  if not (chosen and chosen.kind == "end_phase" and C.in_combat_phase()) then return end
  if #legal("attack") == 0 then return end
  local t, side = kessel.game.turn(), C.phasing()
  local row = passed_with_attacks[t] or {}
  passed_with_attacks[t] = row
  row[side] = (row[side] or 0) + 1
end

-- The hook: the narrower (ai/narrowing.lua) is in place for this choice only. At the strong level
-- a combat phase goes without it, so the attack enumerator lists every group of the units that may
-- attack each hex (not only all of them and each hex alone): the smallest group at good odds wins
-- and the rest can attack elsewhere.
function AI.pick(legal, kinds, view, lvl, draw)
  Fr.level = lvl or "fast"
  tiebreak = draw
  local chosen
  if Fr.level == "strong" and C.in_combat_phase() and not kessel.game.var("pending") then
    chosen = choose(legal, kinds)
  else
    chosen = Narrowing.within(Nr.narrow, choose, legal, kinds)
  end
  if chosen and chosen.kind == "attack" then
    local side, t = C.phasing(), kessel.game.turn()
    note_attack(side, t)
  end
  if chosen and chosen.kind == "end_phase" and C.in_combat_phase() then
    Narrowing.within(Nr.narrow, note_pass, chosen, legal)
  end
  -- the scores and the frame served this choice only
  Nr.scored = {}
  scored = {}
  Fr.drop()
  return chosen
end

kessel.on("ai", AI.pick)

-- How the game stands [15], with measures of how it is being played for the balance lab, each for
-- the game-turn just recorded (the lab asks at the start of the next one, and once more when the
-- game is over): combat units on the map and those out of supply (the flag of the last Movement
-- Phase [11.3]); cities the Soviet retook [15] (game var `soviet_recaptures`); German divisions
-- destroyed [15]; combat phases the computer player ended while attacks were listed. Summed over
-- a game's turns they give the per-game figures.
local destroyed_by_turn = {}   -- game-turn -> divisions destroyed by its end (memo for the delta)

local function play_metrics()
  local m = {}
  for _, side in ipairs({ C.GERMAN, C.SOVIET }) do
    local on, oos = 0, 0
    for _, u in ipairs(C.units_of(side)) do
      if C.on_map(u) and C.is_combat_unit(u) then
        on = on + 1
        if S.is_oos(u) then oos = oos + 1 end
      end
    end
    m[side .. "_units_on_map"], m[side .. "_units_out_of_supply"] = on, oos
  end
  local t = kessel.game.turn()
  if not kessel.game.finished() then t = t - 1 end
  local rec = 0
  for _, r in ipairs(kessel.game.var("soviet_recaptures") or {}) do
    if r.turn == t then rec = rec + 1 end
  end
  m.soviet_recaptures = rec
  local dead = #V.divisions_destroyed()
  destroyed_by_turn[t] = dead
  m.german_divisions_destroyed = dead - (destroyed_by_turn[t - 1] or 0)
  local row = passed_with_attacks[t] or {}
  for _, side in ipairs({ C.GERMAN, C.SOVIET }) do
    m[side .. "_combat_phases_passed_with_attacks"] = row[side] or 0
  end
  return m
end

-- The rules' own `result` hook (rules/victory.lua, registered first) gives the level, the scores
-- and who holds each objective; this later one adds the measures of how the game is being played.
kessel.on("result", function()
  return { metrics = play_metrics() }
end)

return AI
