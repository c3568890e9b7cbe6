-- RePh steps 9.601-9.603 (PB) and 11.602-11.603 (RB): the end of the CG scenario.
-- Conclusion of Melee, Marker Removal, Rally and Unloading, RB Victory Determination.
local C = require("rules.common")
local S = require("rules.sequence")
local M = {}

-- alphanumeric order of hex labels [9.6011]: column letters (A..Z, then AA..), then row number
function M.hex_before(a, b)
  local la, na = a:match("^(%a+)(%-?%d+)$")
  local lb, nb = b:match("^(%a+)(%-?%d+)$")
  if not la or not lb then return a < b end
  if #la ~= #lb then return #la < #lb end
  if la ~= lb then return la < lb end
  return tonumber(na) < tonumber(nb)
end

-- Locations holding opposing units [9.601]: { hex, level } in the order they are resolved [9.6011]
function M.melee_locations()
  local seen, out = {}, {}
  for _, u in ipairs(C.on_map()) do
    if C.is_personnel(u) and not u.vars.prisoner_of then
      local key = u.hex .. "@" .. C.level(u)
      if not seen[key] then
        seen[key] = true
        local sides = {}
        for _, o in ipairs(C.same_location(u)) do
          if C.is_personnel(o) and not o.vars.prisoner_of then sides[o.side] = true end
        end
        local n = 0
        for _ in pairs(sides) do n = n + 1 end
        if n > 1 then out[#out + 1] = { hex = u.hex, level = C.level(u) } end
      end
    end
  end
  table.sort(out, function(x, y)
    if x.hex ~= y.hex then return M.hex_before(x.hex, y.hex) end
    return x.level < y.level
  end)
  return out
end

-- [9.601] a unit on a Climb marker is placed at the level it climbed to or from, owner's choice
kessel.action{
  kind = "climb_place", rule = "9.601", description = "place a climbing unit at the Location it tried to reach or left",
  validate = function(a)
    local why = S.only_in("melee", "9.601")
    if why then return why end
    local need = C.missing(a, "9.601", { "unit" }, "climb_place{ unit = <a unit on a Climb marker>, reached = true (the Location it tried to reach) or false (the one it left) }")
    if need then return need end
    local u = C.unit(a.unit, a.side)
    if not u or not u.vars.climb then return C.refuse("9.601", "that unit is not on a Climb marker") end
    -- `reached = "no"` would read as true: only true or false (absent: the Location it left)
    if a.reached ~= nil and type(a.reached) ~= "boolean" then
      return C.refuse("9.601", "reached is true (the Location it was trying to reach) or false (the one it left), not " .. tostring(a.reached))
    end
    return C.not_owner(a, u, "9.601")
  end,
  apply = function(a)
    local u = kessel.units.get(a.unit)
    local lvl = a.reached and u.vars.climb.to or u.vars.climb.from
    kessel.emit.unit_var(u.id, "level", lvl)
    kessel.emit.unit_var(u.id, "climb", nil)
    C.note("9.601", u.id .. " is placed at level " .. lvl .. (a.reached and " (the Location it climbed to)" or " (the Location it left)"))
  end,
  enumerate = function(side)
    if S.current() == nil or S.current().id ~= "melee" then return {} end
    local out = {}
    for _, u in ipairs(C.on_map(side)) do
      if u.vars.climb then
        out[#out + 1] = { kind = "climb_place", side = u.side, unit = u.id, reached = false }
        out[#out + 1] = { kind = "climb_place", side = u.side, unit = u.id, reached = true }
      end
    end
    return out
  end,
}

-- [9.601] a Melee is fought with the tactical Close Combat rules (A11), which this ruleset does
-- not implement: the players report each Melee's outcome, first Location first [9.6011].
kessel.action{
  kind = "melee_outcome", rule = "9.6011", description = "report the outcome of the next Melee (units eliminated, captured or withdrawn)",
  validate = function(a)
    local why = S.only_in("melee", "9.601")
    if why then return why end
    -- "First, each unit currently on a Climb marker must be placed": where it goes may make a Melee
    for _, u in ipairs(C.on_map()) do
      if u.vars.climb then return C.refuse("9.601", "first place each unit on a Climb marker (climb_place): " .. u.id .. " is still climbing") end
    end
    local first = M.melee_locations()[1]
    if not first then return C.refuse("9.601", "no Melee is left") end
    if a.hex ~= first.hex or (a.level or 0) ~= first.level then
      return C.refuse("9.6011", "Melees are resolved in alphanumeric order: " .. first.hex .. " comes first")
    end
    -- the units reported are Personnel of this Melee: ids of units in its Location
    local function in_melee(id)
      local u = type(id) == "string" and kessel.units.get(id)
      return u and u.location == "map" and u.hex == first.hex and C.level(u) == first.level and C.is_personnel(u) and u or nil
    end
    local out = {}
    if a.eliminated ~= nil and type(a.eliminated) ~= "table" then return C.refuse("9.601", "eliminated is a list of unit ids") end
    for _, id in ipairs(a.eliminated or {}) do
      if not in_melee(id) then return C.refuse("9.601", "`" .. tostring(id) .. "` is no Personnel unit of the Melee in " .. first.hex) end
      if out[id] then return C.refuse("9.601", id .. " is named twice among the Eliminated") end
      out[id] = true
    end
    if a.captured ~= nil and type(a.captured) ~= "table" then return C.refuse("9.601", "captured is a list of { unit = id, guard = id }") end
    for _, c in ipairs(a.captured or {}) do
      local u = type(c) == "table" and in_melee(c.unit)
      local g = type(c) == "table" and in_melee(c.guard)
      if not u or not g then return C.refuse("9.601", "each capture names a unit and its Guard, both Personnel of the Melee in " .. first.hex) end
      if u.side == g.side then return C.refuse("9.601", c.guard .. " cannot Guard " .. c.unit .. ": they are on one side") end
      if out[c.unit] or out[c.guard] then return C.refuse("9.601", "a unit is Eliminated, Captured or a Guard once: " .. c.unit .. ", " .. c.guard) end
      out[c.unit] = true
    end
    -- a Withdrawal [9.601] "normal CCPh activities ... Withdrawal": to an ADJACENT Location, a hex
    -- next to the Melee's (A11 itself is the players'; the report says where the unit went)
    if a.withdrawn ~= nil and type(a.withdrawn) ~= "table" then return C.refuse("9.601", "withdrawn is a list of { unit = id, to = hex }") end
    for _, w in ipairs(a.withdrawn or {}) do
      local u = type(w) == "table" and in_melee(w.unit)
      if not u then return C.refuse("9.601", "each Withdrawal names a Personnel unit of the Melee in " .. first.hex .. " and the hex it goes to: { unit = id, to = hex }") end
      if out[w.unit] then return C.refuse("9.601", "a unit is Eliminated, Captured, a Guard or Withdrawn once: " .. w.unit) end
      if type(w.to) ~= "string" or not kessel.hex.valid(w.to) or kessel.hex.distance(first.hex, w.to) ~= 1 then
        return C.refuse("9.601", w.unit .. " Withdraws to an ADJACENT Location: `to` is a hex next to " .. first.hex .. " (not " .. tostring(w.to) .. ")")
      end
      out[w.unit] = true
    end
    -- a report that takes no unit out leaves both sides in the Location: the same Melee would be
    -- first again, so nothing was resolved; a Melee both sides survive is left to end_step, which
    -- notes it unresolved
    if next(out) == nil then
      return C.refuse("9.601", "the outcome of the Melee in " .. first.hex .. " names no unit eliminated, captured or withdrawn: "
        .. "it would resolve nothing (end_step leaves a Melee both sides survive unresolved, with a note)")
    end
  end,
  apply = function(a)
    for _, id in ipairs(a.eliminated or {}) do C.eliminate(id, "9.601", "Melee") end
    -- a Captured unit is an unarmed prisoner of the Guard's side, Guarded by it (A20.5; 9.608 then
    -- decides its fate): it was marked with the Guard's id only, and 9.608 passed it by
    for _, c in ipairs(a.captured or {}) do
      local g = kessel.units.get(c.guard)
      kessel.emit.unit_var(c.unit, "prisoner_of", g.side)
      kessel.emit.unit_var(c.unit, "guarded_by", g.id)
      kessel.emit.unit_var(c.unit, "unarmed", true)
      C.note("9.601", c.unit .. " is Captured by " .. c.guard .. " (the " .. g.side .. ")")
      -- an unarmed prisoner holds nothing: what he held is his Guard's, Captured (A20.5, our
      -- reading). He kept it, so a German SW stayed the German's in a British prisoner's hands
      -- through 9.608, and went with him when freed.
      for _, w in ipairs(C.possessed(c.unit)) do
        kessel.emit.unit_var(w.id, "possessed_by", g.id)
        local captured = C.change_hands(w, g.side)
        C.note("9.601", c.guard .. " takes " .. w.id .. " from his prisoner " .. c.unit .. (captured and " (Captured)" or ""))
      end
    end
    for _, w in ipairs(a.withdrawn or {}) do
      kessel.emit.move(w.unit, { w.to })
      if C.level(kessel.units.get(w.unit)) ~= 0 then kessel.emit.unit_var(w.unit, "level", nil) end
      C.follow(kessel.units.get(w.unit))
      C.note("9.601", w.unit .. " Withdraws from the Melee in " .. a.hex .. " to " .. w.to)
    end
    for _, u in ipairs(kessel.units.at(a.hex)) do
      if C.level(u) == (a.level or 0) then
        for _, k in ipairs({ "concealed", "hidden", "pinned", "cx", "motion" }) do
          if u.vars[k] then kessel.emit.unit_var(u.id, k, nil) end
        end
        if u.vars.stun then kessel.emit.unit_var(u.id, "stun", "plus1") end
      end
    end
    C.note("9.6011", "Melee in " .. a.hex .. " resolved (the ATTACKER: the " .. tostring(M.attacker() or "side that moved first")
      .. "); its units are revealed and unpinned")
  end,
}

