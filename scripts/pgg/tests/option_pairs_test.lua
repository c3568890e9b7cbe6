-- Options in combination, as a tournament GM switches them: each test puts two options that touch
-- the same rule case (or the same moment of play) in one position and checks the engine with both
-- on, each alone and both off.

local expect = kessel.expect
local K = require("rules.combat")

local function reg(id, formation, face, at)
  local a, d, m = face:match("(%d+)-(%d+)-(%d+)")
  return { id = id, side = "german", type = "motorized", formation = formation,
    faces = { face, math.max(1, a // 2) .. "-" .. math.max(1, d // 2) .. "-" .. m }, at = at }
end

-- [7.3] WBC09 #9 with the source-conflict option supply_halving_before_integrity: alone, the
-- option halves each 3 to 1 before doubling (2 + 2); WBC09 #9 rules that the doubling comes first
-- (6 halved 3, each), so with both on the tournament reading stands, as WBC09 #5 stands over the
-- optional rule [10.4].
kessel.test("pair_wbc09_09_overrides_supply_halving_before_integrity", function()
  local oos = { in_supply = function() return false end }
  local function attack(options)
    kessel.setup{ map = { columns = 8, rows = 8 }, step = "german_combat", turn = 7, options = options,
      units = { reg("m1", "14 Mot", "3-3-10", "0303"), reg("m2", "14 Mot", "3-3-10", "0303"),
        { id = "sov", side = "soviet", type = "leader", faces = { "0-5-10" }, attrs = { rating = 5 }, at = "0706" } } }
    local us = { kessel.units.get("m1"), kessel.units.get("m2") }
    return (K.attack_total(us, oos)), K.defence_of({ "0303" }, oos), (K.attack_total(us, { in_supply = oos.in_supply, overrun = true }))
  end
  local cases = {
    { {}, 6, 6, 3, "both off: [7.3] doubles first" },
    { { wbc09_09_integrity_before_halving = true }, 6, 6, 3, "WBC09 #9 alone: the same" },
    { { supply_halving_before_integrity = true }, 4, 4, 2, "source-conflict option alone: halve first" },
    { { supply_halving_before_integrity = true, wbc09_09_integrity_before_halving = true }, 6, 6, 3,
      "both on: WBC09 #9 decides" },
  }
  for _, c in ipairs(cases) do
    local att, def, ovr = attack(c[1])
    expect.eq(att, c[2], c[5] .. " (attack)")
    expect.eq(def, c[3], c[5] .. " (defence)")
    expect.eq(ovr, c[4], c[5] .. " (overrun)")
  end
end)
