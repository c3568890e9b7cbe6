-- What PGG can be asked (kessel.queries): read-only questions answered by the rules modules, so
-- scripts, tests, the editor and `kessel query` read supply, MP, command and odds as data instead
-- of parsing notes. Each query only calls into rules/*: the rules themselves live there.
--
-- `reach` and `odds` follow the editor's contract (docs/lua-api.md, "Queries the editor asks").
local C = require("rules.common")
local S = require("rules.supply")
local M = require("rules.movement")
local K = require("rules.combat")
local L = require("rules.leaders")
local R = require("rules.retreat")
local U = require("rules.untried")
local Z = require("rules.zoc")

local function unit_of(id) return kessel.units.get(id) end

local function sorted_keys(set)
  local out = {}
  for k in pairs(set) do out[#out + 1] = k end
  table.sort(out)
  return out
end

-- Whose decision it is (the engine's `deciding_side` contract, docs/lua-api.md): the editor's
-- computer and hot-seat players and the balance lab ask it. Beyond the `pending` convention, the
-- German's initial air markers [13.2] are placed inside the Soviet Movement Phase of turn 1, once
-- the Soviet set-up [5.1] is over.
kessel.queries.declare{
  id = "deciding_side", rule = "13.2",
  description = "The side whose decision it is now: the side a pending decision names, the German "
    .. "while he places his initial air markers [13.2], else the phasing side",
  params = {},
  fn = function() return C.deciding_side() end,
}

kessel.queries.declare{
  id = "supply", rule = "11",
  description = "Whether a unit is in supply now and why (German [11.1], Soviet [11.2], entering units [14]), "
    .. "and whether it was marked out of supply at the start of this Movement Phase [11.3]",
  params = { unit = { type = "unit", description = "the unit asked about" } },
  fn = function(args)
    local u = unit_of(args.unit)
    if not C.on_map(u) then
      -- supply is judged for units on the map [11], so one off it is not in supply now; one
      -- waiting to enter will be, for the player-turn it enters [14], which the answer says
      -- rather than claims
      local why = string.format("%s is not on the map (%s): supply is judged for units on the map", C.name(u), C.off_map_words(u))
      if u.location == "pending" then why = why .. "; it will be in supply for the player-turn it enters [14]" end
      return { unit = u.id, in_supply = false, rule = "11", marked_out_of_supply = S.is_oos(u), why = why }
    end
    local ok, why, rule = S.in_supply(u)
    return { unit = u.id, in_supply = ok == true, why = why, rule = rule or "11.3",
      marked_out_of_supply = S.is_oos(u) }
  end,
}

kessel.queries.declare{
  id = "mp_left", rule = "6.1",
  description = "A unit's movement allowance this phase (halved out of supply [11.3]), MP spent and MP left [6.1]",
  params = { unit = { type = "unit", description = "the unit asked about" } },
  fn = function(args)
    local u = unit_of(args.unit)
    local why, overruns
    if C.on_map(u) then
      why = M.cannot_move(u)
      -- a unit in an enemy zone of control may not leave it voluntarily [6.22]: all it may still
      -- do is overrun [6.5], and the answer says where
      if not why and Z.enemy_zoc(u.side):has(u.hex) then
        overruns = {}
        local O = require("rules.overrun")
        local first_no   -- why the first enemy hex next to it may not be overrun, to quote
        for _, n in ipairs(kessel.hex.neighbors(u.hex)) do
          if C.enemy_at(n, u.side) then
            local no = O.reasons{ kind = "overrun", units = { u.id }, target = n }
            if #no == 0 then overruns[#overruns + 1] = n else first_no = first_no or no[1] end
          end
        end
        local tail = "nor may it overrun from there now"
        if #overruns > 0 then tail = "it may still overrun [6.5] " .. table.concat(overruns, ", ")
        elseif first_no then tail = string.format("nor may it overrun from there now: %s [%s]", first_no.message, first_no.rule) end
        why = C.reason("6.22", "%s is in %s and may not leave it voluntarily; %s", C.name_at(u), Z.zone_text(u.side, u.hex), tail)
      end
    elseif u.location ~= "pending" then
      -- eliminated or removed: it moves no more [6.1]
      why = C.reason("6.1", "%s is not on the map (%s)", C.name(u), C.off_map_words(u))
    else
      -- waiting to enter: as a unit entering play, on its turn and in its phase [14.3], by a hex
      -- of its area that no enemy unit holds [6.1] (the same check as the move's)
      local R = require("rules.reinforcements")
      local _, due = R.entry_due({ u })
      why = M.cannot_move(u, true) or due
      if not why then
        local first_no = nil
        for _, h in ipairs(kessel.map.area(u.enter_area) or {}) do
          local open, no = R.entry_check({ u }, h)
          if open then first_no = false; break end
          first_no = first_no or no
        end
        if first_no ~= false then why = first_no or select(2, R.entry_check({ u }, nil)) end
      end
    end
    return { unit = u.id, allowance = M.ma(u), spent = M.spent(u), left = M.mp_left(u),
      out_of_supply = S.is_oos(u), may_move = why == nil, overrun_targets = overruns,
      reason = why and { rule = why.rule, message = why.message } or nil }
  end,
}

kessel.queries.declare{
  id = "command_radius", rule = "10.35",
  description = "A Soviet leader's working rating, the hexes within its command radius [10.35] and the Soviet units in them (is_leader = false for any other unit)",
  params = { leader = { type = "unit", description = "the leader asked about" } },
  fn = function(args)
    local l = unit_of(args.leader)
    if not C.is_leader(l) then
      return { leader = l.id, is_leader = false, rating = 0, hexes = {}, units = {} }
    end
    if not C.on_map(l) then
      -- a leader off the map commands nobody [10.35]
      return { leader = l.id, is_leader = true, rating = 0, disrupted = C.disrupted(l), hexes = {}, units = {},
        reason = string.format("%s is not on the map (%s): no command radius", C.name(l), C.off_map_words(l)) }
    end
    local hexes = L.radius_hexes(l)
    local covered = {}
    for _, u in ipairs(C.units_of(C.SOVIET)) do
      if hexes[u.hex] and not C.is_leader(u) then covered[#covered + 1] = u.id end
    end
    table.sort(covered)
    return { leader = l.id, is_leader = true, rating = L.rating(l), disrupted = C.disrupted(l),
      hexes = sorted_keys(hexes), units = covered }
  end,
}

-- [12.2] [12.4] The values an untried unit may still prove, smallest first: the faces left in its
-- pool, or once that is used up the dead counters of that pool (which a reveal then draws).
-- Counting the counters shown so far tells both players as much, so this gives nothing away.
local function values_left(pool, field)
  local vals = {}
  if not pool then return vals end
  for _, f in ipairs(kessel.game.pool(pool)) do
    local a, d = f:match("^(%d+)-(%d+)")
    if a then vals[#vals + 1] = tonumber(field == "attack" and a or d) end
  end
  if #vals == 0 then
    for _, id in ipairs(kessel.game.var("dead_pile") or {}) do
      local d = kessel.units.get(id)
      if d and d.pool == pool and d.attack then vals[#vals + 1] = field == "attack" and d.attack or (d.defence or 0) end
    end
  end
  table.sort(vals)
  return vals
end

-- Copies of `list` with each untried unit given a value it may prove: its pool's weakest (`weak`)
-- or strongest, untried units of one pool taking distinct counters (`taken`: how many of each pool
-- are spoken for so far). nil when a pool has nothing.
local function as_proved(list, field, weak, taken)
  local out = {}
  for _, u in ipairs(list) do
    if U.is_untried(u) then
      local vals = values_left(u.pool, field)
      if #vals == 0 then return nil end
      local n = (taken[u.pool or ""] or 0) + 1
      taken[u.pool or ""] = n
      local i = math.min(n, #vals)
      local c = {}
      for k, v in pairs(u) do c[k] = v end
      c.hidden = false
      c[field] = weak and vals[i] or vals[#vals - i + 1]
      out[#out + 1] = c
    else
      out[#out + 1] = u
    end
  end
  return out
end

-- The odds column at one extreme of what the untried units may prove [12.2]: the attackers' worst
-- and the defence's best (`worst` true), or the other way. A side left with no strength has no die
-- rolled [9.4] [12.3]: "no roll".
local function extreme(units, hexes, targets, worst, actx)
  local attackers = as_proved(units, "attack", worst, {})
  local per, taken = {}, {}
  for _, h in ipairs(targets) do
    -- (one count over every defending hex: each untried unit is a counter of its own)
    per[h] = as_proved(K.defenders_at(h), "defence", not worst, taken)
    if not per[h] then return nil end
  end
  if not attackers then return nil end
  local att = K.attack_total(attackers, actx)
  local def = K.defence_of(targets, { attacker_hexes = hexes, units = per })
  local label = "no roll"
  if att > 0 and def > 0 then label = kessel.tables.odds(K.CRT, att, def).label end
  return { attack = att, defence = def, label = label }
end

kessel.queries.declare{
  id = "odds", rule = "9.3",
  description = "A proposed attack (or, with overrun=true, overrun [6.5]): attack and defence totals with every "
    .. "modifier and its rule case [9.3] [7.3] [10.36] [11.3], the odds column [9.4], the chance of each result [9.5], "
    .. "and why it would be refused",
  params = {
    units = { type = "units", description = "the attacking units (leaders included)" },
    targets = { type = "hexes", description = "the defending hex or hexes [9.23]" },
    overrun = { type = "bool", optional = true,
      description = "answer for an overrun of the one target hex now: attack halved last, the overrun's MP cost and refusals [6.5]" },
  },
  fn = function(args)
    -- the query is asked about any units, in any phase (`kessel query`, scripts, the editor): a
    -- unit off the map takes no part in the totals and is named in a reason [9.1], and so are
    -- empty lists, whatever the phase; the attack's own checks (which stop at the phase) follow
    -- (an overrun's own checks [6.5] name a unit off the map: said once, under 6.5)
    local overrun = args.overrun == true
    local what, case = "an attack", "9.1"
    if overrun then what, case = "an overrun", "6.5" end
    local units, hexes, seen, own = {}, {}, {}, {}
    for _, id in ipairs(args.units) do
      local u = unit_of(id)
      if C.on_map(u) then
        units[#units + 1] = u
        if not seen[u.hex] then seen[u.hex] = true; hexes[#hexes + 1] = u.hex end
      elseif not overrun then
        own[#own + 1] = C.reason("9.1", "%s is not on the map (%s)", C.name(u), C.off_map_words(u))
      end
    end
    -- (the attack's wording is its checks' own [9.1], so that each is said once)
    if #args.units == 0 then own[#own + 1] = C.reason(case, "%s needs attacking units", what) end
    if #args.targets == 0 then
      own[#own + 1] = C.reason(case, "%s needs %s defending hex", what, overrun and "a" or "at least one")
    end
    -- [6.5] an overrun is the same sum halved after every other modifier, so a player sees its
    -- column before the die is rolled, as he does an attack's
    local actx = overrun and { overrun = true } or {}
    local att, amods = K.attack_total(units, actx)
    local def, dmods = K.defence_of(args.targets, { attacker_hexes = hexes })
    -- [12] [12.2] nobody knows an untried unit's strength until the attack reveals it: the totals
    -- count it as 0, and the answer says so (`exact`, `untried`, a modifier per unit)
    local untried = {}
    local function unknown(u, list, role)
      if U.is_untried(u) then
        untried[#untried + 1] = u.id
        list[#list + 1] = { rule = "12.2", message = string.format(
          "%s (%s) is untried: its %s is unknown until the attack reveals it, and is counted as 0 here", C.name(u), u.hex, role) }
        -- [11.3] its supply is no secret (it follows from the position), and `worst`/`best` halve
        -- what it may prove: say so, as the combat record will once it is revealed
        if not K.in_supply(u) then
          list[#list + 1] = { rule = "11.3", message = string.format(
            "%s (%s) is out of supply: whatever %s it proves is halved", C.name(u), u.hex, role) }
        end
      end
    end
    for _, u in ipairs(units) do unknown(u, amods, "attack strength") end
    for _, h in ipairs(args.targets) do
      for _, d in ipairs(K.defenders_at(h)) do unknown(d, dmods, "defence strength") end
    end
    local tid = K.CRT
    local odds = kessel.tables.odds(tid, att, def)
    local distribution = kessel.tables.distribution(tid, odds.column)
    -- [9.1] [9.73] with nobody to defend (an empty hex, or one left with units that retreated onto
    -- it) there is no combat, and a defence of 0 would read as 10-1 with its chances: no column
    local defending, mine = false, units[1] and units[1].side
    for _, h in ipairs(args.targets) do
      for _, d in ipairs(K.defenders_at(h)) do
        if d.side ~= mine then defending = true end
      end
    end
    if not defending then
      odds = { label = "no roll", below = false, above = false }
      distribution = {}
      -- (nor a terrain line: "forest doubles the defender" of a defender who is not there)
      dmods = {}
    end
    -- [12.2] with an untried unit taking part the column is not known: counting it as 0 would show
    -- a column nobody may rely on (10-1 against a hex of untried units). The answer gives instead
    -- the columns at the two ends of what the untried units may prove (`worst`, `best`, for the
    -- attacker), and the chances only when both ends fall in one column.
    local worst, best
    if #untried > 0 then
      local ws, bs = extreme(units, hexes, args.targets, true, actx), extreme(units, hexes, args.targets, false, actx)
      worst, best = ws, bs
      local range = "unknown"
      if ws and bs then range = ws.label == bs.label and ws.label or (ws.label .. " to " .. bs.label) end
      odds = { label = range, below = false, above = false }
      if not (ws and bs and ws.label == bs.label and ws.label ~= "no roll") then distribution = {} end
      local words = "no values are left to say what the untried units may prove"
      if ws and bs and ws.attack == bs.attack and ws.defence == bs.defence then
        words = string.format("the values left for the untried units give %s (%d against %d)", ws.label, ws.attack, ws.defence)
      elseif ws and bs and ws.label == bs.label then
        words = string.format("whatever the untried units prove, the column is %s (from %d against %d to %d against %d)",
          ws.label, ws.attack, ws.defence, bs.attack, bs.defence)
      elseif ws and bs then
        words = string.format("the untried units may prove anything from %s (%d against %d) to %s (%d against %d)",
          ws.label, ws.attack, ws.defence, bs.label, bs.attack, bs.defence)
      end
      amods[#amods + 1] = { rule = "12.2", message = words }
    end
    local refusals, said = {}, {}
    for _, r in ipairs(own) do refusals[#refusals + 1] = r; said[r.message] = true end
    local theirs, cost
    if overrun then
      if #args.targets > 1 then
        refusals[#refusals + 1] = C.reason("6.5", "an overrun attacks one hex, not %d", #args.targets)
      end
      theirs = {}
      if args.targets[1] then
        theirs = require("rules.overrun").reasons({ kind = "overrun", units = args.units, target = args.targets[1] })
        if units[1] then cost = require("rules.overrun").cost(units[1].side, args.targets[1]) end
      end
    else
      theirs = K.attack_reasons({ kind = "attack", units = args.units, targets = args.targets })
    end
    for _, r in ipairs(theirs) do
      if not said[r.message] then refusals[#refusals + 1] = r; said[r.message] = true end
    end
    return {
      attack = att, defence = def, table = tid, label = odds.label, below = odds.below, above = odds.above,
      attack_modifiers = amods, defence_modifiers = dmods,
      distribution = distribution,
      legal = #refusals == 0, reasons = refusals,
      exact = #untried == 0, untried = untried, worst = worst, best = best,
      overrun = overrun, cost = cost,
    }
  end,
}

kessel.queries.declare{
  id = "retreats", rule = "9.72",
  description = "The pending retreat (who retreats, how far, who picks) and every legal path the opponent may pick [9.71] [9.72]",
  params = {},
  fn = function()
    local p = kessel.game.var("pending")
    if not p or p.kind ~= "retreat_path" then return { pending = false, retreats = {} } end
    local out = {}
    for _, a in ipairs(R.legal_retreats(p.side)) do out[#out + 1] = { kind = "retreat", units = a.units, path = a.path } end
    return { pending = true, side = p.side, who = p.who, hexes = p.n, units = p.units, retreats = out }
  end,
}

-- Where reinforcements waiting to enter (`units`, pending, one entry area) can go this phase
-- [14.3]: each hex of their area a `move` may enter now, at its entry cost [6.7] [13.3], and the
-- hexes beyond it their MP left reach (none beyond an entry hex in an enemy ZOC [6.22]); the cost
-- of a hex is the cheapest over the entry hexes. Returns hex -> cost and hex -> the entry hex of
-- that cheapest move, or nil and a reason.
local function entry_reach(ids)
  local R = require("rules.reinforcements")
  local units = {}
  for _, id in ipairs(ids) do units[#units + 1] = unit_of(id) end
  local out, via, why = {}, {}, nil
  local area = kessel.map.area(units[1].enter_area or "") or {}
  -- (an area this map lacks: the entry's own refusal says so, or why the units may not enter now)
  if #area == 0 then why = select(2, R.entry_check(units, nil)) end
  for _, h in ipairs(area) do
    local plan, no = M.plan{ kind = "move", units = ids, path = { h } }
    if not plan then why = why or no
    else
      local entry = 0
      for _, u in ipairs(units) do entry = math.max(entry, plan.entry_costs[u.id]) end
      if out[h] == nil or entry < out[h] then out[h], via[h] = entry, h end
      if not plan.ctx.ezoc:has(h) then
        local field = M.build_field(units, h, function(u) return M.mp_left(u) - plan.entry_costs[u.id] end, plan.ctx)
        for hex, c in pairs(field:reachable()) do
          local total = entry + c
          if out[hex] == nil or total < out[hex] then out[hex], via[hex] = total, h end
        end
      end
    end
  end
  if next(out) == nil then return nil, why or { rule = "14.3", message = "no hex of its entry area may be entered now" } end
  return out, via
end

kessel.queries.declare{
  id = "reach", rule = "6.1",
  description = "Where a stack can move now, with the MP each hex costs (each unit pays by its own movement type within its own allowance: a stack of several types is given the most any of its units pays, and what each type's units pay in `costs`), and which of its units may not move and why (reinforcements: from each hex of their entry area [14.3])",
  params = { units = { type = "units", description = "the units moving together" } },
  fn = function(args)
    local movers, refused = {}, {}
    if #args.units == 0 then
      return { movers = movers, refused = refused, reachable = {}, reason = C.reason("6.1", "no units to move") }
    end
    local first = args.units[1] and unit_of(args.units[1])
    if first and first.location == "pending" then
      -- reinforcements waiting to enter [14.3]
      local costs, via = entry_reach(args.units)
      if not costs then
        local why = via
        for _, id in ipairs(args.units) do refused[#refused + 1] = { unit = id, rule = why.rule, message = why.message } end
        return { movers = movers, refused = refused, reachable = {} }
      end
      -- the move there enters by the entry hex of the cheapest way in, then goes on [14.3]
      local reachable = {}
      for _, h in ipairs(sorted_keys(costs)) do
        local path = via[h] == h and { h } or { via[h], h }
        reachable[#reachable + 1] = { hex = h, cost = costs[h], path = path }
      end
      return { movers = args.units, refused = refused, reachable = reachable }
    end
    local stack_hex
    for _, id in ipairs(args.units) do
      local u = unit_of(id)
      -- (not `on_map and cannot_move(u) or ...`: a unit that may move, cannot_move = nil, fell
      -- through to the "not on the map" refusal)
      local why
      if not u then why = { rule = "6.1", message = "no unit `" .. tostring(id) .. "`" }
      elseif not C.on_map(u) then
        why = u.location == "pending"
          and C.reason("6.1", "%s is a reinforcement: ask for it apart from the units on the map", C.name(u))
          or C.reason("6.1", "%s is not on the map (%s)", C.name(u), C.off_map_words(u))
      elseif stack_hex and u.hex ~= stack_hex then
        -- a stack moves together [6.1]: the units of the first hex asked about are the stack
        why = C.reason("6.1", "%s is not in %s with the rest of the stack", C.name_at(u), stack_hex)
      else
        stack_hex = u.hex
        why = M.cannot_move(u)
      end
      if why then refused[#refused + 1] = { unit = id, rule = why.rule, message = why.message }
      else movers[#movers + 1] = id end
    end
    -- a move that splits the stack of a successful overrun is refused [6.5]: so is the question
    if #movers > 0 then
      local snaps = {}
      for _, id in ipairs(movers) do snaps[#snaps + 1] = unit_of(id) end
      local split = M.overrun_split_reason(snaps)
      if split then
        for _, id in ipairs(movers) do refused[#refused + 1] = { unit = id, rule = split.rule, message = split.message } end
        movers = {}
      end
    end
    local reachable, refusal = {}, nil
    local field = #movers > 0 and M.field(movers) or nil
    -- a stack in an enemy zone of control may not leave it voluntarily [6.22]: it has nowhere to
    -- move, and the query says why (an overrun from the hex is still open to it [6.5])
    if field and field.ctx.cannot_leave then
      local why = field.ctx.cannot_leave
      for _, id in ipairs(movers) do refused[#refused + 1] = { unit = id, rule = why.rule, message = why.message } end
      movers, field = {}, nil
    end
    if field then
      local costs = field:reachable()
      -- a first-turn army that rolled to stand shifts one hex at most, and only to cure
      -- overstacking [5.2]: of its field, keep the hexes a move would be allowed into
      local standing = false
      for _, id in ipairs(movers) do
        local var = M.first_turn_roll_var(unit_of(id))
        if var and kessel.game.var(var) == "stand" then standing = true end
      end
      -- the 13th and 20th Armies pass through columns 01-02 on the first turn but may not end a
      -- move there [5.2]: those hexes are no destination
      local snaps = {}
      for _, id in ipairs(movers) do snaps[#snaps + 1] = unit_of(id) end
      for _, h in ipairs(sorted_keys(costs)) do
        local allowed = M.end_reason(snaps, h) == nil
        if allowed and standing then
          local plan, why = M.plan{ kind = "move", units = movers, path = { h } }
          allowed = plan ~= nil
          -- a standing stack with nowhere to go: why not, rather than an empty answer [5.2]
          -- (a neighbour's refusal says what is wrong with the stack, a farther hex's only that
          -- it shifts one hex)
          if not plan and not refusal and kessel.hex.adjacent(stack_hex, h) then refusal = why end
        end
        if allowed then
          local entry = { hex = h, cost = costs[h] }
          -- a stack of several movement types: what each type's units pay, each within its
          -- own allowance [6.1] (the stack's cost above is the most of them)
          if #field.groups > 1 then
            entry.costs = {}
            for _, g in ipairs(field.groups) do
              entry.costs[#entry.costs + 1] = { units = C.ids(g.units), cost = g.field:cost(h) }
            end
          end
          reachable[#reachable + 1] = entry
        end
      end
    end
    return { movers = movers, refused = refused, reachable = reachable, reason = #reachable == 0 and refusal or nil }
  end,
}

-- Who holds each objective and what the score would be if the game ended now [15]: without it a
-- script or a test could see a city change hands (an advance, an overrun, a retreat through it)
-- only by reading the rules' own game variables, and `kessel query` could not say it at all.
-- The same reckoning as the final score (V.score) and its breakdown (V.breakdown).
kessel.queries.declare{
  id = "score", rule = "15",
  description = "Who owns each objective hex now (a combat unit in it, else the last to enter or pass through it) "
    .. "and the score if the game ended now: the cities the German holds with a line to his supply edge (the west edge in the campaign), "
    .. "German divisions destroyed, Soviet recaptures, VP, the level and where the points come from [15]",
  params = {},
  fn = function()
    local V = require("rules.victory")
    local owner = V.owners()
    local objectives = {}
    for _, o in ipairs(V.objectives()) do
      local owners = {}
      for _, h in ipairs(o.hexes) do owners[#owners + 1] = { hex = h, side = owner[h] } end
      objectives[#objectives + 1] = { name = o.name, vp = o.vp, hexes = owners }
    end
    local r = V.score()
    return { german_vp = r.german_vp, soviet_vp = r.soviet_vp, difference = r.difference, bid = r.bid,
      level = r.level, held = r.held, destroyed = r.destroyed,
      recaptures = kessel.game.var("soviet_recaptures") or {}, objectives = objectives, lines = V.breakdown(r) }
  end,
}
