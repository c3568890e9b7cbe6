-- The RePh as a sequence of play [9.6] [11.6]: the steps of both modules in one list, each marked
-- with the module(s) it belongs to. `end_step` resolves what the current step does automatically
-- (the rolls, the bookkeeping) and advances.
--
-- Each module walks its own named sequence, its steps under the titles and cases of its own text:
-- `refit` (PB, 9.601-9.620) and `refit_rb` (RB, 11.602-11.618 and the players' 11.619-11.625),
-- switched to by `start_refit` (or a scenario's own rules) with `kessel.emit.mode(S.mode())`. The
-- main sequence is the CG scenario itself: this ruleset declares a one-step stand-in that a
-- scenario's special rules replace with the turns of their own play.
local C = require("rules.common")
local S = {}

-- `initial` marks the "!" steps (all that is done before a CG Initial Scenario), `ends` the ">"
-- steps (all that is needed for CG-Scenario End) [9.6].
S.STEPS = {
  { id = "melee", name = "Conclusion of Melee", rule = "9.601", pb = true, ends = true },
  { id = "markers", name = "Marker Removal", rule = "9.602", pb = true, rb = "11.602", ends = true },
  { id = "rally", name = "Rally and Unloading", rule = "9.603", pb = true, ends = true },
  { id = "victory_rally", name = "Victory Determination and Rally", rule = "11.603", rb = true },
  { id = "encirclement", name = "Encirclement, Minefields, Bog and Shock", rb_name = "Encirclement and Minefields", rule = "9.604", pb = true, rb = "11.604" },
  { id = "setup_areas", name = "Setup Area Determination", rule = "9.605", pb = true },
  { id = "perimeter", name = "Perimeter Determination and Isolation", rule = "11.605", rb = true },
  { id = "escape", name = "Escape", rb_name = "Escape from Isolation", rule = "9.606", pb = true, rb = "11.6063" },
  { id = "equipment", name = "Equipment Possession and Hidden Fortifications", rb_name = "Clearing the Map", rule = "9.607", pb = true, rb = "11.607" },
  { id = "prisoners", name = "Prisoners", rule = "9.608", pb = true, rb = "11.608" },
  { id = "blazes", name = "Extinguishing Flames and Blazes", rb_name = "Extinguishing Blazes", rule = "9.609", pb = true, rb = "11.609" },
  { id = "wounded", name = "Wounded Leaders and Walking Wounded MMC", rb_name = "Wounded Leaders", rule = "9.610", pb = true, rb = "11.610" },
  { id = "hardening", name = "Recombining and Battle Hardening", rb_name = "Battle Hardening and Promotion", rule = "9.611", pb = true, rb = "11.611" },
  { id = "date_san", name = "New CG Date and SAN Adjustment", rb_name = "New CG Day and SAN Adjustment", rule = "9.612", pb = true, rb = "11.612" },
  { id = "shift", name = "Shift", rule = "9.613", pb = true },
  { id = "repair", name = "Equipment Repair and Replenishment", rule = "9.614", pb = true, rb = "11.613" },
  { id = "armor_withdrawal", name = "Armor Withdrawal", rule = "11.614", rb = true },
  { id = "fort_removal", name = "Fortification Removal", rule = "11.615", rb = true },
  { id = "reinforcements", name = "OB-Given Reinforcements", rule = "9.615", pb = true },
  { id = "cpp", name = "CPP Replenishment", rule = "9.616", pb = true, rb = "11.616" },
  { id = "elr", name = "ELR Loss/Gain", rule = "11.617", rb = true },
  { id = "weather", name = "Weather and EC Determination", rule = "11.618", rb = true },
  { id = "rg_purchase", name = "Purchasing Reinforcement Groups", rule = "9.617", pb = true, initial = true },
  { id = "rg_strength", name = "RG Strength, Weapons and Leaders", rule = "9.618", pb = true, initial = true },
  { id = "fortifications", name = "Purchasing Fortifications", rule = "9.619", pb = true, initial = true },
  { id = "commencement", name = "Scenario Commencement", rule = "9.620", pb = true, initial = true },
  -- RB 11.619-11.625 (RG purchase to setup, initiative and scenario generation) are not in our
  -- text: the players play them, then end this step (a CG scenario was generated: the RePh is
  -- over) or declare an Idle Day (`idle_day`: no scenario generated in 11.623, so 11.612-.623 are
  -- played again for a new CG Day [11.6121]). Last in the list, so no step index above it moves.
  { id = "scenario_generation", name = "RePh steps 11.619-11.625 (not in our text): scenario generated, or an Idle Day",
    rule = "11.619", rb = true },
}

-- each module's named sequence: its steps only, under its titles (`rb_name` where RB's differs)
-- and cases, each step's index in it (`pb_index`, `rb_index`). Before, one `refit` sequence held
-- both modules' steps under the PB titles and cases: an RB game stood at "Encirclement, Minefields,
-- Bog and Shock [9.604]" as its third step of 27.
S.MODES = { pb = "refit", rb = "refit_rb" }
S.by_id = {}
local counted = { pb = 0, rb = 0 }
for _, s in ipairs(S.STEPS) do
  S.by_id[s.id] = s
  for _, m in ipairs({ "pb", "rb" }) do
    if s[m] then s[m .. "_index"] = counted[m]; counted[m] = counted[m] + 1 end
  end
end

local function module_key() return C.pb() and "pb" or "rb" end
-- the named sequence of the module in play
function S.mode() return S.MODES[module_key()] end

-- the rule case of a step in the module in play
local function rule_in(s, m)
  if m == "pb" then return s.rule end
  return type(s.rb) == "string" and s.rb or s.rule
end
function S.rule(id) return rule_in(S.by_id[id], module_key()) end
-- the title of a step in the module in play
function S.name(id)
  local s = S.by_id[id]
  return (not C.pb() and s.rb_name) or s.name
end
-- the index of a step in the module's sequence (nil for a step the module does not have)
function S.index(id) return S.by_id[id][module_key() .. "_index"] end

function S.in_module(s)
  return (C.pb() and s.pb) or (not C.pb() and s.rb) or false
end

local function declared(m)
  local out = {}
  for _, s in ipairs(S.STEPS) do
    if s[m] then out[#out + 1] = { id = s.id, name = (m == "rb" and s.rb_name) or s.name, rule = rule_in(s, m) } end
  end
  return out
end
kessel.sequence{ { id = "scenario", name = "CG scenario (played on the board)", rule = "9.6" } }
kessel.sequence(S.MODES.pb, declared("pb"), { title = "Refit Phase (Pegasus Bridge)" })
kessel.sequence(S.MODES.rb, declared("rb"), { title = "Refit Phase (Red Barricades)" })

-- the RePh of the module in play is being walked (a position set in the other module's sequence
-- is not: `S.wrong_mode` says so)
function S.in_refit() return kessel.game.step().mode == S.mode() end
-- RB: has RePh step 11.605 typed this RePh's Isolated Areas [11.606] (the RePh is past it, or over)?
function S.rb_perimeter_done()
  if C.pb() or not S.in_refit() then return false end
  return kessel.game.finished() or kessel.game.step().index > S.index("perimeter")
end
function S.wrong_mode(case)
  local m = kessel.game.step().mode
  if m ~= nil and m ~= S.mode() and (m == S.MODES.pb or m == S.MODES.rb) then
    return C.refuse(case, string.format("this %s game stands in the %s sequence `%s`: its RePh is the sequence `%s`",
      C.module():upper(), m == S.MODES.pb and "PB" or "RB", m, S.mode()))
  end
end

-- how many steps the main sequence (the CG scenario) has: a scenario's rules that declare their
-- own turns set this to the number of their steps
S.main_steps = 1

-- the CG scenario has reached its last step of its last turn
function S.scenario_over()
  return kessel.game.turn() >= kessel.game.last_turn() and kessel.game.step().index + 1 >= S.main_steps
end

-- resolvers: what `end_step` does for a step, registered by the step's module
S.resolvers = {}
function S.on_end(id, fn)
  assert(S.by_id[id], "no RePh step `" .. id .. "`")
  S.resolvers[id] = fn
end
-- validators of `end_step` per step (a choice still owed refuses it); each gets the `end_step`
-- action, so a refusal can tell the sender what is its own to do and no more of the other side's
S.blockers = {}
function S.block(id, fn) S.blockers[id] = fn end

function S.current()
  local step = kessel.game.step()
  return step.mode == S.mode() and S.by_id[step.id] or nil
end

-- The RB RePh steps after 11.618, which our text stops before, that have a PB counterpart here:
-- each with the RB case our text cites for it. They are not modelled: their choices are refused in
-- RB under that case, and the players play them in the RB RePh's last step (`scenario_generation`).
S.RB_NOT_IN_TEXT = {
  rg_purchase = { case = "11.619", what = "RG purchase, 11.619; its Infantry Coy limit per CG Day, 11.6195" },
  rg_strength = { case = "11.620", what = "RG Strength, 11.6201 and 11.6204" },
  fortifications = { case = "11.621", what = "Fortification purchase, 11.621" },
  commencement = { case = "11.624", what = "set-up, 11.624: wind, 11.6241; Isolated Areas, 11.6242" },
}

-- the step a ruleset action belongs to: refuses it in any other step
function S.only_in(id, case)
  local s = S.current()
  if kessel.game.finished() then return C.refuse(case, "the Refit Phase is over") end
  local wrong = S.wrong_mode(case)
  if wrong then return wrong end
  if not S.in_refit() then return C.refuse(case, "the Refit Phase has not begun") end
  -- a step of the other module never comes: say so rather than "not now"
  if not S.in_module(S.by_id[id]) then
    -- in RB, what PB's 9.617-9.620 do (purchases, set-up) belongs to RePh steps 11.619-11.625,
    -- which our text does not give (the players play them in the RB RePh's last step), and our RB
    -- text begins at 11.602: it does not say the RB RePh has no such step
    local why
    if C.pb() then why = "the Pegasus Bridge RePh has none"
    elseif S.RB_NOT_IN_TEXT[id] then
      -- refused under the RB case that has it (as our text cites it), not PB's
      local rb = S.RB_NOT_IN_TEXT[id]
      case = rb.case
      why = "in Red Barricades this belongs to RePh steps 11.619-11.625, which our text does not give (" .. rb.what
        .. "): the players play them in the last step (" .. S.rule("scenario_generation") .. ")"
    elseif id == "melee" then why = "our Red Barricades text (11.602-11.618) has no such step"
    else why = "the Red Barricades RePh has none" end
    return C.refuse(case, string.format("%s (%s) is a %s RePh step: %s", S.by_id[id].name, S.by_id[id].rule,
      C.pb() and "Red Barricades" or "Pegasus Bridge", why))
  end
  if not s or s.id ~= id then
    return C.refuse(case, "this is done in RePh step " .. S.rule(id) .. " (" .. S.name(id) .. "), not now")
  end
  return nil
end

-- the steps played: the module's, and only the "!" ones when preparing a CG Initial Scenario [9.6]
local function skip_other_module()
  local initial = kessel.game.var("initial_reph") == true
  while not kessel.game.finished() and S.in_refit() do
    local s = S.current()
    if s and S.in_module(s) and (not initial or s.initial) then return end
    kessel.emit.advance()
  end
end
S.skip_other_module = skip_other_module

-- a side the module in play does not have (the Russians in PB, the British in RB) takes no action
function S.outsider(a, case)
  if a and a.side and a.side ~= C.sides()[1] and a.side ~= C.sides()[2] then
    return C.refuse(case, "the " .. a.side .. " take no part in the " .. C.module():upper() .. " campaign game")
  end
end

kessel.action{
  kind = "end_step", rule = "9.6", description = "resolve the current RePh step and go on to the next",
  validate = function(a)
    local case = C.pb() and "9.6" or "11.6"
    local outsider = S.outsider(a, case)
    if outsider then return outsider end
    if kessel.game.finished() then return C.refuse(case, "the Refit Phase is over") end
    local wrong = S.wrong_mode(case)
    if wrong then return wrong end
    if not S.in_refit() then return C.refuse(case, "the Refit Phase has not begun (start_refit)") end
    local s = S.current()
    local b = s and S.blockers[s.id]
    if b then return b(a) end
  end,
  apply = function()
    local s = S.current()
    if s and S.in_module(s) then
      C.record("step", S.rule(s.id), { step = s.id, name = S.name(s.id), module = C.module() })
      local initial = kessel.game.var("initial_reph") == true
      local fn = S.resolvers[s.id]
      if fn then fn() end
      -- the "!" steps done, the CG Initial Scenario is set up and played: back to the main
      -- sequence at this turn's first step [9.6] (advancing went on to the next turn, or ended
      -- the game before the scenario was played)
      if initial and s.id == "commencement" then
        kessel.emit.mode(nil)
        C.note("9.6", "the steps marked ! are completed: the CG Initial Scenario is set up and played")
        return
      end
      -- the last CG Date's RePh ends the game where it stands [9.6] [9.6121]
      if kessel.game.var("cg_over") then
        kessel.emit.clock(kessel.game.turn(), S.index(s.id), true)
        return
      end
    end
    kessel.emit.advance()
    skip_other_module()
  end,
  enumerate = function()
    if kessel.game.finished() or not S.in_refit() then return {} end
    local s = S.current()
    local b = s and S.blockers[s.id]
    if b and b({ kind = "end_step" }) then return {} end
    return { { kind = "end_step" } }
  end,
}

-- The records a scenario gives its RePh, checked for what a GM could mistype: a side the module
-- does not have (`soviet`, the British in RB), a Booby Trap Level, a weather or EC that the tables
-- do not know. Returns the problems as messages citing the case (the `check` hook makes each a
-- load error at `kessel check`, at the line of the scenario variable it is about:
-- S.located_record_problems).
local SIDE_KEYED = { cvp_lost = "9.6162", cvp_amassed = "11.6112", cpp = "9.616", fpp = "9.619", san = "9.6122",
  elr = "11.617", attack_chit = "11.616", idle_days = "11.617", scenarios_since_idle = "11.617",
  bought_previous_day = "11.617", win_loss = "11.6142", leader_hardening_drm = "11.6113", balance_drm = "11.616",
  entry_areas = "9.6052", entry_order = "9.613", reph_cvp_lost = "11.616", elr_scenarios = "11.617",
  promoted = "11.6114" }
-- the records kept one a side under the side's name (`fortifications_german`), each secret to its
-- side: a name with a side the CG does not have (RB's `fortifications_british`) is read by no rule
local SIDE_NAMED = { cpp_ = "11.616", fpp_ = "9.619", fortifications_ = "9.619" }
-- the side-keyed records whose values are numbers (a count, a level, a DRM) or flags
local NUMBER_PER_SIDE = { cvp_lost = true, cvp_amassed = true, cpp = true, fpp = true, san = true, elr = true,
  idle_days = true, scenarios_since_idle = true, leader_hardening_drm = true, balance_drm = true, reph_cvp_lost = true,
  elr_scenarios = true }
local FLAG_PER_SIDE = { attack_chit = true }
-- the records that count something (points, a level, days, scenarios): never below zero (a typed
-- `-20` passed the check and turned 9.6162's comparison and the CPP sums upside down)
local COUNT_PER_SIDE = { cvp_lost = true, cvp_amassed = true, cpp = true, fpp = true, san = true, elr = true,
  idle_days = true, scenarios_since_idle = true }
-- the records only RB's steps read, with their case
S.RB_ONLY = { scenario_winner = "11.6031", initial_scenario = "11.617", cvp_amassed = "11.6112", elr = "11.617",
  booby_trap = "11.6123", weather = "11.618", ec = "11.618", isolated_areas = "11.606", attack_chit = "11.616",
  idle_days = "11.617", scenarios_since_idle = "11.617", bought_previous_day = "11.617", win_loss = "11.6142",
  leader_hardening_drm = "11.6113", friendly_distance = "11.6063", balance_drm = "11.616",
  no_mans_land = "11.6051", massacre = "11.608" }
-- The records that belong to one CG scenario and the RePh after it, with the case that makes them
-- so. A campaign that carries them (`[carry] vars = "all"`, or one named) would hand the next game
-- the last one's: its Setup Areas [9.605: they hold "until the start of the next CG scenario"],
-- Perimeter record [11.605] [11.6051] [11.606], Control at the clearing [11.607], CVP [9.6162: the
-- prior CG scenario only] [11.616: the previous CG Day], winner [11.6031], Melees [9.6011] and the
-- CG Date it names as the next [9.6121] (spent, `false`, once the date has moved on to it), and
-- what an RB RePh reads of "the previous CG Day", which an Idle Day writes for its own: the Attack
-- chits [11.616] [11.617], the Coys and Pltns bought, the Idle Days since the last-completed
-- scenario, the scenarios since the last Idle Day and whether it was an Initial Scenario [11.617]
-- (carried, they stood for the next scenario's Day: an ELR DR after it took the old Idle Day's
-- -2, its Attack chit and purchases, and counted no scenario completed). As
-- game variables they would also hide the next scenario's own `[vars]` of those names, which the
-- rules read only when the game has none (`C.var`); so a CG scenario's CVP were added to the last
-- one's, and its players' Isolated Areas never read.
S.PER_SCENARIO = { next_date = "9.6121", setup_areas = "9.605", isolated_areas = "11.606", no_mans_land = "11.6051",
  control_at_clearing = "11.607", cvp_lost = "9.6162", reph_cvp_lost = "11.616", scenario_winner = "11.6031",
  victory_determined = "11.6031", scenario_ended = "9.603", melees = "9.6011", harden_order = "11.6112",
  attack_chit = "11.616", bought_previous_day = "11.617", idle_days = "11.617", scenarios_since_idle = "11.617",
  initial_scenario = "11.617" }

-- a whole number, as points, counts, levels and DRM are
local function whole(x) return type(x) == "number" and x == x and x == math.floor(x) and math.abs(x) < 1e6 end
-- a value as a message shows it: a table is "a table" (not its address)
local function shown(v) if type(v) == "table" then return "a table" end return tostring(v) end
function S.located_record_problems()
  local out = {}
  -- a per-scenario record a campaign carried from the last game is dropped by the setup hook, which
  -- runs after this check: the record read in play is then the scenario's own, so that is the one
  -- checked (the carried one was checked in its own game)
  local function record_of(key)
    if S.PER_SCENARIO[key] then
      local own = kessel.scenario.var(key)
      if own ~= nil then return own end
    end
    return C.var(key)
  end
  -- a problem points at the scenario variable that holds the value (`var =`: its line of [vars])
  local function put(var, message) out[#out + 1] = { var = var, message = message } end
  local sides = C.sides()
  local function is_side(x) return x == sides[1] or x == sides[2] end
  local names = table.concat(sides, ", ")
  for _, key in ipairs(C.sorted_keys(SIDE_KEYED)) do
    local t = record_of(key)
    if type(t) == "table" then
      for _, k in ipairs(C.sorted_keys(t)) do
        if type(k) ~= "string" then
          put(key, string.format("[%s] scenario var `%s` is a list: it is given per side (%s = ...)", SIDE_KEYED[key], key, sides[1]))
          break
        elseif not is_side(k) then
          put(key, string.format("[%s] scenario var `%s` names `%s`, not a side of the %s campaign game (%s)",
            SIDE_KEYED[key], key, k, C.module():upper(), names))
        elseif NUMBER_PER_SIDE[key] and (type(t[k]) ~= "number" or t[k] ~= t[k]) then
          put(key, string.format("[%s] scenario var `%s`: the %s value is `%s`, not a number", SIDE_KEYED[key], key, shown(k), shown(t[k])))
        elseif NUMBER_PER_SIDE[key] and key ~= "fpp" and (t[k] ~= math.floor(t[k]) or math.abs(t[k]) > 1e6) then
          -- points, levels, counts and DRM are whole numbers (FPP may hold a half: 1.5 per mine factor)
          put(key, string.format("[%s] scenario var `%s`: the %s value %s is not a whole number", SIDE_KEYED[key], key, shown(k), shown(t[k])))
        elseif COUNT_PER_SIDE[key] and t[k] < 0 then
          put(key, string.format("[%s] scenario var `%s`: the %s value %s is below zero (it counts)", SIDE_KEYED[key], key, shown(k), shown(t[k])))
        elseif key == "elr" and t[k] > 5 then
          -- the ELR scale runs 0 to 5 (11.617 gains to 4 at most; 8-3-8s always have 5)
          put(key, string.format("[%s] scenario var `%s`: the %s value %s is above 5, the highest ELR", SIDE_KEYED[key], key, shown(k), shown(t[k])))
        elseif key == "leader_hardening_drm" and (t[k] > 0 or t[k] < -2) then
          -- the winner's DRM, which he may take as -2, -1 or 0 [11.6113]
          put(key, string.format("[%s] scenario var `%s`: the %s value %s is not 0, -1 or -2", SIDE_KEYED[key], key, shown(k), shown(t[k])))
        elseif FLAG_PER_SIDE[key] and type(t[k]) ~= "boolean" then
          put(key, string.format("[%s] scenario var `%s`: the %s value is `%s`, not true or false", SIDE_KEYED[key], key, shown(k), shown(t[k])))
        end
      end
    end
  end
  -- [9.619] [11.616] a record named for a side (`fortifications_<side>`, `cpp_<side>`,
  -- `fpp_<side>`) of a side the CG does not have, a misspelt one (`fpp_soviet`) among them: the
  -- scenario's and the game's (a campaign's carried ones)
  local scenario_keys = kessel.scenario.var_names()
  for _, prefix in ipairs(C.sorted_keys(SIDE_NAMED)) do
    local names_seen = {}
    for _, k in ipairs(scenario_keys) do
      if k:sub(1, #prefix) == prefix then names_seen[k] = true end
    end
    for _, n in ipairs(kessel.game.var_names(prefix)) do names_seen[n] = true end
    for _, key in ipairs(C.sorted_keys(names_seen)) do
      local side = key:sub(#prefix + 1)
      if not is_side(side) then
        put(key, string.format("[%s] scenario var `%s` is the record of `%s`, not a side of the %s campaign game (%s): no rule reads it",
          SIDE_NAMED[prefix], key, side, C.module():upper(), names))
      end
    end
  end
  -- the per-side tables of tables: what each side's entry must hold
  local function per_side(key, case, check)
    local t = record_of(key)
    if type(t) ~= "table" then return end
    for _, side in ipairs(sides) do
      local v = t[side]
      local why = v ~= nil and check(v)
      if why then put(key, string.format("[%s] scenario var `%s`: the %s entry %s", case, key, side, why)) end
    end
  end
  local function counts(fields)
    return function(v)
      if type(v) ~= "table" then return "is not a table of " .. table.concat(fields, ", ") end
      for _, f in ipairs(fields) do
        if v[f] ~= nil and type(v[f]) ~= "number" then return "has " .. f .. " `" .. shown(v[f]) .. "`, not a number" end
      end
      -- a field the case does not count (a misspelling: `afv = 2`) would be read as 0: refused,
      -- naming the fields there are
      local known = {}
      for _, f in ipairs(fields) do known[f] = true end
      local odd = {}
      for k in pairs(v) do if not known[k] then odd[#odd + 1] = shown(k) end end
      table.sort(odd)
      if #odd > 0 then return "has `" .. odd[1] .. "`, which is not counted here (the fields: " .. table.concat(fields, ", ") .. ")" end
    end
  end
  per_side("entry_areas", "9.6052", function(v)
    if type(v) ~= "table" then return "is not a table of Entry Area names (A7 = true)" end
    for k, x in pairs(v) do
      if type(k) ~= "string" or type(x) ~= "boolean" then return "names `" .. shown(k) .. "` = `" .. shown(x) .. "`: give Entry Area names set to true or false" end
    end
  end)
  per_side("entry_order", "9.613", function(v)
    if type(v) ~= "table" then return "is not a list of Entry Area names" end
    for _, x in pairs(v) do if type(x) ~= "string" then return "holds `" .. shown(x) .. "`, not an Entry Area name" end end
  end)
  per_side("win_loss", "11.6142", counts({ "wins", "losses", "completed" }))
  per_side("bought_previous_day", "11.617", counts({ "elite_coys", "first_line", "afv_pltns" }))
  local iso = record_of("isolated_areas")
  if type(iso) == "table" then
    -- [11.606] an Isolated Area is the hexes the players' Perimeters enclose: its type is A-D (the
    -- rules read it again from the units in it at 11.605, and record it), a hex is in one area only
    -- (one listed in two was Isolated in the first area, its Escape read another), an area has hexes;
    -- a field nothing reads (a misspelt `hexs`) is refused
    -- [11.6057] a non-ground-level Pocket names its Location levels (`levels`, whole numbers from
    -- -1, a Cellar, none twice): a hex's ground-level area and its upper-level Pocket share it, a
    -- Location is in one Isolated Area
    local seen, seen_level = {}, {}
    for i, area in ipairs(iso) do
      local hexes = type(area) == "table" and area.hexes
      local levels = type(area) == "table" and area.levels
      local levels_ok = levels == nil
      if levels ~= nil then
        if type(levels) ~= "table" or #levels == 0 and next(levels) == nil then
          put("isolated_areas", string.format("[11.6057] isolated_areas[%d] gives no level in `levels` (a non-ground-level Pocket lists its Location levels: levels = { 1, 2 })", i))
        else
          local bad
          local twice = {}
          for k, l in pairs(levels) do
            if type(k) ~= "number" or not whole(l) or l < -1 or twice[l] then bad = l else twice[l] = true end
          end
          if bad ~= nil or #levels == 0 then
            put("isolated_areas", string.format("[11.6057] isolated_areas[%d] gives levels `%s`: a list of Location levels, whole numbers from -1 (a Cellar), each once", i, shown(bad)))
          else
            levels_ok = true
          end
        end
      end
      if type(hexes) ~= "table" then
        put("isolated_areas", string.format("[11.606] isolated_areas[%d] gives no `hexes` list", i))
      else
        if #hexes == 0 and area.released == nil then put("isolated_areas", string.format("[11.606] isolated_areas[%d] lists no hex", i)) end
        for _, h in ipairs(hexes) do
          if type(h) ~= "string" or not kessel.hex.valid(h) then
            put("isolated_areas", string.format("[11.606] isolated_areas[%d]: `%s` is not a hex of this map", i, shown(h)))
          elseif levels ~= nil then
            for _, l in ipairs(levels_ok and levels or {}) do
              local key = h .. "@" .. l
              if seen_level[key] then
                put("isolated_areas", string.format("[11.6057] isolated_areas[%d]: %s level %d is already in isolated_areas[%d] (a Location is in one Isolated Area)", i, h, l, seen_level[key]))
              else
                seen_level[key] = i
              end
            end
          elseif seen[h] then
            put("isolated_areas", string.format("[11.606] isolated_areas[%d]: %s is already in isolated_areas[%d] (a hex is in one Isolated Area)", i, h, seen[h]))
          else
            seen[h] = i
          end
        end
        for _, k in ipairs(C.sorted_keys(area)) do
          if k == "type" then
            if area.type ~= "A" and area.type ~= "B" and area.type ~= "C" and area.type ~= "D" then
              put("isolated_areas", string.format("[11.606] isolated_areas[%d] gives type `%s`: an Isolated Area is of type A, B, C or D (11.605 reads it again from the units in the area; its hexes are enough)", i, shown(area.type)))
            end
          elseif k == "pocket" then
            if type(area.pocket) ~= "boolean" then
              put("isolated_areas", string.format("[11.6062] isolated_areas[%d] gives pocket `%s`: true (a Pocket, the default) or false (an Isolated Area that is no Pocket)", i, shown(area.pocket)))
            end
          elseif k == "released" then
            if not is_side(area.released) then
              put("isolated_areas", string.format("[11.6062] isolated_areas[%d] gives released `%s`: the side a released Pocket passed to (%s)", i, shown(area.released), names))
            end
          elseif k ~= "hexes" and k ~= "released_hexes" and k ~= "levels" then
            put("isolated_areas", string.format("[11.606] isolated_areas[%d] has `%s`, which is not read (an Isolated Area gives its hexes, and may say pocket = false and its levels)", i, shown(k)))
          end
        end
      end
    end
  end
  -- [11.6051] the players' No Man's Land: hexes of this map, each once, none in a listed Isolated
  -- Area (those are inside both Perimeters; a type A or B one becomes No Man's Land by 11.6062)
  local nml = record_of("no_mans_land")
  -- the listed Isolated Area (of the record checked above) holding a hex's ground-level Location
  local function ground_area(h)
    local areas = type(iso) == "table" and iso or {}
    for i in ipairs(areas) do if C.rb_area_holds(areas, i, h, 0) then return i end end
    return nil
  end
  if nml ~= nil then
    if type(nml) ~= "table" then
      put("no_mans_land", string.format("[11.6051] no_mans_land is `%s`: a list of hexes", shown(nml)))
    else
      local on_map, seen = {}, {}
      for _, h in ipairs(kessel.map.hexes()) do on_map[h] = true end
      for _, h in ipairs(nml) do
        if type(h) ~= "string" or not on_map[h] then
          put("no_mans_land", string.format("[11.6051] no_mans_land: `%s` is not a hex of this map", shown(h)))
        elseif seen[h] then
          put("no_mans_land", string.format("[11.6051] no_mans_land names %s twice", h))
        elseif ground_area(h) then
          put("no_mans_land", string.format("[11.6051] no_mans_land: %s is in isolated_areas[%d], inside both Perimeters (a type A or B one becomes No Man's Land by 11.6062)", h, ground_area(h)))
        end
        if type(h) == "string" then seen[h] = true end
      end
    end
  end
  -- [9.616] only the German has CPP in PB (the British receive the 9.615 reinforcements)
  local cpp = C.var("cpp")
  if C.pb() and type(cpp) == "table" and cpp.british ~= nil then
    put("cpp", string.format("[9.616] scenario var `cpp` gives the british %s: in PB only the German has CPP (cpp = { german = ... })", shown(cpp.british)))
  end
  -- [9.6052] an Eligible Entry Area is an area of the map (kessel.map.area), else no unit could
  -- enter or Escape there; [9.61741] an Entry Arrow's CPP cost is +0 to +6, and (when the scenario
  -- gives its costs) each German Eligible Entry Area has one, else no RG can be bought to enter there
  local ea = C.var("entry_areas")
  if type(ea) == "table" then
    for _, side in ipairs(sides) do
      if type(ea[side]) == "table" then
        for _, name in ipairs(C.sorted_keys(ea[side])) do
          if type(name) == "string" and kessel.map.area(name) == nil then
            put("entry_areas", string.format("[9.6052] entry_areas: the %s Entry Area `%s` is no area of this map", side, name))
          end
        end
      end
    end
  end
  local ec = C.var("entry_costs")
  if type(ec) == "table" then
    for _, k in ipairs(C.sorted_keys(ec)) do
      local x = ec[k]
      if not whole(x) or x < 0 or x > 6 then
        put("entry_costs", string.format("[9.61741] entry_costs: the cost of Entry Arrow `%s` is `%s`, not a CPP cost modifier (+0 to +6)", shown(k), shown(x)))
      end
    end
    local german = type(ea) == "table" and type(ea.german) == "table" and ea.german or {}
    if C.pb() and next(ec) ~= nil then
      for _, name in ipairs(C.sorted_keys(german)) do
        if german[name] == true and ec[name] == nil then
          put("entry_costs", string.format("[9.61741] entry_costs gives no cost for the German Entry Area `%s`: no RG could be bought to enter there", shown(name)))
        end
      end
    end
  end
  -- [9.62023] who sets up and moves first: sides of the campaign game
  for _, key in ipairs({ "sets_up_first", "moves_first" }) do
    local x = C.var(key)
    if x ~= nil and not is_side(x) then
      put(key, string.format("[9.62023] %s `%s` is not a side of the %s campaign game (%s)", key, shown(x), C.module():upper(), names))
    end
  end
  -- [9.6152] the PB CG played: I, II or III ("2" would not drop CG II's Night II-Dawn reinforcements)
  local cg = C.var("cg")
  if C.pb() and cg ~= nil and cg ~= "I" and cg ~= "II" and cg ~= "III" then
    put("cg", string.format("[9.6152] cg `%s` is not a PB campaign game (I, II or III)", shown(cg)))
  end
  -- [9.619] the Fortifications a side bought and has not set up (`fortifications_<side>`, carried
  -- from RePh to scenario): a list of purchases, each an item of the purchase table, a count, its
  -- CG Date, the side's own
  local dates = {}
  for _, d in ipairs(kessel.game.constant(C.pb() and "pb_dates" or "rb_days")) do dates[d] = true end
  -- read when a scenario is checked, once every rule is loaded (purchase.lua requires this file)
  local P = require("rules.purchase")
  for _, side in ipairs(sides) do
    local key = "fortifications_" .. side
    local list = C.var(key)
    if list ~= nil and type(list) ~= "table" then
      put(key, string.format("[9.619] %s is `%s`, not a list of Fortification purchases", key, shown(list)))
    elseif type(list) == "table" then
      for i, f in ipairs(list) do
        local item = type(f) == "table" and f.item or nil
        if type(f) ~= "table" then
          put(key, string.format("[9.619] %s[%d] is not a Fortification purchase", key, i))
        elseif P.item_problem(item) then
          put(key, string.format("[9.619] %s[%d]: %s", key, i, P.item_problem(item)))
        elseif not (type(item) == "string" and pcall(kessel.tables.cell, "fortification_costs", item, "cost")) then
          put(key, string.format("[9.619] %s[%d]: no Fortification `%s` on the purchase table", key, i, shown(item)))
        elseif f.count ~= nil and (not whole(f.count) or f.count < 1) then
          put(key, string.format("[9.619] %s[%d] (%s): count `%s` is not a whole number above 0", key, i, item, shown(f.count)))
        elseif f.side ~= nil and f.side ~= side then
          put(key, string.format("[9.619] %s[%d] (%s) is the %s's purchase, in the %s's record", key, i, item, shown(f.side), side))
        elseif f.date ~= nil and not dates[f.date] then
          put(key, string.format("[9.619] %s[%d] (%s): `%s` is no CG Date", key, i, item, shown(f.date)))
        elseif f.hex ~= nil and (type(f.hex) ~= "string" or not kessel.hex.valid(f.hex)) then
          put(key, string.format("[9.619] %s[%d] (%s): `%s` is not a hex of this map", key, i, item, shown(f.hex)))
        end
      end
    end
  end
  -- [9.601] the ATTACKER of RePh Melee: a side of the campaign game
  local attacker = C.var("attacker")
  if attacker ~= nil and not is_side(attacker) then
    put("attacker", string.format("[9.601] attacker `%s` is not a side of the %s campaign game (%s): it names the side that moved first in the scenario",
      shown(attacker), C.module():upper(), names))
  end
  -- the CG Dates a scenario names are the module's ([9.6121] PB dates night_i ... dusk; [11.6121] RB
  -- days 17oct ... 15nov): "Day I" or "day1" would leave the CG Date unchanged, with no CPP Base #
  local list = kessel.game.constant(C.pb() and "pb_dates" or "rb_days")
  local listed = {}
  for _, d in ipairs(list) do listed[d] = true end
  for _, key in ipairs({ "date", "next_date", "previous_date", "last_date" }) do
    local v = record_of(key)
    -- a carried next_date of `false` is a spent one [9.6121], dropped by the setup hook
    if v ~= nil and v ~= false and not listed[v] then
      -- `date` left out reads the declared default, PB's Dawn: an RB scenario must name its Day
      local left_out = key == "date" and v == "dawn" and not C.pb()
        and " (a scenario that gives no date reads the default, PB's dawn: an RB scenario names the CG Day just played, date = \"18oct\")" or ""
      put(key, string.format("[%s] %s `%s` is not a CG Date of the %s campaign game (%s)%s", C.pb() and "9.6121" or "11.6121",
        key, shown(v), C.module():upper(), C.pb() and table.concat(list, ", ") or (list[1] .. ", " .. list[2] .. " ... " .. list[#list]), left_out))
    end
  end
  -- [9.6121] [11.6121] each passage of 9.612/11.612 starts the next CG Date: a `next_date` other
  -- than the one after `date` would skip CG Dates (their reinforcements and CPP Base #, their CG
  -- Days' replenishment and ELR DR) or go back; an RB CG Day with no scenario is an Idle Day, a
  -- pass of 11.612-.623 of its own (`idle_day`). A `last_date` before `date` never ends the CG.
  local index = {}
  for i, d in ipairs(list) do index[d] = i end
  local date, nxt, last = C.var("date"), record_of("next_date"), C.var("last_date")
  local case = C.pb() and "9.6121" or "11.6121"
  if index[date] and index[nxt] and index[nxt] ~= index[date] + 1 then
    put("next_date", string.format("[%s] next_date `%s` is not the CG Date after `%s` (%s): each passage of %s starts the next CG Date%s",
      case, nxt, date, shown(list[index[date] + 1] or "none: it is the last"), C.pb() and "9.612" or "11.612",
      C.pb() and "" or " (a CG Day with no scenario is an Idle Day: idle_day in the RePh's last step)"))
  end
  if index[date] and index[last] and index[last] < index[date] then
    put("last_date", string.format("[%s] last_date `%s` comes before the scenario's date `%s`: the CG would never end", case, last, date))
  end
  -- [9.6178] the RG Purchase Record a scenario carries (an Initial Scenario's OB lists its RG
  -- there, `given = true`): each line names an RG of the chart and the CG Date it is for (a line
  -- with no date was never resolved in 9.618), its strength is "F" or "D" [9.6178] ("X" was read as
  -- Full), and the RG whose strength the Initial OB specifies (I1-I3, note e) give it — I2, a
  -- PzPionier Pltn of "4/-", has no Depleted strength [9.6181]
  local rgr = C.pb() and C.var("rg_record") or nil
  if type(rgr) == "table" then
    local ok_table = pcall(kessel.tables.cell, "rg_chart", "I1", "name")
    for i, r in ipairs(rgr) do
      if type(r) ~= "table" then
        put("rg_record", string.format("[9.6178] rg_record[%d] is not an RG Purchase Record line", i))
      else
        local on_chart = ok_table and type(r.id) == "string" and pcall(kessel.tables.cell, "rg_chart", r.id, "name")
        if not on_chart then
          put("rg_record", string.format("[9.6171] rg_record[%d]: no RG `%s` on the RG chart", i, shown(r.id)))
        end
        if not listed[r.date] then
          put("rg_record", string.format("[9.6178] rg_record[%d] (%s): `%s` is no CG Date (the CG Date it was purchased or given on)", i, shown(r.id), shown(r.date)))
        end
        if r.cost ~= nil and (not whole(r.cost) or r.cost < 0) then
          put("rg_record", string.format("[9.6174] rg_record[%d] (%s): cost `%s` is not a CPP cost (a whole number, 0 or more)", i, shown(r.id), shown(r.cost)))
        end
        if r.strength ~= nil and r.strength ~= "F" and r.strength ~= "D" then
          put("rg_record", string.format("[9.6178] rg_record[%d] (%s): strength `%s` is F (Full) or D (Depleted)", i, shown(r.id), shown(r.strength)))
        end
        local by_ob = r.id == "I1" or r.id == "I2" or r.id == "I3"
        if by_ob and r.given and r.strength == nil and r.units == nil then
          put("rg_record", string.format("[9.6181] rg_record[%d] (%s): the Initial OB specifies its strength (note e): give strength F or D", i, r.id))
        end
        if r.id == "I2" and r.strength == "D" then
          put("rg_record", string.format("[9.6181] rg_record[%d]: I2 PzPionier Pltn has no Depleted strength (4/-)", i))
        end
      end
    end
  end
  -- [9.6201] "Neither side 'wins' or 'loses' a CG scenario" in PB: a winner given for one is
  -- refused; and the records of RB steps PB does not have (ELR, weather, Booby Traps, Attack chits,
  -- Idle Days, the Perimeter's Isolated Areas ...) would be read by nothing: refused, naming the
  -- RB case, rather than silently ignored
  if C.pb() then
    for _, key in ipairs(C.sorted_keys(S.RB_ONLY)) do
      local v = record_of(key)
      if v ~= nil and not (type(v) == "table" and next(v) == nil) then
        if key == "scenario_winner" then
          put(key, string.format("[9.6201] scenario_winner `%s`: a PB CG scenario has no winner (neither side wins or loses a CG scenario, only the CG itself)", shown(v)))
        else
          put(key, string.format("[9.6] `%s` is a Red Barricades record (%s): the PB RePh has no such step", key, S.RB_ONLY[key]))
        end
      end
    end
  end
  -- [11.619] [11.6201] our RB text stops at 11.618: the RG chart and the RG Strength DR are the
  -- players', played in the RePh's last step, so nothing reads an RB RG chart or Strength DRM.
  -- They were declared scenario vars that play never read; a scenario giving one is told so.
  for _, key in ipairs({ "rb_rg_chart", "rg_strength_drm" }) do
    if record_of(key) ~= nil then
      put(key, string.format("[%s] `%s`: our Red Barricades text stops at 11.618, so the RG purchase and Strength DR (11.619-11.620) are the players' and nothing reads it",
        key == "rb_rg_chart" and "11.619" or "11.6201", key))
    end
  end
  local w = record_of("scenario_winner")
  if w ~= nil and not C.pb() and w ~= "none" and not is_side(w) then
    put("scenario_winner", string.format("[11.6031] scenario_winner `%s` is not a side of the %s campaign game (%s, or none)", shown(w), C.module():upper(), names))
  end
  local bt = C.var("booby_trap")
  if bt ~= nil and bt ~= "A" and bt ~= "B" and bt ~= "C" then
    put("booby_trap", "[11.6123] booby_trap `" .. shown(bt) .. "` is no Booby Trap Level (A, B or C)")
  end
  local known = { weather = { fog_mist = true, overcast = true, clear = true, clear_gusty = true },
    ec = { wet = true, moist = true, moderate = true, dry = true } }
  for _, key in ipairs({ "weather", "ec" }) do
    local v = C.var(key)
    if v ~= nil and not known[key][v] then
      put(key, string.format("[11.618] %s `%s` is not one of %s", key, shown(v), table.concat(C.sorted_keys(known[key]), ", ")))
    end
  end
  return out
end

-- the same problems, as messages only
function S.record_problems()
  local out = {}
  for _, p in ipairs(S.located_record_problems()) do out[#out + 1] = p.message end
  return out
end

-- The units a scenario gives, checked for what an author could mistype: each problem names the
-- unit (so `kessel check` points at its line), the field and the case reading it. Everything the
-- rules themselves write passes (a campaign's second game is checked with the units carried in).
-- Before, a SW `possessed_by` a unit that does not exist, a squad face no chart knows (a Shift or a
-- Replacement then stopped the game with a Lua error), a leader's morale "x", a Location level
-- "up" or a `hidden = "yes"` loaded and were read as something else.
-- unit vars naming another unit, with the case that reads them
local UNIT_REFS = { possessed_by = { "9.607", "11.607" }, mounted_on = { "9.607", "11.607" }, passenger_of = { "9.603", "11.6032" },
  in_vehicle = { "9.603", "11.6032" }, guarded_by = { "9.608", "11.608" }, repossess_by = { "9.607", "11.607" } }
-- the references whose two units share a hex: Equipment and its possessor or vehicle, a passenger
-- and its vehicle, a prisoner and its Guard (a unit is in one place)
local SAME_HEX = { possessed_by = "Equipment is possessed in its possessor's Location", mounted_on = "a vehicular weapon is on its vehicle",
  passenger_of = "a passenger is in its vehicle's hex", in_vehicle = "an armor leader is in his vehicle's hex",
  guarded_by = "a prisoner is in its Guard's Location" }
-- unit vars that are flags (true, or absent), with their case
local UNIT_FLAGS = { hidden = { "9.602", "11.602" }, set_dc = { "9.6073", "11.6073" }, isolated = { "9.6052", "11.606" },
  encircled = { "9.6041", "11.6041" }, broken = { "9.603", "11.6032" }, wounded = { "9.610", "11.610" },
  immobile = { "9.604", "11.604" }, malfunctioned = { "9.614", "11.613" }, disabled = { "9.614", "11.613" },
  heroic = { "9.611", "11.611" }, captured = { "9.607", "11.607" }, abandoned = { "9.607", "11.607" },
  crewless = { "9.607", "11.607" }, must_escape = { "11.6061", "11.6061" }, ammo_shortage = { "11.6061", "11.6061" } }
-- the module's case of a pair { PB, RB }
local function cs(pair) return C.pb() and pair[1] or pair[2] end
-- is `face` the half-squad of a squad on the side's chart?
local function hs_on_chart(side, face)
  for _, d in pairs(kessel.game.constant("squads")[side] or {}) do if d.hs == face then return true end end
  return false
end
function S.unit_problems()
  local out = {}
  local sides = C.sides()
  local function add(u, case, text) out[#out + 1] = { unit = u.id, message = string.format("[%s] unit `%s`: %s", case, u.id, text) } end
  for _, u in ipairs(kessel.units.all()) do
    local v = u.vars or {}
    for _, key in ipairs(C.sorted_keys(UNIT_REFS)) do
      local ref = v[key]
      if ref ~= nil then
        local other = type(ref) == "string" and kessel.units.get(ref) or nil
        if type(ref) ~= "string" then
          add(u, cs(UNIT_REFS[key]), string.format("%s is `%s`: it names a unit by its id", key, shown(ref)))
        elseif ref == u.id then
          add(u, cs(UNIT_REFS[key]), string.format("%s names the unit itself", key))
        elseif not other then
          add(u, cs(UNIT_REFS[key]), string.format("%s names `%s`, no unit of this scenario", key, ref))
        elseif SAME_HEX[key] and u.location == "map" and other.location == "map" and u.hex ~= other.hex then
          add(u, cs(UNIT_REFS[key]), string.format("%s `%s`, which is in %s, not in its hex %s (%s)",
            key, ref, shown(other.hex), shown(u.hex), SAME_HEX[key]))
        end
      end
    end
    -- Equipment held by a unit of the other side is that side's, Captured (`C.change_hands`): one
    -- left the enemy's while he held it escaped with him as its old side's and no Captured dr was
    -- made for it [9.61422] [11.6135] (a prisoner holds nothing: 11.6041 Rearms him first)
    if type(v.possessed_by) == "string" then
      local holder = kessel.units.get(v.possessed_by)
      if holder and holder.side ~= u.side and not holder.vars.prisoner_of then
        add(u, cs({ "9.6071", "11.6072" }), string.format("possessed_by `%s`, a %s unit: Equipment the enemy holds is his, Captured (side = \"%s\", captured = true, original_side = \"%s\")",
          holder.id, holder.side, holder.side, u.side))
      end
    end
    -- a prisoner is held by the other side (`prisoner_of` names that side)
    if v.prisoner_of ~= nil and (v.prisoner_of == u.side or (v.prisoner_of ~= sides[1] and v.prisoner_of ~= sides[2])) then
      add(u, cs({ "9.608", "11.608" }), string.format("prisoner_of is `%s`: it names the side holding the prisoner (%s)",
        shown(v.prisoner_of), C.other(u.side)))
    end
    for _, key in ipairs(C.sorted_keys(UNIT_FLAGS)) do
      if v[key] ~= nil and type(v[key]) ~= "boolean" then
        add(u, cs(UNIT_FLAGS[key]), string.format("%s is `%s`, not true or false", key, shown(v[key])))
      end
    end
    if v.set_dc == true and not (u.type == "sw" and u.face and u.face.weapon == "DC") then
      add(u, cs({ "9.6073", "11.6073" }), "set_dc marks a Set DC: a SW whose weapon is \"DC\"")
    end
    if v.reph ~= nil and type(v.reph) ~= "table" then
      add(u, cs({ "9.605", "11.605" }), string.format("reph is `%s`: it is the RePh's own record of the unit ({ status = ..., why = ... }), best left out", shown(v.reph)))
    end
    if v.level ~= nil and (not whole(v.level) or v.level < -1) then
      -- a Location's level: -1 (a cellar, a sewer) up [9.605] [11.6062]
      add(u, cs({ "9.605", "11.6057" }), string.format("level is `%s`, not a Location level (a whole number, -1 or more)", shown(v.level)))
    end
    if u.type == "squad" then
      local face = C.squad_face(u)
      if type(v.squad_face) ~= "nil" and type(v.squad_face) ~= "string" then
        add(u, cs({ "9.611", "11.611" }), string.format("squad_face is `%s`, not a squad face such as \"4-6-7\"", shown(v.squad_face)))
      elseif u.step == 1 and type(v.squad_face) == "string" and C.squad_data(u.side, v.squad_face) and u.face
          and C.face_label(u) ~= C.squad_data(u.side, v.squad_face).hs then
        -- a half-squad's face is its squad's half-squad [9.611] (the chart recombines them)
        add(u, cs({ "9.611", "11.611" }), string.format("the half-squad face `%s` is not the %s %s's half-squad (%s)",
          C.face_label(u), u.side, v.squad_face, C.squad_data(u.side, v.squad_face).hs))
      elseif u.step == 1 and v.squad_face == nil and u.face and not hs_on_chart(u.side, C.face_label(u)) then
        local known = {}
        for _, d in pairs(kessel.game.constant("squads")[u.side] or {}) do known[d.hs] = true end
        add(u, cs({ "9.611", "11.611" }), string.format("the %s half-squad `%s` is the half of no squad on the chart (%s; or give squad_face)",
          u.side, C.face_label(u), table.concat(C.sorted_keys(known), ", ")))
      elseif face and not C.squad_data(u.side, face) and not C.squad_data(v.original_side, face) then
        -- the squads chart (Replacement, Battle Hardening, half-squads) [9.606] [9.611] [11.611]
        local known = C.sorted_keys(kessel.game.constant("squads")[u.side] or {})
        add(u, cs({ "9.611", "11.611" }), string.format("the %s squad `%s` is on no chart of the ruleset (Replacement, Battle Hardening and half-squads read it): %s",
          u.side, face, table.concat(known, ", ")))
      end
    elseif u.type == "leader" or u.type == "armor_leader" then
      local f = u.face or {}
      if not whole(f.morale) or f.morale < 1 or f.morale > 10 then
        add(u, cs({ "9.611", "11.611" }), string.format("the leader's morale is `%s`, not a morale level (1 to 10)", shown(f.morale)))
      elseif f.drm ~= nil and (not whole(f.drm) or f.drm < -3 or f.drm > 1) then
        add(u, cs({ "9.611", "11.611" }), string.format("the leader's drm is `%s`, not a leadership DRM (-3 to +1)", shown(f.drm)))
      end
    elseif u.type == "sw" then
      local f = u.face or {}
      if type(f.weapon) ~= "string" or f.weapon == "" then
        add(u, cs({ "9.614", "11.613" }), string.format("the SW names no weapon (weapon = \"LMG\"; it is `%s`)", shown(f.weapon)))
      elseif f.pp ~= nil and (type(f.pp) ~= "number" or f.pp ~= f.pp or f.pp < 0) then
        add(u, cs({ "9.606", "11.6063" }), string.format("the %s's pp is `%s`, not a Portage cost (0 or more)", f.weapon, shown(f.pp)))
      elseif f.repair ~= nil and (not whole(f.repair) or f.repair < 0 or f.repair > 6) then
        add(u, cs({ "9.614", "11.613" }), string.format("the %s's repair is `%s`, not a Repair number (0 to 6)", f.weapon, shown(f.repair)))
      elseif f.kind ~= nil and f.kind ~= "mg" and f.kind ~= "atr" then
        add(u, cs({ "9.614", "11.6132" }), string.format("the %s's kind is `%s`: a SW's kind is \"mg\" or \"atr\" (the kinds a rule reads)", f.weapon, shown(f.kind)))
      end
    elseif u.type == "gun" then
      local f = u.face or {}
      if type(f.weapon) ~= "string" or f.weapon == "" then
        add(u, cs({ "9.614", "11.613" }), string.format("the Gun names no weapon (weapon = \"57L AT\"; it is `%s`)", shown(f.weapon)))
      end
    elseif u.type == "vehicle" then
      local f = u.face or {}
      if type(f.name) ~= "string" or f.name == "" then
        add(u, cs({ "9.614", "11.613" }), string.format("the vehicle names no vehicle type (name = \"PzKpfw IVH\"; it is `%s`)", shown(f.name)))
      end
    end
  end
  return out
end

-- The markers a scenario gives: a Control marker names the side Controlling its Location, one to a
-- Location [9.605] [11.6052]; a minefield's strength is a whole number above 0 [9.6042] [11.6042];
-- a Fortification has an owner [9.6073] [11.6073]; a marker's `hidden` is true or false and its `level` a
-- Location level. A problem names the marker (kind, hex, id) and points at it (`marker =`: the
-- check hook's error names the line of its [[markers]] table).
function S.marker_problems()
  local out = {}
  local sides = C.sides()
  local function add(m, case, text)
    out[#out + 1] = { marker = m.id, message = string.format("[%s] marker %s (%s in %s): %s", case, shown(m.id), shown(m.kind), shown(m.hex), text) }
  end
  local controls = {}
  for _, m in ipairs(kessel.markers.all()) do
    local value = m.value
    local t = type(value) == "table" and value or {}
    if value ~= nil and type(value) ~= "table" and (m.kind == "control" or C.is_fortification(m)) then
      add(m, m.kind == "control" and cs({ "9.605", "11.6052" }) or cs({ "9.6073", "11.6073" }), string.format("its value is `%s`, not a table of fields (value = { strength = 6 })", shown(value)))
    end
    if t.hidden ~= nil and type(t.hidden) ~= "boolean" then
      add(m, cs({ "9.6073", "11.6073" }), string.format("hidden is `%s`, not true or false", shown(t.hidden)))
    end
    if t.level ~= nil and (not whole(t.level) or t.level < -1) then
      add(m, cs({ "9.605", "11.6057" }), string.format("level is `%s`, not a Location level (a whole number, -1 or more)", shown(t.level)))
    end
    if m.kind == "control" then
      if m.side == nil then
        add(m, cs({ "9.605", "11.6052" }), string.format("a Control marker names the side that Controls the Location (side = \"%s\" or \"%s\")", sides[1], sides[2]))
      end
      if m.hex then
        local key = m.hex .. "/" .. shown(whole(t.level) and t.level or 0)
        if controls[key] then
          add(m, cs({ "9.605", "11.6052" }), string.format("a second Control marker in the Location (marker %s is there): one side Controls it", shown(controls[key])))
        else
          controls[key] = m.id
        end
      end
    elseif C.is_fortification(m) then
      if m.side == nil then
        add(m, cs({ "9.6073", "11.6073" }), string.format("a Fortification names its owner (side = \"%s\" or \"%s\")", sides[1], sides[2]))
      end
      if (m.kind == "ap_mine" or m.kind == "at_mine") and t.strength ~= nil and (not whole(t.strength) or t.strength < 1) then
        add(m, cs({ "9.6042", "11.6042" }), string.format("the minefield's strength is `%s`, not a whole number above 0", shown(t.strength)))
      end
      -- a Location holds one minefield of each type and side, its factors one strength (the
      -- 9.62022 set-up adds factors laid there to it: `M.minefield_at`)
      if (m.kind == "ap_mine" or m.kind == "at_mine") and m.hex and m.other == nil then
        local key = m.kind .. "/" .. m.hex .. "/" .. shown(m.side)
        if controls[key] then
          add(m, cs({ "9.6073", "11.6073" }), string.format("a second %s minefield of the %s in %s (marker %s is there): a Location holds one minefield of a type, its factors one strength",
            m.kind == "ap_mine" and "A-P" or "A-T", shown(m.side), m.hex, shown(controls[key])))
        else
          controls[key] = m.id
        end
      end
    end
  end
  return out
end

kessel.on("check", function()
  local out = {}
  for _, p in ipairs(S.located_record_problems()) do out[#out + 1] = p end
  for _, p in ipairs(S.unit_problems()) do out[#out + 1] = p end
  for _, p in ipairs(S.marker_problems()) do out[#out + 1] = p end
  return out
end)

-- a scenario's hidden units (HIP, a hidden Set DC: var `hidden`) and hidden Fortifications (a
-- marker whose value has `hidden`) are hidden from the other side from the start (C.conceal,
-- C.conceal_marker; `kessel.setup` positions run no setup hook)
-- at the start of a game, the last game's per-scenario records a campaign carried are dropped,
-- each named in a note; returns their names
function S.drop_last_games_records()
  local dropped = {}
  for _, key in ipairs(C.sorted_keys(S.PER_SCENARIO)) do
    if kessel.game.var(key) ~= nil then
      kessel.emit.var(key, nil)
      dropped[#dropped + 1] = key
      C.note(S.PER_SCENARIO[key], string.format("`%s` carried from the last game is that CG scenario's record: it is dropped%s",
        key, kessel.scenario.var(key) ~= nil and " (this scenario's own is read)" or ""))
    end
  end
  return dropped
end

-- A scenario may hide a unit or a Fortification the engine's way (`hidden_from`, as any game can)
-- without the ruleset's mark (var `hidden`, value `hidden`), which is what the RePh reads to place
-- still-hidden units on-map [9.602] [11.602] and reveal hidden Fortifications in the enemy's Locations
-- [9.6073] [11.6073]: such a unit or marker is hidden, so it gets the mark. Before, it was never
-- revealed: a HIP squad stayed out of the other side's view through the RePh and a minefield in an
-- enemy-Controlled Location stayed hidden and not Known. Returns the ids marked.
function S.adopt_engine_hiding()
  local marked = {}
  for _, u in ipairs(C.on_map()) do
    if not u.vars.hidden and #kessel.units.hidden_from(u.id) > 0 then
      kessel.emit.unit_var(u.id, "hidden", true)
      C.note(C.pb() and "9.602" or "11.602", u.id .. " is hidden from " .. table.concat(kessel.units.hidden_from(u.id), ", ")
        .. " at the set-up: a hidden unit (var `hidden`)")
      marked[#marked + 1] = u.id
    end
  end
  for _, m in ipairs(kessel.markers.all{ placed = true }) do
    if C.is_fortification(m) and not C.is_hidden_marker(m) and (m.value == nil or type(m.value) == "table")
      and #kessel.markers.hidden_from(m.id) > 0 then
      local v = C.copy(m.value or {})
      v.hidden = true
      kessel.emit.marker_value(m.id, v)
      C.note(C.pb() and "9.6073" or "11.6073", string.format("%s in %s (marker %d) is hidden from %s at the set-up: a hidden Fortification",
        m.kind, tostring(m.hex), m.id, table.concat(kessel.markers.hidden_from(m.id), ", ")))
      marked[#marked + 1] = m.id
    end
  end
  return marked
end

kessel.on("setup", function()
  S.drop_last_games_records()
  S.adopt_engine_hiding()
  for _, u in ipairs(C.on_map()) do if u.vars.hidden then C.conceal(u) end end
  for _, m in ipairs(kessel.markers.all()) do if C.is_hidden_marker(m) then C.conceal_marker(m) end end
end)

-- `start_refit`: a scenario's end switches to the RePh, at the first step of the module in play.
kessel.action{
  kind = "start_refit", rule = "9.6", description = "begin the Refit Phase after a CG scenario",
  validate = function(a)
    local case = C.pb() and "9.6" or "11.6"
    local outsider = S.outsider(a, case)
    if outsider then return outsider end
    if kessel.game.finished() then return C.refuse(case, "the Refit Phase is over") end
    if S.in_refit() then return C.refuse(case, "the Refit Phase is under way") end
    local wrong = S.wrong_mode(case)
    if wrong then return wrong end
    if a.initial ~= nil and type(a.initial) ~= "boolean" then return C.refuse(case, "initial is true or false") end
    if a.initial and not C.pb() then
      return C.refuse("11.6", "our RB text marks no steps for a CG Initial Scenario (11.619-11.625 are not in it)")
    end
    -- the "!" steps are "the only steps to be completed before setting up to play a CG Initial
    -- Scenario" [9.6]: before its first turn begins (turn 1, its first step); a RePh follows the
    -- CG scenario: its last step of its last turn. Before, the "!" steps too waited for the last
    -- turn, so they could only follow the Initial Scenario
    if a.initial then
      if kessel.game.turn() ~= 1 or kessel.game.step().index ~= 0 then
        return C.refuse("9.6", "the steps marked ! are completed before setting up to play a CG Initial Scenario: this one is under way")
      end
    elseif not S.scenario_over() then
      return C.refuse(case, "the CG scenario is still being played (the Refit Phase follows its last turn)")
    end
  end,
  -- `start_refit{ initial = true }`: "Those steps ... preceded by a '!' are the only steps to be
  -- completed before setting up to play a CG Initial Scenario" [9.6]: 9.617-9.620 at the scenario's
  -- own CG Date (no new date, no CPP replenishment: the CG's initial CPP)
  apply = function(a)
    if a.initial then kessel.emit.var("initial_reph", true) end
    -- the Control an earlier RePh's clearing kept [11.607] is not this one's
    if kessel.game.var("control_at_clearing") ~= nil then kessel.emit.var("control_at_clearing", nil) end
    kessel.emit.mode(S.mode())
    skip_other_module()
    C.note(S.rule(S.current().id), "Refit Phase begins (" .. C.module():upper() .. ")")
    if a.initial then
      C.note("9.6", "before a CG Initial Scenario only the steps marked ! are completed: 9.617-9.620, on " .. shown(C.var("date")))
    end
  end,
  enumerate = function()
    if kessel.game.finished() or S.in_refit() or not S.scenario_over() then return {} end
    return { { kind = "start_refit" } }
  end,
}

return S
