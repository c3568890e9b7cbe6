-- [7.3] German divisional integrity. A panzer division (three regiments) or a motorized division
-- (two regiments; SS Das Reich three) whose regiments are all in one hex with no other combat unit
-- doubles each regiment's attack, defence and overrun strength. Once any regiment of the division
-- has been eliminated the division never regains it. Under WBC09 #10 the independent regiments GD
-- and Lehr may share the hex of a two-regiment motorized division without breaking it.
--
-- Nothing here is stored: integrity is read from the units' positions and losses each time.
local C = require("rules.common")
local I = {}

local DIVISION_TYPES = { panzer = true, rifle_mot = true, motorized = true }

local function independent(u) return (u.attrs and u.attrs.independent or 0) ~= 0 end

-- Every unit (wherever it is) of `u`'s division, or nil when `u` is not a regiment of a panzer or
-- motorized division.
function I.division(u)
  if u.side ~= C.GERMAN or not DIVISION_TYPES[u.type] or independent(u) then return nil end
  if not u.formation or u.formation == "" then return nil end
  local members = kessel.units.all{ side = C.GERMAN, formation = u.formation }
  if #members < 2 then return nil end
  return members
end

-- Has the division of `u` lost a regiment for good? [7.3]
function I.broken_for_good(members)
  for _, m in ipairs(members) do
    if m.location == "eliminated" or m.location == "removed" then return true end
  end
  return false
end

-- Is `u` a regiment of an intact division standing alone in its hex? Returns true, or false with
-- a short explanation. `without_riders`: judge the hex as if the units retreated onto it this
-- phase were not there (a defending hex [9.73]: they add nothing to its defence, so a regiment
-- that retreated onto the rest of its division does not complete it, and a unit of another
-- formation that retreated onto an intact division does not break it).
function I.intact(u, without_riders)
  local members = I.division(u)
  if not members then return false, "not a regiment of a panzer or motorized division" end
  if I.broken_for_good(members) then return false, u.formation .. " has lost a regiment" end
  for _, m in ipairs(members) do
    if m.location ~= "map" or m.hex ~= u.hex then
      return false, "not every regiment of " .. u.formation .. " is in " .. tostring(u.hex)
    end
    if without_riders and m.flags.retreated_onto then
      return false, C.name(m) .. " retreated onto " .. tostring(u.hex) .. " this phase and adds nothing to its defence [9.73]"
    end
  end
  local size = #members
  local two_regiment_mot = size == 2 and members[1].type == "motorized"
  for _, other in ipairs(kessel.units.at(u.hex)) do
    if without_riders and other.flags.retreated_onto then
      -- [9.73] not there for the defence of the hex
    elseif other.formation ~= u.formation and C.is_combat_unit(other) then
      local excused = two_regiment_mot and independent(other)
        and C.option("wbc09_10_integrity_with_gd_lehr")
      if not excused then
        return false, C.name(other) .. " shares the hex of " .. u.formation
      end
    end
  end
  return true
end

return I
