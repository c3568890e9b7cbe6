-- Situations from the reference material, rules24 pass: cases played together on small boards
-- where the earlier passes had no test. Each is played through actions.
local expect = kessel.expect
local B = require("testing.board10")
local Strip = require("testing.swf_strip")

-- [6.5] [10.35] [14.1] A provisional division appears at the start of the Soviet Movement Phase,
-- before anything moves, so it begins the phase where it is placed: inside a working leader's
-- radius it may overrun that phase like any unit that began the phase there. The rule bars only a
-- unit that began the phase outside every radius. The engine wrote down who began the phase in
-- command before the provisional roll put the division on the map, and so refused its overrun,
-- saying it had begun the phase outside every radius.
-- Board (the 30x8 strip): entrance P3 = 2001; leader l (rating 3) in 1903, two hexes from it;
-- German g (1-1-10) in 2003. The die gives 3: the division (3-3-6) appears in 2001, moves to 2002
-- (next to g, 1 MP) and overruns 2003: 3 halved 1 against 1, 1-1, roll 1: D1. With the leader far
-- away (in 0901, five hexes from 2001 along the edge and further to 2002) it is still refused.
kessel.test("case_6_5_a_provisional_division_placed_in_a_leaders_radius_may_overrun_that_phase", function()
  local function board(leader_hex)
    Strip.board({ Strip.reserve("a"), B.leader("l", leader_hex, 3), B.pz("g", "2003", "1-1-10") },
      "german_air_interdiction", 3)
    kessel.inject_dice{ 3 }
    expect.accepted(kessel.act{ kind = "end_phase" })
    expect.eq(kessel.game.step().id, "soviet_movement")
    expect.eq(B.where("a"), "2001", "entrance P3")
    expect.accepted(B.move({ "a" }, { "2002" }))
  end

  board("1903")
  kessel.inject_dice{ 1 }
  local ev = expect.accepted(kessel.act{ kind = "overrun", units = { "a" }, target = "2003" })
  expect.truthy(B.note(ev, "overrun of 2003 from 2002"), B.all_notes(ev))

  board("0901")
  local ok, why = kessel.act{ kind = "overrun", units = { "a" }, target = "2003" }
  expect.refused(ok, why, "6.5", "began the phase outside every leader's command radius")
end)
