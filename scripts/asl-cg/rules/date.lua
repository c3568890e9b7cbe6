-- RePh step 9.612 New CG Date and SAN Adjustment (PB); 11.612 New CG Day, SAN Adjustment and
-- 11.6123 Booby Trap Deactivation (RB).
local C = require("rules.common")
local S = require("rules.sequence")
local A = require("rules.areas")
local D = {}

-- the date after `date` in the module's list, or nil after the last
function D.next_date(date)
  local list = kessel.game.constant(C.pb() and "pb_dates" or "rb_days")
  for i, d in ipairs(list) do if d == date then return list[i + 1] end end
  return nil
end

-- [9.61222] does the German Control the building in II13 (every hex of it, ground level)? A game
-- variable or the scenario's [vars] `german_controls_ii13` says so for a map without II13. A hex
-- emptied since 9.605 (its last unit Escaped or was Eliminated) keeps the Control 9.605 found
-- [9.6131]; the second value says so
function D.germans_hold_ii13()
  local forced = C.var("german_controls_ii13")
  if forced ~= nil then return forced end
  if not kessel.hex.valid("II13") then return false end
  local p = kessel.map.place("II13")
  local vacated = false
  for _, h in ipairs(p and p.hexes or { "II13" }) do
    local side, was = A.controller_since_9605(h)
    if side ~= "german" then return false end
    vacated = vacated or was
  end
  return true, vacated
end

-- one side's SAN adjustment dr [9.61221] [9.61222] [11.6122]
function D.adjust_san(side, case, drop)
  local recorded = C.get_in("san", side)
  local san = recorded or 0
  local low = C.pb() and 2 or 1
  if (C.pb() and san < 2) or (not C.pb() and san == 0) then
    C.set_in("san", side, 2)
    -- the raise is its own case, not the dr's [9.6122] [11.6122]
    C.note(C.pb() and "9.6122" or "11.6122", side .. " SAN " .. san .. " is raised to 2 (no points spent)"
      .. (recorded == nil and "; no SAN was recorded for the " .. side .. " (scenario var `san`): 0 was taken" or ""))
    return
  end
  if san < 4 then return end
  local roll = C.dr("san")
  local final = roll + (san - 4)
  local new = final >= 5 and san - drop or san
  C.record("san", case, { side = side, dr = roll, drm = san - 4, final = final, before = san, after = new })
  C.note(case, string.format("%s SAN adjustment dr %d%+d = %d: SAN %d -> %d (%+d: SAN %d minus 4)", side, roll, san - 4, final, san, new,
    san - 4, san))
  if new ~= san then C.set_in("san", side, new) end
  return low
end

S.on_end("date_san", function()
  local case = C.pb() and "9.6121" or "11.6121"
  local date = C.var("date")
  local nxt = C.upcoming_date()
  if nxt == nil then
    if C.last_date_reached() then
      -- no CG Date after this one: the CG is over (a RePh reached past 9.603 [9.6])
      C.end_cg(case, tostring(date) .. " was the last CG Date: there is no new CG Date; the CG is over")
      return
    end
    -- a date this module does not list: kept, and said so (no date is made of nothing)
    C.note(case, "`" .. tostring(date) .. "` is no CG Date of the " .. C.module():upper() .. " list: the CG Date is unchanged")
    nxt = date
  end
  kessel.emit.var("previous_date", date)
  kessel.emit.var("date", nxt)
  -- the scenario's next_date is spent once the CG Date has moved on to it: cleared to nothing, the
  -- scenario's [vars] value showed through again, so an Idle Day's new pass of 11.612 [11.6121]
  -- "moved" to the same CG Day (19 Oct after 19 Oct) and the CG never went on
  if C.var("next_date") ~= nil then kessel.emit.var("next_date", false) end
  C.note(case, "new CG Date: " .. tostring(nxt))
  if C.pb() then
    D.adjust_san("british", "9.61221", 2)
    local holds, vacated = D.germans_hold_ii13()
    if holds then
      C.note("9.61222", "the Germans Control the building in II13" .. (vacated
        and " (vacated since 9.605, it stays German-Controlled: 9.6131)" or "") .. ": German SAN unadjusted")
      if C.get_in("san", "german", 0) < 2 then D.adjust_san("german", "9.6122", 2) end
    else
      D.adjust_san("german", "9.61222", 2)
    end
  else
    for _, side in ipairs(C.sides()) do D.adjust_san(side, "11.6122", 1) end
    -- [11.6123] Booby Trap Level A or B: an Original dr of 6 lowers it one level
    local level = C.var("booby_trap")  -- a scenario's [vars] Level until the game sets one
    if level == "A" or level == "B" then
      local roll = C.dr("booby_trap")
      local new = roll == 6 and (level == "A" and "B" or "C") or level
      C.note("11.6123", "Booby Trap deactivation dr " .. roll .. ": Level " .. level .. " -> " .. new)
      -- written as a game variable even when unchanged, so a campaign carries it (as the SAN)
      if new ~= level or kessel.game.var("booby_trap") == nil then kessel.emit.var("booby_trap", new) end
    end
  end
  -- the SAN is now the new CG Date's: written as a game variable even when no adjustment changed
  -- it, so a campaign carries it (a scenario's own [vars] SAN is only the starting value)
  if kessel.game.var("san") == nil and C.var("san") ~= nil then kessel.emit.var("san", C.copy(C.var("san"))) end
end)

return D
