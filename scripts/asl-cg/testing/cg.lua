-- Builders for RePh rule tests: counters, a letters-numbered map, a position at a given step,
-- and finders for notes and records. Test support only: required by tests, never by the rules.
local C = require("rules.common")
local T = { expect = kessel.expect, C = C }

local function with(u, extra)
  for k, v in pairs(extra or {}) do
    if k == "vars" then
      u.vars = u.vars or {}
      for vk, vv in pairs(v) do u.vars[vk] = vv end
    else
      u[k] = v
    end
  end
  return u
end

local function C_faces(face)
  local hs = ({ ["6-4-8"] = "3-4-8", ["4-5-8"] = "2-4-8", ["4-5-7"] = "2-4-7", ["4-6-8"] = "2-4-8", ["4-6-7"] = "2-4-7",
    ["4-4-7"] = "2-3-7", ["4-3-6"] = "2-2-6", ["8-3-8"] = "3-3-8", ["4-2-6"] = "2-2-6", ["4-4-7r"] = "2-3-7", ["5-2-7"] = "2-2-7", ["6-2-8"] = "3-2-8" })[face]
  return { (face:gsub("r$", "")), hs }
end
-- a squad ("4-6-7"); step 1 makes it a half-squad of that squad
function T.squad(id, side, face, at, extra)
  return with({ id = id, side = side, type = "squad", faces = C_faces(face), at = at, vars = { squad_face = face } }, extra)
end
function T.hs(id, side, face, at, extra)
  local u = T.squad(id, side, face, at, extra)
  u.step = 1
  return u
end
function T.leader(id, side, label, at, extra)
  local m, sign, d = label:match("^(%d+)([%-%+])(%d+)$")
  local drm = tonumber(d) * (sign == "-" and -1 or 1)
  return with({ id = id, side = side, type = "leader", faces = { { morale = tonumber(m), drm = drm, label = label } }, at = at }, extra)
end
function T.hero(id, side, at, extra)
  return with({ id = id, side = side, type = "hero", faces = { "1-4-9" }, at = at }, extra)
end
function T.crew(id, side, at, extra)
  return with({ id = id, side = side, type = "crew", faces = { "2-2-8" }, at = at }, extra)
end
function T.sw(id, side, weapon, at, extra)
  local d = ({ LMG = { 1, 2 }, MMG = { 4, 2 }, HMG = { 5, 3 }, LtMTR = { 1, 2 }, FT = { 1, 2 }, DC = { 1, 0 } })[weapon] or { 1, 2 }
  return with({ id = id, side = side, type = "sw", faces = { { weapon = weapon, pp = d[1], repair = d[2] } }, at = at }, extra)
end
function T.vehicle(id, side, name, at, extra)
  return with({ id = id, side = side, type = "vehicle", faces = { { name = name } }, at = at }, extra)
end
function T.gun(id, side, name, at, extra)
  return with({ id = id, side = side, type = "gun", faces = { { weapon = name } }, at = at }, extra)
end

-- a position: map (letters numbering, open ground), units, markers, vars, the step and module
function T.setup(spec)
  local map = spec.map or {}
  map.columns = map.columns or 12
  map.rows = map.rows or 12
  map.numbering = "letters"
  map.default = map.default or "open"
  local vars = spec.vars or {}
  if vars.scenario_ended == nil then vars.scenario_ended = true end
  -- valued markers are set-up markers with a value (`hex` for `at`); a hidden Fortification is
  -- hidden from the other sides from the start, as the ruleset's setup hook does in a scenario
  local markers = {}
  for _, m in ipairs(spec.markers or {}) do markers[#markers + 1] = m end
  for _, m in ipairs(spec.valued or {}) do
    local hidden = type(m.value) == "table" and m.value.hidden == true or nil
    markers[#markers + 1] = { kind = m.kind, side = m.side, at = m.hex, other = m.other, value = m.value, hidden_from = hidden }
  end
  -- the module, and the readings a test sets (`options = { hip_mortar_51mm = true }`)
  local options = { module = spec.module or "pb" }
  for k, v in pairs(spec.options or {}) do options[k] = v end
  kessel.setup{ map = map, units = spec.units or {}, markers = markers, vars = vars,
    mode = not spec.main and (spec.module == "rb" and "refit_rb" or "refit") or nil, step = spec.step or (spec.main and "scenario" or (spec.module == "rb" and "markers" or "melee")),
    options = options, turn = 1, last_turn = 1, seed = spec.seed or 1 }
end

function T.unit(id) return kessel.units.get(id) end

-- takes `end_step` (the current step's resolution) and returns its events
function T.resolve()
  local ok, events = kessel.act{ kind = "end_step" }
  return T.expect.accepted(ok, events)
end

function T.note(events, text)
  for _, e in ipairs(events) do
    if e.event == "note" and e.text:find(text, 1, true) then return e end
  end
  return nil
end
function T.has_note(events, text, what)
  local n = T.note(events, text)
  if not n then
    local all = {}
    for _, e in ipairs(events) do if e.event == "note" then all[#all + 1] = e.text end end
    error((what or "note") .. ": no note with `" .. text .. "` in:\n  " .. table.concat(all, "\n  "), 2)
  end
  return n
end
function T.record(events, kind)
  for _, e in ipairs(events) do
    if e.event == "record" and e.kind == kind then return e.fields, e end
  end
  return nil
end
function T.replays() T.expect.eq(kessel.replay_hash(), kessel.state_hash(), "replay without rules") end

return T
