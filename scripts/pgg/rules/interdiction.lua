-- [13] Air interdiction.
--
-- German [13.2]: three markers, placed in the German Air Interdiction Phase, and on turn 1 after
-- the Soviet set-up (and any WBC bidding): not before the Soviet has ended it (`end_setup`,
-- setup.lua), and before the first Soviet move (movement.lua holds Soviet moves until they are
-- down or the German declares he is done, `end_air_placement`). They may go on Soviet-occupied
-- hexes, but not east of column 40 until one turn after the German holds both Smolensk hexes with a
-- line to the west edge (game var `smolensk_held_since`, judged at the start of each German Air
-- Interdiction Phase); the limit returns as soon as Smolensk is lost (not held at an Air
-- Interdiction Phase, or retaken by the Soviet by the end of his player-turn: the German's next hold
-- then starts a new one-turn wait). They are removed at the end of the Soviet Movement Phase [13.33].
--
-- Soviet [13.4]: in the Soviet Interdiction Phase the Soviet may place one marker, three times a
-- game (as many times as the scenario has Soviet interdiction markers, I.soviet_uses), never on turn 12 (scenario var `closing_turn`), never on a German-occupied hex [13.45]; it affects both German Movement
-- Phases and blocks German supply through its hex [13.44] (supply.lua), and is removed at the end
-- of the German player-turn.
--
-- Effect on movement [13.3]: +1 MP to enter the hex for the enemy (movement.lua); a German marker
-- on a rail hex costs a Soviet rail move 4 of its 30 hexes (rail.lua); under WBC09 #15 +1 MP to
-- overrun into the hex (`I.overrun_surcharge`, for overrun.lua).
local C = require("rules.common")
local I = {}

I.GERMAN_KIND, I.SOVIET_KIND = "air_interdiction", "soviet_interdiction"

-- The eastern limit and the city that lifts it are the campaign's column 40 and Smolensk, or the
-- scenario's `air_east_limit` (0: none) and `air_limit_city`.
function I.east_limit() return kessel.scenario.var("air_east_limit") end
function I.limit_city() return kessel.scenario.var("air_limit_city") end

-- A limit that no hold could ever lift, as `check` problems: the scenario has German air markers,
-- the map reaches east of the limit and has no place of that name (a cut of the map without Smolensk kept every marker west of
-- column 40 all game, without a word).
function I.limit_problems()
  local limit = I.east_limit()
  if limit == 0 or #I.smolensk() > 0 then return {} end
  -- (a scenario without German air markers has no limit to lift: `kessel new scenario` writes
  -- none, and a problem here would stop it writing the skeleton at all)
  if #kessel.markers.all{ kind = I.GERMAN_KIND } == 0 then return {} end
  for _, h in ipairs(kessel.map.hexes()) do
    if C.column(h) > limit then
      return { { var = "air_limit_city", message = string.format(
        "German air markers go east of column %d only once the German holds %s [13.2], and the map has no place %s: name a place of the map (air_limit_city) or lift the limit (air_east_limit = 0)",
        limit, I.limit_city(), I.limit_city()) } }
    end
  end
  return {}
end

kessel.on("check", function()
  if kessel.scenario.name() == nil then return {} end
  local problems = I.limit_problems()
  for _, p in ipairs(I.soviet_marker_problems()) do problems[#problems + 1] = p end
  return problems
end)

-- [13.4] How many times a game the Soviet may place his marker: the printed "three times" is the
-- campaign's three Soviet interdiction markers (`count = 3`; the reference manual counts three
-- Soviet markers in all, at most one placed a turn), so a scenario says its own number with its `count` (a turn-7
-- start with one use left: `count = 1`), and no other figure of the rules can contradict it. The
-- uses are counted by game var `soviet_interdiction_used`, not by the markers in the box: the one
-- placed comes back at the end of the German player-turn.
function I.soviet_uses() return #kessel.markers.all{ kind = I.SOVIET_KIND } end

local NUMBER_WORDS = { "once", "twice", "three times", "four times", "five times", "six times" }
local function times(n) return NUMBER_WORDS[n] or string.format("%d times", n) end

