-- [9] Combat: who may attack, strengths and odds, the combat results table, and the results.
--
-- [9.1] In his Combat Phase the phasing player may attack enemy hexes next to his units. Each unit
-- attacks at most once and is attacked at most once a phase (flags "attacked" / "defended", cleared
-- at the end of every step); all units in a hex defend together; disrupted units [6.6] and 0-attack
-- units (0-1-6 [12.3]) never attack; a Soviet combat unit attacks only inside a working leader's
-- command radius [10.35]. No attack, an overrun included, across a lake hexside [9.3]
-- (`K.lake_reason`). An attack, once declared, is resolved at once: it cannot be called off after
-- the reveal [12.2].
-- [9.23] One combat may take in several defending hexes (their defence is summed) when every
-- attacking unit is next to every defending hex.
-- [9.3] Terrain: the defender is doubled in forest and in a major city, and doubled when every
-- attacking unit is across a river hexside; multipliers add (forest and river: ×3).
-- [11.3] Out of supply (judged at the instant of combat): strength halved, fractions dropped, never
-- below 1. Option supply_halving_order places the halving before or after terrain on defence.
-- [7.3] Divisional integrity doubles (rules/integrity.lua), before supply halving and before terrain:
-- the rule's order, which WBC09 #9 confirms. The other order (halve each regiment for supply,
-- then double) is the source-conflict option `supply_halving_before_integrity`, off in every
-- profile; with WBC09 #9 on it has no effect.
-- [10.36] Leaders add their rating to one attack, capped at the units' own strength (leaders.lua).
-- [9.4] Odds are rounded in the defender's favour and capped at 10-1 / 1-3 by the results table.
-- [9.6] Results (pending decisions in game var "pending"; the combat itself in game var "combat"):
--   Ae / De   every attacking / defending unit is eliminated;
--   A1 A2 D1 D2  the owner chooses to lose that many steps or retreat the whole stack that many
--             hexes (`choose{choice=}`); the opponent picks the path (`retreat{}` in retreat.lua);
--   Eng       each side loses one step, nobody retreats or advances; the owner names the unit
--             that loses it (`choose{units={id}}`, defender first) whenever he has more than one
--             unit in the combat;
--   Dx/A1     the defender's part first, then the attacker's; attackers who take the step may
--             advance [9.6].
-- Steps: German two-step units flip; a German infantry division steps down its four faces; Soviet
-- units and leaders have one step.
local C = require("rules.common")
local I = require("rules.integrity")
local U = require("rules.untried")
local L = require("rules.leaders")
local K = {}

local S = require("rules.supply")

local function opt(id) return C.option(id) end

-- The results table [9.5]; the option crt_row2 selects its declared variant (init.lua).
K.CRT = "crt"

-- Halving for supply [11.3]: fractions dropped, never below 1 (0 stays 0).
function K.halve(x)
  if x <= 0 then return 0 end
  return math.max(1, math.floor(x / 2))
end

-- Supply at the instant of combat [11.3]: supply.lua's judgement; `ctx.in_supply(unit)` overrides
-- it (tests, AI look-ahead).
function K.in_supply(u, ctx)
  if ctx and ctx.in_supply then return ctx.in_supply(u) end
  return (S.in_supply(u, "combat"))
end