-- [9.601] the ATTACKER of RePh Melee is the side that moved first in the scenario just played: the
-- scenario's `attacker` if it says, else the 9.62023 table's row for its CG Date (it was the German
-- whatever the date: the British move first on Night I, Night III, Day II, Day III and Dusk)
function M.attacker()
  local given = C.var("attacker")
  if given ~= nil then return given end
  local ok, first = pcall(kessel.tables.cell, "setup_move", C.var("date") or "", "moves_first")
  return ok and first or nil
end

S.on_end("melee", function()
  for _, u in ipairs(C.on_map()) do
    if u.vars.climb then
      kessel.emit.unit_var(u.id, "level", u.vars.climb.from)
      kessel.emit.unit_var(u.id, "climb", nil)
      C.note("9.601", u.id .. " is placed in the Location it left (no choice made)")
    end
  end
  local left = M.melee_locations()
  local list = {}
  for i, l in ipairs(left) do list[i] = l.hex .. (l.level > 0 and ("/" .. l.level) or "") end
  kessel.emit.var("melees", list)
  C.record("melee", "9.6011", { locations = list, attacker = M.attacker() })
  if #list > 0 then
    C.note("9.601", #list .. " Melee Location(s) left unresolved (A11 is not part of this ruleset): " .. table.concat(list, ", ")
      .. "; the ATTACKER is the " .. tostring(M.attacker() or "side that moved first (unknown)"))
  end
end)

