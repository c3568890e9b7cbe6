-- [8] Zones of control. Every unit, leaders and untried units included, exerts a zone into the six
-- hexes around it, except when disrupted [6.6]; zones are rigid [6.22], extend across rivers but
-- not across lake hexsides [8].
local C = require("rules.common")
local Z = {}

-- Hexes in the zone of control of `side`'s units (a hexset).
function Z.zoc_of(side)
  local sources = {}
  for _, u in ipairs(C.units_of(side)) do
    if not C.disrupted(u) then sources[#sources + 1] = u.hex end
  end
  return kessel.paths.zoc{ hexes = sources, blocked_by = { "lake" } }
end

-- Hexes in an enemy zone of control for units of `side`.
function Z.enemy_zoc(side) return Z.zoc_of(C.other(side)) end

-- Per-hex text naming the enemy units whose zone covers each hex (for rulings such as
-- "entered enemy ZOC of 25 Pz (7 Pz) at 1216").
function Z.zoc_messages(side)
  local out = {}
  for _, u in ipairs(C.units_of(C.other(side))) do
    if not C.disrupted(u) then
      for _, n in ipairs(kessel.hex.neighbors(u.hex)) do
        if not kessel.map.has_side(u.hex, n, "lake") and out[n] == nil then
          out[n] = "entered enemy ZOC of " .. C.name(u) .. " at " .. u.hex
        end
      end
    end
  end
  return out
end

return Z