-- Does divisional integrity double before supply halving? [7.3] Yes, unless the source-conflict
-- option `supply_halving_before_integrity` is on; WBC09 #9 fixes the doubling first whatever that
-- option says (a tournament ruling overrides a source reading, as WBC09 #5 overrides [10.4]).
function K.integrity_first()
  return opt("wbc09_09_integrity_before_halving") or not opt("supply_halving_before_integrity")
end

local function mod(list, rule, fmt, ...)
  list[#list + 1] = C.reason(rule, fmt, ...)
end

-- Attack strength of one unit [9.1] [7.3] [11.3]; leaders have none (their bonus is separate).
-- Returns the strength and the modifiers applied.
function K.attack_strength(u, ctx)
  ctx = ctx or {}
  local mods = {}
  if C.is_leader(u) then return 0, mods end
  local a = u.attack or 0
  if u.flags.no_attack then a = 0 end
  if a <= 0 then return 0, mods end
  local intact = ctx.integrity
  if intact == nil then intact = I.intact(u) end
  local oos = not K.in_supply(u, ctx)
  -- [7.3] (WBC09 #9 agrees): doubling first; the source-conflict option halves first (K.integrity_first)
  local early = K.integrity_first()
  if intact and early then a = a * 2; mod(mods, "7.3", "%s: divisional integrity doubles (%d)", C.name(u), a) end
  if oos then a = K.halve(a); mod(mods, "11.3", "%s: out of supply, halved (%d)", C.name(u), a) end
  if intact and not early then a = a * 2; mod(mods, "7.3", "%s: divisional integrity doubles (%d)", C.name(u), a) end
  return a, mods
end

-- Is every attacking unit across a river hexside from `hex`? [9.3]
local function solely_across_river(hex, attacker_hexes)
  if not attacker_hexes or #attacker_hexes == 0 then return false end
  for _, h in ipairs(attacker_hexes) do
    if not kessel.map.has_side(h, hex, "river") then return false end
  end
  return true
end

-- The terrain multiplier of a defending hex [9.3]: 1 + one per doubling feature.
function K.terrain_multiplier(hex, attacker_hexes, mods)
  mods = mods or {}
  local m = 1
  if kessel.map.terrain(hex) == "forest" then m = m + 1; mod(mods, "9.3", "%s: forest doubles the defender", hex) end
  local p = kessel.map.place(hex)
  if p and p.kind == "major_city" then m = m + 1; mod(mods, "9.3", "%s: major city (%s) doubles the defender", hex, p.name) end
  if solely_across_river(hex, attacker_hexes) then m = m + 1; mod(mods, "9.3", "%s: attacked solely across a river, doubled", hex) end
  if m > 2 then mod(mods, "9.3", "%s: terrain multipliers add up to ×%d", hex, m) end
  return m, mods
end

-- Defence of one unit with the hex multiplier `mult` [9.3] [7.3] [11.3]. Leaders defend with their
-- rating [10.2].
-- The working of an out-of-supply unit's defence, step by step in the order K.unit_defence makes
-- them: "3, halved 1, terrain ×2 2" [7.3] [9.3] [11.3].
function K.defence_working(u, mult, intact)
  local d = u.defence or 0
  if C.is_leader(u) then d = u.defence or C.rating(u) end
  local parts = { tostring(d) }
  local function times(n, what)
    if n > 1 then d = d * n; parts[#parts + 1] = string.format("%s ×%d %d", what, n, d) end
  end
  local early = K.integrity_first()
  local terrain_first = opt("supply_halving_order") == "terrain_then_supply"
  if intact and early then times(2, "integrity") end
  if terrain_first then times(mult, "terrain") end
  d = K.halve(d); parts[#parts + 1] = string.format("halved %d", d)
  if intact and not early then times(2, "integrity") end
  if not terrain_first then times(mult, "terrain") end
  return table.concat(parts, ", ")
end

function K.unit_defence(u, mult, ctx)
  ctx = ctx or {}
  local d = u.defence or 0
  if C.is_leader(u) then d = u.defence or C.rating(u) end
  if d <= 0 then return 0 end
  local intact = ctx.integrity
  -- [7.3] judged as if the units retreated onto the hex this phase were not there [9.73]
  if intact == nil then intact = I.intact(u, true) end
  local oos = not K.in_supply(u, ctx)
  local pre, post = 1, 1
  if intact then
    -- [7.3] before supply halving (WBC09 #9 agrees); the source-conflict option: after it (K.integrity_first)
    if K.integrity_first() then pre = pre * 2 else post = post * 2 end
  end
  if opt("supply_halving_order") == "terrain_then_supply" then pre = pre * mult else post = post * mult end
  d = d * pre
  if oos then d = K.halve(d) end
  return d * post, oos, intact
end

-- A variant's own defence modifiers (a house rule in a scenario's script; docs/lua-api.md, "PGG's
-- extension points"): the bundled rules declare none, so without one the defence is the rules'.
-- Each is called as fn(unit, hex, defence) with the unit's defence after integrity, terrain and
-- supply, and returns nil, or a whole number to add and the reason { rule, message } shown for it.
K.defence_modifier_fns = {}

-- Where each modifier was added ("guards.lua:12"), so that what a broken one returns is said at its
-- line: the function is called from deep in a combat, whose own line would point at the rules.
local modifier_site = setmetatable({}, { __mode = "k" })

-- "file:line" of the code that called the function calling this one (the engine's Lua has no
-- `debug` library; an error raised at that level carries the place).
local function caller_site()
  local _, where = pcall(error, "", 5)
  where = tostring(where):gsub(":%s*$", "")
  -- (a tail call leaves no frame to name)
  return where ~= "" and where or nil
end

-- A variant's modifiers and flags are declarations, as its hooks are: made while the rules load.
-- One added in play is no part of the game state: it stays through an undo of the action that
-- added it, and one added from a query or the AI (which a replay does not run) is missing when
-- the save is replayed, so the same position would defend otherwise. The engine's Lua tells the
-- load apart only by an option read failing then (docs/lua-api.md, kessel.game.option).
-- (PGG's own tests add them in play, each taking its own back: they set this.)
K.declarations_in_play = false

local function refuse_in_play(call)
  if K.declarations_in_play then return end
  local ok, err = pcall(kessel.game.option, "supply_halving_order")
  if ok or not tostring(err):find("while the rules load", 1, true) then
    error(call .. " is a declaration: call it while the rules load (at the top of the variant's script), not during play", 3)
  end
end

function K.add_defence_modifier(fn)
  if type(fn) ~= "function" then
    error("add_defence_modifier: expected a function(unit, hex, defence), got " .. type(fn), 2)
  end
  refuse_in_play("add_defence_modifier")
  modifier_site[fn] = caller_site()
  K.defence_modifier_fns[#K.defence_modifier_fns + 1] = fn
end

-- The largest strength a results table reads (kessel.tables.odds takes a 32-bit whole number): a
-- modifier past it would wrap the sum or be read as some other column.
local STRENGTH_MAX = 2147483647

-- What a modifier returned, on one line (a string's control characters as \ and their code).
local function shown(v)
  if type(v) == "string" then
    return 'the string "' .. (v:gsub("%c", function(c) return "\\" .. c:byte() end)) .. '"'
  end
  if type(v) == "number" then return tostring(v) end
  return "a " .. type(v)
end

local function refuse(fn, fmt, ...)
  error(string.format("the defence modifier added at %s " .. fmt,
    modifier_site[fn] or "a line no error can name (a tail call)", ...), 0)
end

-- A variant's modifiers applied to one unit's defence `d`; the total never goes below 0.
local function variant_defence(u, hex, d, mods)
  for _, fn in ipairs(K.defence_modifier_fns) do
    local add, why = fn(u, hex, d)
    if add ~= nil and add ~= 0 then
      local whole = type(add) == "number" and math.tointeger(add)
      if not whole then
        refuse(fn, "returned %s for %s: strengths are whole numbers", shown(add), C.name(u))
      end
      if whole > STRENGTH_MAX or whole < -STRENGTH_MAX or d + whole > STRENGTH_MAX then
        refuse(fn, "returned %d for %s: no table reads a strength past %d", whole, C.name(u), STRENGTH_MAX)
      end
      if type(why) ~= "table" or type(why.message) ~= "string" then
        refuse(fn, "returned %d for %s without its reason { rule =, message = }", whole, C.name(u))
      end
      -- the rule is a case number the notes and the record print on one line
      if type(why.rule) ~= "string" or why.rule == "" or why.rule:find("%c") then
        refuse(fn, "returned %d for %s with the rule %s: a rule is a case number such as \"G1\", on one line",
          whole, C.name(u), shown(why.rule))
      end
      d = math.max(0, d + whole)
      mods[#mods + 1] = { rule = why.rule, message = why.message }
    end
  end
  return d
end

-- Units in `hex` that defend: everyone except units retreated onto it this phase [9.73].
function K.defenders_at(hex)
  local out, riders = {}, {}
  for _, u in ipairs(kessel.units.at(hex)) do
    if u.flags.retreated_onto then riders[#riders + 1] = u else out[#out + 1] = u end
  end
  return out, riders
end

-- Total defence of the units in `hexes` [9.23]; ctx.attacker_hexes decides the river doubling.
-- Returns total, modifiers, and the per-hex totals.
function K.defence_of(hexes, ctx)
  ctx = ctx or {}
  local total, mods, per = 0, {}, {}
  for _, hex in ipairs(hexes) do
    local mult = K.terrain_multiplier(hex, ctx.attacker_hexes, mods)
    local sum = 0
    for _, u in ipairs(ctx.units and ctx.units[hex] or K.defenders_at(hex)) do
      local d, oos, intact = K.unit_defence(u, mult, ctx)
      if intact then mod(mods, "7.3", "%s: divisional integrity doubles its defence", C.name(u)) end
      -- [11.3] the halving's place among the doublings decides the result (fractions dropped), so
      -- the line shows the sums in the order they are made
      if oos then mod(mods, "11.3", "%s: out of supply, defence halved (%s)", C.name(u), K.defence_working(u, mult, intact)) end
      d = variant_defence(u, hex, d, mods)
      sum = sum + d
    end
    -- [9.73] units retreated onto the hex this phase are there but add nothing: say so
    local _, riders = K.defenders_at(hex)
    for _, r in ipairs(riders) do
      mod(mods, "9.73", "%s retreated onto %s this phase and adds nothing to its defence", C.name(r), hex)
    end
    per[hex] = sum
    total = total + sum
  end
  -- printed strengths never come near: only a variant's modifiers can take the sum past a table
  if total > STRENGTH_MAX then
    local sites = {}
    for _, fn in ipairs(K.defence_modifier_fns) do sites[#sites + 1] = modifier_site[fn] or "a tail call" end
    error(string.format("the defence of %s adds up to %d, past any strength a table reads (%d): the defence modifiers added at %s",
      table.concat(hexes, ", "), total, STRENGTH_MAX, table.concat(sites, ", ")), 0)
  end
  return total, mods, per
end

-- Total attack of `units` (combat units and leaders) [9.1] [10.36]; overrun halving [6.5] last.
function K.attack_total(units, ctx)
  ctx = ctx or {}
  local total, mods, per_hex, leaders = 0, {}, {}, {}
  for _, u in ipairs(units) do
    if C.is_leader(u) then
      leaders[#leaders + 1] = u
    else
      local a, m = K.attack_strength(u, ctx)
      for _, x in ipairs(m) do mods[#mods + 1] = x end
      per_hex[u.hex] = (per_hex[u.hex] or 0) + a
      total = total + a
    end
  end
  if #leaders > 0 then
    local bonus, notes = L.bonus(leaders, per_hex)
    total = total + bonus
    for _, n in ipairs(notes) do mods[#mods + 1] = { rule = "10.36", message = n } end
  end
  if ctx.overrun then
    local before = total
    total = math.floor(total / 2)
    mod(mods, "6.5", "overrun: attack halved after all other modifiers (%d → %d)", before, total)
  end
  return total, mods
end

-- The odds hook behind `kessel odds A D --flag ...` [9.3] [9.4] [6.5] [7.3] [10.36] [11.3].
-- Flags: forest, major_city, river (defender solely across a river), out_of_supply (attacker),
-- defender_out_of_supply, integrity (attacking division intact), defender_integrity, overrun,
-- leader=N (one leader's rating, within the ruleset's range [10.1]; one flag per leader: leaders
-- in several attacking hexes [10.36], or several in one hex under WBC09 #12, add up); `city` is
-- another name for major_city. The chart's terrain with no effect on combat (clear, swamp,
-- minor_city, road, railroad [6.7]) is accepted with a line saying so; `lake` is an error, since no
-- attack enters a lake hex or crosses a lake hexside [9.3]. Strengths are treated as one unit's,
-- so halving rounds once. An unknown flag or an impossible rating is an error, not ignored.
K.ODDS_FLAGS = { "forest", "major_city", "river", "out_of_supply", "defender_out_of_supply",
  "integrity", "defender_integrity", "overrun",
  string.format("leader=N (N from %d to %d, one flag per leader)", L.RATING_MIN, L.RATING_MAX) }
local ODDS_ALIASES = { city = "major_city" }

-- The rest of the terrain effects chart [6.7]: terrain with no effect on combat is accepted and
-- said to have none; a lake is no place to attack [9.3].
K.ODDS_NO_EFFECT = { "clear", "swamp", "minor_city", "road", "railroad" }
local ODDS_NO_EFFECT_WORDS = { clear = "clear", swamp = "swamp", minor_city = "minor city", road = "road", railroad = "railroad" }

-- A variant's own `kessel odds` flag (docs/lua-api.md, "PGG's extension points"): this hook lists
-- it and lets it through, and the variant's own odds hook, registered after this one, applies it.
function K.add_odds_flag(flag)
  if type(flag) ~= "string" or not flag:match("^[%w_]+$") then
    error("add_odds_flag: a flag is a word of letters, digits and _, got " .. tostring(flag), 2)
  end
  refuse_in_play("add_odds_flag")
  -- compared in small letters: `Forest` beside `forest` would read as the rules' flag and be
  -- another; `leader` is the word of the rules' `leader=N`
  local word = flag:lower()
  local taken = ODDS_ALIASES[word] or ODDS_NO_EFFECT_WORDS[word] or word == "list" or word == "lake"
    or word == "leader"
  for _, f in ipairs(K.ODDS_FLAGS) do taken = taken or f:lower() == word end
  if taken then error("add_odds_flag: `" .. flag .. "` is a flag already", 2) end
  K.ODDS_FLAGS[#K.ODDS_FLAGS + 1] = flag
end

function K.odds_modifiers(att, def, flags)
  local has, leader = {}, 0
  local known = { list = true }
  for _, f in ipairs(K.ODDS_FLAGS) do known[f] = true end
  local leaders = 0
  for _, f in ipairs(flags or {}) do
    local n = f:match("^leader=(.*)$")
    f = ODDS_ALIASES[f] or f
    if n then
      local r = math.tointeger(tonumber(n)) or tonumber(n) or n
      local bad = L.rating_problem(r)
      if bad then error(string.format("odds flag `%s`: %s", f, bad), 0) end
      leader = leader + r
      leaders = leaders + 1
    elseif known[f] then has[f] = true
    elseif ODDS_NO_EFFECT_WORDS[f] then has[f] = true
    elseif f == "lake" then
      error("odds flag `lake`: no attack is made into a lake hex or across a lake hexside [9.3]", 0)
    else
      error(string.format("unknown odds flag `%s` (flags: %s; no effect on combat: %s)", f,
        table.concat(K.ODDS_FLAGS, ", "), table.concat(K.ODDS_NO_EFFECT, ", ")), 0)
    end
  end
  local mods = {}
  if has.list then
    mod(mods, "9", "flags: %s; terrain with no effect on combat [6.7]: %s", table.concat(K.ODDS_FLAGS, ", "),
      table.concat(K.ODDS_NO_EFFECT, ", "))
    return { attack = att, defence = def, shift = 0, modifiers = mods }
  end
  -- In play no die is rolled for nothing: a 0-0 is removed when it is revealed [12.3], a hex left
  -- with no defender is entered without a roll, and an attack whose units turn out to have no
  -- attack strength has no effect (`K.engage`); a unit known to have none may not attack at all
  -- [12.3] [10.2]. Printing a column and its chances would show a combat that never happens.
  if att == 0 then
    error("attack 0: in play no die is rolled for it: a unit with no attack strength may not attack [12.3] "
      .. "(leaders alone neither [10.2]), and one revealed with none takes no part, so an attack left with none has no effect", 0)
  end
  if def == 0 then
    error("defence 0: in play no die is rolled against it: a unit with no defence strength is removed when it is "
      .. "revealed [12.3], and the hex it leaves empty is entered with no roll (an attack's advance [9.8], an overrun's entry [6.5])", 0)
  end
  for _, f in ipairs(K.ODDS_NO_EFFECT) do
    if has[f] then mod(mods, "6.7", "%s: no effect on combat", ODDS_NO_EFFECT_WORDS[f]) end
  end
  local early = K.integrity_first()
  local a = att
  if has.integrity and early then a = a * 2; mod(mods, "7.3", "divisional integrity doubles the attack (before halving)") end
  if has.out_of_supply then a = K.halve(a); mod(mods, "11.3", "attacker out of supply: halved") end
  if has.integrity and not early then a = a * 2; mod(mods, "7.3", "divisional integrity doubles the attack") end
  if leader > 0 and has.overrun and not opt("wbc09_12_multiple_leaders") then
    -- [10.2] a leader has no attack strength and joins an overrun only under WBC09 #12 (the
    -- overrun action refuses it otherwise), so the odds a GM reads leave it out
    leader = 0
    mod(mods, "10.2", "a leader does not join an overrun (WBC09 #12 lets it): adds nothing")
  end
  if leader > 0 then
    local add = math.min(leader, a)
    a = a + add
    if leaders > 1 then
      mod(mods, "10.36", "%d leaders add %d (ratings %d in all, capped at the units' strength)", leaders, add, leader)
    else
      mod(mods, "10.36", "leader adds %d (rating %d, capped at the units' strength)", add, leader)
    end
  end
  if has.overrun then a = math.floor(a / 2); mod(mods, "6.5", "overrun: halved after all other modifiers") end
  -- the defence, its lines in the order the sums are made (the halving's place decides the result,
  -- fractions dropped): integrity [7.3], then terrain [9.3] and supply [11.3] in the option's order
  local mult = 1
  local terrain = {}
  if has.forest then mult = mult + 1; terrain[#terrain + 1] = "forest doubles the defender" end
  if has.major_city then mult = mult + 1; terrain[#terrain + 1] = "major city doubles the defender" end
  if has.river then mult = mult + 1; terrain[#terrain + 1] = "attacked solely across a river: defender doubled" end
  local d = def
  local function apply_terrain()
    for _, line in ipairs(terrain) do mod(mods, "9.3", line) end
    if mult > 2 then mod(mods, "9.3", "terrain multipliers add: ×%d", mult) end
    d = d * mult
  end
  local function apply_integrity()
    d = d * 2
    mod(mods, "7.3", "defending division intact: doubled")
  end
  if has.defender_integrity and early then apply_integrity() end
  local terrain_first = opt("supply_halving_order") == "terrain_then_supply"
  if terrain_first then apply_terrain() end
  if has.defender_out_of_supply then d = K.halve(d); mod(mods, "11.3", "defender out of supply: halved") end
  if has.defender_integrity and not early then apply_integrity() end
  if not terrain_first then apply_terrain() end
  return { attack = a, defence = d, shift = 0, modifiers = mods }
end

kessel.on("odds", K.odds_modifiers)

-- Steps and elimination ----------------------------------------------------------------------------

-- One step off `u` [9.6]: flip / step down, or eliminate on its last step. Returns true if it died.
function K.lose_step(u, rule)
  u = kessel.units.get(u.id)
  if u.location ~= "map" then return false end
  if u.steps_left <= 1 then
    U.eliminate(u, rule or "9.6", "lost its last step")
    return true
  end
  kessel.emit.step(u.id, u.step + 1)
  kessel.emit.note(rule or "9.6", C.name(u) .. " loses a step")
  return false
end

-- Picks `n` steps from `units` when the owner named none: the unit with most steps left first,
-- combat units before leaders.
function K.auto_steps(units, n)
  local left, order = {}, {}
  for _, u in ipairs(units) do left[u.id] = u.steps_left; order[#order + 1] = u end
  local picks = {}
  for _ = 1, n do
    local best
    for _, u in ipairs(order) do
      if left[u.id] > 0 then
        if not best then best = u
        else
          local bl, ul = C.is_leader(best), C.is_leader(u)
          if (bl and not ul) or (bl == ul and left[u.id] > left[best.id]) then best = u end
        end
      end
    end
    if not best then break end
    picks[#picks + 1] = best.id
    left[best.id] = left[best.id] - 1
  end
  return picks
end

-- Combat bookkeeping ----------------------------------------------------------------------------

-- The combat in progress (game var "combat") and its pending decision (game var "pending").
function K.current() return kessel.game.var("combat") end
function K.pending() return kessel.game.var("pending") end

function K.save(cb) kessel.emit.var("combat", cb) end

function K.side_of(cb, who) return who == "attacker" and cb.attacker_side or cb.defender_side end
function K.ids_of(cb, who) return who == "attacker" and cb.attackers or cb.defenders end
function K.hexes_of(cb, who) return who == "attacker" and cb.att_hexes or cb.def_hexes end
local function other_who(who) return who == "attacker" and "defender" or "attacker" end

-- Fresh snapshots of a combat side's units still on the map.
function K.units_of(cb, who)
  local out = {}
  for _, id in ipairs(K.ids_of(cb, who)) do
    local u = kessel.units.get(id)
    if u and u.location == "map" then out[#out + 1] = u end
  end
  return out
end

-- Units that retreated onto `who`'s hexes earlier this phase die when those hexes suffer a loss or
-- retreat result [9.73]. Returns the number of steps that died. Only an attacked hex suffers a
-- result: the attacker's A1/A2/Ae falls on the attacking units alone [9.6], and a unit retreated
-- onto a hex the attack came from took no part in it (it attacked already, or it would not have
-- retreated), so it stays, and its steps pay nothing of the attackers' loss.
function K.kill_riders(cb, who)
  if who ~= "defender" then return 0 end
  local side, steps = K.side_of(cb, who), 0
  for _, hex in ipairs(K.hexes_of(cb, who)) do
    for _, u in ipairs(kessel.units.at(hex)) do
      if u.side == side and u.flags.retreated_onto then
        steps = steps + u.steps_left
        U.eliminate(u, "9.73", "it had retreated onto " .. hex .. ", which suffered a further result")
      end
    end
  end
  return steps
end

local function set_pending(p) kessel.emit.var("pending", p) end

-- Steps of the units retreated onto `who`'s hexes earlier this phase [9.73] (those K.kill_riders
-- would eliminate).
function K.rider_steps(cb, who)
  if who ~= "defender" then return 0 end
  local side, steps = K.side_of(cb, who), 0
  for _, hex in ipairs(K.hexes_of(cb, who)) do
    for _, u in ipairs(kessel.units.at(hex)) do
      if u.side == side and u.flags.retreated_onto then steps = steps + u.steps_left end
    end
  end
  return steps
end

-- Steps the owner still names after a loss of `n` [9.6]: in the standard game the units retreated
-- onto the hex die first and their steps count toward the loss [9.73] (under WBC09 #3 they died
-- before the decision and count for nothing).
function K.steps_to_name(cb, who, n)
  if opt("wbc09_03_retreated_units_die_first") then return n end
  return math.max(0, n - K.rider_steps(cb, who))
end

-- Runs the combat's remaining tasks until one needs a player's decision or the combat is over.
K.finishers = {}
function K.proceed(cb)
  while #cb.tasks > 0 do
    local t = table.remove(cb.tasks, 1)
    if t.what == "elim" then
      if t.who == "defender" then cb.defender_hit = true end
      K.kill_riders(cb, t.who)
      for _, u in ipairs(K.units_of(cb, t.who)) do
        U.eliminate(u, "9.6", "result " .. cb.result)
      end
      cb.eliminated = cb.eliminated or {}
      cb.eliminated[t.who] = true
    elseif t.what == "lr" then
      if t.who == "defender" then cb.defender_hit = true end
      if t.who == "attacker" then cb.attacker_hit = true end
      if opt("wbc09_03_retreated_units_die_first") then K.kill_riders(cb, t.who) end
      local units = K.units_of(cb, t.who)
      if #units > 0 then
        cb.current = t
        K.save(cb)
        local prompt = string.format("%s: the %s loses %d step(s) or retreats %d hex(es)", cb.result, t.who, t.n, t.n)
        local riders = opt("wbc09_03_retreated_units_die_first") and 0 or K.rider_steps(cb, t.who)
        if riders > 0 then
          prompt = prompt .. string.format("; either way the units retreated onto the hex die first, and on a loss their %d step(s) count toward it, leaving %d to name [9.73]",
            riders, K.steps_to_name(cb, t.who, t.n))
        end
        set_pending{
          kind = "loss_or_retreat", side = K.side_of(cb, t.who), rule = "9.6", who = t.who, n = t.n,
          units = C.ids(units),
          prompt = prompt,
        }
        return
      end
    elseif t.what == "eng" then
      cb.eng = true
      cb.attacker_hit = true
    elseif t.what == "eng_step" then
      -- [9.6] Eng: this side loses one step; its owner picks the unit when there is a choice
      local units = K.units_of(cb, t.who)
      if #units == 1 then
        K.lose_step(units[1], "9.6")
        if #K.units_of(cb, t.who) == 0 then cb.eliminated[t.who] = true end
      elseif #units > 1 then
        cb.current = t
        K.save(cb)
        set_pending{
          kind = "eng_loss", side = K.side_of(cb, t.who), rule = "9.6", who = t.who, n = 1,
          units = C.ids(units),
          prompt = string.format("Eng: the %s names the unit that loses one step (choose{units={id}})", t.who),
        }
        return
      end
    elseif t.what == "advance" then
      if K.offer_advance(cb) then return end
    elseif t.what == "finish" then
      local f = K.finishers[cb.kind]
      if f then f(cb) end
    end
  end
  kessel.emit.var("combat", nil)
  set_pending(nil)
end

-- Tasks for a result code [9.6].
function K.tasks_for(result)
  local tasks = {}
  local d, a = result:match("^(D[e12])/(A[e12])$")
  if not d then
    if result:sub(1, 1) == "D" then d = result elseif result:sub(1, 1) == "A" then a = result end
  end
  local function add(code, who)
    if not code then return end
    if code:sub(2) == "e" then tasks[#tasks + 1] = { what = "elim", who = who }
    else tasks[#tasks + 1] = { what = "lr", who = who, n = tonumber(code:sub(2)) } end
  end
  if result == "Eng" then
    tasks[#tasks + 1] = { what = "eng" }
    tasks[#tasks + 1] = { what = "eng_step", who = "defender" }
    tasks[#tasks + 1] = { what = "eng_step", who = "attacker" }
  end
  add(d, "defender")
  add(a, "attacker")
  return tasks
end

-- Advance after combat [9.8] --------------------------------------------------------------------

local function adjacent_to_all(u, hex) return kessel.hex.adjacent(u.hex, hex) end

-- Offers an advance to the victor when the loser left a hex. Returns true when a decision waits.
-- A split result (D1/A1, D2/A1, De/A1) is open to an advance only when the attacker took his step
-- (FAQ 8; the results table's note on split results speaks of the attacker's advance alone): the
-- attacker then advances into what the defender left, and the defender never advances, even
-- when the attacker retreated from beside him.
-- Only a victor advances [9.8]: the attacker after a result with a defender's part (D1, D2, De, a
-- split) or when no defender was left to roll against [12.3]; the defender after A1, A2 or Ae. A
-- hex the loser's own duds left empty on their reveal [12.3] is no prize for him: after D1 taken
-- as a loss the defender does not advance into the attacking hex whose units were removed, nor the
-- attacker after A1 taken as a loss into a defending hex emptied so.
function K.victor(result, who)
  if result == "none" then return who == "attacker" end
  if type(result) ~= "string" then return false end
  return result:sub(1, 1) == (who == "attacker" and "D" or "A")
end

function K.offer_advance(cb)
  if cb.kind ~= "attack" or cb.eng then return false end
  cb.retreated = cb.retreated or {}
  local split = type(cb.result) == "string" and cb.result:find("/", 1, true) ~= nil
  for _, loser in ipairs{ "defender", "attacker" } do
    local victor = other_who(loser)
    local lside = K.side_of(cb, loser)
    if split and victor == "defender" then
      if cb.retreated.attacker and not cb.retreated.defender and not (cb.eliminated and cb.eliminated.defender) then
        kessel.emit.note("FAQ 8", string.format("%s: the attacker retreated from a split result: no advance after combat", cb.result))
      end
    elseif not K.victor(cb.result, victor) then
      local emptied = {}
      for _, hex in ipairs(K.hexes_of(cb, loser)) do
        if #kessel.units.at(hex) == 0 and not (cb.retreat_paths and cb.retreat_paths[hex]) then emptied[#emptied + 1] = hex end
      end
      if #emptied > 0 and #K.units_of(cb, victor) > 0 and not cb.retreated[victor] then
        kessel.emit.note("9.8", string.format("%s: the %s lost the combat and does not advance into %s, emptied when its units were removed on their reveal [12.3]",
          cb.result, victor, table.concat(emptied, ", ")))
      end
    elseif not cb.retreated[victor] and not (cb.eliminated and cb.eliminated[victor]) then
      local options, units = {}, {}
      local all_dead = #K.units_of(cb, loser) == 0
      for _, hex in ipairs(K.hexes_of(cb, loser)) do
        if #kessel.units.at(hex) == 0 then
          local paths = {}
          local recorded = cb.retreat_paths and cb.retreat_paths[hex]
          if recorded and #recorded > 0 then
            for _, p in ipairs(recorded) do
              local full = { hex }
              for i = 1, #p - 1 do full[#full + 1] = p[i] end
              for len = 1, #full do
                local prefix, ok = {}, true
                for i = 1, len do
                  prefix[i] = full[i]
                  if C.enemy_at(full[i], K.side_of(cb, victor)) then ok = false end
                end
                if ok then paths[#paths + 1] = prefix end
              end
            end
          else
            -- emptied by elimination: the vacated hex, and a second hex only when every enemy
            -- unit of the combat was eliminated ("if all enemy units are eliminated" [9.8]); in a
            -- multi-hex combat [9.23] whose other defenders survived, the vacated hex alone
            paths[#paths + 1] = { hex }
            for _, n in ipairs(all_dead and kessel.hex.neighbors(hex) or {}) do
              if #kessel.units.at(n) == 0 and not kessel.map.has_side(hex, n, "lake")
                and kessel.map.terrain(n) ~= "lake" then
                paths[#paths + 1] = { hex, n }
              end
            end
          end
          -- remove duplicates, and (turns 1-6) Soviet advances into columns 01-02 [6.4]
          local closed = K.side_of(cb, victor) == C.SOVIET and kessel.game.turn() <= 6
          local seen, uniq = {}, {}
          for _, p in ipairs(paths) do
            local key = table.concat(p, ",")
            local open = true
            if closed then
              for _, h in ipairs(p) do if C.column(h) <= 2 then open = false end end
            end
            if open and not seen[key] then seen[key] = true; uniq[#uniq + 1] = p end
          end
          if #uniq > 0 then options[#options + 1] = { hex = hex, paths = uniq } end
        end
      end
      if #options > 0 then
        local frozen = {}
        for _, u in ipairs(K.units_of(cb, victor)) do
          if C.disrupted(u) then
            -- [6.6] a disrupted unit may not move, and an advance is a move: it stays
            frozen[#frozen + 1] = C.name_at(u)
          else
            for _, o in ipairs(options) do
              if adjacent_to_all(u, o.hex) then units[#units + 1] = u.id; break end
            end
          end
        end
        if #frozen > 0 then
          kessel.emit.note("6.6", string.format("%s: disrupted, may not advance after combat", table.concat(frozen, ", ")))
        end
      end
      if #options > 0 and #units > 0 and lside ~= K.side_of(cb, victor) then
        cb.advance = { who = victor }
        K.save(cb)
        set_pending{
          kind = "advance", side = K.side_of(cb, victor), rule = "9.8", units = units, options = options,
          prompt = "the " .. victor .. " may advance into the vacated hex(es) (advance{units=,path=} or advance{skip=true})",
        }
        return true
      end
    end
  end
  return false
end

-- Attack [9.1] ----------------------------------------------------------------------------------

local function targets_of(a)
  if type(a.targets) == "table" then return a.targets end
  if a.target then return { a.target } end
  return {}
end

-- No attack crosses a lake hexside: the chart closes it to combat [6.7], which is how terrain acts
-- on combat [9.3]. An overrun is an attack, so it is refused here too, under the same case.
-- `who` attacks (verb: "attack" or "overrun") `target` from `from`; nil when no lake is between.
function K.lake_reason(from, target, who, verb)
  if kessel.map.has_side(from, target, "lake") then
    return C.reason("9.3", "%s cannot %s %s across a lake hexside: no attack crosses one", who, verb, target)
  end
end

-- `command` (optional): L.command_hexes() of this moment, when the caller checks many attacks.
local ATTACK_FIELDS = { { name = "units", kind = "ids" }, { name = "targets", kind = "hexes" }, { name = "target", kind = "string" } }

function K.attack_reasons(a, command)
  local shape = C.shape_reason(a, "9.1", ATTACK_FIELDS)
  if shape then return { shape } end
  local reasons = {}
  local function no(rule, fmt, ...) reasons[#reasons + 1] = C.reason(rule, fmt, ...) end
  if kessel.game.var("pending") then
    local p = kessel.game.var("pending")
    no(p.rule or "9.6", "a decision is waiting: %s", p.prompt or p.kind)
    return reasons
  end
  if not C.in_combat_phase() then
    no("9.1", "attacks are made in the phasing player's Combat Phase")
    return reasons
  end
  local side = C.phasing()
  local ids = a.units or {}
  local targets = targets_of(a)
  if #ids == 0 then no("9.1", "an attack needs attacking units") end
  if #targets == 0 then no("9.1", "an attack needs at least one defending hex") end
  local units, combat_units, leaders = {}, {}, {}
  for _, id in ipairs(ids) do
    local u = kessel.units.get(id)
    if not u then no("9.1", "no unit `%s`", tostring(id))
    elseif u.location ~= "map" then no("9.1", "%s is not on the map (%s)", C.name(u), C.off_map_words(u))
    elseif u.side ~= side then no("9.1", "%s does not belong to the phasing player", C.name(u))
    elseif u.flags.attacked then
      -- [9.1] one attack a unit a phase. Only attackers advance in their own Combat Phase, so a
      -- unit that advanced [9.8] has attacked: this is the one place that refuses it, and says so
      no("9.1", "%s has already attacked this phase%s", C.name_at(u),
        u.flags.advanced and " (and advanced after that combat [9.8])" or "")
    elseif C.disrupted(u) then no("6.6", "%s is disrupted and cannot attack", C.name_at(u))
    elseif not U.may_attack(u) then no("12.3", "%s (%s) may only defend: it has no attack strength", C.name_at(u), string.format("%d-%d", u.attack or 0, u.defence or 0))
    else
      units[#units + 1] = u
      if C.is_leader(u) then leaders[#leaders + 1] = u
      else
        combat_units[#combat_units + 1] = u
        if u.side == C.SOVIET then
          command = command or L.command_hexes()
          if not L.in_command(u, command) then
            reasons[#reasons + 1] = L.outside_command_reason(u)
            local idle = L.disrupted_leader_near(u)
            if idle then no("6.6", "the leader in range, %s, is disrupted and has no command radius", C.name_at(idle)) end
          end
        end
      end
    end
  end
  if #ids > 0 and #combat_units == 0 and #reasons == 0 then no("10.2", "leaders have no attack strength: an attack needs combat units") end
  for _, r in ipairs(L.check_attack_leaders(leaders, combat_units)) do reasons[#reasons + 1] = r end
  local tseen = {}
  for _, t in ipairs(targets) do
    if not kessel.hex.valid(t) then no("9.1", "`%s` is not a hex", tostring(t))
    elseif tseen[t] then no("9.23", "%s is listed twice", t)
    else
      tseen[t] = true
      local defenders = K.defenders_at(t)
      local enemy = false
      for _, d in ipairs(kessel.units.at(t)) do if d.side ~= side then enemy = true end end
      -- "enemy" is the phasing side's: name both sides, since a refused attack may list a unit
      -- of the other side among the attackers, whose enemy the hex does hold
      if not enemy then no("9.1", "%s holds no %s unit for the %s to attack", t, C.side_name(C.other(side)), C.side_name(side))
      else
        -- [9.1] a unit is attacked at most once a phase: say which units were, so that a GM can
        -- check it against the combats made
        local done = {}
        for _, d in ipairs(defenders) do
          if d.flags.defended then done[#done + 1] = C.name(d) end
        end
        if #done > 0 then
          no("9.1", "%s in %s %s already been attacked this phase, and a unit is attacked at most once a phase",
            table.concat(done, ", "), t, #done == 1 and "has" or "have")
        elseif #defenders == 0 then
          -- [9.73] only units that retreated onto the hex after their own combat are left in it
          local _, riders = K.defenders_at(t)
          local names = {}
          for _, r in ipairs(riders) do names[#names + 1] = C.name(r) end
          no("9.1", "%s in %s retreated there after being attacked this phase, and a unit is attacked at most once a phase",
            table.concat(names, ", "), t)
        end
      end
      for _, u in ipairs(units) do
        if not kessel.hex.adjacent(u.hex, t) then
          if #targets > 1 then
            no("9.23", "%s is not next to %s: in a multi-hex attack every attacker must be next to every defending hex", C.name(u), t)
          else
            no("9.1", "%s is not next to %s", C.name_at(u), t)
          end
        else
          local lake = K.lake_reason(u.hex, t, C.name(u), "attack")
          if lake then reasons[#reasons + 1] = lake end
        end
      end
    end
  end
  return reasons
end

-- Reveals untried units committed to a combat [12.2]; returns the units still taking part.
function K.reveal_all(units, attacking)
  local out = {}
  for _, u in ipairs(units) do
    local f = U.reveal(u, attacking and "attacking" or "attacked")
    if f then
      if attacking and not U.may_attack(f) then
        kessel.emit.note("12.3", C.name(f) .. " turns out to have no attack strength: it takes no part in the attack")
      else
        out[#out + 1] = f
      end
    end
  end
  return out
end

-- Rolls a combat and starts its results. `cb` has kind, sides, attackers, defenders, hexes; ctx has
-- overrun. Returns the result code (or nil when nothing was rolled).
-- Supply at the instant of combat for every unit of a side, judged once per combat (the same
-- judgement as S.in_supply unit by unit, without tracing the whole network again for each unit).
local function combat_supply(ctx)
  if ctx.in_supply then return ctx.in_supply end
  local judges = {}
  return function(u)
    local j = judges[u.side]
    if j == nil then j = S.judge_with(u.side); judges[u.side] = j end
    return (j(u))
  end
end

function K.roll(cb, ctx, attackers, defenders_by_hex)
  local supplied = combat_supply(ctx)
  local actx = {}
  for k, v in pairs(ctx) do actx[k] = v end
  actx.in_supply = supplied
  local att, amods = K.attack_total(attackers, actx)
  -- [9.3] "attacked solely across a river" looks at the units that attack: a hex whose only
  -- units were revealed as duds or 0-attack rifles [12.3] takes no part in the attack
  local fighting_hexes, seen = {}, {}
  for _, u in ipairs(attackers) do
    if C.is_combat_unit(u) and not seen[u.hex] then seen[u.hex] = true; fighting_hexes[#fighting_hexes + 1] = u.hex end
  end
  local def, dmods = K.defence_of(cb.def_hexes, {
    attacker_hexes = fighting_hexes, units = defenders_by_hex, in_supply = supplied,
  })
  local odds = kessel.tables.odds(K.CRT, att, def)
  local roll = kessel.dice.roll(cb.kind == "overrun" and "overrun" or "combat")
  local result = kessel.tables.result(K.CRT, odds.column, roll)
  for _, m in ipairs(amods) do kessel.emit.note(m.rule, m.message) end
  for _, m in ipairs(dmods) do kessel.emit.note(m.rule, m.message) end
  -- (the kind leads the note: "combat", not "attack", so that the word is not said twice)
  kessel.emit.note(cb.kind == "overrun" and "6.5" or "9.5", string.format("%s: attack %d against defence %d in %s: odds %s, roll %d: %s",
    cb.kind == "overrun" and "overrun" or "combat", att, def, table.concat(cb.def_hexes, "+"), odds.label, roll, result))
  -- the same resolution as data, for scripts and tools (docs/lua-api.md, "Records")
  kessel.emit.record{ kind = "combat", rule = cb.kind == "overrun" and "6.5" or "9.5", fields = {
    type = cb.kind, attacker_side = cb.attacker_side, defender_side = cb.defender_side,
    attackers = C.ids(attackers), defenders = cb.defenders,
    attacker_hexes = cb.att_hexes, defender_hexes = cb.def_hexes,
    attack = att, defence = def, attack_modifiers = amods, defence_modifiers = dmods,
    table = K.CRT, odds = odds.label, below = odds.below, above = odds.above,
    roll = roll, result = result,
  } }
  cb.result = result
  cb.odds = odds.label
  cb.roll = roll
  cb.attack = att
  cb.defence = def
  return result
end

-- Sets up and resolves the combat of an attack action or an overrun. Returns the combat table.
function K.engage(kind, attacker_units, targets, ctx)
  local side = attacker_units[1].side
  local cb = {
    kind = kind, attacker_side = side, defender_side = C.other(side),
    def_hexes = targets, att_hexes = {}, attackers = {}, defenders = {}, tasks = {},
    retreat_paths = {}, retreated = {}, eliminated = {},
  }
  local hexes = {}
  -- every unit committed, those a reveal takes out of the fight included [12.3] (an overrun that
  -- fails stops them all [6.5])
  cb.committed = {}
  for _, u in ipairs(attacker_units) do
    cb.committed[#cb.committed + 1] = u.id
    if kind == "attack" then kessel.emit.flag(u.id, "attacked") end
    if not hexes[u.hex] then hexes[u.hex] = true; cb.att_hexes[#cb.att_hexes + 1] = u.hex end
  end
  -- every unit in a defending hex defends, except units retreated onto it [9.1] [9.73]
  local by_hex, any_defender, any_rider = {}, false, false
  -- the case that emptied the defence, for the note below: duds removed [12.3], or units retreated
  -- onto a hex none of whose own units was left, which WBC09 #3 kills
  local emptied = "12.3"
  local attackers = K.reveal_all(attacker_units, true)
  for _, hex in ipairs(targets) do
    local defenders, riders = K.defenders_at(hex)
    for _, d in ipairs(defenders) do if kind == "attack" then kessel.emit.flag(d.id, "defended") end end
    local alive = K.reveal_all(defenders, false)
    if #alive == 0 and #riders > 0 then
      -- Two ways to get here: the hex's own units proved duds and were removed just now [12.3], or
      -- none of them was left when the combat began (an Eng earlier in the phase took the last
      -- one's step while sparing the units retreated onto it [FAQ 5]: reachable in a Movement
      -- Phase, where a hex may be overrun again). The notes say which, so a GM can follow.
      local gone = #defenders > 0 and "the units it had retreated onto proved to have no strength"
        or "none of the units it had retreated onto is left there"
      if opt("wbc09_03_retreated_units_die_first") then
        -- WBC09 #3: the hex defends with its own units only; with none of any strength the
        -- retreated units die, and the attacker may advance up to two hexes
        for _, r in ipairs(riders) do U.eliminate(r, "WBC09 #3", gone) end
        if #defenders == 0 then emptied = "WBC09 #3" end
      else
        -- standard: with nobody left to shelter behind, the retreated units defend on their own
        for _, r in ipairs(riders) do
          kessel.emit.note("9.73", string.format("%s retreated onto %s this phase, but %s: it defends on its own",
            C.name(r), hex, gone))
          kessel.emit.flag(r.id, "retreated_onto", false)
          -- they are attacked now, and like every defender not again this phase [9.1]
          if kind == "attack" then kessel.emit.flag(r.id, "defended") end
          alive[#alive + 1] = kessel.units.get(r.id)
        end
      end
    end
    by_hex[hex] = alive
    for _, d in ipairs(alive) do
      cb.defenders[#cb.defenders + 1] = d.id
      any_defender = true
    end
    if #riders > 0 then any_rider = true end
  end
  for _, u in ipairs(attackers) do cb.attackers[#cb.attackers + 1] = u.id end
  local fighting = 0
  for _, u in ipairs(attackers) do if C.is_combat_unit(u) then fighting = fighting + 1 end end
  if fighting == 0 then
    kessel.emit.note("12.3", "no attacking unit has any strength left: the " .. kind .. " has no effect")
    cb.result = "none"
    cb.tasks = { { what = "finish" } }
    K.proceed(cb)
    return cb
  end
  if not any_defender then
    kessel.emit.note(emptied, "no defender is left in " .. table.concat(targets, "+") .. ": the hex is empty")
    cb.result = "none"
    cb.eliminated.defender = true
    cb.tasks = { { what = kind == "attack" and "advance" or "finish" } }
    K.proceed(cb)
    return cb
  end
  local result = K.roll(cb, ctx, attackers, by_hex)
  cb.tasks = K.tasks_for(result)
  cb.tasks[#cb.tasks + 1] = { what = kind == "attack" and "advance" or "finish" }
  K.proceed(cb)
  return cb
end

kessel.action{
  kind = "attack", rule = "9.1",
  description = "attack adjacent enemy hexes: attack{units={ids}, targets={hexes}}",
  validate = C.sided(K.attack_reasons),
  apply = function(a)
    local units = {}
    for _, id in ipairs(a.units) do units[#units + 1] = kessel.units.get(id) end
    K.engage("attack", units, targets_of(a), {})
  end,
  enumerate = C.sided_list(function(side)
    if not C.in_combat_phase() or kessel.game.var("pending") then return {} end
    if side and side ~= C.phasing() then return {} end
    return K.attack_options(require("ai.narrowing").active())
  end),
}

-- Attacks a player could make now [9.1] [9.23] [10.36].
--
-- The full list holds, for each enemy hex and each pair of adjacent enemy hexes [9.23], every
-- group of the units that may attack it (every subset when at most ALL_SUBSETS units could join;
-- past that, every set of whole attacking hexes and every unit alone), and each group once more
-- with the leaders of its hexes added (Soviet [10.36]: the best-rated leader of each hex, or all
-- of them under WBC09 #12). Every listed attack validates. `representative` (a computer player
-- narrowing the list, ai/narrowing.lua) keeps per target all units together, each attacking hex alone,
-- and their leader variants.
local ALL_SUBSETS = 8

-- Subsets of `list` (non-empty), largest first, then by bit pattern: a fixed order.
local function subsets(list)
  local by_size = {}
  for mask = 1, (1 << #list) - 1 do
    local s = {}
    for i = 1, #list do if mask & (1 << (i - 1)) ~= 0 then s[#s + 1] = list[i] end end
    by_size[#s] = by_size[#s] or {}
    table.insert(by_size[#s], s)
  end
  local out = {}
  for k = #list, 1, -1 do
    for _, s in ipairs(by_size[k] or {}) do out[#out + 1] = s end
  end
  return out
end

function K.attack_options(representative)
  local out = {}
  local me = C.phasing()
  local command = me == C.SOVIET and L.command_hexes() or nil
  local able, leaders_at = {}, {}
  for _, u in ipairs(C.units_of(me)) do
    if not u.flags.attacked and not C.disrupted(u) then
      if C.is_leader(u) then
        leaders_at[u.hex] = leaders_at[u.hex] or {}
        table.insert(leaders_at[u.hex], u)
      elseif U.may_attack(u) and (me ~= C.SOVIET or L.in_command(u, command)) then
        able[#able + 1] = u
      end
    end
  end
  -- leaders that may lend their rating to units of their hex: the best one, or all (WBC09 #12)
  local several = C.option("wbc09_12_multiple_leaders")
  for hex, list in pairs(leaders_at) do
    table.sort(list, function(a, b)
      local ra, rb = L.rating(a), L.rating(b)
      if ra ~= rb then return ra > rb end
      return a.id < b.id
    end)
    if not several then leaders_at[hex] = { list[1] } end
  end
  local targets, hex_of = {}, {}
  local enemy = C.occupied(C.other(me))
  for _, u in ipairs(able) do
    hex_of[u.id] = u.hex
    for _, n in ipairs(kessel.hex.neighbors(u.hex)) do
      if enemy:has(n) and not kessel.map.has_side(u.hex, n, "lake") then
        targets[n] = targets[n] or {}
        table.insert(targets[n], u.id)
      end
    end
  end
  local function add(ids, tset)
    local a = { kind = "attack", units = ids, targets = tset }
    if not K.attack_reasons(a, command)[1] then out[#out + 1] = a end
    -- the same attack with the leaders of its hexes [10.36]
    local with, seen = {}, {}
    for _, id in ipairs(ids) do
      with[#with + 1] = id
      local h = hex_of[id]
      if not seen[h] then
        seen[h] = true
        for _, l in ipairs(leaders_at[h] or {}) do with[#with + 1] = l.id end
      end
    end
    if #with > #ids then
      local b = { kind = "attack", units = with, targets = tset }
      if not K.attack_reasons(b, command)[1] then out[#out + 1] = b end
    end
  end
  -- groups of `ids` to list against one target set
  local function groups(ids)
    local by, hs = {}, {}
    for _, id in ipairs(ids) do
      local h = hex_of[id]
      if not by[h] then by[h] = {}; hs[#hs + 1] = h end
      table.insert(by[h], id)
    end
    table.sort(hs)
    local out_groups = { ids }
    if representative or #ids > ALL_SUBSETS then
      if #hs > 1 then
        if representative then
          for _, h in ipairs(hs) do out_groups[#out_groups + 1] = by[h] end
        else
          for _, set in ipairs(subsets(hs)) do
            if #set < #hs then   -- (all of them is `ids` itself)
              local g = {}
              for _, h in ipairs(set) do for _, id in ipairs(by[h]) do g[#g + 1] = id end end
              out_groups[#out_groups + 1] = g
            end
          end
        end
      end
      if not representative then
        for _, id in ipairs(ids) do
          if #by[hex_of[id]] > 1 or #hs > 1 then out_groups[#out_groups + 1] = { id } end
        end
      end
    else
      out_groups = subsets(ids)   -- everyone first, as in the short list
    end
    return out_groups
  end
  local keys = {}
  for t in pairs(targets) do keys[#keys + 1] = t end
  table.sort(keys)
  for _, t in ipairs(keys) do
    for _, g in ipairs(groups(targets[t])) do add(g, { t }) end
  end
  -- two-hex attacks by units next to both [9.23]
  for i = 1, #keys do
    for j = i + 1, #keys do
      if kessel.hex.adjacent(keys[i], keys[j]) then
        local both = {}
        for _, id in ipairs(targets[keys[i]]) do
          if C.contains(targets[keys[j]], id) then both[#both + 1] = id end
        end
        if #both > 0 then
          local gs = representative and { both } or groups(both)
          for _, g in ipairs(gs) do add(g, { keys[i], keys[j] }) end
        end
      end
    end
  end
  return out
end

-- Loss or retreat [9.6] -------------------------------------------------------------------------

-- [9.6] Eng: the owner names the one unit of his side of the combat that loses the step.
local function eng_reasons(a, p)
  if a.choice ~= nil and a.choice ~= "loss" then
    return C.reason("9.6", "an Engaged result allows no retreat: name the unit that loses the step")
  end
  local ids = a.units or {}
  if #ids ~= 1 then
    return C.reason("9.6", "Eng: name exactly one unit to lose the step (choose{units={id}})")
  end
  if not C.contains(p.units, ids[1]) then
    return C.reason("9.6", "`%s` is not one of the %s's units in this combat", tostring(ids[1]), p.who)
  end
  local u = kessel.units.get(ids[1])
  if not u or u.location ~= "map" then
    return C.reason("9.6", "`%s` is not on the map", tostring(ids[1]))
  end
end

local CHOOSE_FIELDS = { { name = "choice", kind = "string" }, { name = "units", kind = "ids", repeats = true } }

function K.choose_reasons(a)
  local shape = C.shape_reason(a, "9.6", CHOOSE_FIELDS)
  if shape then return shape end
  local p = kessel.game.var("pending")
  if p and p.kind == "eng_loss" then return eng_reasons(a, p) end
  if not p or p.kind ~= "loss_or_retreat" then
    return C.pending_reason() or C.reason("9.6", "no loss-or-retreat decision is waiting")
  end
  if a.choice ~= "loss" and a.choice ~= "retreat" then
    return C.reason("9.6", "choose \"loss\" (lose %d step(s)) or \"retreat\" (%d hex(es))", p.n, p.n)
  end
  -- a unit named must be one of the decision's, whatever the choice: a retreat moves the whole
  -- stack [9.7], so naming another unit with it is a mistake, not a choice; only a loss names a
  -- unit more than once (once a step)
  local named = {}
  for _, id in ipairs(a.units or {}) do
    if not C.contains(p.units, id) then
      return C.reason("9.6", "`%s` is not one of the units that must take the loss or retreat", tostring(id))
    end
    if named[id] and a.choice ~= "loss" then
      return C.reason("9.6", "`units` names %s twice: only a loss names a unit once for each step", id)
    end
    named[id] = true
  end
  if a.choice == "loss" and a.units then
    local count, total = {}, 0
    for _, id in ipairs(a.units) do
      local u = kessel.units.get(id)
      count[id] = (count[id] or 0) + 1
      if count[id] > u.steps_left then
        return C.reason("9.6", "%s has only %d step(s)", C.name(u), u.steps_left)
      end
      total = total + 1
    end
    local available = 0
    for _, id in ipairs(p.units) do available = available + kessel.units.get(id).steps_left end
    -- the steps left once the units retreated onto the hex have died [9.73]; naming the whole
    -- result is accepted too (the first names are used)
    local cb = K.current()
    local left = math.min(K.steps_to_name(cb, p.who, p.n), available)
    if total ~= left and total ~= math.min(p.n, available) then
      return C.reason("9.6", "name exactly %d step(s) to lose", left)
    end
  end
end

kessel.action{
  kind = "choose", rule = "9.6",
  description = "answer a loss-or-retreat result: choose{choice=\"loss\"|\"retreat\", units={ids}}; after Eng: choose{units={id}}",
  validate = C.sided(K.choose_reasons),
  apply = function(a)
    local cb = K.current()
    local t = cb.current
    cb.current = nil
    kessel.emit.var("pending", nil)
    local who = t.who
    if t.what == "eng_step" then
      local u = kessel.units.get(a.units[1])
      kessel.emit.note("9.6", string.format("Eng: the %s takes the step loss on %s", who, C.name(u)))
      K.lose_step(u, "9.6")
      if #K.units_of(cb, who) == 0 then cb.eliminated[who] = true end
      K.proceed(cb)
    elseif a.choice == "loss" then
      local n = t.n
      if not opt("wbc09_03_retreated_units_die_first") then
        -- standard: units that had retreated onto the hex die with it and their steps count
        n = math.max(0, n - K.kill_riders(cb, who))
      end
      local units = K.units_of(cb, who)
      -- the owner's names, the first `n` of them when the retreated units' steps paid for the rest
      local picks = nil
      if a.units and #a.units >= n then picks = { table.unpack(a.units, 1, n) } end
      if not picks then picks = K.auto_steps(units, n) end
      kessel.emit.note("9.6", string.format("the %s takes %d step loss(es) (%s)", who, t.n, cb.result))
      for _, id in ipairs(picks) do K.lose_step(kessel.units.get(id), "9.6") end
      if #K.units_of(cb, who) == 0 then cb.eliminated[who] = true end
      K.proceed(cb)
    else
      K.kill_riders(cb, who)
      local units = K.units_of(cb, who)
      cb.retreated[who] = true
      local origin, initial = {}, {}
      for _, u in ipairs(units) do origin[u.id] = u.hex; initial[#initial + 1] = u.hex end
      -- WBC09 #1a: the hexes every unit retreating from this combat started in, whichever side
      cb.retreat_origins = cb.retreat_origins or {}
      for _, u in ipairs(units) do cb.retreat_origins[u.id] = u.hex end
      cb.retreat = { who = who, n = t.n, remaining = C.ids(units), origin = origin, initial = initial }
      kessel.emit.note("9.7", string.format("the %s retreats %d hex(es) (%s); the %s picks the path", who, t.n, cb.result, other_who(who)))
      local R = require("rules.retreat")
      R.ask(cb)
    end
  end,
  enumerate = C.sided_list(function(side)
    local p = kessel.game.var("pending")
    if not p or (p.kind ~= "loss_or_retreat" and p.kind ~= "eng_loss") then return {} end
    if side and side ~= p.side then return {} end
    if p.kind == "eng_loss" then
      -- every unit of the side may be the one [9.6]
      local out = {}
      for _, id in ipairs(p.units) do out[#out + 1] = { kind = "choose", choice = "loss", units = { id } } end
      return out
    end
    local out = { { kind = "choose", choice = "loss" }, { kind = "choose", choice = "retreat" } }
    -- one step to name (after the retreated units' steps [9.73]): each unit may be the one
    if K.steps_to_name(K.current(), p.who, p.n) == 1 and #p.units > 1 then
      for _, id in ipairs(p.units) do out[#out + 1] = { kind = "choose", choice = "loss", units = { id } } end
    end
    return out
  end),
}

-- Once-a-phase markers end with the step [9.1] [9.73] [9.8] [6.5] [6.22].
kessel.on("step_end", function()
  for _, f in ipairs{ "attacked", "defended", "advanced", "retreated_onto", "stopped", "zoc_stop" } do
    kessel.emit.clear_flag(f)
  end
end)

return K
