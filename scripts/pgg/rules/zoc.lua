-- [8] Zones of control. Every unit, leaders and untried units included, exerts a zone into the six
-- hexes around it, except when disrupted [6.6]; zones are rigid [6.22], extend across rivers but
-- not across lake hexsides [8].
local C = require("rules.common")
local Z = {}

-- Hexes in the zone of control of `side`'s units (a hexset).
-- (Built from the occupied hexes, looking at units one by one only where a disrupted unit stands:
-- this is called for every movement field, supply line and retreat.)
function Z.zoc_of(side)
  local sources = kessel.units.occupied(side)
  local disrupted = kessel.units.all{ side = side, location = "map", flag = "disrupted" }
  if #disrupted > 0 then
    local dead = {}
    for _, u in ipairs(disrupted) do
      if dead[u.hex] == nil then
        local all = true
        for _, x in ipairs(kessel.units.at(u.hex)) do
          if x.side == side and not C.disrupted(x) then all = false end
        end
        dead[u.hex] = all
      end
    end
    local kept = {}
    for _, h in ipairs(sources) do if not dead[h] then kept[#kept + 1] = h end end
    sources = kept
  end
  return kessel.paths.zoc{ hexes = sources, blocked_by = { "lake" } }
end

-- Hexes in an enemy zone of control for units of `side`.
function Z.enemy_zoc(side) return Z.zoc_of(C.other(side)) end

-- Per-hex text naming the enemy unit whose zone covers each hex ("100 Rifle at 0105"), for
-- Z.stop_text.
function Z.zoc_messages(side)
  local out = {}
  for _, u in ipairs(C.units_of(C.other(side))) do
    if not C.disrupted(u) then
      for _, n in ipairs(kessel.hex.neighbors(u.hex)) do
        if not kessel.map.has_side(u.hex, n, "lake") and out[n] == nil then
          out[n] = C.name(u) .. " at " .. u.hex
        end
      end
    end
  end
  return out
end

-- Whose zone covers `hex` for units of `side`: "the zone of control of 100 Rifle at 0105", or "an
-- enemy zone of control" when no unit is found. `texts` is Z.zoc_messages(side) when the caller
-- has it.
function Z.zone_text(side, hex, texts)
  local who = (texts or Z.zoc_messages(side))[hex]
  if who then return "the zone of control of " .. who end
  return "an enemy zone of control"
end

-- Why a move stops at `hex` [6.22]: "movement ends at 0104, in the zone of control of 100 Rifle at
-- 0105".
function Z.stop_text(side, hex, texts)
  return string.format("movement ends at %s, in %s", hex, Z.zone_text(side, hex, texts))
end

-- [6.22] A leader enters an enemy ZOC only together with an attack-capable unit. The extended
-- sequence of play gives this under its movement-and-ZOC case [6.22] (pgg-facts.md lists it with
-- the zones [8] without a case number), so every refusal and note of it cites 6.22, from here.
Z.ESCORT_RULE = "6.22"
Z.ESCORT_TEXT = "a leader may enter an enemy ZOC only together with an attack-capable unit"

return Z
