-- The scenario variables the PGG rules read (a scenario's [vars]), with their types: `kessel check`
-- refuses a value of another type at its line, and `kessel info` lists them with what they mean.
-- A scenario that leaves one out gets the printed game's value.

local function var(id, kind, description)
  kessel.scenario_var{ id = id, type = kind, description = description }
end

var("provisional_reinforcements", "bool",
  "[14.1] a Soviet provisional reinforcement roll each turn (default off: a scenario turns it on)")
var("south_western_front", "bool",
  "[14.2] the Soviet may call South-Western Front divisions (default off: a scenario turns it on)")
var("setup_overstack_hexes", "list",
  "[5.2] hexes whose printed set-up may be overstacked until the first Soviet Movement Phase ends (default: none)")
var("soviet_vp_recapture", "int", "[15] Soviet VP for each city retaken (default 2)")
var("provisional_entrances", "list",
  "[14.1] entry areas of the provisional reinforcements, by die roll 1..6 (default P1..P6)")
var("provisional_formation", "string",
  "[14.1] formation of the reserve rifle divisions the provisional rolls draw (default Provisional)")
var("swf_area", "string", "[14.2] entry area of South-Western Front divisions (default Z)")
var("swf_first_turn", "int", "[14.2] first turn the Soviet may call South-Western Front divisions (default 2)")
var("swf_max_per_turn", "int", "[14.2] South-Western Front divisions a turn at most (default 5)")
var("swf_max_total", "int", "[14.2] South-Western Front divisions a game at most (default 10)")
var("swf_vp", "list", "[14.2] German VP for the 1st, 2nd, ... division called (default 1,1,1,1,1,2,2,2,2,2)")
var("swf_formation", "string",
  "[14.2] formation of the reserve rifle divisions the calls draw (default South-Western Front)")
var("evacuation_area", "string", "[10.4] area where an evacuated leader returns (default X)")
var("evacuation_max", "int", "[10.4] leader evacuations a game at most (default 2)")
