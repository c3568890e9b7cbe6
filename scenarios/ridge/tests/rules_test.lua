-- Ridge rule tests. Run with: kessel test .
local expect = kessel.expect

-- a 6x6 board (the game's grid): stream between columns 04 and 05 in the south, a track down
-- column 04
local function board(units, step, extra)
  local spec = {
    map = {
      columns = 6, rows = 6, default = "plain",
      terrain = { ["0202"] = "hills", ["0303"] = "marsh", ["0204"] = "hills" },
      hexsides = { { "0404", "0504", "stream" }, { "0404", "0505", "stream" } },
      links = { { kind = "track", path = { "0403", "0404", "0405" } } },
    },
    units = units,
    step = step or "north_move",
  }
  for k, v in pairs(extra or {}) do spec[k] = v end
  kessel.setup(spec)
end

local function foot(id, side, at, faces)
  return { id = id, side = side, type = "foot", faces = faces or { "4-3-4", "2-2-4" }, at = at }
end

-- Rule R2
kessel.test("case_R2_horse_may_not_enter_marsh", function()
  board{ { id = "h", side = "north", type = "horse", faces = { "3-2-6" }, at = "0302" } }
  local ok, reasons = kessel.act{ kind = "move", unit = "h", path = { "0303" } }
  expect.refused(ok, reasons, "R2", "horse may not enter marsh")
  expect.accepted(kessel.act{ kind = "move", unit = "h", path = { "0402" } })
end)

-- Rule R2: the track bridges the stream; off it the stream costs 1 more
kessel.test("case_R2_stream_costs_one_the_track_bridges_it", function()
  board{ foot("b", "north", "0405", { "1-1-1" }) }
  expect.eq(kessel.paths.cost{ class = "foot", side = "north", from = "0504", to = "0404" }, 2, "plain + stream")
  expect.eq(kessel.paths.cost{ class = "foot", side = "north", from = "0505", to = "0404" }, 2, "plain + stream")
  local events = expect.accepted(kessel.act{ kind = "move", unit = "b", path = { "0403" } })
  expect.eq(events[1].cost, 1, "two track hexes at 1/2 MP")
end)

-- Rule R3: entering an enemy zone of control ends the move
kessel.test("case_R3_zoc_stops_movement", function()
  board{ foot("n", "north", "0201"), foot("s", "south", "0203") }
  local ok, reasons = kessel.act{ kind = "move", unit = "n", path = { "0204" } }
  expect.refused(ok, reasons, "R3", "enemy zone of control")
end)

-- Rule R5: differential odds, hills add 1 to the defence
kessel.test("case_R5_hills_add_one_and_d1_takes_a_step", function()
  board({ foot("n", "north", "0201"), foot("s", "south", "0202", { "3-3-4", "1-1-4" }) }, "north_combat")
  local q = kessel.queries.ask("odds", { units = { "n" }, targets = { "0202" } })
  expect.eq(q.defence, 4, "3 printed + 1 for hills")
  expect.eq(q.label, "+0")
  kessel.inject_dice{ 2 }  -- column 0, roll 2: D1
  expect.accepted(kessel.act{ kind = "attack", units = { "n" }, target = "0202" })
  expect.eq(kessel.units.get("s").step, 1)
  expect.eq(kessel.units.get("s").defence, 1)
end)

-- Rule R5.3: a defender that can not retreat loses a step instead
kessel.test("case_R5_3_blocked_retreat_costs_a_step", function()
  board({
    foot("n", "north", "0201"), foot("z1", "north", "0104"), foot("z2", "north", "0304"),
    foot("s", "south", "0202", { "2-2-4", "1-1-4" }),
  }, "north_combat")
  kessel.inject_dice{ 2 }  -- 4 against 2 + 1 (hills) is +1; roll 2 there is DR
  expect.accepted(kessel.act{ kind = "attack", units = { "n" }, target = "0202" })
  local s = kessel.units.get("s")
  expect.eq(s.hex, "0202", "every way out is in a North zone of control")
  expect.eq(s.step, 1)
end)

-- Rule R6: a unit with no line to its own edge is marked at the start of its movement phase and
-- attacks at half strength
kessel.test("case_R6_cut_off_units_are_marked_and_halved", function()
  board({
    foot("n", "north", "0305"), foot("s1", "south", "0304"), foot("s2", "south", "0204"),
    foot("s3", "south", "0404"), foot("t", "south", "0306", { "1-4-4" }),
  }, "north_move", { run_step_start = true })
  expect.eq(kessel.units.get("n").flags.unsupplied, true, "ringed in, far from the north edge")
  board({ foot("n", "north", "0202"), foot("s", "south", "0203") }, "north_move", { run_step_start = true })
  expect.falsy(kessel.units.get("n").flags.unsupplied, "a clear line north")
end)

-- Rule R6.3 (option attrition): a cut-off unit also loses a step
kessel.test("case_R6_3_attrition_takes_a_step_when_on", function()
  local ring = {
    foot("n", "north", "0305"), foot("s1", "south", "0304"), foot("s2", "south", "0204"),
    foot("s3", "south", "0404"),
  }
  board(ring, "north_move", { run_step_start = true })
  expect.eq(kessel.units.get("n").step, 0, "off by default")
  board(ring, "north_move", { run_step_start = true, options = { attrition = true } })
  expect.eq(kessel.units.get("n").step, 1, "withers with the option on")
end)

-- Rule R9: North holding every objective at the end of its combat phase ends the game
kessel.test("case_R9_sudden_death", function()
  board({ foot("n1", "north", "0403"), foot("n2", "north", "0503") }, "north_combat")
  expect.accepted(kessel.act{ kind = "end_phase" })
  expect.eq(kessel.game.finished(), true)
  expect.eq(kessel.game.step().id, "north_combat")
end)

-- Rule R7: a unit with `enter` waits off the map until its turn; the rules bring it on at the
-- start of its side's movement phase, on the first free hex of its area (the engine places
-- nobody by itself)
kessel.test("case_R7_reinforcements_enter_on_their_turn", function()
  kessel.setup{
    map = { columns = 6, rows = 6, default = "plain", areas = { S = { "0106", "0206" } } },
    units = {
      foot("n", "north", "0101"),
      foot("s", "south", "0106"),
      { id = "late", side = "south", type = "horse", faces = { "2-2-6" }, enter = { turn = 2, area = "S" } },
    },
    step = "north_combat",
  }
  expect.accepted(kessel.act{ kind = "end_phase" })
  expect.eq(kessel.game.step().id, "south_move")
  expect.eq(kessel.units.get("late").location, "pending", "not before turn 2")
  for _ = 1, 4 do expect.accepted(kessel.act{ kind = "end_phase" }) end
  expect.eq(kessel.game.turn(), 2)
  expect.eq(kessel.game.step().id, "south_move")
  expect.eq(kessel.units.get("late").hex, "0206", "the first hex of S with room")
end)
