-- Ridge's play rules: move [R2-R3], attack [R4-R5], end phase [R1].
local C = require("rules.common")

local function field_for(u)
  local ut = kessel.game.unit_type(u.type)
  return kessel.paths.field{
    from = u.hex, budget = u.movement, class = ut.class, side = u.side,
    stop = { { set = C.enemy_zoc(u.side), rule = "R3", message = "entered an enemy zone of control" } },
    forbid = { { set = kessel.units.occupied(C.other(u.side)), rule = "R3", message = "hex holds enemy units" } },
    cannot_leave = u.flags.moved and { rule = "R2", message = "already moved this phase" } or nil,
  }
end

-- [R2.3] at most two units in a hex
local function stack_full(dest, mover)
  local n = 0
  for _, v in ipairs(kessel.units.at(dest)) do if v.id ~= mover then n = n + 1 end end
  if n >= 2 then return { rule = "R2.3", message = "hex " .. dest .. " already holds two units" } end
end

kessel.action{
  kind = "move", rule = "R2", description = "move one unit along a path",
  validate = function(a)
    local u = type(a.unit) == "string" and kessel.units.get(a.unit) or nil
    if not u or u.location ~= "map" then return { rule = "R2", message = "no such unit on the map: `unit` names one" } end
    if u.side ~= C.phasing() or not C.in_step("move") then
      return { rule = "R2", message = "only the phasing side moves, in its movement phase" }
    end
    local dest = type(a.path) == "table" and a.path[#a.path]
    if not dest then return { rule = "R2", message = "a move needs a path" } end
    local seen = {}
    for i, h in ipairs(a.path) do
      if type(h) ~= "string" or not kessel.hex.valid(h) then
        return { rule = "R2", message = "`path` item " .. i .. " is not a hex of this map" }
      end
      if seen[h] then return { rule = "R2", message = "`path` names " .. h .. " twice" } end
      seen[h] = true
    end
    -- the unit goes to the path's last hex: one where it stands is no move (it failed when applied)
    if dest == u.hex then return { rule = "R2", message = u.id .. " is already in " .. dest .. ": a move ends in another hex" } end
    local f = field_for(u)
    if f:cost(dest) == nil then
      local why = f:why_not(dest)
      -- the search's own reasons (out of reach with the MP left, no way in) cite no case: R2's
      return { rule = why.rule or "R2", message = "cannot reach " .. dest .. ": " .. why.message }
    end
    return stack_full(dest, u.id)
  end,
  apply = function(a)
    local u = kessel.units.get(a.unit)
    local f = field_for(u)
    local dest = a.path[#a.path]
    kessel.emit.move(u.id, f:path(dest), f:cost(dest))
    kessel.emit.flag(u.id, "moved")
  end,
  enumerate = function(side)
    local out = {}
    if C.not_theirs(side) or not C.in_step("move") then return out end
    for _, u in ipairs(kessel.units.all{ side = C.phasing(), location = "map" }) do
      if not u.flags.moved then
        for _, h in ipairs(field_for(u):hexes()) do
          if not stack_full(h, u.id) then out[#out + 1] = { kind = "move", unit = u.id, path = { h } } end
        end
      end
    end
    return out
  end,
}

-- [R5.2] a defender on hills adds 1 to the hex's defence; [R6.2] an unsupplied attacker halves
local function strengths(units, target)
  local att = 0
  for _, id in ipairs(units) do
    local u = kessel.units.get(id)
    local a = u.attack or 0
    if u.flags.unsupplied then a = a // 2 end
    att = att + a
  end
  local def = 0
  for _, d in ipairs(kessel.units.at(target)) do def = def + (d.defence or 0) end
  if def > 0 and kessel.map.terrain(target) == "hills" then def = def + 1 end
  return att, def
end

-- [R5.3] a defender retreats one hex, away from enemy units and zones; if it can not, it loses a step
local function retreat(d)
  local zoc = C.enemy_zoc(d.side)
  for _, n in ipairs(kessel.hex.neighbors(d.hex)) do
    if #kessel.units.at(n) == 0 and not zoc:has(n) then kessel.emit.move(d.id, { n }); return end
  end
  C.lose_step(d.id)
end

kessel.action{
  kind = "attack", rule = "R4", description = "attack an adjacent enemy hex",
  validate = function(a)
    if not C.in_step("combat") then return { rule = "R4", message = "attacks happen in the combat phase" } end
    local reasons = {}
    local target = a.target
    if type(target) ~= "string" or not kessel.hex.valid(target) then
      return { rule = "R4", message = "an attack needs a target hex" }
    end
    local there = kessel.units.at(target)
    if #there == 0 or there[1].side == C.phasing() then
      reasons[#reasons + 1] = { rule = "R4", message = "no enemy unit in " .. target }
    end
    if type(a.units) ~= "table" or #a.units == 0 then
      reasons[#reasons + 1] = { rule = "R4", message = "an attack needs attacking units" }
      return reasons
    end
    local seen = {}
    for _, id in ipairs(a.units) do
      local u = type(id) == "string" and kessel.units.get(id) or nil
      -- a unit named twice would add its attack twice
      if seen[id] then
        reasons[#reasons + 1] = { rule = "R4", message = tostring(id) .. " is named twice in `units`" }
      elseif not u or u.side ~= C.phasing() or u.location ~= "map" then
        reasons[#reasons + 1] = { rule = "R4", message = tostring(id) .. " is not a phasing unit on the map" }
      elseif not kessel.hex.adjacent(u.hex, target) then
        reasons[#reasons + 1] = { rule = "R4", message = id .. " is not adjacent to " .. target }
      elseif u.flags.attacked then
        reasons[#reasons + 1] = { rule = "R4.1", message = id .. " already attacked this phase" }
      end
      seen[id] = true
    end
    return reasons
  end,
  apply = function(a)
    local att, def = strengths(a.units, a.target)
    for _, id in ipairs(a.units) do kessel.emit.flag(id, "attacked") end
    local odds = kessel.tables.odds("crt", att, def)
    local roll = kessel.dice.roll("combat")
    local result = kessel.tables.result("crt", odds.column, roll)
    kessel.emit.record{ kind = "combat", rule = "R5", fields = {
      attackers = a.units, target = a.target, attack = att, defence = def,
      odds = odds.label, roll = roll, result = result } }
    local defenders = kessel.units.at(a.target)
    if result == "DE" then
      for _, d in ipairs(defenders) do kessel.emit.eliminate(d.id) end
    elseif result == "D1" or result == "EX" then
      C.lose_step(defenders[1].id)
    elseif result == "DR" then
      for _, d in ipairs(defenders) do retreat(d) end
    end
    if result == "A1" or result == "EX" then C.lose_step(a.units[1]) end
  end,
  enumerate = function(side)
    local out = {}
    if C.not_theirs(side) or not C.in_step("combat") then return out end
    -- every enemy hex, attacked by all the phasing units next to it that have not attacked
    for _, h in ipairs(kessel.units.occupied(C.other(C.phasing()))) do
      local ids = {}
      for _, n in ipairs(kessel.hex.neighbors(h)) do
        for _, u in ipairs(kessel.units.at(n)) do
          if u.side == C.phasing() and not u.flags.attacked then ids[#ids + 1] = u.id end
        end
      end
      if #ids > 0 then out[#out + 1] = { kind = "attack", units = ids, target = h } end
    end
    return out
  end,
}

kessel.action{
  kind = "end_phase", rule = "R1", description = "end the current phase",
  validate = function() if kessel.game.finished() then return { rule = "R1", message = "the game is over" } end end,
  apply = function()
    kessel.emit.clear_flag("moved")
    kessel.emit.clear_flag("attacked")
    kessel.emit.advance()
  end,
  enumerate = function(side)
    if C.not_theirs(side) then return {} end
    return { { kind = "end_phase" } }
  end,
}

kessel.queries.declare{
  id = "odds", rule = "R5",
  description = "The odds of an attack: strengths, odds column and the chance of each result",
  params = {
    units = { type = "units", description = "the attacking units" },
    targets = { type = "hexes", description = "the defending hex" },
  },
  fn = function(args)
    local target = args.targets[1]
    local att, def = strengths(args.units, target)
    local modifiers = {}
    if kessel.map.terrain(target) == "hills" then modifiers[1] = { rule = "R5.2", message = "defender on hills: +1" } end
    local odds = kessel.tables.odds("crt", att, def)
    return { attack = att, defence = def, table = "crt", label = odds.label, below = odds.below,
      above = odds.above, modifiers = modifiers, distribution = kessel.tables.distribution("crt", odds.column) }
  end,
}

-- [R7] reinforcements enter at the start of their side's movement phase on their turn, on the
-- first hex of their area with room, and may move that phase
kessel.on("step_start", function()
  local step = kessel.game.step()
  if not step.id:find("move") then return end
  for _, u in ipairs(kessel.units.all{ side = step.side, location = "pending" }) do
    if u.enter_turn == kessel.game.turn() and u.enter_area then
      for _, h in ipairs(kessel.map.area(u.enter_area)) do
        if #kessel.units.at(h) == 0 then kessel.emit.place(u.id, h); break end
      end
    end
  end
end)
