-- Sallow Crossing: a small operational game written from the docs alone (a third game system).
-- The Crown attacks east over the river Sallow; the League holds the towns beyond it.
-- Rule cases are "S1".."S12"; README.md in this folder is the rulebook.

kessel.ruleset{ name = "sallow", sides = { "crown", "league" },
  description = "The Crown forces the Sallow; the League holds the towns" }

kessel.terrain{ id = "clear", name = "Clear", color = "#e4dcb0" }
kessel.terrain{ id = "forest", name = "Forest", color = "#5d8a4a", marks = "trees" }
kessel.terrain{ id = "hills", name = "Hills", color = "#b8976a" }
kessel.terrain{ id = "town", name = "Town", color = "#c9b8a8" }
kessel.hexside_kind{ id = "river", name = "River", kind = "feature", color = "#3a6fc8" }
kessel.hexside_kind{ id = "road", name = "Road", kind = "link", color = "#8a6240" }
kessel.place_kind{ id = "city", name = "City", symbol = "square" }
kessel.constant("side_style", {
  crown = { name = "Crown", color = "#c8504a" },
  league = { name = "League", color = "#5a7fc0" },
})

kessel.unit_type{ id = "infantry", class = "foot", name = "Infantry", symbol = "infantry" }
kessel.unit_type{ id = "armour", class = "tracks", name = "Armour", symbol = "armour" }

-- [S2] movement costs; [S12] the frozen river is a variant of the river entry
kessel.movement{
  classes = { "foot", "tracks" },
  terrain = {
    clear = 1,
    town = 1,
    forest = { foot = 2, tracks = 3, rule = "S2" },
    hills = { default = 2, rule = "S2" },
  },
  hexsides = { river = { default = 2, rule = "S2" } },
  links = { road = { default = 0.5, bridges = { "river" } } },
}

kessel.option{ id = "frozen_river", type = "bool", default = false, rule = "S12",
  description = "The Sallow is frozen: no MP to cross it, no combat shift, no block to zones of control" }
kessel.movement{ when = { frozen_river = true }, hexsides = { river = { default = 0, rule = "S12" } } }

-- [S5] [S7] the combat results table: one die, ratio odds, higher rolls favour the attacker
kessel.results_table{
  id = "crt", kind = "ratio", rule = "S7", description = "Sallow combat results",
  columns = { "1-2", "1-1", "2-1", "3-1", "4-1", "5-1" },
  rows = {
    { "AL", "AL", "AL", "--", "EX", "DR" },   -- roll 1
    { "AL", "AL", "--", "EX", "DR", "DR" },   -- roll 2
    { "AL", "--", "EX", "DR", "DR", "D1R" },  -- roll 3
    { "--", "EX", "DR", "DR", "D1R", "D1R" }, -- roll 4
    { "EX", "DR", "DL", "D1R", "D1R", "D1R" },-- roll 5
    { "DR", "DL", "D1R", "D1R", "D1R", "D1R" },-- roll 6
  },
}

-- [S1] the sequence of play
kessel.sequence{
  { id = "crown_move", name = "Crown movement", side = "crown", rule = "S1" },
  { id = "crown_combat", name = "Crown combat", side = "crown", rule = "S1" },
  { id = "league_move", name = "League movement", side = "league", rule = "S1" },
  { id = "league_combat", name = "League combat", side = "league", rule = "S1" },
}

require("rules.common")
require("rules.move")
require("rules.combat")
require("rules.supply")
require("rules.victory")
require("rules.ai")
