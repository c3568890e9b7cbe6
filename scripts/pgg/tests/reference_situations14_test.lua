-- Situations from the reference material, examiner pass (round 12): the errata option to rail
-- repair [6.37], then combat and its aftermath checked against the CRT [9.5] and the sequence of
-- play [4]: retreats [9.6]-[9.7], advance [9.8], leaders [10], disruption [6.6], air interdiction
-- [13], the South-Western Front [14.2] and victory [15]. Each is played through actions on a small
-- board. Geometry of the 10x10 map: odd columns N, NE = c+1 r-1, SE = c+1 r, S, SW = c-1 r,
-- NW = c-1 r-1; even columns NE = c+1 r, SE = c+1 r+1, SW = c-1 r+1, NW = c-1 r.
local expect = kessel.expect
local B = require("testing.board10")
local attack, choose, retreat, advance, move, advances = B.attack, B.choose, B.retreat, B.advance, B.move, B.advances

local function rail_move(units, path) return kessel.act{ kind = "rail_move", units = units, path = path } end

-- The last hexes of the rail moves listed for unit `id`, as a set.
local function rail_dests(id)
  local out = {}
  for _, a in ipairs(kessel.legal("soviet")) do
    if a.kind == "rail_move" then
      for _, u in ipairs(a.units) do
        if u == id then out[a.path[#a.path]] = true end
      end
    end
  end
  return out
end

-- [6.37] A rail cut repaired by a Soviet combat unit, with and without SPI's July 1977 errata
-- (option errata_6_37_repair_next_turn, off in `standard`). Board, Soviet Movement Phase of turn
-- 7: a railway 0105-0205-...-0905 along row 05, cut at 0505. r (2-2-6) walks from 0404 into 0505
-- and repairs it. Standard (the reference text): q (2-2-6) in 0105 at once rides across the
-- repaired hex to 0905, and 0905 is among its listed rail moves. Errata on: the repair note says
-- rail movement resumes next turn; q may ride to 0405, short of 0505, but not to 0905 across it
-- (refused citing 6.37, and neither 0605 nor 0905 is listed); s, in 0505 since before the repair,
-- may not ride from it either. On turn 8, with the repair recorded on turn 7, q rides to 0905.
kessel.test("case_6_37_errata_option_rail_over_a_repaired_cut_only_from_the_next_turn", function()
  local rail = { kind = "railway", path = { "0105", "0205", "0305", "0405", "0505", "0605", "0705", "0805", "0905" } }
  local function board(options)
    B.setup({ B.rifle("r", "0404"), B.rifle("q", "0105"), B.rifle("s", "0505"), B.leader("l", "0707", 5) },
      { map = { columns = 10, rows = 10, links = { rail } }, step = "soviet_movement", options = options,
        markers = { { kind = "rail_cut", side = "german", at = "0505" } } })
  end

  -- standard: open at once
  board(nil)
  expect.eq(kessel.game.option("errata_6_37_repair_next_turn"), false, "off by default")
  local ev = expect.accepted(move({ "r" }, { "0505" }))
  expect.truthy(B.note(ev, "repairs the railway at 0505"), B.all_notes(ev))
  expect.falsy(B.note(ev, "next game-turn"), B.all_notes(ev))
  expect.eq(#kessel.markers.all{ kind = "rail_cut", placed = true }, 0, "the cut is off the map")
  expect.truthy(rail_dests("q")["0905"], "0905 listed for q")
  expect.accepted(rail_move({ "q" }, { "0905" }))
  expect.eq(B.where("q"), "0905")

  -- errata: closed for the rest of the game-turn
  board({ errata_6_37_repair_next_turn = true })
  ev = expect.accepted(move({ "r" }, { "0505" }))
  expect.truthy(B.note(ev, "repairs the railway at 0505 (errata: rail movement over it from the next game-turn)"), B.all_notes(ev))
  local ok, why = rail_move({ "q" }, { "0905" })
  expect.refused(ok, why, "6.37", "repaired this game-turn")
  ok, why = rail_move({ "q" }, { "0205", "0305", "0405", "0505", "0605" })
  expect.refused(ok, why, "6.37", "repaired this game-turn")
  local dests = rail_dests("q")
  expect.truthy(dests["0405"], "0405 listed for q")
  expect.falsy(dests["0605"] or dests["0905"], "nothing past 0505 listed for q")
  ok, why = rail_move({ "s" }, { "0705" })
  expect.refused(ok, why, "6.37", "repaired this game-turn")
  expect.eq(next(rail_dests("s")), nil, "no rail move listed from the repaired hex")
  expect.accepted(rail_move({ "q" }, { "0405" }))
  expect.eq(B.where("q"), "0405")

  -- errata, next turn: open again
  B.setup({ B.rifle("r", "0505"), B.rifle("q", "0105"), B.leader("l", "0707", 5) },
    { map = { columns = 10, rows = 10, links = { rail } }, step = "soviet_movement", turn = 8,
      options = { errata_6_37_repair_next_turn = true }, vars = { rail_repaired = { ["0505"] = 7 } } })
  expect.accepted(rail_move({ "q" }, { "0905" }))
  expect.eq(B.where("q"), "0905")
  -- and a record of this turn's repair means nothing with the option off
  B.setup({ B.rifle("r", "0505"), B.rifle("q", "0105"), B.leader("l", "0707", 5) },
    { map = { columns = 10, rows = 10, links = { rail } }, step = "soviet_movement", turn = 8,
      vars = { rail_repaired = { ["0505"] = 8 } } })
  expect.accepted(rail_move({ "q" }, { "0905" }))
end)

-- [9.8] [9.71] An advance follows the path of retreat, but the retreat may pass through the
-- loser's friends, whom the victor never enters; after an elimination the second hex is an empty
-- one. Board, German Combat Phase: g (4-4-10) in 0403 attacks s (1-1-6, out of supply: 1) in
-- 0503, 4-1, roll 1: D2. s retreats 0502-0501, through a (2-2-6) in 0502 (a retreat may pass
-- friends). g may advance into 0503 and no further: 0503-0502 is not listed, and asking for it is
-- refused citing 9.8 and naming a in 0502 (the refusal used to list what was on offer without
-- saying why). Second board: g (7-7-10) attacks s, 7-1, roll 2: De; g may advance 0503 and then
-- any empty hex, not 0603, where the German h stands (refused citing 9.8, naming h).
kessel.test("case_9_8_an_advance_along_the_retreat_path_stops_short_of_the_losers_friends", function()
  B.setup({ B.pz("g", "0403", "4-4-10"), B.rifle("s", "0503", "1-1-6"), B.rifle("a", "0502") })
  kessel.inject_dice{ 1 }
  local ev = expect.accepted(attack({ "g" }, { "0503" }))
  expect.truthy(B.note(ev, "odds 4-1, roll 1: D2"), B.all_notes(ev))
  expect.accepted(choose("retreat"))
  expect.accepted(retreat({ "s" }, { "0502", "0501" }))
  expect.eq(B.where("s"), "0501")
  expect.eq(advances("german"), "g>0503")
  local ok, why = advance({ "g" }, { "0503", "0502" })
  expect.refused(ok, why, "9.8", "0502 holds a")
  expect.accepted(advance({ "g" }, { "0503" }))
  expect.eq(B.where("g"), "0503")

  B.setup({ B.pz("g", "0403", "7-7-10"), B.pz("h", "0603", "2-2-10"), B.rifle("s", "0503", "1-1-6") })
  kessel.inject_dice{ 2 }
  ev = expect.accepted(attack({ "g" }, { "0503" }))
  expect.truthy(B.note(ev, "odds 7-1, roll 2: De"), B.all_notes(ev))
  local offered = advances("german")
  expect.truthy(offered:find("g>0503-0502", 1, true), offered)
  expect.falsy(offered:find("0503-0603", 1, true), offered)
  ok, why = advance({ "g" }, { "0503", "0603" })
  expect.refused(ok, why, "9.8", "0603 holds h")
  expect.accepted(advance({ "g" }, { "0503", "0504" }))
  expect.eq(B.where("g"), "0504")
end)
