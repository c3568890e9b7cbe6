-- Ridge: a small two-sided hex game. North attacks over a stream toward the town of Kettle;
-- South holds. Rule cases are "R1".."R9".

kessel.ruleset{ name = "ridge", sides = { "north", "south" },
  description = "North storms the ridge; South holds Kettle" }

kessel.terrain{ id = "plain", name = "Plain", color = "#e0d8a8" }
kessel.terrain{ id = "hills", name = "Hills", color = "#b89a68" }
kessel.terrain{ id = "marsh", name = "Marsh", color = "#8fb0a0", marks = "marsh" }
kessel.hexside_kind{ id = "stream", kind = "feature", color = "#3a70c8" }
kessel.hexside_kind{ id = "track", kind = "link", color = "#7a5a3a" }
kessel.place_kind{ id = "town", name = "Town", symbol = "square" }
kessel.constant("side_style", {
  north = { name = "North", color = "#9aa0b0" },
  south = { name = "South", color = "#c8a060" },
})

kessel.unit_type{ id = "foot", class = "foot", name = "Foot", symbol = "infantry" }
kessel.unit_type{ id = "horse", class = "mounted", name = "Horse", symbol = "cavalry" }

-- [R2] movement costs
kessel.movement{
  classes = { "foot", "mounted" },
  terrain = {
    plain = 1,
    hills = { foot = 2, mounted = 3 },
    marsh = { foot = 3, mounted = "prohibited", rule = "R2", message = "horse may not enter marsh" },
  },
  hexsides = { stream = { default = 1, rule = "R2" } },
  links = { track = { default = 0.5, bridges = { "stream" } } },
}

-- [R5] combat: attack strength minus defence strength
kessel.results_table{
  id = "crt", kind = "differential", rule = "R5",
  columns = { "-2", "-1", "0", "+1", "+2", "+3" },
  rows = {
    { "A1", "A1", "NE", "D1", "DR", "D1" },  -- roll 1
    { "A1", "NE", "D1", "DR", "D1", "DE" },
    { "A1", "NE", "EX", "D1", "DR", "DE" },
    { "NE", "EX", "DR", "D1", "DE", "DE" },
    { "NE", "D1", "DR", "EX", "D1", "DE" },
    { "D1", "DR", "D1", "DE", "DE", "DE" },  -- roll 6
  },
}

kessel.sequence{
  { id = "north_move", name = "North movement", side = "north", rule = "R1" },
  { id = "north_combat", name = "North combat", side = "north", rule = "R1" },
  { id = "south_move", name = "South movement", side = "south", rule = "R1" },
  { id = "south_combat", name = "South combat", side = "south", rule = "R1" },
}

require("rules.play")
require("rules.supply")
require("rules.victory")