-- [9.602] [11.602] marker removal. Status markers are unit vars of the same name, others markers.
-- `fanatic_next` is the Fanatic status a Battle Hardening gave "for the duration of the next CG
-- scenario" [9.6112] [11.6112]: that scenario is over when the next RePh removes Fanatic markers
M.PB_MARKERS = { "sr", "ffe", "smoke", "acquired", "dm", "disrupted", "fanatic", "fanatic_next", "berserk", "wall_advantage", "hd",
  "dummy", "cloak", "concealed", "cx", "motion", "ce", "bu", "labor", "sniper" }
M.RB_MARKERS = { "ffe", "sr", "barrage", "smoke", "acquired", "dm", "disrupted", "fanatic", "fanatic_next", "berserk", "wall_advantage",
  "hd", "dummy", "cloak", "cx", "motion", "ce", "bu", "stun", "sewer", "sniper" }

local function remove_markers(kinds, case)
  local removed = {}
  local want = {}
  for _, k in ipairs(kinds) do want[k] = true end
  for _, m in ipairs(kessel.markers.all{ placed = true }) do
    if want[m.kind] then
      kessel.emit.marker(m.id)
      removed[m.kind] = (removed[m.kind] or 0) + 1
    end
  end
  for _, k in ipairs(kinds) do
    for _, u in ipairs(kessel.units.all()) do
      if u.vars[k] ~= nil then
        kessel.emit.unit_var(u.id, k, nil)
        removed[k] = (removed[k] or 0) + 1
      end
    end
  end
  -- hidden units and Equipment are placed on-map where they are (still-hidden Fortifications stay)
  -- (the engine shows them to the other side; a hidden RB Set DC stays hidden from it [11.602])
  for _, u in ipairs(C.on_map()) do
    if u.vars.hidden and case == "11.602" and u.vars.set_dc then
      C.conceal(u)
    elseif u.vars.hidden then
      kessel.emit.unit_var(u.id, "hidden", nil)
      C.reveal(u)
      if case == "11.602" then kessel.emit.unit_var(u.id, "concealed", true) end
      removed.hidden = (removed.hidden or 0) + 1
    end
  end
  -- PB: hidden entrenchments are placed on-map with the hidden units and Equipment; the other
  -- still-hidden Fortifications need not be [9.602 item 6]. RB reveals no Fortification here
  -- [11.602]. Before, a hidden foxhole stayed hidden from the enemy until 9.6073 (and for ever in
  -- a friendly Setup Area).
  if case == "9.602" then
    local entrenchment = C.ENTRENCHMENT
    for _, m in ipairs(kessel.markers.all{ placed = true }) do
      if entrenchment[m.kind] and type(m.value) == "table" and m.value.hidden then
        local nv = C.copy(m.value)
        nv.hidden = nil
        kessel.emit.marker_value(m.id, nv)
        C.reveal_marker(m)
        C.note(case, m.kind .. " in " .. m.hex .. " (hidden) is placed on the map")
        removed.hidden_entrenchment = (removed.hidden_entrenchment or 0) + 1
      end
    end
  end
  C.record("markers_removed", case, removed)
  C.note(case, "markers removed: " .. (next(removed) and table.concat(C.sorted_keys(removed), ", ") or "none"))