-- [13.4] What could contradict that count, as `check` problems at the marker: a Soviet
-- interdiction marker declared for another side (its kind makes it a Soviet use all the same, so
-- the side the scenario wrote would be silently ignored).
function I.soviet_marker_problems()
  local problems, said = {}, {}
  for _, m in ipairs(kessel.markers.all{ kind = I.SOVIET_KIND }) do
    -- (once per side named: the markers of one `count` share a table of the file)
    if m.side ~= C.SOVIET and not said[tostring(m.side)] then
      said[tostring(m.side)] = true
      problems[#problems + 1] = { marker = m.id, message = string.format(
        "marker %s is a Soviet interdiction marker declared for side `%s`: only the Soviet places them, and each counts as one of his uses a game [13.4] (give it side = \"soviet\")",
        tostring(m.id), tostring(m.side)) }
    end
  end
  return problems
end

-- MP an overrun by `side` into `hex` pays for interdiction (WBC09 #15).
function I.overrun_surcharge(hex, side)
  if not C.option("wbc09_15_interdiction_on_overrun_cost") then return 0 end
  local kind = side == C.SOVIET and I.GERMAN_KIND or I.SOVIET_KIND
  return C.markers_on_map(kind)[hex] and 1 or 0
end

-- The hexes of Smolensk (the scenario's air_limit_city).
function I.smolensk()
  local city = I.limit_city()
  for _, p in ipairs(kessel.map.places()) do
    if p.name == city then return p.hexes end
  end
  return {}
end

-- Does the German hold every Smolensk hex with a line to the west edge? Held as cities are held
-- for victory [15]: each hex German-owned (a German combat unit in it, or the last to be in it or
-- pass through it), and the line of victory from each (free of Soviet units, uncovered Soviet ZOC
-- and Soviet interdiction markers, any length): the sequence of play asks for Smolensk "taken"
-- with a line traced to the western map edge, not for supply, which may run out (more than 20
-- hexes from a supply road) while the line stands, nor for a garrison: Smolensk taken stays
-- taken until the Soviet recaptures it (I.smolensk_retaken) or the line is cut.
function I.smolensk_held()
  local hexes = I.smolensk()
  if #hexes == 0 then return false end
  local V = require("rules.victory")
  local owner = V.owners()
  for _, h in ipairs(hexes) do
    -- (the units in the hex decide; else who was last in it, recorded for objective hexes)
    local side
    for _, u in ipairs(kessel.units.at(h)) do
      if C.is_combat_unit(u) then side = u.side; break end
    end
    if (side or owner[h]) ~= C.GERMAN then return false end
  end
  local lines = V.lines_west(hexes)
  for _, h in ipairs(hexes) do
    if not lines[h] then return false end
  end
  return true
end

-- May German markers go east of column 40 now?
function I.east_open()
  if I.east_limit() == 0 then return true end
  local since = kessel.game.var("smolensk_held_since")
  return since ~= nil and kessel.game.turn() > since
end

-- Is the German's initial placement waiting for the Soviet set-up? [5.1] [13.2]
local function setup_first()
  local M = require("rules.movement")
  return M.initial_air_pending() and require("rules.setup").open()
end

local function german_window()
  if C.step_is("german_air_interdiction") then return true end
  local M = require("rules.movement")
  return M.initial_air_pending() and not setup_first()
end

local SETUP_FIRST = "the German places his initial air markers after the Soviet set-up (the Soviet ends it: end_setup)"


-- The fields of a marker placement (C.shape_reason): a malformed action is refused, naming the field.
local MARKER_FIELDS = { { name = "hex", kind = "hex" }, { name = "marker", kind = "string" } }

-- Which marker a placement uses and why it is refused.
function I.check(a)
  local shape = C.shape_reason(a, "13", MARKER_FIELDS)
  if shape then return nil, shape end
  local pr = C.pending_reason()
  if pr then return nil, pr end
  local hex = a.hex
  if not hex or not kessel.hex.valid(hex) then return nil, C.reason("13", "%s is not a hex of the map", tostring(hex)) end
  local marker
  if a.marker then
    for _, m in ipairs(kessel.markers.all{}) do if m.id == a.marker then marker = m end end
    if not marker or (marker.kind ~= I.GERMAN_KIND and marker.kind ~= I.SOVIET_KIND) then
      return nil, C.reason("13", "marker %s is not an interdiction marker", tostring(a.marker))
    end
    if marker.hex then return nil, C.reason("13", "marker %s is already on the map", tostring(a.marker)) end
  else
    -- the sender's own kind when the action names its side, else the phase's
    local kind
    if a.side == C.SOVIET then kind = I.SOVIET_KIND
    elseif a.side == C.GERMAN then kind = I.GERMAN_KIND
    else kind = C.step_is("soviet_interdiction") and I.SOVIET_KIND or I.GERMAN_KIND end
    marker = kessel.markers.all{ kind = kind, placed = false }[1]
    if not marker and kind == I.SOVIET_KIND and not C.step_is("soviet_interdiction") then
      return nil, C.reason("13.4", "Soviet interdiction markers are placed in the Soviet Interdiction Phase")
    end
    if not marker then return nil, C.reason(kind == I.GERMAN_KIND and "13.2" or "13.4", "no %s marker left to place", kind) end
  end
  if marker.kind == I.GERMAN_KIND then
    if setup_first() then return nil, C.reason("13.2", SETUP_FIRST) end
    if not german_window() then
      return nil, C.reason("13.2", "German air markers are placed in the German Air Interdiction Phase (and before turn 1)")
    end
    if C.column(hex) > I.east_limit() and not I.east_open() then
      return nil, C.reason("13.2", "%s is east of column %d: German air markers go no further east than column %d until one turn after the German holds %s with a line to %s",
        hex, I.east_limit(), I.east_limit(), I.limit_city(), C.edge_text(C.GERMAN))
    end
  else
    if not C.step_is("soviet_interdiction") then
      return nil, C.reason("13.4", "Soviet interdiction markers are placed in the Soviet Interdiction Phase")
    end
    if C.closing() then return nil, C.reason("13.4", "no Soviet interdiction on turn %d (%s)", kessel.game.turn(), hex) end
    local uses = I.soviet_uses()
    if (kessel.game.var("soviet_interdiction_used") or 0) >= uses then
      return nil, C.reason("13.4", "the Soviet interdiction marker has been used %s this game, as many times as the scenario has Soviet interdiction markers (%d)",
        times(uses), uses)
    end
    if kessel.game.var("soviet_interdiction_turn") == kessel.game.turn() then
      return nil, C.reason("13.4", "one Soviet interdiction marker a turn")
    end
    if C.friendly_at(hex, C.GERMAN) then return nil, C.reason("13.45", "not on a German-occupied hex (%s)", hex) end
  end
  for _, m in ipairs(kessel.markers.at(hex)) do
    if m.kind == marker.kind then return nil, C.reason("13", "%s already holds such a marker", hex) end
  end
  return marker
end

kessel.action{
  kind = "place_marker", rule = "13", description = "place an air interdiction marker",
  validate = C.sided(function(a)
    local m, why = I.check(a)
    if not m then return why end
  end),
  apply = function(a)
    local m = assert(I.check(a))
    kessel.emit.marker(m.id, a.hex)
    if m.kind == I.SOVIET_KIND then
      kessel.emit.var("soviet_interdiction_used", (kessel.game.var("soviet_interdiction_used") or 0) + 1)
      kessel.emit.var("soviet_interdiction_turn", kessel.game.turn())
    end
    kessel.emit.note(m.kind == I.SOVIET_KIND and "13.4" or "13.2", m.kind .. " marker placed at " .. a.hex)
    local M = require("rules.movement")
    if kessel.game.turn() == 1 and C.step_is("soviet_movement") and not M.initial_air_pending() then
      kessel.emit.var("air_initial_done", true)
      M.roll_first_turn_if_due()                              -- the 16th and 19th Armies [5.2]
      require("rules.reinforcements").provisional_if_due()   -- the turn's provisional roll [14.1]
    end
  end,
  -- Every hex a marker may go to [13.2] [13.45]: an empty rail hex far from the Soviet units (a
  -- rail move pays 4 there [13.3]) or the road behind a spearhead (German supply stops there
  -- [13.44]) is a placement a player makes. The computer player's list (ai/narrowing.lua) is a
  -- short one: on Soviet units for the German, next to German units for the Soviet.
  enumerate = C.sided_list(function(side)
    local out = {}
    local target_side
    if C.step_is("soviet_interdiction") then target_side = C.GERMAN
    elseif german_window() then target_side = C.SOVIET else return out end
    local function offer(h)
      local a = { kind = "place_marker", hex = h }
      if I.check(a) then out[#out + 1] = a end
    end
    if not require("ai.narrowing").active() then
      for _, h in ipairs(kessel.map.hexes()) do offer(h) end
      return out
    end
    local seen = {}
    for _, u in ipairs(C.units_of(target_side)) do
      local cands = target_side == C.SOVIET and { u.hex } or kessel.hex.neighbors(u.hex)
      for _, h in ipairs(cands) do
        if not seen[h] then
          seen[h] = true
          offer(h)
        end
      end
    end
    return out
  end),
}

kessel.action{
  kind = "end_air_placement", rule = "13.2", description = "the German places no more air markers before turn 1",
  validate = C.sided(function(a)
    local pr = C.pending_reason()   -- (the WBC bidding comes first)
    if pr then return pr end
    local M = require("rules.movement")
    if not M.initial_air_pending() then return C.reason("13.2", "no initial air marker placement is under way") end
    if setup_first() then return C.reason("13.2", SETUP_FIRST) end
  end),
  apply = function(a)
    kessel.emit.var("air_initial_done", true)
    require("rules.movement").roll_first_turn_if_due()     -- the 16th and 19th Armies [5.2]
    require("rules.reinforcements").provisional_if_due()   -- the turn's provisional roll [14.1]
  end,
  enumerate = C.sided_list(function(side)
    if side and side ~= C.GERMAN then return {} end
    local M = require("rules.movement")
    if kessel.game.var("pending") or not M.initial_air_pending() or setup_first() then return {} end
    return { { kind = "end_air_placement" } }
  end),
}

-- Lifts every placed marker of `kind`, with a note naming the hexes and why (`rule`, `when`).
local function remove_all(kind, rule, when)
  local hexes = {}
  for _, m in ipairs(kessel.markers.all{ kind = kind, placed = true }) do
    hexes[#hexes + 1] = m.hex
    kessel.emit.marker(m.id, nil)
  end
  if #hexes > 0 then
    table.sort(hexes)
    kessel.emit.note(rule, string.format("%s marker(s) removed from %s (%s)", kind, table.concat(hexes, ", "), when))
  end
end

-- Has the Soviet retaken Smolensk? A hex of it is no longer the German's: the Soviet was the last
-- to be in it or pass through it with a combat unit [15].
function I.smolensk_retaken()
  local owner = require("rules.victory").owners()
  for _, h in ipairs(I.smolensk()) do
    if owner[h] ~= nil and owner[h] ~= C.GERMAN then return true end
  end
  return false
end

kessel.on("step_end", function()
  if C.step_is("soviet_movement") then remove_all(I.GERMAN_KIND, "13.33", "end of the Soviet Movement Phase") end
  if C.step_is("german_air_interdiction") then remove_all(I.SOVIET_KIND, "13.4", "end of the German player-turn") end
  -- [13.2] a recapture puts the limit back at once: the German's next hold starts a new wait
  -- (judged at the end of the Soviet player-turn, as the Soviet's recaptures are [15])
  if C.step_is("soviet_interdiction") and I.east_limit() > 0 and kessel.game.var("smolensk_held_since") ~= nil
    and I.smolensk_retaken() then
    kessel.emit.var("smolensk_held_since", nil)
    kessel.emit.note("13.2", string.format("the Soviet has retaken %s: air markers stay at or west of column %d until the German has held it again for a turn",
      I.limit_city(), I.east_limit()))
  end
end)

kessel.on("step_start", function()
  if C.step_is("german_air_interdiction") and I.east_limit() > 0 then
    local held = I.smolensk_held()
    local since = kessel.game.var("smolensk_held_since")
    if held and since == nil then
      kessel.emit.var("smolensk_held_since", kessel.game.turn())
      kessel.emit.note("13.2", string.format("the German holds %s: air markers may go east of column %d from next turn", I.limit_city(), I.east_limit()))
    elseif not held and since ~= nil then
      kessel.emit.var("smolensk_held_since", nil)
      kessel.emit.note("13.2", string.format("%s is not held: air markers stay at or west of column %d", I.limit_city(), I.east_limit()))
    end
  end
end)

return I
