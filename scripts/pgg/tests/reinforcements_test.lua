-- Reinforcements: provisional [14.1], South-Western Front [14.2], recycling (WBC09 #14).
local expect = kessel.expect

local function pz(id, at) return { id = id, name = id, side = "german", type = "panzer", faces = { "4-4-10", "2-2-10" }, at = at } end

local Strip = require("testing.swf_strip")
local reserve, board = Strip.reserve, Strip.board

-- Rule 14.1
kessel.test("case_14_1_provisional_division_each_soviet_turn", function()
  board({ reserve("a") }, "german_air_interdiction", 3)
  kessel.inject_dice{ 3 }
  expect.accepted(kessel.act{ kind = "end_phase" })
  expect.eq(kessel.game.step().id, "soviet_movement")
  local u = kessel.units.get("a")
  expect.eq(u.hex, "2001", "entrance P3")
  expect.eq(u.vars.entered_turn, 4)
  local S = require("rules.supply")
  expect.truthy(S.in_supply("a", "movement"), "in supply its first player-turn")
end)

-- Rule 14.1
kessel.test("case_14_1_blocked_entrance_moves_east", function()
  board({ reserve("a"), pz("g", "1002") }, "german_air_interdiction", 3)
  kessel.inject_dice{ 2 }
  expect.accepted(kessel.act{ kind = "end_phase" })
  local h = kessel.units.get("a").hex
  expect.truthy(h ~= "1001", "1001 is in German ZOC")
  expect.eq(kessel.map.row(h), 1, "on the same edge")
  expect.truthy(kessel.map.column(h) > 10, "toward the east")
end)

-- Rule 14.2
kessel.test("case_14_2_south_western_front", function()
  local units = {}
  for i = 1, 7 do units[i] = reserve("r" .. i) end
  board(units, "soviet_movement", 1)
  local ok, why = kessel.act{ kind = "swf_call", hex = "1208" }
  expect.refused(ok, why, "14.2", "from turn 2")
  board(units, "soviet_movement", 2)
  ok, why = kessel.act{ kind = "swf_call", hex = "0508" }
  expect.refused(ok, why, "14.2", "at or east of entrance Z")
  ok, why = kessel.act{ kind = "swf_call", hex = "1108" }
  expect.refused(ok, why, "14.2", "south-edge rail hex")
  for i = 1, 5 do expect.accepted(kessel.act{ kind = "swf_call", hex = (i % 2 == 0) and "1208" or "2008" }) end
  expect.eq(kessel.game.var("swf_count"), 5)
  expect.eq(kessel.game.var("swf_vp"), 5)
  ok, why = kessel.act{ kind = "swf_call", hex = "1208" }
  expect.refused(ok, why, "14.2", "at most 5")
  board(units, "soviet_movement", 3, { vars = { swf_count = 5, swf_vp = 5 } })
  expect.accepted(kessel.act{ kind = "swf_call", hex = "1208" })
  expect.eq(kessel.game.var("swf_vp"), 7, "+2 for the sixth")
  board(units, "soviet_movement", 4, { vars = { swf_count = 10 } })
  ok, why = kessel.act{ kind = "swf_call", hex = "1208" }
  expect.refused(ok, why, "14.2", "all 10")
end)

-- Rule 14 + WBC09 #14
kessel.test("case_wbc09_14_rifle_recycling_delay", function()
  local R = require("rules.reinforcements")
  local dead = { id = "d", name = "d", side = "soviet", type = "rifle", faces = { "3-3-6" }, location = "eliminated", vars = { elim_turn = 4 } }
  board({ dead }, "soviet_movement", 5)
  expect.eq(#R.available_rifles(), 1, "standard: the dead pile is used at once")
  board({ dead }, "soviet_movement", 5, { options = { wbc09_14_rifle_recycling_delay = true } })
  expect.eq(#R.available_rifles(), 0, "WBC09 #14: not the turn after it died")
  board({ dead }, "soviet_movement", 6, { options = { wbc09_14_rifle_recycling_delay = true } })
  expect.eq(#R.available_rifles(), 1, "two turns after")
  local original = { id = "o", name = "o", side = "soviet", type = "rifle", hidden = true, pool = "rifle", enter = { turn = 9, area = "P2" } }
  board({ dead, original }, "soviet_movement", 6, { options = { wbc09_14_rifle_recycling_delay = true } })
  expect.eq(#R.available_rifles(), 0, "originals first")
end)

-- Rule 14: elimination turn is stamped for the delay
kessel.test("case_14_eliminated_units_stamped_with_turn", function()
  board({ { id = "d", name = "d", side = "soviet", type = "rifle", faces = { "3-3-6" }, location = "eliminated" } }, "soviet_combat", 6)
  expect.accepted(kessel.act{ kind = "end_phase" })
  expect.eq(kessel.units.get("d").vars.elim_turn, 6)
end)

-- Rule 14.3: nothing enters from the closing turn on (the campaign's 12, scenario var
-- `closing_turn`), so a unit scheduled for it would wait off the map all game. `kessel check`
-- names it (R.never_entering, the check hook's list); before, the unit silently never came on.
kessel.test("case_14_3_a_unit_scheduled_for_the_closing_turn_is_a_check_problem", function()
  kessel.setup{ map = { columns = 6, rows = 6, areas = { X = { "0601" } } }, step = "soviet_movement", turn = 3,
    units = {
      { id = "late", side = "soviet", type = "rifle", faces = { "2-2-6" }, enter = { turn = 12, area = "X" } },
      { id = "due", side = "soviet", type = "rifle", faces = { "2-2-6" }, enter = { turn = 11, area = "X" } },
    } }
  local R = require("rules.reinforcements")
  local problems = R.never_entering()
  expect.eq(#problems, 1, "only the unit due on turn 12")
  expect.eq(problems[1].unit, "late")
  expect.truthy(problems[1].message:find("closing_turn", 1, true), problems[1].message)
end)
