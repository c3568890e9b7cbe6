-- What the editor and a random player are offered in each step: enumerators for the choices that
-- have no natural default (each listed action passes its own validator), and the queries the
-- editor asks about a unit or a hex.
local C = require("rules.common")
local S = require("rules.sequence")
local A = require("rules.areas")

-- wraps an action kind with an enumerator built from candidate actions, keeping the validator
local function offer(kind, candidates)
  local h = kessel.action_handlers(kind)
  kessel.action{ kind = kind, rule = h.rule, description = h.description, secret = h.secret, validate = h.validate, apply = h.apply,
    enumerate = function(side)
      local out = {}
      for _, a in ipairs(candidates(side)) do
        local r = h.validate(a)
        if r == nil or r == true or (type(r) == "table" and r.message == nil and #r == 0) then out[#out + 1] = a end
      end
      return out
    end }
end

local function in_step(id) local s = S.current(); return s and s.id == id and not kessel.game.finished() end

-- [9.613] all units Shifting from one Area to another go as one group: each Area's Retained
-- Personnel and Mobile vehicles (not yet tried this CG Date) are offered together, to each Area
offer("shift", function(side)
  if not in_step("shift") then return {} end
  local out, st = {}, A.stored()
  for _, s in ipairs(side and { side } or C.sides()) do
    local groups, order = {}, {}
    for _, u in ipairs(kessel.units.all{ side = s }) do
      if (u.location == "map" or u.location == "pending") and u.vars.reph and u.vars.reph.area
        and (C.is_personnel(u) or (C.is_vehicle(u) and not u.vars.immobile and not u.vars.abandoned and not C.is_wreck(u))) and u.vars.shifted ~= C.var("date") then
        local from = u.vars.reph.area
        if not groups[from] then groups[from] = {}; order[#order + 1] = from end
        table.insert(groups[from], u.id)
      end
    end
    for _, from in ipairs(order) do
      for _, area in ipairs(st and st.areas[s] or {}) do
        if area.id ~= from and not area.isolated then out[#out + 1] = { kind = "shift", side = s, units = groups[from], to = area.id } end
      end
      for _, name in ipairs(C.entry_names(s)) do
        if name ~= from then out[#out + 1] = { kind = "shift", side = s, units = groups[from], to = name } end
      end
    end
  end
  return out
end)

offer("prisoner", function(side)
  local s = S.current()
  if not s or s.id ~= "prisoners" then return {} end
  local out = {}
  for _, p in ipairs(kessel.units.all{ location = "map" }) do
    local g = p.vars.guarded_by and kessel.units.get(p.vars.guarded_by)
    if g and (side == nil or g.side == side) then out[#out + 1] = { kind = "prisoner", side = g.side, unit = p.id, choice = "free" } end
  end
  return out
end)

offer("hero_harden", function(side)
  if not in_step("hardening") then return {} end
  local out = {}
  for _, h in ipairs(kessel.units.all{ type = "hero", side = side }) do
    -- a Hero whose owner has chosen is offered no more choices
    for _, u in ipairs(h.vars.hardens and {} or kessel.units.all{ side = h.side, type = "squad" }) do
      out[#out + 1] = { kind = "hero_harden", side = h.side, hero = h.id, unit = u.id }
    end
  end
  return out
end)

offer("remove_fortification", function(side)
  if not in_step("fort_removal") then return {} end
  local out = {}
  for _, m in ipairs(kessel.markers.all{ placed = true }) do
    for _, s in ipairs(side and { side } or C.sides()) do
      out[#out + 1] = { kind = "remove_fortification", side = s, marker = m.id }
    end
  end
  return out
end)

kessel.queries.declare{
  id = "reph_unit", rule = "9.605, 11.606",
  description = "A unit's Refit Phase status: its Setup Area (PB) or Isolated Area and type (RB), Isolated, Encircled, whether it must or may Escape",
  params = { unit = { type = "unit", description = "the unit" } },
  fn = function(args)
    local u = kessel.units.get(args.unit)
    local r = u.vars.reph or {}
    local out = { status = r.status or "not classified yet", area = r.area, rule = r.why, isolated = u.vars.isolated == true,
      encircled = u.vars.encircled == true, wounded = u.vars.wounded == true,
      must_escape = require("rules.escape").must_escape(u) == true, may_escape = require("rules.escape").may_escape(u) == true,
      overstacked = require("rules.escape").overstacked(u) == true }
    -- a unit the RePh gave the British may set up in 9.620 in any non-Isolated British Setup Area
    -- (the case: 9.6152 Note 1, 9.6102), a Dawn Gun in a hex numbered 20 or more (Note 3)
    if r.any_area then out.sets_up_in = "any non-Isolated " .. u.side .. " Setup Area (" .. r.any_area .. ")" end
    if r.hex_min then out.hex_min = r.hex_min end
    -- RB has no Setup Areas: the players' Perimeters give Isolated Areas [11.605] [11.606], and a
    -- unit on the map is in one of them or not (before, an RB unit read "not classified yet" until
    -- it escaped or was cleared, whatever its area)
    if not C.pb() and u.location == "map" and u.hex then
      local i, a = C.rb_area_at(u.hex, C.level(u))
      out.isolated_area, out.area_type = i, a and a.type
      if r.status == nil then out.rule = "11.606" end
      if r.status == nil and S.rb_perimeter_done() then
        out.status = i and ("in Isolated Area " .. i .. (a.type and (" (type " .. a.type .. ")") or "")) or "in no Isolated Area"
      end
    end
    return out
  end,
}

-- the owner's optional choices about his units, offered where the validator lets them: a squad
-- stacked with a leader Deploys before a Shift or an Escape [9.613] [9.606] [11.6063]; RB
-- promotion out of the ranks [11.6114]; a HS kept apart per MTR [9.6111]; the MG exchange
-- [9.61421] [11.6133]; a hidden Set DC removed and Retained [11.6073]
local function owned(side, filter)
  filter = filter or {}
  filter.side = side
  return kessel.units.all(filter)
end
offer("deploy", function(side)
  if not in_step("shift") and not in_step("escape") then return {} end
  local out = {}
  for _, u in ipairs(owned(side, { type = "squad" })) do out[#out + 1] = { kind = "deploy", side = u.side, unit = u.id } end
  return out
end)
offer("promote", function(side)
  if not in_step("hardening") or C.pb() then return {} end
  local out = {}
  for _, l in ipairs(owned(side, { type = "leader" })) do out[#out + 1] = { kind = "promote", side = l.side, leader = l.id } end
  return out
end)
offer("keep_hs", function(side)
  if not in_step("hardening") or not C.pb() then return {} end
  local out = {}
  for _, u in ipairs(owned(side, { type = "squad" })) do
    if u.step == 1 and not u.vars.keep_hs then out[#out + 1] = { kind = "keep_hs", side = u.side, unit = u.id } end
  end
  return out
end)
offer("mg_exchange", function(side)
  local late = require("rules.repair").exchange_late()
  if not in_step("repair") and not late then return {} end
  local out = {}
  for _, mg in ipairs(owned(side, { type = "sw" })) do
    -- (an MG only, as the action checks: a Disabled Gun was listed and then refused)
    if C.vehicular_mg(mg) and mg.vars.disabled and (not late or mg.vars.disabled_reph == C.var("date")) then
      for _, l in ipairs(owned(mg.side, { type = "sw" })) do
        if l.face and l.face.weapon == "LMG" and l.location ~= "eliminated" then
          out[#out + 1] = { kind = "mg_exchange", side = mg.side, mg = mg.id, lmg = l.id }
        end
      end
    end
  end
  return out
end)
offer("retain_set_dc", function(side)
  if not in_step("equipment") or C.pb() then return {} end
  local out = {}
  for _, w in ipairs(owned(side, { type = "sw", location = "map" })) do
    if w.vars.set_dc and w.vars.hidden and not w.vars.retain_set_dc then out[#out + 1] = { kind = "retain_set_dc", side = w.side, unit = w.id } end
  end
  return out
end)

kessel.queries.declare{
  id = "setup_area", rule = "9.605, 11.606",
  description = "What a hex is after Setup Area Determination (PB: a side's Setup Area, No Man's Land or Uncontrolled Territory) or Perimeter Determination (RB: its Isolated Area and type, or No Man's Land of the players' record, and who Controls it)",
  params = { hex = { type = "hex", description = "the hex" } },
  fn = function(args)
    if not C.pb() then
      -- RB [11.605] [11.606]: the Perimeters are the players'; the Isolated Areas they give are
      -- typed as 11.605 ends (a type A or B area is No Man's Land [11.6062], a type C or D area
      -- Isolated). Before, the query answered `determined = false` for every RB hex.
      local determined = S.rb_perimeter_done()
      local i, a = C.rb_area_at(args.hex, 0)
      local out = { determined = determined, controller = A.controller(args.hex, 0) }
      if i then
        out.isolated_area, out.type = i, a.type
        if a.type == "A" or a.type == "B" then out.class = "nml" elseif a.type then out.class = "isolated" end
      elseif C.rb_no_mans_land(args.hex) then
        out.class = "nml"
      elseif determined then
        out.class = "not isolated"
      end
      -- No Man's Land is un-Controlled [11.6059] [11.6062]: a SMC standing there (one that must
      -- Escape, 11.6061) Controls nothing; only a Strategic Location's Control marker holds
      -- [11.6051]. Before, the query named the SMC's side.
      if out.class == "nml" then
        out.controller = nil
        for _, m in ipairs(kessel.markers.at(args.hex)) do
          if m.kind == "control" and m.hex == args.hex and ((type(m.value) == "table" and m.value.level) or 0) == 0 then out.controller = m.side end
        end
      end
      return out
    end
    local st = A.stored()
    if not st then return { determined = false } end
    local cls = st.hexes[args.hex]
    local out = { determined = true, class = cls }
    if cls ~= "nml" and cls ~= "ut" then
      local area = A.area_at(cls, args.hex, 0)
      out.area, out.isolated = area and area.id, area and area.isolated
    end
    return out
  end,
}

-- Whose decision it is (the engine's `deciding_side` contract): the German's in the steps that
-- are his alone, RG purchase and strength [9.617] [9.618]; in 9.620 the side whose set-up turn it
-- is [9.62021] [9.62022]; in the other steps both sides carry out together [9.6] no one side's;
-- in the CG scenario, the side whose turn it is.
kessel.queries.declare{
  id = "deciding_side", rule = "9.617",
  description = "The side whose decision it is now: the German in RePh steps 9.617-9.618, the side whose set-up turn it is in 9.620 [9.62021], else the step's side",
  params = {},
  fn = function()
    local step = kessel.game.step()
    if step.mode == S.mode() and (step.id == "rg_purchase" or step.id == "rg_strength") then return "german" end
    -- 9.620's set-up goes side by side in turns [9.62021] [9.62022]
    if step.mode == S.mode() and step.id == "commencement" then
      local t = require("rules.commencement").turn()
      if t then return t.side end
    end
    return step.side
  end,
}
