---@meta
-- LuaLS (sumneko.lua) annotations for the Kessel ruleset API.
--
-- This file is never run. It tells the language server what `kessel.*` holds so the editor can
-- complete names, show documentation on hover and check argument types. The reference is
-- docs/lua-api.md; the source of truth is core/src/script/api/*.rs. Keep the three in step.
--
-- Stages (see docs/lua-api.md#stages):
--   declare: init.lua and the modules it requires are running (declarations allowed)
--   query:   validate, enumerate, and the check / odds / ai / result hooks (read-only)
--   apply:   apply, the setup hook, step_start / step_end run from an apply (events allowed)
--   script:  `kessel script` files and `kessel test` tests (full API, kessel.act)

-------------------------------------------------------------------------------------------------
-- Common types
-------------------------------------------------------------------------------------------------

---A hex, as its printed label on the current map, e.g. `"0302"`. Always a string.
---@alias Hex string

---A compass direction between adjacent hexes (input is case-insensitive).
---@alias kessel.Direction "N"|"NE"|"SE"|"S"|"SW"|"NW"

---Where a unit is.
---@alias kessel.Location "map"|"pending"|"eliminated"|"removed"

---A map edge for `kessel.map.on_edge`.
---@alias kessel.Edge "north"|"south"|"east"|"west"

---Plain data: what can be stored in game variables, options, constants and action parameters.
---@alias kessel.Data nil|boolean|number|string|table

---One reason an action was refused (or a modifier applied), with the rule case that says so.
---@class kessel.Reason
---@field rule? string Rule case, e.g. `"6.22"` or `"T2"`.
---@field message string Text a player can check against the rulebook.

---What a validator returns: `nil`/`true`/`{}` = legal; `false`, a string, a reason or a list of
---reasons = refused. A table counts as one reason only if it has `message`.
---@alias kessel.Verdict nil|boolean|string|kessel.Reason|kessel.Reason[]

---A player decision: `kind` plus parameters the ruleset defines (plain data only).
---@class kessel.Action
---@field kind string The action kind registered with `kessel.action`.
---@field side? string The side that sends it; without it the deciding side does. Not a parameter.
---@field [string] any Parameters (unit ids, hex labels, choices).

---A unit as a fresh read-only snapshot. Changing it changes nothing in the game.
---@class kessel.Unit
---@field id string Stable id from the scenario.
---@field name string Printed name (defaults to the id).
---@field side string Side id.
---@field type string Unit type id.
---@field formation? string Division, army, ...
---@field hidden boolean Face-down: values unknown until revealed.
---@field pool? string Pool a hidden unit's face is drawn from.
---@field step integer Steps lost so far (0 = full strength).
---@field steps integer Number of faces, A-D-M or named (at least 1).
---@field steps_left integer `steps - step` (1 for a hidden unit without faces).
---@field attack? integer Current face's attack; absent when hidden or out of steps.
---@field defence? integer Current face's defence; absent when hidden or out of steps.
---@field movement? integer Current face's movement allowance (a hidden unit with faces shows its first face's).
---@field location kessel.Location
---@field hex? Hex Where it stands, when `location == "map"`.
---@field enter_turn? integer Arrival turn, for reinforcements.
---@field enter_area? string Arrival area id, for reinforcements.
---@field setup_area? string Area the owner sets the unit up in.
---@field flags table<string, true> Flags set by the rules (`u.flags.moved`).
---@field attrs table<string, integer> Fixed integer attributes from the scenario.
---@field vars table<string, kessel.Data> Plain data set by the rules.
---@field face? table<string, any> The current face of a unit with named faces (`u.face.morale`).

---@class kessel.Marker
---@field id integer 0-based, in scenario order.
---@field kind string
---@field side? string
---@field hex? Hex `nil` when off the map.
---@field other? Hex For a marker on a hexside: the other hex of the side.
---@field value? kessel.Data The marker's value, if it carries one.

---The current step of the sequence of play.
---@class kessel.Step
---@field index integer 0-based position in the sequence being walked.
---@field mode? string The named sequence being walked; nil for the main one.
---@field id? string
---@field name? string
---@field side? string Phasing side.
---@field rule? string

---@class kessel.Place
---@field name string
---@field kind string
---@field hexes Hex[]

---@class kessel.Objective
---@field name string
---@field vp integer
---@field side? string
---@field hexes Hex[]

---@class kessel.Level
---@field name string
---@field max? integer Applies when the score is at most `max`; `nil` = any score.

---An event as scripts see it (from `kessel.act` and `kessel.events`). Which fields are present
---depends on `event`. Fields holding JSON null (a cleared value) are a userdata, not `nil`.
---@class kessel.Event
---@field event "located"|"moved"|"step_set"|"revealed"|"concealed"|"unit_flag"|"unit_var"|"flags_cleared"|"unit_vars_cleared"|"marker_moved"|"var"|"clock"|"mode"|"dice"|"note"|"record"|"unit_created"|"unit_changed"|"terrain_set"|"hexside_set"|"hex_tagged"|"marker_created"|"marker_changed"|"unit_hidden"|"marker_hidden"|"committed"|"opened"
---@field unit? string|table located, moved, step_set, revealed, concealed, unit_flag, unit_var, unit_hidden; unit_created, unit_changed: the whole record
---@field terrain? string terrain_set
---@field other? Hex hexside_set: the other hex of the side
---@field kind? string hexside_set
---@field tag? string hex_tagged
---@field to? string|table located: "pending"/"eliminated"/"removed" or `{map={q=,r=}}`; moved: the last hex
---@field hex? Hex located (when put on the map), marker_moved, terrain_set, hexside_set, hex_tagged
---@field path? Hex[] moved
---@field cost? number moved: MP spent
---@field step? integer step_set: steps lost
---@field face? string revealed, concealed: "A-D-M"
---@field pool? string concealed: the pool the face went back to
---@field flag? string unit_flag, flags_cleared
---@field on? boolean unit_flag, hexside_set, hex_tagged, unit_hidden, marker_hidden
---@field key? string unit_var, unit_vars_cleared, var
---@field value? any unit_var, var (null when cleared)
---@field side? string flags_cleared (null = every side); unit_hidden, marker_hidden: the side hidden from / shown to
---@field marker? integer|kessel.Marker marker_moved, marker_hidden (the id); marker_created, marker_changed (the whole record)
---@field turn? integer clock
---@field phase? integer clock: 0-based step index
---@field finished? boolean clock
---@field purpose? string dice
---@field rolls? integer[] dice
---@field drawn_after? integer dice: rolls drawn in all after this one
---@field stream? string dice: the stream rolled (purpose and turn)
---@field stream_after? integer dice: the stream's position after the roll
---@field rule? string note, record (null when none)
---@field text? string note
---@field kind? string record: what was resolved ("combat")
---@field fields? table record: its data
---@field secret_to? string var, unit_var, dice, note, record: the only side shown the value
---@field commitment? kessel.Commitment committed (with `salt`)
---@field commitments? kessel.Commitment[] opened: each with its choice and `salt`

-------------------------------------------------------------------------------------------------
-- The sandbox's require
-------------------------------------------------------------------------------------------------

---Loads a module from the ruleset folder (the one holding init.lua), once, and returns its value.
---Dotted names: `require("rules.play")` loads `<ruleset>/rules/play.lua`. Names may use letters,
---digits, `_`, `-` and `.`; nothing outside the ruleset folder can be loaded.
---@param modname string
---@return any
function require(modname) end

-------------------------------------------------------------------------------------------------
-- kessel
-------------------------------------------------------------------------------------------------

kessel = {}

---The engine version, e.g. `"0.1.0"`.
---@type string
kessel.version = ""

-------------------------------------------------------------------------------------------------
-- Declarations (declare stage only)
-------------------------------------------------------------------------------------------------

---@class kessel.RulesetDecl
---@field name string
---@field sides string[] Side ids in play order.
---@field description? string One line about the ruleset.

---Names the ruleset and its sides. Required. Stage: declare.
---```lua
---kessel.ruleset{ name = "toy", sides = { "red", "blue" } }
---```
---@param t kessel.RulesetDecl
function kessel.ruleset(t) end

---@class kessel.UnitTypeDecl
---@field id string
---@field symbol? "infantry"|"armour"|"mechanized"|"cavalry"|"artillery"|"leader" The counter's symbol in the editor (default: the type's name).
---@field [string] kessel.Data Free data for the rules (e.g. `class`, `name`); no functions.

---Declares a unit type; `kessel.game.unit_type(id)` returns the whole table. Stage: declare.
---```lua
---kessel.unit_type{ id = "inf", class = "foot", name = "Infantry" }
---```
---@param t kessel.UnitTypeDecl
function kessel.unit_type(t) end

---@class kessel.KindDecl
---@field id string
---@field name? string Shown in the legend and the panels (default: the id, e.g. "Major city").
---@field color? string "#rrggbb": terrain fill, hexside line, place symbol.
---@field kind? "feature"|"link" Hexside kinds: drawn on the edge or centre to centre (default: a link if `kessel.movement` lists it under `links`).
---@field marks? "trees"|"marsh" Terrains: marks drawn over the fill.
---@field ticks? boolean Hexside links: a thin line with cross-ties (a railway).
---@field width? number Hexside kinds: line width in hex radii.
---@field symbol? "square"|"dot"|"diamond" Place kinds: the symbol drawn.

---Declares a terrain id maps may use. Only the fields above are accepted (a misspelt one is a
---load error with a suggestion). Stage: declare.
---@param t kessel.KindDecl
function kessel.terrain(t) end

---Declares a hexside kind (river, road, ...). Whether it acts as a link is decided by
---`kessel.movement`. Stage: declare.
---@param t kessel.KindDecl
function kessel.hexside_kind(t) end

---Declares a place kind (town, city, ...). Stage: declare.
---@param t kessel.KindDecl
function kessel.place_kind(t) end

---A cost: MP, "prohibited", false (no entry), or a table keyed by movement class, side or
---`default` whose values are MP, "prohibited" or false (never tables); an entry table may hold
---the value under `cost` (instead of class keys) plus `rule` and `message`, which serve all its
---classes: `bog = { foot = 2, wheels = "prohibited", rule = "T7" }`.
---@alias kessel.CostValue number|"prohibited"|false|table<string, any>

---@class kessel.MovementDecl
---@field classes? string[] The movement class names the entries may use; with it, any other key of an entry that is not a side, `default`, `cost`, `rule`, `message` or `bridges` is a load error.
---@field when? table<string, boolean|integer|string> Makes this a variant: its entries replace the plain declaration's while every named option has that value.
---@field terrain? table<string, kessel.CostValue> Cost to enter a hex; every terrain the map uses needs one.
---@field hexsides? table<string, kessel.CostValue> Extra cost (or prohibition) to cross a hexside kind.
---@field links? table<string, kessel.CostValue> Link kinds: cost along the link replaces terrain; `bridges = {kinds}` cancels crossing costs.

---Declares movement costs as data, checked when the ruleset has loaded (undeclared kinds, misspelt
---classes or sides, bad values). With `when`, declares a variant laid over the plain declaration
---while the options have those values. Stage: declare.
---```lua
---kessel.movement{
---  terrain = { clear = 1, woods = { foot = 1, default = 2 } },
---  hexsides = { river = { red = 2, blue = 1, rule = "T3" } },
---  links = { road = { wheels = 0.5 } },
---}
---```
---@param t kessel.MovementDecl
function kessel.movement(t) end

---@class kessel.ResultsTableDecl
---@field id string
---@field kind? "ratio"|"differential" Default "ratio".
---@field columns string[] "A-D" labels (ratio) or "-1", "0", "+2" (differential), worst first.
---@field rows string[][] One row per die result, one code per column.
---@field first_roll? integer Die result of the first row (default 1).
---@field die? integer Faces of the die rolled on the table, when the rows also cover modified rolls (a d6 on rows 0 to 7): chances are read over faces 1..die. Default: one face a row.
---@field description? string
---@field rule? string
---@field when? table<string, boolean|integer|string> Makes this a variant of the table of the same id, in force while every named option has that value.

---Declares a results table (CRT). Stage: declare.
---@param t kessel.ResultsTableDecl
function kessel.results_table(t) end

---@class kessel.DiceTableDecl
---@field id string
---@field bands (integer|string)[][] `{ lowest_roll, result }` pairs, ascending.
---@field description? string
---@field rule? string
---@field when? table<string, boolean|integer|string> Makes this a variant of the table of the same id, in force while every named option has that value.

---Declares a 1-D dice table, read with `kessel.tables.lookup`. Stage: declare.
---@param t kessel.DiceTableDecl
function kessel.dice_table(t) end

---@class kessel.StepDecl
---@field id string
---@field name? string Defaults to `id`.
---@field side? string Phasing side.
---@field rule? string

---A table keyed by words (rows × columns, cells of plain data); read with kessel.tables.cell.
---@param t { id: string, rows: string[], columns: string[], cells: kessel.Data[][] }
function kessel.word_table(t) end

---Declares the steps of one game-turn, in order (replaces any earlier sequence); with a name
---first, a named sequence (a mode) walked after kessel.emit.mode(name), with an optional title
---as players read it (the editor's play-test header, kessel info). Stage: declare.
---@overload fun(name: string, steps: kessel.StepDecl[], opts?: { title?: string })
---@param steps kessel.StepDecl[]
function kessel.sequence(steps) end

---@class kessel.OptionDecl
---@field id string
---@field type? "bool"|"int"|string[] Default "bool"; a list means one of those strings.
---@field default boolean|integer|string Must fit the type.
---@field description string
---@field rule string

---Declares an option; profiles set it, `kessel.game.option(id)` reads it. Stage: declare.
---@param t kessel.OptionDecl
function kessel.option(t) end

---@class kessel.AiLevelDecl
---@field id string One word (no spaces, `=`, `:` or `,`): `kessel simulate --ai SIDE=ai:ID`.
---@field description string

---Declares a level of the computer player; the first declared is the default. The `ai` hook gets
---the id of the level that plays as its fourth argument. Stage: declare.
---@param t kessel.AiLevelDecl
function kessel.ai_level(t) end

---@class kessel.ActionDecl
---@field kind string
---@field rule? string
---@field description? string
---@field validate fun(action: kessel.Action): kessel.Verdict Query stage: nil = legal, else reasons.
---@field apply fun(action: kessel.Action) Apply stage: emit events; an error undoes the whole action.
---@field enumerate? fun(side: string?): kessel.Action[]? Query stage: legal actions of this kind (an item without `kind` is of this kind).
---@field secret? boolean Its parameters are shown only to the side that sent it.

---Registers the handlers of an action kind (replaces an earlier one of the same kind). Stage: declare.
---@param t kessel.ActionDecl
function kessel.action(t) end

---@class kessel.CheckProblem
---@field unit? string Unit id: the load error points at its line in the scenario.
---@field message string

---@class kessel.OddsHookResult
---@field attack? integer Modified attack strength.
---@field defence? integer Modified defence strength.
---@field shift? integer Column shift (positive favours the attacker).
---@field drm? integer Die roll modifier, added to each roll before the table is read.
---@field modifiers? kessel.Verdict Reasons explaining each modifier. Any other field is an error.

---@class kessel.GameResult
---@field level? string
---@field scores? table<string, number> Score per side.
---@field control? table<string, string> Objective → the side holding it now (else the lab derives it).
---@field metrics? table<string, number> Measures the balance lab records per game-turn and averages (at most 256).

---@alias kessel.HookName "check"|"setup"|"step_start"|"step_end"|"odds"|"ai"|"result"|"event"|string

---Registers a hook. Stage: declare.
--- - check(): problems with a scenario's set-up (query stage).
--- - setup(): once when a scenario loads; its events become the initial state (apply stage).
--- - step_start(index) / step_end(index): called by kessel.emit.advance, 0-based step index.
--- - odds(attack, defence, flags): modifiers for `kessel odds` (query stage).
--- - ai(legal, kinds, view, level, tiebreak, side): the next action, one of those `legal(kind)` listed, for `kessel simulate` (query; first hook only); `side` is whose decision it is (nil in a step of no side).
--- - result(): `{ level, scores, control, metrics }` at the end of each game-turn and game of `kessel simulate` (query; first hook only).
---@overload fun(name: "check", fn: fun(): kessel.CheckProblem[]?)
---@overload fun(name: "setup", fn: fun())
---@overload fun(name: "step_start", fn: fun(index: integer))
---@overload fun(name: "step_end", fn: fun(index: integer))
---@overload fun(name: "odds", fn: fun(attack: integer, defence: integer, flags: string[]): kessel.OddsHookResult)
---@overload fun(name: "ai", fn: fun(legal: fun(kind: string?): kessel.Action[], kinds: string[], view: fun(opts: {log: boolean?}?): table?, level: string?, tiebreak: fun(n: integer): integer, side: string?): kessel.Action?)
---@overload fun(name: "result", fn: fun(): kessel.GameResult?)
---@overload fun(name: string, fn: fun(e: kessel.Event)) "event", "event:<kind>" or "event:<meaning>" (eliminated, removed, placed, withdrawn): runs inside the emitting action
---@param name kessel.HookName
---@param fn function
function kessel.on(name, fn) end

---Stores a ruleset-wide constant; read it with `kessel.game.constant(name)`. Stage: declare.
---The constant `side_style` (`{ [side] = { name = "Red", color = "#d07060" } }`) gives the sides'
---display names and counter colours to the editor and `kessel render`.
---@param name string
---@param value kessel.Data
function kessel.constant(name, value) end

---Declares a scenario `[vars]` entry the rules read and the type its value must have ("int",
---"number", "string", "bool", "list" or "table"); a scenario with another type, or a number
---outside `min`..`max`, or a string not among `values` (when given), fails to load.
---`kessel.scenario.var` returns `default` when a scenario leaves the variable out. Stage: declare.
---@param spec { id: string, type: string, default?: any, min?: number, max?: number, values?: string[], description?: string }
function kessel.scenario_var(spec) end

-------------------------------------------------------------------------------------------------
-- kessel.hex (any stage)
-------------------------------------------------------------------------------------------------

kessel.hex = {}

---On-map neighbours, in the order N, NE, SE, S, SW, NW.
---@param hex Hex
---@return Hex[]
function kessel.hex.neighbors(hex) end

---The neighbour in a direction, or nil off the map.
---@param hex Hex
---@param dir kessel.Direction
---@return Hex?
function kessel.hex.neighbor(hex, dir) end

---Number of hex steps between two hexes.
---@param a Hex
---@param b Hex
---@return integer
function kessel.hex.distance(a, b) end

---True if the hexes are neighbours.
---@param a Hex
---@param b Hex
---@return boolean
function kessel.hex.adjacent(a, b) end

---Direction from `from` to an adjacent `to`, or nil if not adjacent.
---@param from Hex
---@param to Hex
---@return kessel.Direction?
function kessel.hex.direction(from, to) end

---On-map hexes within `radius` steps, centre included, ring by ring.
---@param hex Hex
---@param radius integer
---@return Hex[]
function kessel.hex.range(hex, radius) end

---On-map hexes exactly `radius` steps away (`{hex}` for 0).
---@param hex Hex
---@param radius integer
---@return Hex[]
function kessel.hex.ring(hex, radius) end

---The hexside between two adjacent hexes, as canonical `"AAAA/BBBB"`. Raises if not adjacent.
---@param a Hex
---@param b Hex
---@return string
function kessel.hex.side(a, b) end

---True if the label is a hex of the current map. Never raises: a value that is no label is false.
---@param label any
---@return boolean
function kessel.hex.valid(label) end

---The hexes a straight line between two hex centres passes through, in order, ends included;
---`alt` is the hex on the other side where the line runs along a hexside.
---@param a Hex
---@param b Hex
---@return { hex: Hex, alt: Hex? }[]
function kessel.hex.line(a, b) end

---How b lies from a along the grid: "N".."NW" on a hexgrain, "NE-SE" (two adjacent directions) on
---an alternate hexgrain, nil otherwise.
---@param a Hex
---@param b Hex
---@return string?
function kessel.hex.grain(a, b) end

-------------------------------------------------------------------------------------------------
-- kessel.map (any stage)
-------------------------------------------------------------------------------------------------

kessel.map = {}

---Terrain id of a hex.
---@param hex Hex
---@return string
function kessel.map.terrain(hex) end

---Hexside kinds (features and links) between two adjacent hexes. Raises if not adjacent.
---@param a Hex
---@param b Hex
---@return string[]
function kessel.map.sides(a, b) end

---True if the side between `a` and `b` carries `kind` (false if not adjacent).
---@param a Hex
---@param b Hex
---@param kind string
---@return boolean
function kessel.map.has_side(a, b, kind) end

---True if any of the hex's six sides carries `kind`.
---@param hex Hex
---@param kind string
---@return boolean
function kessel.map.has_link(hex, kind) end

---The named place covering the hex, or nil.
---@param hex Hex
---@return kessel.Place?
function kessel.map.place(hex) end

---Every named place, in map-file order.
---@return kessel.Place[]
function kessel.map.places() end

---Hexes of a named area, or nil.
---@param id string
---@return Hex[]?
function kessel.map.area(id) end

---Hexes carrying a tag.
---@param tag string
---@return Hex[]
function kessel.map.tagged(tag) end

---Tags on a hex, sorted.
---@param hex Hex
---@return string[]
function kessel.map.tags(hex) end

---Connected regions of a set of hexes (neighbours, unless their hexside has a kind in `opts.sides`).
---@param hexes Hex[]
---@param opts? { sides?: string[] }
---@return Hex[][]
function kessel.map.regions(hexes, opts) end

---Hexes (not walls) that cannot reach a map edge without entering a wall or crossing `opts.sides`.
---@param walls Hex[]
---@param opts? { sides?: string[] }
---@return Hex[]
function kessel.map.enclosed(walls, opts) end

---True if the hex is in the outer row or column on that edge.
---@param hex Hex
---@param edge kessel.Edge
---@return boolean
function kessel.map.on_edge(hex, edge) end

---Every hex, column by column.
---@return Hex[]
function kessel.map.hexes() end

---Printed column number of a hex (`column("0302") == 3`).
---@param hex Hex
---@return integer
function kessel.map.column(hex) end

---Printed row number of a hex (`row("0302") == 2`).
---@param hex Hex
---@return integer
function kessel.map.row(hex) end

---Number of columns and rows.
---@return integer columns
---@return integer rows
function kessel.map.size() end

-------------------------------------------------------------------------------------------------
-- kessel.units (any stage)
-------------------------------------------------------------------------------------------------

kessel.units = {}

---@class kessel.UnitFilter
---@field side? string
---@field type? string
---@field formation? string
---@field location? kessel.Location
---@field flag? string Only units with this flag set.

---The unit with this id, or nil.
---@param id string
---@return kessel.Unit?
function kessel.units.get(id) end

---The sides a unit is hidden from (`kessel.emit.hide`), sorted; empty when every side sees it.
---@param id string
---@return string[]
function kessel.units.hidden_from(id) end

---Units standing in a hex, in scenario order.
---@param hex Hex
---@return kessel.Unit[]
function kessel.units.at(hex) end

---Units matching every given filter field, in scenario order.
---@param filter? kessel.UnitFilter
---@return kessel.Unit[]
function kessel.units.all(filter) end

---Hexes holding at least one unit (of `side`), each once, sorted.
---@param side? string
---@return Hex[]
function kessel.units.occupied(side) end

---Ids of the units changed after state revision `revision` (scenario order); nil when the whole
---state was replaced since (set-up, undo, load, roll-back).
---@param revision integer
---@return string[]?
function kessel.units.changed_since(revision) end

-------------------------------------------------------------------------------------------------
-- kessel.markers (any stage)
-------------------------------------------------------------------------------------------------

kessel.markers = {}

---@class kessel.MarkerFilter
---@field kind? string
---@field side? string
---@field placed? boolean true = on the map, false = off it.

---Markers matching every given filter field.
---@param filter? kessel.MarkerFilter
---@return kessel.Marker[]
function kessel.markers.all(filter) end

---Markers in a hex.
---@param hex Hex
---@return kessel.Marker[]
function kessel.markers.at(hex) end

---The sides a marker is hidden from (kessel.emit.hide_marker), sorted; empty when every side sees it.
---@param id integer
---@return string[]
function kessel.markers.hidden_from(id) end

-------------------------------------------------------------------------------------------------
-- kessel.game (any stage)
-------------------------------------------------------------------------------------------------

kessel.game = {}

---Current game-turn (from 1).
---@return integer
function kessel.game.turn() end

---The game-turn the game began on: the scenario's `first_turn`, or a `kessel.setup`'s `turn`.
---@return integer
function kessel.game.first_turn() end

---Last game-turn of the scenario.
---@return integer
function kessel.game.last_turn() end

---True once the last step of the last turn has ended.
---@return boolean
function kessel.game.finished() end

---The names of the game variables set now, sorted; with `prefix`, those that start with it.
---@param prefix? string
---@return string[]
function kessel.game.var_names(prefix) end

---Why this game is its campaign's last (`kessel.emit.end_campaign`), or nil.
---@return kessel.Reason?
function kessel.game.campaign_ended() end

---Current step of the sequence of play.
---@return kessel.Step
function kessel.game.step() end

---A game variable set with `kessel.emit.var`, or nil.
---@param key string
---@return any
function kessel.game.var(key) end

---Value of an option in force. Raises for an unknown option.
---@param id string
---@return boolean|integer|string
function kessel.game.option(id) end

---Side ids in play order.
---@return string[]
function kessel.game.sides() end

---@class kessel.Commitment
---@field id string
---@field side string The side that committed it.
---@field digest string SHA-256 (hex) of id, side, choice and salt.
---@field choice kessel.Data

---The choices committed with `kessel.emit.commit` and not opened yet, by id, with their choices.
---@return kessel.Commitment[]
function kessel.game.commitments() end

---What `side` is shown (units it sees, variables without other sides' secrets, commitments as
---digests but its own, the dice seed left out); with `log = true` also the log as it sees it.
---@param side string
---@param opts? { log: boolean? }
---@return table
function kessel.game.view(side, opts) end

---Faces ("A-D-M") still in a pool, one per counter.
---@param id string
---@return string[]
function kessel.game.pool(id) end

---The table declared with `kessel.unit_type`, or nil.
---@param id string
---@return table?
function kessel.game.unit_type(id) end

---A value declared with `kessel.constant`, or nil.
---@param name string
---@return any
function kessel.game.constant(name) end

-------------------------------------------------------------------------------------------------
-- kessel.scenario (any stage)
-------------------------------------------------------------------------------------------------

kessel.scenario = {}

---Scenario name, or nil without a scenario.
---@return string?
function kessel.scenario.name() end

---A value from the scenario's `[vars]`, else the default its `kessel.scenario_var` declares, else nil.
---@param key string
---@return any
function kessel.scenario.var(key) end

---Every key the scenario's `[vars]` sets (declared by the ruleset or not), sorted; empty without a scenario.
---@return string[]
function kessel.scenario.var_names() end

---Victory objectives, in file order.
---@return kessel.Objective[]
function kessel.scenario.objectives() end

---Victory levels, in file order (first match wins).
---@return kessel.Level[]
function kessel.scenario.levels() end

-------------------------------------------------------------------------------------------------
-- kessel.emit (apply and script stages): each call is one event, applied at once
-------------------------------------------------------------------------------------------------

kessel.emit = {}

---Puts a unit on the map. Event: located.
---@param unit string
---@param hex Hex
function kessel.emit.place(unit, hex) end

---Moves a unit along `path` (hexes entered, start excluded); `cost` is MP spent, for display.
---The path is not checked. Event: moved.
---@param unit string
---@param path Hex[]
---@param cost? number MP spent (0 or more; default 0)
function kessel.emit.move(unit, path, cost) end

---Sends a unit to the dead pile. Event: located.
---@param unit string
function kessel.emit.eliminate(unit) end

---Removes a unit from the game for good. Event: located.
---@param unit string
function kessel.emit.remove(unit) end

---Takes a unit off the map, back to pending. Event: located.
---@param unit string
function kessel.emit.withdraw(unit) end

---Sets the number of steps lost (absolute). Event: step_set.
---@param unit string
---@param step integer
function kessel.emit.step(unit, step) end

---Turns a hidden unit face-up; without `face`, draws one from its pool with a die roll.
---Returns the face. Event: revealed (and dice, for a draw).
---@param unit string
---@param face? string "A-D-M"
---@return string face
function kessel.emit.reveal(unit, face) end

---Turns a face-up unit of one face face down: its values are forgotten, its step count goes
---back to 0 and its face goes back into `pool` (default: its own), which its next reveal draws
---from. Event: concealed.
---@param unit string
---@param pool? string
function kessel.emit.conceal(unit, pool) end

---Sets (default) or clears a unit flag. Event: unit_flag.
---@param unit string
---@param flag string
---@param on? boolean
function kessel.emit.flag(unit, flag, on) end

---Options of a value only one side is shown.
---@class kessel.SecretOpts
---@field secret_to? string The only side whose view shows the value.

---Sets plain data on a unit (number, string, boolean, table keyed by strings or positive
---integers), or clears it with nil. Event: unit_var.
---@param unit string
---@param key string
---@param value? kessel.Data
---@param opts? kessel.SecretOpts
function kessel.emit.unit_var(unit, key, value, opts) end

---What `kessel.emit.create_unit` takes (and, but `id`, `kessel.emit.change_unit`).
---@class kessel.NewUnit
---@field side string
---@field type string
---@field faces (string|table<string, any>)[] "A-D-M" strings, strings read with the type's `face_fields`, or named values
---@field id? string Derived (`<type>.<n>`) when absent.
---@field name? string
---@field formation? string
---@field step? integer
---@field at? Hex
---@field location? "pending"|"eliminated"|"removed"
---@field attrs? table<string, integer>
---@field flags? string[]
---@field vars? table<string, kessel.Data>

---Brings a new unit into play; returns its id. Event: unit_created (the whole record).
---@param unit kessel.NewUnit
---@return string id
function kessel.emit.create_unit(unit) end

---Replaces the given fields of a unit's record (type, side, faces, step, …). Event: unit_changed.
---@param unit string
---@param changes kessel.NewUnit
function kessel.emit.change_unit(unit, changes) end

---Changes a hex's terrain (declared by the ruleset). Event: terrain_set.
---@param hex Hex
---@param terrain string
function kessel.emit.terrain(hex, terrain) end

---Adds (default) or takes off a hexside kind between two adjacent hexes. Event: hexside_set.
---@param a Hex
---@param b Hex
---@param kind string
---@param on? boolean
function kessel.emit.hexside(a, b, kind, on) end

---Puts a tag on a hex (default) or takes it off. Event: hex_tagged.
---@param hex Hex
---@param tag string
---@param on? boolean
function kessel.emit.tag(hex, tag, on) end

---Clears a flag from every unit (of `side`). Event: flags_cleared.
---@param flag string
---@param side? string
function kessel.emit.clear_flag(flag, side) end

---Clears a unit variable from every unit. Event: unit_vars_cleared.
---@param key string
function kessel.emit.clear_unit_var(key) end

---Sets a game variable (plain data), or clears it with nil. Event: var.
---@param key string
---@param value kessel.Data
---@param opts? kessel.SecretOpts
function kessel.emit.var(key, value, opts) end

---Puts a marker on a hex, or off the map with nil; with `other`, on the hexside between `hex`
---and `other`. Event: marker_moved (marker_changed on a hexside).
---@param id integer
---@param hex? Hex
---@param other? Hex
function kessel.emit.marker(id, hex, other) end

---What `kessel.emit.create_marker` takes.
---@class kessel.NewMarker
---@field kind string
---@field side? string
---@field hex? Hex
---@field other? Hex With `hex`: on the hexside between them.
---@field value? kessel.Data
---@field hidden_from? string|string[]|boolean Sides not shown it (true: every side but its own); a marker_hidden event each.

---Brings a new marker into play; returns its id. Event: marker_created.
---@param marker kessel.NewMarker
---@return integer id
function kessel.emit.create_marker(marker) end

---Sets a marker's value (plain data), or clears it with nil. Event: marker_changed.
---@param id integer
---@param value kessel.Data
function kessel.emit.marker_value(id, value) end

---Writes a ruling or remark into the log. `rule` may be nil but must be passed. Event: note.
---@param rule string?
---@param text string
---@param opts? kessel.SecretOpts
function kessel.emit.note(rule, text, opts) end

---Says this game is its campaign's last: a campaign plays none of the games its file lists after
---it (`kessel campaign` and the editor say why). Part of the state, undone with its action.
---Event: campaign_ended.
---@param rule string?
---@param text string Why, in words a player can check (not empty).
function kessel.emit.end_campaign(rule, text) end

---@class kessel.RecordSpec
---@field kind string What was resolved, in the ruleset's words ("combat").
---@field rule? string The rule case that governs it.
---@field fields? table Plain data (strings, numbers, booleans, tables of them); at most 1 MiB as JSON.
---@field secret_to? string The only side whose view shows the fields.

---Writes a resolution into the log as data (a combat's strengths, modifiers, odds, roll, result).
---Changes nothing else: replay passes over it, the state hash ignores it. Event: record.
---@param spec kessel.RecordSpec
function kessel.emit.record(spec) end

---Hides a unit from sides (default: every side but its own): their views do not show it nor the
---events about it. Event: unit_hidden.
---@param unit string
---@param opts? { from: string|string[]|nil }
function kessel.emit.hide(unit, opts) end

---Shows a hidden unit again to sides (default: every side it is hidden from). Event: unit_hidden.
---@param unit string
---@param opts? { to: string|string[]|nil }
function kessel.emit.show(unit, opts) end

---Hides a marker from sides (default: every side but its own; every side for a marker of no
---side): their views do not show it nor the events about it. Event: marker_hidden.
---@param id integer
---@param opts? { from: string|string[]|nil }
function kessel.emit.hide_marker(id, opts) end

---Shows a hidden marker again to sides (default: every side it is hidden from). Event: marker_hidden.
---@param id integer
---@param opts? { to: string|string[]|nil }
function kessel.emit.show_marker(id, opts) end

---Commits `side` to `choice` (plain data, at most 64 KiB) under `id`; other sides see only the
---returned digest until it is opened. Event: committed.
---@param id string
---@param side string
---@param choice kessel.Data
---@return string digest
function kessel.emit.commit(id, side, choice) end

---Opens the commitments named (default: all waiting) in one event; returns their choices by id.
---Event: opened.
---@param ids? string[]
---@return table<string, kessel.Data>
function kessel.emit.open(ids) end

---Sets the clock directly (no hooks). Prefer `advance`. Event: clock.
---@param turn integer
---@param phase integer 0-based step index
---@param finished? boolean
function kessel.emit.clock(turn, phase, finished) end

---The sequencer: ends the current step (step_end hook), moves to the next step or turn or ends
---the game (clock event), then runs step_start unless the game ended. Past a named sequence's
---last step the main sequence resumes at the next turn (mode event).
function kessel.emit.advance() end

---Walks the named sequence `name` from its first step (nil: back to the main sequence); the turn
---is kept; runs step_start(0). Event: mode.
---@param name string?
function kessel.emit.mode(name) end

-------------------------------------------------------------------------------------------------
-- kessel.dice (apply and script stages)
-------------------------------------------------------------------------------------------------

kessel.dice = {}

---Rolls one die (default 6 sides) and records a dice event. Injected rolls come first. With
---`secret_to` only that side's view shows the value. Also `kessel.dice.roll{ purpose =, sides =,
---secret_to = }`.
---@param purpose? string|{ purpose: string?, sides: integer?, secret_to: string? } What the roll is for (default "roll").
---@param sides? integer
---@param opts? kessel.SecretOpts
---@return integer
function kessel.dice.roll(purpose, sides, opts) end

-------------------------------------------------------------------------------------------------
-- kessel.hexset (any stage)
-------------------------------------------------------------------------------------------------

---A dense set of hexes of one map. `#set` is its size.
---@class kessel.HexSet: userdata
---@operator len: integer
local HexSet = {}

---True if the hex is in the set (false for labels not on the map).
---@param hex Hex
---@return boolean
function HexSet:has(hex) end

---Adds a hex. Raises for labels not on the map.
---@param hex Hex
function HexSet:add(hex) end

---Removes a hex. Raises for labels not on the map.
---@param hex Hex
function HexSet:remove(hex) end

---Members in map order.
---@return Hex[]
function HexSet:labels() end

---A new set with the members of both.
---@param other kessel.HexSet
---@return kessel.HexSet
function HexSet:union(other) end

---A new set without `other`'s members.
---@param other kessel.HexSet
---@return kessel.HexSet
function HexSet:minus(other) end

---An independent copy.
---@return kessel.HexSet
function HexSet:copy() end

---A set of hexes or a list of hex labels.
---@alias kessel.Hexes kessel.HexSet|Hex[]

---Builds a hex set from a list of labels, copies a set, or makes an empty one.
---@param list? kessel.Hexes
---@return kessel.HexSet
function kessel.hexset(list) end

-------------------------------------------------------------------------------------------------
-- kessel.paths (any stage)
-------------------------------------------------------------------------------------------------

kessel.paths = {}

---@class kessel.ZocSpec
---@field hexes kessel.Hexes Hexes of the units projecting a zone.
---@field blocked_by? string[] Hexside kinds the zone does not cross.

---The zone of control: each source hex and its neighbours, except across `blocked_by` sides.
---@param spec kessel.ZocSpec
---@return kessel.HexSet
function kessel.paths.zoc(spec) end

---@class kessel.SetRule
---@field set kessel.Hexes
---@field rule? string
---@field message? string
---@field messages? table<Hex, string> Per-hex message in place of `message`.
---@field mp? number Extra MP (surcharge only).

---@class kessel.FieldSpec
---@field from Hex Start hex (required).
---@field budget number MP available (required).
---@field class? string Movement class for the cost lookup.
---@field side? string Side for the cost lookup (a declared side: another is an error).
---@field stop? kessel.SetRule[] Entering these hexes ends movement.
---@field forbid? kessel.SetRule[] These hexes may not be entered.
---@field surcharge? kessel.SetRule[] Entering these hexes costs `mp` more.
---@field cannot_leave? kessel.Reason The stack may not move at all.
---@field hook? fun(from: Hex, to: Hex, cost_so_far: number, step_cost: number): (number|false|nil), string?, string? Return a cost, `false, message, rule` to forbid, or nil to keep.

---Why a hex can not be reached.
---@class kessel.Unreachable
---@field kind "forbidden"|"beyond_stop"|"cannot_leave"|"too_far"|"no_path"
---@field rule? string
---@field message string
---@field at? Hex beyond_stop: the stop hex on the way.

---A movement field from `kessel.paths.field`.
---@class kessel.MovementField: userdata
local MovementField = {}

---MP to reach the hex (0 for the start), or nil if unreachable.
---@param hex Hex
---@return number?
function MovementField:cost(hex) end

---Cheapest path (start excluded; `{}` for the start), or nil if unreachable.
---@param hex Hex
---@return Hex[]?
function MovementField:path(hex) end

---True if movement must end on entering the hex.
---@param hex Hex
---@return boolean
function MovementField:stops(hex) end

---Every reachable hex except the start, with its cost. Sort the keys before relying on order.
---@return table<Hex, number>
function MovementField:reachable() end

---The hexes of `reachable()` as a list sorted by label (the order `table.sort` gives its keys).
---@return Hex[]
function MovementField:hexes() end

---Why the hex can not be reached, or nil if it can.
---@param hex Hex
---@return kessel.Unreachable?
function MovementField:why_not(hex) end

---Everything a stack can reach from `from` with `budget` MP under the declared movement costs.
---@param spec kessel.FieldSpec
---@return kessel.MovementField
function kessel.paths.field(spec) end

---@class kessel.CostSpec
---@field class? string
---@field side? string

---@class kessel.HexStep
---@field hex true Each step costs 1.
---@field blocked_by? string[] No step crosses a hexside carrying one of these kinds.
---@field only_along? string[] Steps only along links/hexsides of these kinds.
---@field free_along? string[] A step along a link of these kinds costs 0 ...
---@field free_within? kessel.Hexes ... when both its hexes are in this set.
---@field enter_cost? { hexes: kessel.Hexes, cost: number } Entering those hexes costs `cost`, not 1.

---@class kessel.PassageSets
---@field blocked? kessel.Hexes May not be entered.
---@field enter_only? kessel.Hexes May be entered, but the trace can not go on from them.

---@class kessel.TraceSpec
---@field from? Hex|Hex[] Start hex (required but by `trace_costs`); `reach` and `trace_costs` also take a list of hexes.
---@field target? kessel.Hexes|fun(hex: Hex): boolean Hexes to reach: required by trace and trace_costs.
---@field budget? number Default 1,000,000.
---@field step? "hex"|kessel.HexStep|kessel.CostSpec|fun(from: Hex, to: Hex): number? Step cost; nil from the function = step not allowed.
---@field passage? kessel.PassageSets|fun(hex: Hex): ("blocked"|"enter"|nil)

---@class kessel.Trace
---@field path Hex[] Start excluded, target included.
---@field cost number

---The cheapest path to the nearest target within the budget, or nil. Ties go by map order.
---@param spec kessel.TraceSpec
---@return kessel.Trace?
function kessel.paths.trace(spec) end

---Every hex a trace can reach within the budget, with its cost (starts included at 0).
---@param spec kessel.TraceSpec
---@return table<Hex, number>
function kessel.paths.reach(spec) end

---The hexes `reach` would list, as a hexset (no costs): for "is this hex reached?" questions.
---@param spec kessel.TraceSpec
---@return kessel.HexSet
function kessel.paths.reach_set(spec) end

---What `trace` would find from every hex, by one search back from the targets: each hex from which
---a trace reaches a target within the budget, with its cost (a target at 0). `from` (a hex or a
---list) keeps the answer to those hexes; the search is the same.
---@param spec kessel.TraceSpec
---@return table<Hex, number>
function kessel.paths.trace_costs(spec) end

---@class kessel.StepSpec
---@field to Hex The hex entered (required).
---@field from? Hex Adjacent hex the step comes from; omitted = entering with no hexside.
---@field class? string
---@field side? string

---The declared cost of one step (no stop/forbid/surcharge sets): MP, or nil plus the
---prohibition's message and rule.
---```lua
---local mp = kessel.paths.cost{ class = "foot", side = "red", from = "0403", to = "0503" }
---```
---@param spec kessel.StepSpec
---@return number? mp
---@return string? message
---@return string? rule
function kessel.paths.cost(spec) end

-------------------------------------------------------------------------------------------------
-- kessel.tables (any stage)
-------------------------------------------------------------------------------------------------

kessel.tables = {}

---@class kessel.Odds
---@field column integer 1-based column after shifts and caps.
---@field label string Column label, e.g. "2-1" or "+1".
---@field below boolean The odds were below the table (first column used).
---@field above boolean The odds were above the table (last column used).

---@class kessel.Chance
---@field result string
---@field p number Probability (0..1).

---The column an attack falls on (ratios rounded in the defender's favour).
---@param id string Results table id.
---@param attack integer
---@param defence integer
---@param shift? integer Column shift, positive favours the attacker.
---@return kessel.Odds
function kessel.tables.odds(id, attack, defence, shift) end

---The result code for a column (1-based) and a roll (clamped to the rows); nil past the last column.
---@param id string
---@param column integer
---@param roll integer
---@return string?
function kessel.tables.result(id, column, roll) end

---Chance of each result in a column for a fair roll of the table's die (its `die`, else one face
---a row) with `drm` added, read as `result` reads a roll.
---@param id string
---@param column integer
---@param drm? integer Die roll modifier (default 0).
---@return kessel.Chance[]
function kessel.tables.distribution(id, column, drm) end

---Column labels.
---@param id string
---@return string[]
function kessel.tables.columns(id) end

---Result of a dice table for a (modified) roll.
---@param id string Dice table id.
---@param roll integer
---@return string?
function kessel.tables.lookup(id, roll) end

---The cell of a word table at a row and a column (by name); nil for an empty cell.
---@param id string
---@param row string
---@param column string
---@return kessel.Data
function kessel.tables.cell(id, row, column) end

-------------------------------------------------------------------------------------------------
-- kessel.queries: declared, read-only questions a ruleset answers with plain data
-------------------------------------------------------------------------------------------------

kessel.queries = {}

---@alias kessel.ParamType "string"|"int"|"number"|"bool"|"hex"|"unit"|"hexes"|"units"|"any"

---@class kessel.QueryParam
---@field type? kessel.ParamType Default "any".
---@field description? string
---@field optional? boolean Default false.

---@class kessel.QueryDecl
---@field id string
---@field description string What it answers (listed by `kessel info` and `kessel query`).
---@field rule? string The rule case it answers by.
---@field params? table<string, kessel.QueryParam|kessel.ParamType>
---@field fn fun(args: table): any Runs read-only (no emits, no dice); returns plain data or nil.

---Declares a query (while the ruleset loads). Unknown keys are refused.
---@param decl kessel.QueryDecl
function kessel.queries.declare(decl) end

---Asks the query `id`; the arguments are checked against its declared parameters. Returns its
---answer as plain data (a fresh copy). Read-only for the length of the query.
---@param id string
---@param args? table
---@return any
function kessel.queries.ask(id, args) end

---@class kessel.QueryInfo
---@field id string
---@field description string
---@field rule? string
---@field params table<string, { type: kessel.ParamType, description: string, optional: boolean }>

---The declared queries, sorted by id.
---@return kessel.QueryInfo[]
function kessel.queries.list() end

---Whether the ruleset declares the query `id`.
---@param id string
---@return boolean
function kessel.queries.has(id) end

-------------------------------------------------------------------------------------------------
-- kessel.log: the game's history, read-only
-------------------------------------------------------------------------------------------------

kessel.log = {}

---@class kessel.Record
---@field action integer The number of the action that made it (1 = first in the log).
---@field kind string
---@field rule? string
---@field fields table

---The records (`kessel.emit.record`) of the accepted actions, oldest first; `kind` keeps one
---kind, `last = n` the last n.
---@param filter? { kind?: string, last?: integer }
---@return kessel.Record[]
function kessel.log.records(filter) end

-------------------------------------------------------------------------------------------------
-- Script and test API: only under `kessel script` and `kessel test`
-------------------------------------------------------------------------------------------------

---Validates and applies an action. Returns `true, events` or `false, reasons`.
---Script and test only.
---@param action kessel.Action
---@return boolean ok
---@return kessel.Event[]|kessel.Reason[] info Events when accepted, reasons when refused.
function kessel.act(action) end

---Runs the validator only. Returns `true, {}` or `false, reasons`. Script and test only.
---@param action kessel.Action
---@return boolean ok
---@return kessel.Reason[] reasons
function kessel.validate(action) end

---Every action the `enumerate` functions offer for `side`. Script and test only.
---@param side? string
---@return kessel.Action[]
function kessel.legal(side) end

---Takes back the last accepted action. False if there is none. Script and test only.
---@return boolean
function kessel.undo() end

---Queues rolls the next `kessel.dice.roll` calls return. Script and test only.
---@param rolls integer[]
function kessel.inject_dice(rolls) end

---@class kessel.SetupMap
---@field columns? integer Default 9.
---@field rows? integer Default 9.
---@field default? string Default terrain, "clear".
---@field terrain? table<Hex, string>
---@field hexsides? string[][] `{ "0403", "0503", "river" }` (two hexes and a kind) per hexside.
---@field links? { kind: string, path: Hex[] }[]
---@field places? { name: string, kind: string, hexes: Hex[] }[]
---@field areas? table<string, Hex[]>
---@field tags? table<string, Hex[]>
---@field numbering? "ccrr"|"letters" Default "ccrr".
---@field lower_columns? "even"|"odd" Which columns sit half a hex lower, as in map.toml; default "even".
---@field first_column? integer Label of the west-most column; default 1.
---@field first_row? integer Label of the north-most row; default 1.

---@class kessel.SetupUnit
---@field id string
---@field side string
---@field type string
---@field name? string
---@field formation? string
---@field faces? string[] "A-D-M" per step, front first.
---@field step? integer Steps lost.
---@field hidden? boolean
---@field pool? string
---@field at? Hex On the map here.
---@field location? "eliminated"|"removed"|"pending" When there is no `at`.
---@field enter? { turn: integer, area: string }
---@field flags? string[]
---@field attrs? table<string, integer>
---@field vars? table<string, integer>
---@field hidden_from? string|string[]|boolean Sides not shown it from the start (true: every side but its own).

---@class kessel.SetupMarker
---@field kind string
---@field side? string
---@field at? Hex
---@field other? Hex With at: on the hexside between at and this adjacent hex.
---@field count? integer Default 1.
---@field value? kessel.Data The marker's value (plain data).
---@field hidden_from? string|string[]|boolean Sides not shown it from the start (true: every side but its own).

---@class kessel.SetupSpec
---@field map? kessel.SetupMap Omitted: keep the current map.
---@field units? kessel.SetupUnit[]
---@field pools? table<string, string[]>
---@field markers? kessel.SetupMarker[]
---@field vars? table<string, kessel.Data>
---@field options? table<string, boolean|integer|string> Options to set; others keep their value.
---@field turn? integer Default 1.
---@field last_turn? integer Default 12.
---@field step? string|integer Step id or 0-based index; default 0.
---@field mode? string Start in this named sequence (step is one of its steps).
---@field seed? integer Dice seed; default the current one.
---@field run_step_start? boolean Run the step_start hooks of `step` (their events become part of the position); default false.
---@field objectives? kessel.SetupObjective[] Victory objectives read in place of the scenario's (omitted: keep those in force).
---@field levels? { name: string, max?: integer }[] Victory levels read in place of the scenario's (omitted: keep those in force).

---@class kessel.SetupObjective
---@field place? string A place of the set-up's map (its name and hexes), or:
---@field hexes? Hex[] the objective's hexes (then `name` is required).
---@field name? string
---@field vp integer
---@field side? string The side that scores it.

---Replaces the position with one described inline; clears the log and restarts the dice.
---Top level of a script or test only.
---@param spec kessel.SetupSpec
function kessel.setup(spec) end

---Registers a test (test files run by `kessel test`).
---@param name string
---@param fn fun()
function kessel.test(name, fn) end

---Every event of every accepted action since the position was set up. Script and test only.
---@return kessel.Event[]
function kessel.events() end

---Stable hash (16 hex digits) of the current state. Script and test only.
---@return string
function kessel.state_hash() end

---Hash of the state rebuilt from the initial position and the logged events. Script and test only.
---@return string
function kessel.replay_hash() end

---Test assertions; each failure points at the calling line.
kessel.expect = {}

---Passes when `actual == expected` (tables compare by identity).
---@param actual any
---@param expected any
---@param what? string
function kessel.expect.eq(actual, expected, what) end

---Passes when `v` is neither nil nor false.
---@param v any
---@param what? string
function kessel.expect.truthy(v, what) end

---Passes when `v` is nil or false.
---@param v any
---@param what? string
function kessel.expect.falsy(v, what) end

---Passes when `actual` is a number within `eps` (default 1e-9) of `expected`.
---@param actual any
---@param expected number
---@param eps? number
---@param what? string
function kessel.expect.near(actual, expected, eps, what) end

---Passes when the action was refused with a reason citing `rule` (any if nil) whose message
---contains `text` (if given). Returns that reason.
---@param ok boolean
---@param reasons kessel.Reason[]|kessel.Event[]
---@param rule? string
---@param text? string
---@return kessel.Reason
function kessel.expect.refused(ok, reasons, rule, text) end

---Passes when the action was accepted. Returns `info` (the events).
---@param ok boolean
---@param info kessel.Event[]|kessel.Reason[]
---@return kessel.Event[]
function kessel.expect.accepted(ok, info) end


---The name of the profile the options came from; nil for the ruleset's defaults.
---@return string?
function kessel.game.profile() end

---A number that changes whenever the game state or the options change (events, undo, set-up,
---reloads, option changes): key caches of derived data on it.
---@return integer
function kessel.game.revision() end

---The handlers a ruleset declared for an action kind (declare stage), so a scenario script can wrap
---them to add a special rule.
---@param kind string
---@return { validate: fun(a: table): any, apply: fun(a: table), enumerate?: fun(side: string?): table[], rule?: string, description?: string }|nil
function kessel.action_handlers(kind) end
