-- Panzergruppe Guderian (SPI, 1976): the ruleset's entry point.
--
-- Declarations (data the engine evaluates natively) live here; each rules section is one module
-- under rules/, named after its case numbers. Options are in options.lua, profiles in profiles/.

kessel.ruleset{ name = "pgg", sides = { "soviet", "german" } }

-- Terrain and map features [6.7]. `name`, `color` and the other display fields are what the editor
-- and `kessel render` draw (see docs/lua-api.md); the rules read only the ids.
kessel.terrain{ id = "clear", name = "Clear", color = "#ece4c0" }
kessel.terrain{ id = "forest", name = "Forest", color = "#8fb878", marks = "trees" }
kessel.terrain{ id = "swamp", name = "Swamp", color = "#a8c4b4", marks = "marsh" }
kessel.terrain{ id = "lake", name = "Lake", color = "#86b4e0" }
kessel.hexside_kind{ id = "river", kind = "feature", name = "River", color = "#2f6fd0" }
kessel.hexside_kind{ id = "lake", kind = "feature", name = "Lake shore", color = "#1f3f90", width = 0.26 }
kessel.hexside_kind{ id = "road", kind = "link", name = "Road", color = "#8a5a2a" }
kessel.hexside_kind{ id = "railway", kind = "link", name = "Railway", color = "#202020", ticks = true }
kessel.place_kind{ id = "major_city", name = "Major city", color = "#b3261e", symbol = "square" }
kessel.place_kind{ id = "minor_city", name = "Minor city", color = "#b3261e", symbol = "dot" }
kessel.constant("side_style", {
  soviet = { name = "Soviet", color = "#c4674c" },
  german = { name = "German", color = "#9aa28e" },
})

-- Unit types. `class` is the movement class of the terrain effects chart; `mech` marks German units
-- that move again in the Mechanized Movement Phase [4]; `steps` is the step count [9.6].
kessel.unit_type{ id = "panzer", side = "german", class = "motorized", movement = 10, mech = true, name = "Panzer regiment", symbol = "armour" }
kessel.unit_type{ id = "rifle_mot", side = "german", class = "motorized", movement = 10, mech = true, name = "Panzer division rifle regiment", symbol = "mechanized" }
kessel.unit_type{ id = "motorized", side = "german", class = "motorized", movement = 10, mech = true, name = "Motorized regiment", symbol = "mechanized" }
kessel.unit_type{ id = "cavalry", side = "german", class = "cavalry", movement = 5, mech = true, name = "Cavalry division", symbol = "cavalry" }
kessel.unit_type{ id = "infantry", side = "german", class = "infantry", movement = 7, name = "Infantry division", symbol = "infantry" }
kessel.unit_type{ id = "rifle", side = "soviet", class = "infantry", movement = 6, name = "Rifle division", symbol = "infantry" }
kessel.unit_type{ id = "tank", side = "soviet", class = "motorized", movement = 10, armour = true, name = "Tank or mechanized division", symbol = "armour" }
kessel.unit_type{ id = "mech", side = "soviet", class = "motorized", movement = 10, armour = true, name = "Mechanized division", symbol = "mechanized" }
kessel.unit_type{ id = "leader", side = "soviet", class = "leader", movement = 10, leader = true, name = "Leader", symbol = "leader" }

-- Movement costs [6.7]: forest is 1 MP for infantry (and leaders [10.2]) and 2 for everything else;
-- a road hexside replaces the terrain cost (½ MP motorized and leaders, 1 MP infantry and cavalry)
-- but does not bridge rivers [6.7]; river hexsides cost Germans +2, Soviets +1; lakes are closed.
kessel.movement{
  classes = { "infantry", "cavalry", "motorized", "leader" },
  terrain = {
    clear = 1,
    forest = { infantry = 1, leader = 1, default = 2 },
    swamp = 2,
    lake = { cost = "prohibited", rule = "6.7", message = "lake hexes may not be entered" },
  },
  hexsides = {
    river = { german = 2, soviet = 1, rule = "6.7" },
    lake = { cost = "prohibited", rule = "6.7", message = "lake hexsides may not be crossed" },
  },
  links = {
    road = { infantry = 1, cavalry = 1, motorized = 0.5, leader = 0.5 },
  },
}

-- Combat results table [9.5], as printed in the extended sequence of play; the typed
-- transcription's die-roll-2 row is a variant of the same table, in force while the option
-- `crt_row2 = "transcribed"` (the engine picks it: rules always look up "crt").
local crt_columns = { "1-3", "1-2", "1-1", "2-1", "3-1", "4-1", "5-1", "6-1", "7-1", "8-1", "9-1", "10-1" }
local crt_rows = {
  { "A1", "D1/A1", "D1", "D2", "D2", "D2", "D2", "De/A1", "De", "De", "De", "De" },
  { "A1", "Eng", "D1/A1", "D1", "D2", "D2", "D2", "De/A1", "De", "De", "De", "De" },
  { "A1", "A1", "D1/A1", "D1/A1", "D1", "D2/A1", "D2", "D2", "De/A1", "De", "De", "De" },
  { "A2", "A1", "Eng", "D1/A1", "D1/A1", "D1", "D2/A1", "D2", "D2", "D2", "De/A1", "De" },
  { "Ae", "A2", "A1", "Eng", "D1/A1", "D1/A1", "D1", "D2/A1", "D2", "D2", "D2", "De" },
  { "Ae", "Ae", "A2", "A1", "Eng", "Eng", "D1/A1", "D1", "D2/A1", "D2", "D2", "D2" },
}
kessel.results_table{ id = "crt", kind = "ratio", columns = crt_columns, rows = crt_rows }
local transcribed = {}
for i, row in ipairs(crt_rows) do
  transcribed[i] = { table.unpack(row) }
end
transcribed[2][8] = "D2"     -- 6-1
transcribed[2][9] = "De/A1"  -- 7-1
kessel.results_table{ id = "crt", kind = "ratio", columns = crt_columns, rows = transcribed,
  when = { crt_row2 = "transcribed" } }

-- Sequence of play [4]
kessel.sequence{
  { id = "soviet_movement", side = "soviet", name = "Soviet Movement Phase", rule = "4" },
  { id = "soviet_combat", side = "soviet", name = "Soviet Combat Phase", rule = "4" },
  { id = "soviet_disruption_removal", side = "soviet", name = "Soviet Disruption Removal Phase", rule = "6.6" },
  { id = "soviet_interdiction", side = "soviet", name = "Soviet Interdiction Phase", rule = "13.4" },
  { id = "german_movement", side = "german", name = "German Initial Movement Phase", rule = "4" },
  { id = "german_combat", side = "german", name = "German Combat Phase", rule = "4" },
  { id = "german_mech_movement", side = "german", name = "German Mechanized Movement Phase", rule = "4" },
  { id = "german_disruption_removal", side = "german", name = "German Disruption Removal Phase", rule = "6.6" },
  { id = "german_air_interdiction", side = "german", name = "German Air Interdiction Phase", rule = "13.2" },
}

require("options")
require("scenario_vars")
require("rules.sequence")
require("rules.zoc")
require("rules.stacking")
require("rules.supply")
require("rules.movement")
require("rules.rail")
require("rules.combat")
require("rules.retreat")
require("rules.overrun")
require("rules.leaders")
require("rules.untried")
require("rules.interdiction")
require("rules.reinforcements")
require("rules.victory")
require("rules.setup")
require("rules.bidding")
require("queries")
require("ai.player")
