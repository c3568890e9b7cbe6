-- [12] Untried Soviet units. Soviet combat units are face down ("hidden") and know only their pool
-- (rifle or armour). Their values are drawn from the pool when they are first committed to a
-- combat or an overrun, by either side [12.2]. A 0-0-6 rifle or 0-0-10 tank is removed at once and
-- counts as eliminated [12.3]; a 0-1-6 may only defend [12.3]. Eliminated Soviet divisions go to the
-- dead pile (game var "dead_pile", ids in order of death), which the reinforcement rules reuse once
-- a pool runs out [12.4]; removed duds go to their own pile (game var "dud_pile").
--
-- Option two_zero_one_rifles: the first 1-1-6 drawn is treated as a second 0-1-6 (unit flag
-- "no_attack"), as the rules' text speaks of two such counters; once dead, a reveal that draws its
-- values from the dead pile [12.4] is that counter again and takes the restriction over.
local C = require("rules.common")
local U = {}

function U.is_untried(u) return u.hidden == true end

local function push(var, id)
  local list = kessel.game.var(var) or {}
  list[#list + 1] = id
  kessel.emit.var(var, list)
end

-- Eliminates a unit; Soviet combat units join the dead pile [12.4]. (Apply stage only.)
function U.eliminate(u, rule, why)
  kessel.emit.eliminate(u.id)
  if u.side == C.SOVIET and C.is_combat_unit(u) then push("dead_pile", u.id) end
  if why then kessel.emit.note(rule or "9.6", C.name(u) .. " eliminated: " .. why) end
end

-- Does this face have no strength at all (a dud)?
function U.is_dud(u) return (u.attack or 0) == 0 and (u.defence or 0) == 0 and C.is_combat_unit(u) end

-- May this unit attack or overrun at all? (0-1-6 rifles and the option's converted 1-1-6 may not.)
function U.may_attack(u)
  if C.is_leader(u) then return true end
  if U.is_untried(u) then return true end
  return (u.attack or 0) > 0 and not u.flags.no_attack
end

-- Reveals an untried unit (apply stage). Returns the fresh unit table, or nil when it was a dud and
-- has been removed [12.3].
-- Faces of eliminated units from `pool` not yet drawn again: the dead pile that is used once the
-- pool of unused counters is exhausted [12.4].
--
-- The counter a face-down reinforcement shows was taken when it entered, so only a division
-- already dead then can be it: one that died on an earlier turn than the unit's entry (unit var
-- `entered_turn`), and under WBC09 #14 one that died at least two turns before it (a division
-- destroyed on turn 9 is available on turn 11). A unit with no entry turn (set up on the map) may
-- draw any; and when no dead counter fits, any is drawn rather than stop the game.
local function fits(d, entered)
  if entered == nil then return true end
  local died = d.vars and d.vars.elim_turn or kessel.game.turn()
  if C.option("wbc09_14_rifle_recycling_delay") then return died <= entered - 2 end
  return died < entered
end

local function dead_pile_faces(pool, entered)
  local used = {}
  for _, id in ipairs(kessel.game.var("dead_faces_used") or {}) do used[id] = true end
  local out, any = {}, {}
  for _, id in ipairs(kessel.game.var("dead_pile") or {}) do
    local d = kessel.units.get(id)
    if d and d.pool == pool and d.location == "eliminated" and d.attack and not used[id] then
      any[#any + 1] = d
      if fits(d, entered) then out[#out + 1] = d end
    end
  end
  if #out == 0 then return any end
  return out
end

-- The first of `candidates` (dead units) in the Soviet's order of selection under WBC09 #14
-- (game var `returning_order`, set by `select_returning`), or nil.
function U.selected(candidates)
  if not C.option("wbc09_14_rifle_recycling_delay") then return nil end
  local order = kessel.game.var("returning_order") or {}
  for _, id in ipairs(order) do
    for _, d in ipairs(candidates) do if d.id == id then return d end end
  end
  return nil
end

function U.reveal(u, why)
  if not U.is_untried(u) then return u end
  local face, drawn
  if u.pool and #kessel.game.pool(u.pool) == 0 then
    local entered = u.vars and u.vars.entered_turn
    local dead = dead_pile_faces(u.pool, entered)
    if #dead == 0 then
      -- every dead counter was drawn again already: the schedule brought more divisions than the
      -- counter mix holds, so reuse dead counters a second time rather than stop the game
      kessel.emit.var("dead_faces_used", nil)
      dead = dead_pile_faces(u.pool, entered)
    end
    if #dead == 0 then
      error(string.format("%s: the %s pool and its dead pile are both empty [12.4]", C.name(u), u.pool))
    end
    -- WBC09 #14: the Soviet selects the destroyed divisions that come back (his standing order,
    -- `select_returning`, reinforcements.lua); a counter he has not named is drawn at random
    local d = U.selected(dead)
    if d then
      kessel.emit.note("WBC09 #14", string.format("the Soviet selected %s from the dead pile", C.name(d)))
    else
      local roll = kessel.dice.roll("draw from the " .. u.pool .. " dead pile", #dead)
      d = dead[(roll - 1) % #dead + 1]
    end
    push("dead_faces_used", d.id)
    drawn = d.id
    face = kessel.emit.reveal(u.id, string.format("%d-%d-%d", d.attack, d.defence, d.movement))
    kessel.emit.note("12.4", string.format("the %s pool is exhausted: %s draws from the dead pile", u.pool, C.name(u)))
  else
    face = kessel.emit.reveal(u.id)
  end
  kessel.emit.note("12.2", string.format("%s revealed as %s%s", C.name(u), face, why and (" (" .. why .. ")") or ""))
  local fresh = kessel.units.get(u.id)
  -- (a dead counter drawn again is the same counter: the second 0-1-6's values keep its restriction)
  local second = kessel.game.var("second_zero_one")
  if face == "1-1-6" and C.option("two_zero_one_rifles") and (not second or second == drawn) then
    kessel.emit.var("second_zero_one", u.id)
    kessel.emit.flag(u.id, "no_attack")
    kessel.emit.note("12.3", C.name(u) .. " counts as the second 0-1-6: it may only defend (option two_zero_one_rifles)")
    fresh = kessel.units.get(u.id)
  end
  if U.is_dud(fresh) then
    kessel.emit.eliminate(u.id)
    push("dud_pile", u.id)
    kessel.emit.note("12.3", C.name(fresh) .. " has no strength: removed, counts as eliminated")
    return nil
  end
  return fresh
end

return U
