-- Every option of the PGG ruleset: the WBC 2009 tournament interpretations, the optional rules,
-- and one option per conflict between sources (see docs/rules-coverage.md). Defaults give the
-- `standard` profile; profiles/wbc2009.toml turns the tournament readings on.

-- `range` ({min, max}, either may be nil) bounds an "int" option: a value outside it is refused
-- wherever one is set (profile, --option, the editor). VP options stop at 1000: Lua integers
-- wrap past 2^63, so `smolensk_vp = 9223372036854775807` turned a German hold of Smolensk into
-- the lowest German total there is and a Soviet Decisive victory, without a word.
local MAX_VP = 1000
local function opt(id, default, rule, description, type_, range)
  kessel.option{ id = id, type = type_ or "bool", default = default, rule = rule, description = description,
    min = range and range[1], max = range and range[2] }
end

-- WBC 2009 interpretations --------------------------------------------------------------------
opt("wbc09_01_retreat_priority", false, "WBC09 #1",
  "Retreat priority is absolute: empty hex, then friendly hex out of enemy ZOC, then in enemy ZOC, then death")
opt("wbc09_01a_no_switching_places", false, "WBC09 #1a",
  "No retreating unit may enter a hex first occupied by another unit retreating from the same combat")
opt("wbc09_01b_no_retreat_into_lone_defender_hex", false, "WBC09 #1b",
  "After D1/A1 against a single eliminated defender, attackers may not retreat into its hex")
opt("wbc09_01c_simultaneous_retreats", false, "WBC09 #1",
  "Retreats of one combat are simultaneous: no retreat may cut off another unit's retreat from the same combat")
opt("wbc09_02_opponent_orders_retreats", false, "WBC09 #2",
  "The opponent retreats the units one by one, splitting stacks, in the order he likes, and so decides which unit dies for want of a route (the order of whole stacks is his in the standard game too [9.72]); he also picks the units lost to overstacking after a retreat")
opt("wbc09_03_retreated_units_die_first", false, "WBC09 #3",
  "Units retreated onto a later-attacked hex die first and don't count for losses; a 0-defence untried unit there lets the attacker advance 2")
opt("wbc09_04_overrun_stack_defends_with_first", false, "WBC09 #4",
  "An overrun stack that absorbed retreating units defends with the original units; retreated-on units in movement defend normally in combat; the standard rule [9.73] already does, so this changes nothing")
opt("wbc09_05_no_leader_evacuation", false, "WBC09 #5",
  "Soviet leader evacuation [10.4] is not in effect, whatever the optional rule says")
opt("wbc09_06_rail_break_relocation", false, "WBC09 #6",
  "The German may lift any rail break, wherever it is, and place it in a hex a unit is moving through (without it he reuses a break only by moving over it); at most six on the map")
opt("wbc09_07_overrun_loss_stays_put", false, "WBC09 #7",
  "Overrunners who clear the hex but take a loss instead of retreating, or an Eng, stay in the hex they overran from and end their movement for the player-turn (no move in the German Mechanized Movement Phase)")
opt("wbc09_08_supply_mp_by_unit_type", false, "WBC09 #8",
  "German MP supply uses the unit's own type (road rates for motorized, +2 per river) and never counts moving off the map; the standard rule [11.1] already does, so this changes nothing")
opt("wbc09_09_integrity_before_halving", false, "WBC09 #9",
  "Divisional integrity doubles before out-of-supply and overrun halving; the standard rule [7.3] already does, so alone this changes nothing, but it overrides the source-conflict option supply_halving_before_integrity")
opt("wbc09_10_integrity_with_gd_lehr", false, "WBC09 #10",
  "GD and Lehr may stack with a two-regiment motorized division without breaking its integrity")
opt("wbc09_11_overrun_stack_may_split", false, "WBC09 #11",
  "After a successful overrun the stack may split and move on separately, finishing before any other unit moves")
opt("wbc09_12_multiple_leaders", false, "WBC09 #12",
  "Several leaders in one hex may add to one attack, up to the combat units' own factors; leaders may join overruns at half value")
