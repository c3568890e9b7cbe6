-- House rule G1, "Guards": a Soviet rifle division defending in a major city hex adds 1 to its
-- defence, after the rules' own doubling and halving [9.3] [11.3]. Off by default; the profile
-- guards.toml turns it on over `standard`.
kessel.option{ id = "guards", type = "bool", default = false,
  description = "House rule G1: a Soviet rifle division defending in a major city adds 1 to its defence",
  rule = "G1" }

-- PGG's combat module takes a variant's defence modifiers: every attack, overrun and odds query
-- sums them with the rules' own (docs/lua-api.md, "PGG's extension points").
local combat = require("rules.combat")

combat.add_defence_modifier(function(unit, hex, defence)
  if not kessel.game.option("guards") then return nil end
  -- an untried division counts 0 until it is revealed [12.2], and one revealed as 0 never defends [12.3]
  if unit.side ~= "soviet" or unit.type ~= "rifle" or defence <= 0 then return nil end
  local place = kessel.map.place(hex)
  if not (place and place.kind == "major_city") then return nil end
  return 1, { rule = "G1", message = string.format("%s: Guards in %s, defence +1 (%d)", unit.name or unit.id, place.name, defence + 1) }
end)

-- `kessel odds A D --flag major_city --flag guards`: the defender is such a division. PGG's own
-- odds hook, registered first, lists the flag and leaves it to this one, which gets its totals.
combat.add_odds_flag("guards")
kessel.on("odds", function(attack, defence, flags)
  local set = {}
  for _, f in ipairs(flags) do set[f] = true end
  if not set.guards then return {} end
  if not kessel.game.option("guards") then
    return { modifiers = { { rule = "G1", message = "house rule G1 is off (--option guards=true, or the guards profile): no effect" } } }
  end
  -- G1 holds in a major city only: the flag alone says nothing of where the defender stands
  if not set.major_city then
    return { modifiers = { { rule = "G1", message = "Guards hold in a major city only: add --flag major_city; no effect" } } }
  end
  return { defence = defence + 1, modifiers = { { rule = "G1", message = "Guards: a rifle division in a major city, defence +1" } } }
end)
