-- Builders for the 10x10 positions of the reference-situation tests (tests/reference_situations*):
-- counters at their usual faces, a German Combat Phase of turn 7 by default, notes in events.
-- Test support only: required by rule tests, never by the rules.

local B = {}

local function with(u, extra)
  for k, v in pairs(extra or {}) do u[k] = v end
  return u
end

function B.pz(id, at, face, extra)
  return with({ id = id, name = id, side = "german", type = "panzer", formation = "F" .. id,
    faces = { face or "4-4-10", "2-2-10" }, at = at }, extra)
end
function B.inf(id, at, extra)
  return with({ id = id, name = id, side = "german", type = "infantry", formation = id,
    faces = { "9-9-7", "4-4-7", "2-2-7", "1-1-7" }, at = at }, extra)
end
function B.cav(id, at)
  return { id = id, name = id, side = "german", type = "cavalry", formation = "1 Cav", faces = { "4-4-5", "2-2-5" }, at = at }
end
function B.rifle(id, at, face, extra)
  return with({ id = id, name = id, side = "soviet", type = "rifle", faces = { face or "2-2-6" }, at = at }, extra)
end
function B.leader(id, at, rating, extra)
  return with({ id = id, name = id, side = "soviet", type = "leader", faces = { "0-" .. rating .. "-10" },
    attrs = { rating = rating }, at = at }, extra)
end

-- A 10x10 map in the German Combat Phase of turn 7; `extra` overrides any field of the spec.
function B.setup(units, extra)
  local spec = { map = { columns = 10, rows = 10 }, units = units, step = "german_combat", turn = 7 }
  for k, v in pairs(extra or {}) do spec[k] = v end
  kessel.setup(spec)
end

-- The first note whose text holds `text`, or nil; every note as one line (for failure messages).
function B.note(events, text)
  for _, e in ipairs(events or {}) do if e.text and e.text:find(text, 1, true) then return e end end
  return nil
end
function B.all_notes(events)
  local t = {}
  for _, e in ipairs(events or {}) do if e.text then t[#t + 1] = "[" .. tostring(e.rule) .. "] " .. e.text end end
  return table.concat(t, " | ")
end

function B.pending() return kessel.game.var("pending") end
-- A unit's hex, or its location off the map.
function B.where(id)
  local u = kessel.units.get(id)
  return u.location == "map" and u.hex or u.location
end

-- Actions as the situations play them.
function B.attack(units, targets) return kessel.act{ kind = "attack", units = units, targets = targets } end
function B.choose(c, units) return kessel.act{ kind = "choose", choice = c, units = units } end
function B.retreat(units, path) return kessel.act{ kind = "retreat", units = units, path = path } end
function B.advance(units, path) return kessel.act{ kind = "advance", units = units, path = path } end
function B.move(units, path) return kessel.act{ kind = "move", units = units, path = path } end

-- The advances on offer for `side`, as "units>path" sorted (skip left out).
function B.advances(side)
  local out = {}
  for _, a in ipairs(kessel.legal(side)) do
    if a.kind == "advance" and not a.skip then
      out[#out + 1] = table.concat(a.units, ",") .. ">" .. table.concat(a.path, "-")
    end
  end
  table.sort(out)
  return table.concat(out, " ")
end

return B
