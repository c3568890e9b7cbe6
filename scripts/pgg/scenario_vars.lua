-- The scenario variables the PGG rules read (a scenario's [vars]), with their types, defaults and
-- ranges: `kessel check` refuses a value of another type or out of range at its line,
-- `kessel.scenario.var` gives the default when a scenario leaves one out, and `kessel info` lists
-- them with what they mean. The defaults are the printed campaign's, except the two campaign-wide
-- mechanics, which a scenario switches on.

local function var(id, kind, default, description, range)
  kessel.scenario_var{ id = id, type = kind, default = default, description = description,
    min = range and range[1], max = range and range[2] }
end

var("provisional_reinforcements", "bool", false,
  "[14.1] a Soviet provisional reinforcement roll each turn (off unless a scenario turns it on)")
var("south_western_front", "bool", false,
  "[14.2] the Soviet may call South-Western Front divisions (off unless a scenario turns it on)")
var("setup_overstack_hexes", "list", {},
  "[5.2] hexes whose printed set-up may be overstacked until the first Soviet Movement Phase ends")
var("soviet_vp_recapture", "int", 2, "[15] Soviet VP for each city retaken", { 0, 100 })
var("provisional_entrances", "list", { "P1", "P2", "P3", "P4", "P5", "P6" },
  "[14.1] entry areas of the provisional reinforcements, by die roll 1..6")
var("provisional_formation", "string", "Provisional",
  "[14.1] formation of the reserve rifle divisions the provisional rolls draw")
var("swf_area", "string", "Z", "[14.2] entry area of South-Western Front divisions")
var("swf_first_turn", "int", 2, "[14.2] first turn the Soviet may call South-Western Front divisions", { 1, 10000 })
var("swf_max_per_turn", "int", 5, "[14.2] South-Western Front divisions a turn at most", { 0, 1000 })
var("swf_max_total", "int", 10, "[14.2] South-Western Front divisions a game at most", { 0, 1000 })
var("swf_vp", "list", { 1, 1, 1, 1, 1, 2, 2, 2, 2, 2 },
  "[14.2] German VP for the 1st, 2nd, ... division called (2 for any beyond the list)")
var("swf_formation", "string", "South-Western Front",
  "[14.2] formation of the reserve rifle divisions the calls draw")
var("first_turn_roll_armies", "list", { "16 Army", "19 Army" },
  "[5.2] Soviet formations that roll on turn 1 whether they move (1-3) or stand (4-6); [] for none")
var("first_turn_full_ma_armies", "list", { "13 Army", "20 Army" },
  "[5.2] Soviet formations that must spend their whole allowance on turn 1, moving only north, south or east; [] for none")
var("closing_turn", "int", 12,
  "[13.4] [14.3] the game-turn from which nothing enters and the Soviet places no interdiction marker (the campaign's last, 12)",
  { 1, 10000 })
var("air_east_limit", "int", 40,
  "[13.2] German air markers go no further east than this column until one turn after the German holds air_limit_city (0: no limit)",
  { 0, 10000 })
var("air_limit_city", "string", "Smolensk",
  "[13.2] the place whose holding lifts the air markers' eastern limit (air_east_limit)")
var("german_supply_edges", "list", { "west" },
  "[11.1] [15] map edges (north, south, east, west) the German traces supply to, as does the line that holds a city: the campaign's west edge; the road_supply_source tag is the other source")
var("soviet_supply_edges", "list", { "east" },
  "[11.2] [10.4] map edges (north, south, east, west) a Soviet leader traces his line of supply to: the campaign's east edge")
var("evacuation_area", "string", "X", "[10.4] area where an evacuated leader returns")
var("evacuation_max", "int", 2, "[10.4] leader evacuations a game at most", { 0, 1000 })