opt("wbc09_13_loc_not_through_swamp", false, "WBC09 #13",
  "Soviet lines of communication may enter swamp but not pass through it, like lines of supply")
opt("wbc09_14_rifle_recycling_delay", false, "WBC09 #14",
  "Destroyed rifle divisions return only after every original one arrived, and never on the turn after they died; the Soviet selects which (select_returning)")
opt("wbc09_15_interdiction_on_overrun_cost", false, "WBC09 #15",
  "An enemy interdiction marker (German air or Soviet) adds 1 MP to the cost of overrunning into its hex")

-- Optional rules --------------------------------------------------------------------------------
opt("leader_evacuation", false, "10.4",
  "Optional: once a turn a Soviet leader with no line of supply may be evacuated, returning next turn at X (2 a game); never while wbc09_05_no_leader_evacuation is on")
opt("german_marginal_is_draw", false, "15",
  "Optional: a German Marginal Victory counts as a draw")
opt("vp_bidding", false, "WBC09 sides",
  "Players bid VP for the German side at the start (bid / pass): the winner plays the German, and a German − Soviet margin of his bid or more is a German Marginal Victory")
opt("vp_bid", 0, "WBC09 sides",
  "A German VP bid agreed before the game: a German − Soviet margin of it or more is a German Marginal Victory, with or without vp_bidding (above 0: no bidding at the start)", "int", { 0, MAX_VP })

-- Errata the reference material leaves out -------------------------------------------------------
opt("errata_6_37_repair_next_turn", false, "6.37",
  "SPI errata to 6.37 (July 1977): a rail hex repaired by a Soviet combat unit is open to Soviet rail movement only from the next game-turn (the reference material gives 6.37 without it: off, the repaired hex is open at once)")

-- Source conflicts (pgg-facts.md) ---------------------------------------------------------------
opt("crt_row2", "printed", "9.5",
  "Die roll 2 of the CRT: printed (6-1 De/A1, 7-1 De) or transcribed (6-1 D2, 7-1 De/A1)",
  { "printed", "transcribed" })
opt("smolensk_vp", 25, "15", "VP for Smolensk where the scenario gives it the printed 25 (sources give 25 or 20); a scenario's other value stands", "int", { 0, MAX_VP })
opt("soviet_vp_per_division", 5, "15", "Soviet VP per whole German division eliminated (sources give 5 or 1)", "int", { 0, MAX_VP })
opt("supply_halving_order", "supply_then_terrain", "11.3",
  "On defence, halve for supply before terrain multipliers, or after",
  { "supply_then_terrain", "terrain_then_supply" })
opt("german_stacking_checkpoint", "movement_and_combat", "7.2",
  "German stacking is checked like Soviet (end of Movement Phase, during combat) or at the end of every phase",
  { "movement_and_combat", "every_phase" })
opt("overrun_group", "started_together", "6.5",
  "An overrunning group must have started the phase in one hex, or may assemble anywhere and overrun from one hex",
  { "started_together", "assembled" })
opt("rail_air_marker_cost", "hex_plus_four", "13.3",
  "Source reading: a German air marker on a rail hex costs a Soviet rail move the hex and 4 more (5 of the 30, as \"+4 MP\" for rail beside \"+1 MP\" off it), or 4 in all",
  { "hex_plus_four", "four_in_all" })
opt("disruption_removal", "owner", "6.6",
  "Source reading: each Disruption Removal Phase lifts the markers of the phasing player's own units (owner: pgg-facts.md, a unit recovers in its owner's next phase) or every marker on the map (every_phase: the manual and the sequence of play say only \"remove disruption markers\", so an overrun's disruption lasts the rest of the overrunner's player-turn)",
  { "owner", "every_phase" })
opt("supply_halving_before_integrity", false, "7.3",
  "Source conflict, off in every profile: halve each regiment for supply before divisional integrity doubles it (the rule [7.3], the facts and WBC09 #9 double first); never while wbc09_09_integrity_before_halving is on")
opt("two_zero_one_rifles", false, "12",
  "Treat one 1-1-6 rifle counter as a second 0-1-6, as the rules' text implies")
