-- Builders for 8x8 rule-test positions: counters (a four-step infantry division), a board with a supplying Soviet leader, action shorthands, and the listed actions of a kind.
-- Test support only: required by rule tests, never by the rules.

local expect = kessel.expect
local V = require("rules.victory")

local function pz(id, at, face, extra)
  local u = { id = id, side = "german", type = "panzer", formation = "F" .. id, faces = { face or "4-4-10", "2-2-10" }, at = at }
  for k, v in pairs(extra or {}) do u[k] = v end
  return u
end
local function inf(id, at) -- German infantry division, four steps
  return { id = id, side = "german", type = "infantry", formation = id, faces = { "9-9-7", "4-4-7", "2-2-7", "1-1-7" }, at = at }
end
local function rifle(id, at, face)
  return { id = id, side = "soviet", type = "rifle", faces = { face or "2-2-6" }, at = at }
end
local function leader(id, at, rating)
  return { id = id, side = "soviet", type = "leader", faces = { "0-" .. rating .. "-10" }, attrs = { rating = rating }, at = at }
end

-- An 8x8 position; a Soviet leader near the east edge keeps Soviet units supplied [11.2].
local function board(units, extra)
  extra = extra or {}
  local list = { table.unpack(units) }
  if not extra.bare then list[#list + 1] = leader("sup", "0706", 5) end
  kessel.setup{ map = extra.map or { columns = 8, rows = 8 }, units = list, step = extra.step or "german_combat",
    turn = extra.turn or 7, options = extra.options, vars = extra.vars, markers = extra.markers }
end

local function attack(units, targets) return kessel.act{ kind = "attack", units = units, targets = targets } end
local function choose(c, units) return kessel.act{ kind = "choose", choice = c, units = units } end
local function retreat(units, path) return kessel.act{ kind = "retreat", units = units, path = path } end

-- The legal actions of one kind for a side, and a check that each of them validates.
local function offered(side, kind)
  local out = {}
  for _, a in ipairs(kessel.legal(side)) do
    if a.kind == kind then
      expect.truthy(kessel.validate(a), "an offered " .. kind .. " is legal")
      out[#out + 1] = a
    end
  end
  return out
end

local function has_retreat(list, units, path)
  for _, a in ipairs(list) do
    if table.concat(a.units, ",") == table.concat(units, ",") and table.concat(a.path, ",") == table.concat(path, ",") then
      return true
    end
  end
  return false
end

return {
  expect = expect,
  V = V,
  pz = pz,
  inf = inf,
  rifle = rifle,
  leader = leader,
  board = board,
  attack = attack,
  choose = choose,
  retreat = retreat,
  offered = offered,
  has_retreat = has_retreat,
}
