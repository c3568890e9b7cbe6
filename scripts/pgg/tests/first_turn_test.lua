-- First-turn rules [5.2].
local expect = kessel.expect

local function rifle(id, at, army) return { id = id, name = id, side = "soviet", type = "rifle", formation = army, faces = { "3-3-6" }, at = at } end

local function board(units, vars, turn)
  kessel.setup{ map = { columns = 12, rows = 9 }, units = units, step = "soviet_movement", turn = turn or 1, vars = vars }
end
local function mv(id, path) return kessel.act{ kind = "move", units = { id }, path = path } end

-- Rule 5.2
kessel.test("case_5_2_16th_and_19th_roll_once", function()
  board{ rifle("a", "0505", "16 Army"), rifle("b", "0805", "19 Army") }
  local ok, why = mv("a", { "0506" })
  expect.refused(ok, why, "5.2", "die roll")
  kessel.inject_dice{ 3, 4 }
  expect.accepted(kessel.act{ kind = "first_turn_roll" })
  expect.eq(kessel.game.var("first_turn_16"), "move")
  expect.eq(kessel.game.var("first_turn_19"), "stand")
  ok, why = kessel.act{ kind = "first_turn_roll" }
  expect.refused(ok, why, "5.2", "once")
  expect.accepted(mv("a", { "0508" }))
  ok, why = mv("b", { "0806" })
  expect.refused(ok, why, "5.2", "only to cure overstacking")
end)

-- Rule 5.2
kessel.test("case_5_2_standing_army_shifts_one_hex_to_cure_overstacking", function()
  local units = {}
  for i = 1, 4 do units[i] = rifle("r" .. i, "0505", "19 Army") end
  board(units, { first_turn_16 = "move", first_turn_19 = "stand" })
  local ok, why = mv("r1", { "0507" })
  expect.refused(ok, why, "5.2", "one hex only")
  expect.accepted(mv("r1", { "0506" }))
  ok, why = mv("r2", { "0504" })
  expect.refused(ok, why, "5.2", "only to cure overstacking")
  -- turn 2: no restriction
  board(units, { first_turn_16 = "move", first_turn_19 = "stand" }, 2)
  expect.accepted(mv("r1", { "0507" }))
end)

-- Rule 5.2: what the editor's play-test shades for a standing army (the `reach` query)
kessel.test("case_5_2_reach_of_a_standing_army_is_the_one_hex_shift", function()
  local units = {}
  for i = 1, 4 do units[i] = rifle("r" .. i, "0505", "19 Army") end
  board(units, { first_turn_16 = "move", first_turn_19 = "stand" })
  local r = kessel.queries.ask("reach", { units = { "r1" } })
  expect.eq(table.concat(r.movers, ","), "r1")
  local hexes = {}
  for _, h in ipairs(r.reachable) do
    expect.truthy(kessel.hex.adjacent("0505", h.hex), h.hex .. " is one hex away")
    hexes[#hexes + 1] = h.hex
  end
  expect.eq(#hexes, 6, "any neighbour cures the overstack")
  -- not overstacked: it may not shift at all
  board({ rifle("a", "0505", "19 Army") }, { first_turn_16 = "move", first_turn_19 = "stand" })
  expect.eq(#kessel.queries.ask("reach", { units = { "a" } }).reachable, 0)
  -- an army that rolled to move keeps its whole field
  board({ rifle("a", "0505", "16 Army") }, { first_turn_16 = "move", first_turn_19 = "stand" })
  expect.truthy(#kessel.queries.ask("reach", { units = { "a" } }).reachable > 6)
end)

-- Rule 5.2
kessel.test("case_5_2_13th_20th_only_north_south_east", function()
  board({ rifle("a", "0105", "13 Army") }, { first_turn_16 = "move", first_turn_19 = "move" })
  expect.accepted(mv("a", { "0104", "0204", "0304" }), "N, then east; columns 01-02 may be crossed")
  local ok, why = mv("a", { "0404", "0305" })
  expect.refused(ok, why, "5.2", "north, south or east")
end)

-- Rule 5.2
kessel.test("case_5_2_13th_20th_no_reentry_and_not_ending_in_columns_01_02", function()
  board({ rifle("a", "0105", "20 Army") }, { first_turn_16 = "move", first_turn_19 = "move" })
  local ok, why = mv("a", { "0104" })
  expect.refused(ok, why, "5.2", "may not end their move in columns 01-02")
  expect.accepted(mv("a", { "0104", "0204", "0304" }))
  ok, why = mv("a", { "0305", "0304" })
  expect.refused(ok, why, "5.2", "re-enter")
  ok, why = kessel.act{ kind = "rail_move", units = { "a" }, path = { "0305" } }
  expect.refused(ok, why, "5.2", "rail")
end)

-- Rules 5.2 and 6.4: crossing columns 01-02 on turn 1 is the 13th and 20th Armies' own; a unit
-- of another army moving in their stack (the 16th's roll let it move) does not cross with them.
kessel.test("case_6_4_a_stack_with_a_unit_of_another_army_keeps_out_of_columns_01_02_on_turn_1", function()
  board({ rifle("a", "0105", "20 Army"), rifle("b", "0105", "16 Army") }, { first_turn_16 = "move", first_turn_19 = "move" })
  local ok, why = kessel.act{ kind = "move", units = { "a", "b" }, path = { "0104", "0204", "0304" } }
  expect.refused(ok, why, "6.4", "no Soviet unit may enter columns 01-02")
  expect.accepted(mv("a", { "0104", "0204", "0304" }), "the 20th Army's unit alone crosses them")
end)

-- Rule 5.2
kessel.test("case_5_2_13th_20th_must_spend_full_ma", function()
  board({ rifle("a", "0105", "13 Army") }, { first_turn_16 = "move", first_turn_19 = "move" })
  expect.accepted(mv("a", { "0205", "0305", "0405" }))
  local ok, why = kessel.act{ kind = "end_phase" }
  expect.refused(ok, why, "5.2", "full movement allowance")
  -- the unit is named once, with its army once, and its hex ("a (13 Army) in 0405 must spend ...")
  expect.refused(ok, why, "5.2", "a (13 Army) in 0405 must spend its full movement allowance on the first turn (3 MP left)")
  expect.accepted(mv("a", { "0505", "0605", "0705" }))
  expect.accepted(kessel.act{ kind = "end_phase" })
end)
