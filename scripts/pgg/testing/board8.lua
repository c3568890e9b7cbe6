-- Builders for 8x8 rule-test positions: German and Soviet counters, a board with a supplying Soviet leader, action shorthands, notes in events.
-- Test support only: required by rule tests, never by the rules.

local expect = kessel.expect
local K = require("rules.combat")
local Z = require("rules.zoc")
local S = require("rules.supply")
local L = require("rules.leaders")
local M = require("rules.movement")
local V = require("rules.victory")

-- Counters ---------------------------------------------------------------------------------------
local function pz(id, at, face, extra)
  local u = { id = id, name = id, side = "german", type = "panzer", formation = "F" .. id,
    faces = { face or "4-4-10", "1-1-10" }, at = at }
  for k, v in pairs(extra or {}) do u[k] = v end
  return u
end
local function rifle(id, at, face, extra)
  local u = { id = id, name = id, side = "soviet", type = "rifle", faces = { face or "1-1-6" }, at = at }
  for k, v in pairs(extra or {}) do u[k] = v end
  return u
end
local function leader(id, at, rating, extra)
  local u = { id = id, name = id, side = "soviet", type = "leader", faces = { "0-" .. rating .. "-10" },
    attrs = { rating = rating }, at = at }
  for k, v in pairs(extra or {}) do u[k] = v end
  return u
end

-- An 8x8 position with a rating-5 Soviet leader in 0706 keeping Soviet units in supply [11.2].
local function board(units, extra)
  extra = extra or {}
  local list = { table.unpack(units) }
  if not extra.bare then list[#list + 1] = leader("sup", "0706", 5) end
  local spec = { map = { columns = 8, rows = 8 }, units = list, step = "german_combat", turn = 7 }
  for k, v in pairs(extra) do if k ~= "bare" then spec[k] = v end end
  kessel.setup(spec)
end

local function attack(units, targets) return kessel.act{ kind = "attack", units = units, targets = targets } end
local function choose(c, units) return kessel.act{ kind = "choose", choice = c, units = units } end
local function retreat(units, path) return kessel.act{ kind = "retreat", units = units, path = path } end
local function mv(ids, path) return kessel.act{ kind = "move", units = type(ids) == "table" and ids or { ids }, path = path } end
local function note(events, text)
  for _, e in ipairs(events) do
    if e.event == "note" and e.text and e.text:find(text, 1, true) then return e end
  end
  return nil
end
local function end_phases(n)
  for _ = 1, n do expect.accepted(kessel.act{ kind = "end_phase" }) end
end

return {
  expect = expect,
  K = K,
  Z = Z,
  S = S,
  L = L,
  M = M,
  V = V,
  pz = pz,
  rifle = rifle,
  leader = leader,
  board = board,
  attack = attack,
  choose = choose,
  retreat = retreat,
  mv = mv,
  note = note,
  end_phases = end_phases,
}
