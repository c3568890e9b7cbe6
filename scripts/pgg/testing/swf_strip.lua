-- The 30x8 strip of the reinforcement tests: a south-edge railway (row 8) at 0508 and 1208, one
-- east of them at 2008 (via row 6); provisional entrances P1-P6 and the South-Western Front
-- entrance Z at 0808, so 1208 and 2008 are its legal entry hexes [14.1] [14.2].
-- Test support only: required by rule tests, never by the rules.

local S = {}

-- A face-down rifle division waiting in the reserve (the rifle pool holds one 3-3-6).
function S.reserve(id) return { id = id, name = id, side = "soviet", type = "rifle", hidden = true, pool = "rifle" } end

-- The strip's map; `extra` adds fields (e.g. `terrain`).
function S.map(extra)
  local rail = {}
  for c = 5, 20 do rail[#rail + 1] = string.format("%02d06", c) end
  rail[#rail + 1] = "2007"; rail[#rail + 1] = "2008"
  local map = { columns = 30, rows = 8,
    links = { { kind = "railway", path = { "0506", "0507", "0508" } }, { kind = "railway", path = rail },
              { kind = "railway", path = { "1206", "1207", "1208" } } },
    areas = { P1 = { "0301", "0401" }, P2 = { "1001" }, P3 = { "2001" }, P4 = { "1208" }, P5 = { "0808" }, P6 = { "0308" }, Z = { "0808" } } }
  for k, v in pairs(extra or {}) do map[k] = v end
  return map
end

-- The strip with `units`, at `step` of `turn` (default 4); `extra` overrides any field of the spec.
function S.board(units, step, turn, extra)
  local spec = { map = S.map(), units = units, step = step, turn = turn or 4, pools = { rifle = { "3-3-6" } } }
  for k, v in pairs(extra or {}) do spec[k] = v end
  kessel.setup(spec)
end

return S