end

S.on_end("markers", function()
  if C.pb() then
    local kinds = { table.unpack(M.PB_MARKERS) }
    if C.upcoming_date() == "night_iii" then kinds[#kinds + 1] = "no_move" end
    remove_markers(kinds, "9.602")
  else
    -- "Sewer markers. Each unit/SW beneath such is Retained" [11.602]: a unit in a sewer (unit var
    -- `sewer`, as the other status markers) goes to the Retained box now with the SW it holds, so
    -- no Isolated Area, Escape or clearing judges it by the hex above (our reading of "Retained",
    -- the box 11.607 fills; before, the marker went and the unit stayed, Isolated if its hex was)
    for _, u in ipairs(C.on_map()) do
      if u.vars.sewer and (C.is_personnel(u) or u.type == "sw") and not u.vars.possessed_by then
        -- "Each unit/SW beneath such is Retained": a Gun is no SW and is not beneath the marker
        C.leave_guns(u, "11.602", "%s is a Gun, not beneath the Sewer marker with its possessor")
        kessel.emit.withdraw(u.id)
        C.follow(u)
        for _, x in ipairs({ u, table.unpack(C.possessed(u.id)) }) do
          kessel.emit.unit_var(x.id, "reph", { status = "retained", area = "retained_box", why = "11.602" })
          if x.vars.isolated then kessel.emit.unit_var(x.id, "isolated", nil) end
        end
        C.note("11.602", u.id .. " is beneath a Sewer marker: it is Retained, to the Retained box" .. (#C.possessed(u.id) > 0 and " with the SW it holds" or ""))
      end
    end
    remove_markers(M.RB_MARKERS, "11.602")
    -- [11.608] a Massacre is in effect "during the next CG scenario" only: the scenario it was for
    -- is over now (the flag stayed for good, so a campaign carrying it kept every later scenario
    -- under Massacre)
    if C.var("massacre") then
      kessel.emit.var("massacre", false)
      C.note("11.608", "the Massacre (A20.4) of the CG scenario just played ends with it")
    end
    -- radios and field phones leave the map [11.602]
    for _, w in ipairs(kessel.units.all{ type = "sw", location = "map" }) do
      if w.face and (w.face.weapon == "radio" or w.face.weapon == "field_phone") then
        kessel.emit.remove(w.id)
        C.note("11.602", w.id .. " (" .. w.face.weapon .. ") is removed")
      end
    end
  end
end)

-- [9.603] [11.6032] rally and unloading
local function rally(case)
  for _, u in ipairs(C.on_map()) do
    if u.vars.broken then
      kessel.emit.unit_var(u.id, "broken", nil)
      C.note(case, u.id .. " rallies automatically")
    end
  end
  for _, u in ipairs(kessel.units.all()) do
    local v = u.vars.passenger_of
    if v then
      local veh = kessel.units.get(v)
      if veh and veh.hex then
        kessel.emit.place(u.id, veh.hex)
        kessel.emit.unit_var(u.id, "level", 0)
        -- "Passenger/Rider Personnel and Equipment are unloaded": the SW a passenger holds comes
        -- out with it (it stayed off the map, held by a unit on it)
        for _, w in ipairs(C.possessed(u.id)) do
          if w.location ~= "map" or w.hex ~= veh.hex then
            kessel.emit.place(w.id, veh.hex)
            C.note(case, w.id .. " (held by " .. u.id .. ") unloads with it")
          end
        end
      end
      kessel.emit.unit_var(u.id, "passenger_of", nil)
      C.note(case, u.id .. " unloads from " .. v .. (veh and veh.hex and (" in " .. veh.hex) or ""))
    end
  end
end

-- after the last CG Date's scenario only the ">" steps are played [9.6]: the CG is over
local function last_date(case)
  if C.last_date_reached() then
    C.end_cg(case, tostring(C.var("date")) .. " was the last CG Date: the CG is over, the rest of the RePh is not played")
  end
end

S.on_end("rally", function()
  rally("9.603")
  kessel.emit.var("scenario_ended", true)
  C.note("9.603", "CG-Scenario End has occurred")
  last_date("9.6")
end)

-- [11.6142] each side's CG record of wins and losses (the AFV Withdrawal drm reads its ratio): the
-- scenario just completed is counted once its winner is known. `win_loss` holds the scenarios
-- before it (the scenario's `[vars]`, or what the campaign carried in); a scenario with no winner
-- recorded counts as completed, won and lost by nobody.
local function count_win_loss(winner)
  local rec = C.copy(C.var("win_loss", {}))
  local parts = {}
  for _, side in ipairs(C.sides()) do
    local r = C.copy(rec[side] or {})
    r.completed = (tonumber(r.completed) or 0) + 1
    if winner == side then r.wins = (tonumber(r.wins) or 0) + 1
    elseif winner ~= nil and winner ~= "none" then r.losses = (tonumber(r.losses) or 0) + 1 end
    rec[side] = r
    parts[#parts + 1] = string.format("%s %d:%d", side, tonumber(r.wins) or 0, tonumber(r.losses) or 0)
  end
  kessel.emit.var("win_loss", rec)
  local n = rec[C.sides()[1]].completed
  C.note("11.6142", string.format("CG record after %d CG scenario%s completed (wins:losses): %s",
    n, n == 1 and "" or "s", table.concat(parts, ", ")))
end

-- [11.6031] the scenario's winner comes from its Victory Conditions (11.6235, not in the text):
-- the scenario sets `scenario_winner`; units Eliminated after this step do not count for it.
S.on_end("victory_rally", function()
  local w = C.var("scenario_winner")
  C.record("victory", "11.6031", { winner = w or "none" })
  C.note("11.6031", "CG scenario winner: " .. (w or "none recorded"))
  kessel.emit.var("victory_determined", true)
  count_win_loss(w)
  rally("11.6032")
  kessel.emit.var("scenario_ended", true)
  last_date("11.6")
end)

return M
