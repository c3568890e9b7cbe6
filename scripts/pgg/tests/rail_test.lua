-- Soviet rail movement [6.3], German rail cuts [6.37], WBC09 #6.
local expect = kessel.expect

local function rifle(id, at) return { id = id, name = id, side = "soviet", type = "rifle", faces = { "3-3-6" }, at = at } end
local function tank(id, at) return { id = id, name = id, side = "soviet", type = "tank", faces = { "4-4-10" }, at = at } end
local function leader(id, at) return { id = id, name = id, side = "soviet", type = "leader", faces = { "0-3-10" }, attrs = { rating = 3 }, at = at } end
local function pz(id, at) return { id = id, name = id, side = "german", type = "panzer", faces = { "4-4-10", "2-2-10" }, at = at } end

-- a railway along row 02 from column 03 to column 40, through forest
local function line(units, extra)
  local rail = {}
  for c = 3, 40 do rail[#rail + 1] = string.format("%02d02", c) end
  local spec = { map = { columns = 42, rows = 4, default = "forest", links = { { kind = "railway", path = rail } } },
    units = units, step = "soviet_movement", turn = 7 }
  for k, v in pairs(extra or {}) do spec[k] = v end
  kessel.setup(spec)
end

local function rail(ids, path) return kessel.act{ kind = "rail_move", units = ids, path = path } end

-- Rule 6.3
kessel.test("case_6_3_rail_up_to_30_hexes_terrain_ignored", function()
  line{ rifle("r", "0302") }
  expect.accepted(rail({ "r" }, { "3302" }))
  expect.eq(kessel.units.get("r").hex, "3302")
  local M = require("rules.movement")
  expect.eq(M.mp_left(kessel.units.get("r")), 0, "rail movement ends the unit's move")
  line{ rifle("r", "0302") }
  local ok, why = rail({ "r" }, { "3402" })
  expect.refused(ok, why, "6.3", "31 rail hexes")
end)

-- Rule 6.3
kessel.test("case_6_3_start_and_end_on_rail", function()
  line{ rifle("r", "0303") }
  local ok, why = rail({ "r" }, { "1002" })
  expect.refused(ok, why, "6.3", "starts in a rail hex")
  line{ rifle("r", "0302") }
  ok, why = rail({ "r" }, { "1003" })
  expect.refused(ok, why, "6.3", "ends in a rail hex")
  -- a rail move to the hex it starts in, named alone or as the end of a loop, goes nowhere: refused,
  -- so it spends neither the stack's move nor the turn's rail capacity, and none is listed
  line{ rifle("r", "0302") }
  ok, why = rail({ "r" }, { "0302" })
  expect.refused(ok, why, "6.3", "ends where it starts")
  ok, why = rail({ "r" }, { "0402", "0302" })
  expect.refused(ok, why, "6.3", "ends where it starts")
  for _, a in ipairs(kessel.legal("soviet")) do
    if a.kind == "rail_move" then expect.truthy(a.path[#a.path] ~= "0302", "a listed rail move leaves its hex") end
  end
  expect.accepted(rail({ "r" }, { "0402" }))
end)

-- Rule 6.3
kessel.test("case_6_3_never_into_or_through_enemy_zoc", function()
  line{ rifle("r", "0302"), pz("g", "1001") }
  local ok, why = rail({ "r" }, { "2002" })
  expect.refused(ok, why, "6.3", "may not enter an enemy ZOC")
  expect.accepted(rail({ "r" }, { "0802" }))
end)

-- Rule 6.3 / 13.3: a German air marker on a rail hex costs 4 rail hexes on top of the hex itself
-- (5 of the 30); option rail_air_marker_cost = "four_in_all" keeps the reading of 4 in all.
kessel.test("case_13_3_air_marker_costs_the_hex_and_four_more_rail_hexes", function()
  local marked = { markers = { { kind = "air_interdiction", side = "german", at = "1002" } } }
  line({ rifle("r", "0302") }, marked)
  local ok, why = rail({ "r" }, { "3002" })
  expect.refused(ok, why, "6.3", "31 rail hexes")
  expect.refused(ok, why, "6.3", "counts 5")
  local listed = {}
  for _, a in ipairs(kessel.legal("soviet")) do if a.kind == "rail_move" then listed[a.path[#a.path]] = true end end
  expect.truthy(listed["2902"], "29 hexes away counting the marker as 5: listed")
  expect.falsy(listed["3002"], "30 hexes away plus 4: not listed")
  expect.accepted(rail({ "r" }, { "2902" }))
  -- entering the marked hex itself: 7 hexes to 1002 cost 6 + 5
  line({ rifle("r", "0302") }, marked)
  expect.accepted(rail({ "r" }, { "1002" }))
  -- two markers on the line: each adds 4 (23 steps to 2602 + 8 = 31; 22 to 2502 + 8 = 30)
  line({ rifle("r", "0302") }, { markers = { { kind = "air_interdiction", side = "german", at = "1002" },
    { kind = "air_interdiction", side = "german", at = "1202" } } })
  ok, why = rail({ "r" }, { "2602" })
  expect.refused(ok, why, "6.3", "31 rail hexes")
  expect.accepted(rail({ "r" }, { "2502" }))
  -- the older reading: 4 in all
  line({ rifle("r", "0302") }, { markers = marked.markers, options = { rail_air_marker_cost = "four_in_all" } })
  ok, why = rail({ "r" }, { "3302" })
  expect.refused(ok, why, "6.3", "33 rail hexes")
  expect.accepted(rail({ "r" }, { "3002" }))
end)

-- Rule 6.3
kessel.test("case_6_3_eight_units_a_turn_armour_counts_three", function()
  line{ tank("t1", "0302"), tank("t2", "0302"), leader("l", "0302"), rifle("a", "0502"), rifle("b", "0502"), rifle("c", "0502") }
  expect.accepted(rail({ "t1", "t2", "l" }, { "2002" }), "6 of 8, the leader is free")
  expect.accepted(rail({ "a", "b" }, { "1902" }), "8 of 8")
  local ok, why = rail({ "c" }, { "1802" })
  expect.refused(ok, why, "6.3", "8 of 8 used this turn")
end)

-- Rule 6.3
kessel.test("case_6_3_soviet_only_and_not_after_moving", function()
  line({ pz("g", "0302") }, { step = "german_movement" })
  local ok, why = rail({ "g" }, { "1002" })
  expect.refused(ok, why, "6.3", "only the Soviet player")
  line{ rifle("r", "0402") }
  expect.accepted(kessel.act{ kind = "move", units = { "r" }, path = { "0302" } })
  ok, why = rail({ "r" }, { "1002" })
  expect.refused(ok, why, "6.3", "already moved")
end)

-- Rule 6.37
kessel.test("case_6_37_german_cut_blocks_soviet_rail_and_soviet_entry_repairs", function()
  line({ pz("g", "1001") }, { step = "german_movement", markers = { { kind = "rail_cut", side = "german", count = 6 } } })
  local ok, why = kessel.act{ kind = "move", units = { "g" }, path = { "1101" }, rail_cut = "1002" }
  expect.refused(ok, why, "6.37", "not on its path")
  expect.accepted(kessel.act{ kind = "move", units = { "g" }, path = { "1002", "1102" }, rail_cut = "1002" })
  local RL = require("rules.rail")
  expect.truthy(RL.cuts()["1002"])
  ok, why = kessel.act{ kind = "move", units = { "g" }, path = { "1203" }, rail_cut = "1203" }
  expect.refused(ok, why, "6.37", "not a rail hex")
end)

-- Rule 6.37
kessel.test("case_6_37_cut_stops_rail_and_soviet_combat_unit_removes_it", function()
  line({ rifle("r", "0302"), rifle("s", "1003") }, { markers = { { kind = "rail_cut", side = "german", at = "1002" } } })
  local ok, why = rail({ "r" }, { "2002" })
  expect.refused(ok, why, "6.37", "cut at 1002")
  expect.accepted(kessel.act{ kind = "move", units = { "s" }, path = { "1002" } })
  local RL = require("rules.rail")
  expect.falsy(RL.cuts()["1002"], "repaired")
  expect.accepted(rail({ "r" }, { "0902" }))
end)

-- Rule 6.37 + WBC09 #6
kessel.test("case_6_37_six_cuts_then_wbc09_06_relocation", function()
  local spec_markers = {}
  for i, h in ipairs({ "0302", "0402", "0502", "0602", "0702", "0802" }) do spec_markers[i] = { kind = "rail_cut", side = "german", at = h } end
  line({ pz("g", "1001") }, { step = "german_movement", markers = spec_markers })
  local ok, why = kessel.act{ kind = "move", units = { "g" }, path = { "1002" }, rail_cut = "1002" }
  expect.refused(ok, why, "6.37", "all six")
  line({ pz("g", "1001") }, { step = "german_movement", markers = spec_markers, options = { wbc09_06_rail_break_relocation = true } })
  ok, why = kessel.act{ kind = "move", units = { "g" }, path = { "1002" }, rail_cut = "1002" }
  expect.refused(ok, why, "WBC09 #6", "name one to lift")
  expect.accepted(kessel.act{ kind = "move", units = { "g" }, path = { "1002" }, rail_cut = "1002", lift = "0302" })
  local RL = require("rules.rail")
  expect.truthy(RL.cuts()["1002"]); expect.falsy(RL.cuts()["0302"])
end)

-- Rule 6.3: enumerated rail moves validate
kessel.test("case_6_3_enumerated_rail_moves_are_legal", function()
  line{ rifle("r", "0302") }
  local n = 0
  for _, a in ipairs(kessel.legal("soviet")) do
    if a.kind == "rail_move" then
      n = n + 1
      if n % 5 == 0 then expect.accepted(kessel.validate(a)) end
    end
  end
  expect.eq(n, 30)
end)

-- Rule 6.3: a rail move to a neighbouring hex whose railway runs round through a third hex is
-- listed and accepted: a one-hex path names the destination, and the move follows the railway
-- (0303 -> 0302 -> 0402: 0303 and 0402 are neighbours, with no railway between them). An explicit
-- step across a hexside without a railway is still refused. Every listed rail move validates.
kessel.test("case_6_3_rail_move_round_a_bend_to_a_neighbour_is_listed_and_accepted", function()
  local function bend(units)
    kessel.setup{ map = { columns = 8, rows = 6, links = { { kind = "railway", path = { "0303", "0302", "0402", "0502" } } } },
      units = units, step = "soviet_movement", turn = 7 }
  end
  bend{ rifle("r", "0303") }
  expect.truthy(kessel.hex.adjacent("0303", "0402"))
  local found = false
  for _, a in ipairs(kessel.legal("soviet")) do
    if a.kind == "rail_move" then
      expect.truthy(kessel.validate(a), "listed rail move validates: " .. table.concat(a.path, "-"))
      if a.path[#a.path] == "0402" then found = true end
    end
  end
  expect.truthy(found, "0402 is listed")
  local ok, why = rail({ "r" }, { "0303", "0402" })
  expect.refused(ok, why, "6.3", "not adjacent")
  ok, why = kessel.act{ kind = "rail_move", units = { "r" }, path = { "0402", "0502" } }
  expect.refused(ok, why, "6.3", "no railway between 0303 and 0402")
  local events = expect.accepted(rail({ "r" }, { "0402" }))
  expect.eq(kessel.units.get("r").hex, "0402")
  local noted = false
  for _, e in ipairs(events) do if e.text and e.text:find("2 rail hexes", 1, true) then noted = true end end
  expect.truthy(noted, "the route round the bend costs 2 rail hexes")
end)

-- [6.37] Rail cuts -------------------------------------------------------------------------------
do
  local B = require("testing.board8")
  local expect, K, Z, S, L, M, V, pz, rifle, leader, board, attack, choose, retreat, mv, note, end_phases =
    B.expect, B.K, B.Z, B.S, B.L, B.M, B.V, B.pz, B.rifle, B.leader, B.board, B.attack, B.choose, B.retreat, B.mv, B.note, B.end_phases

  -- Rule 6.37: only a Soviet combat unit repairs a cut; a leader entering the hex leaves it.
  kessel.test("case_6_37_leader_does_not_repair_rail_cut", function()
    local rail = {}
    for c = 3, 12 do rail[#rail + 1] = string.format("%02d02", c) end
    kessel.setup{ map = { columns = 14, rows = 4, links = { { kind = "railway", path = rail } } },
      step = "soviet_movement", turn = 7, units = { leader("l", "1003", 3), rifle("r", "1103") },
      markers = { { kind = "rail_cut", side = "german", at = "1002" } } }
    local RL = require("rules.rail")
    expect.accepted(mv("l", { "1002" }))
    expect.truthy(RL.cuts()["1002"], "still cut after the leader")
    local events = expect.accepted(mv("r", { "1002" }))
    expect.truthy(note(events, "repairs the railway at 1002"))
    expect.falsy(RL.cuts()["1002"])
  end)
end
