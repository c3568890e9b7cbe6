-- Situations from the reference material, rules25 pass: open readings of the rules24 pass decided
-- by the reference, and cases not yet played together. Each is played through actions on a small
-- board. Geometry of the 10x10 map: odd columns N, NE = c+1 r-1, SE = c+1 r, S, SW = c-1 r,
-- NW = c-1 r-1; even columns NE = c+1 r, SE = c+1 r+1, SW = c-1 r+1, NW = c-1 r.
local expect = kessel.expect
local B = require("testing.board10")

local function rail_move(units, path) return kessel.act{ kind = "rail_move", units = units, path = path } end

local function listed_rail_moves(units)
  local n = 0
  for _, a in ipairs(kessel.legal("soviet")) do
    if a.kind == "rail_move" and table.concat(a.units, ",") == units then n = n + 1 end
  end
  return n
end

-- [14.3] [6.3] [4] A scheduled Soviet reinforcement that comes onto the map on a railway hex may
-- ride on by rail in the same Movement Phase. The sequence of play brings reinforcements in before
-- rail movement, and rail movement asks only that the unit begin and end on the railway, within
-- the turn's eight units and 30 rail hexes; the entry is the unit's arrival, not a move made
-- before riding. The engine refused the ride, because entering had cost the entry hex's MP and a
-- rail move needs a unit that has not moved ("has already moved this phase"). Provisional and
-- South-Western Front divisions, placed on their hexes, could already ride.
-- Board, Soviet Movement Phase of turn 7: a railway along row 05 from 1005 (east edge, area X) to
-- 0305. Rifle q and tank t arrive at 1005 and ride to 0405 (6 rail hexes); the tank counts 3 of
-- the turn's 8. A rifle that entered and then walked one hex on (to 0905) has moved and may not
-- ride; nor may one that entered at 1005, walked to 0905 and came back.
kessel.test("case_14_3_a_scheduled_arrival_on_a_railway_hex_may_ride_on_that_phase", function()
  local rail = { kind = "railway", path = { "1005", "0905", "0805", "0705", "0605", "0505", "0405", "0305" } }
  local function board()
    B.setup({ B.rifle("q", nil, "2-2-6", { enter = { turn = 7, area = "X" } }),
      { id = "t", name = "t", side = "soviet", type = "tank", faces = { "4-4-10" }, enter = { turn = 7, area = "X" } },
      B.rifle("w", nil, "2-2-6", { enter = { turn = 7, area = "X" } }),
      B.leader("l", "0405", 4), B.pz("g", "0110", "4-4-10") },
      { map = { columns = 10, rows = 10, links = { rail }, areas = { X = { "1005" } } }, step = "soviet_movement" })
  end
  board()
  expect.accepted(B.move({ "q", "t" }, { "1005" }))
  expect.eq(listed_rail_moves("q,t"), 7, "the arrivals' rail moves are listed: 0305-0905")
  local ev = expect.accepted(rail_move({ "q", "t" }, { "0405" }))
  expect.eq(B.where("q"), "0405")
  expect.eq(B.where("t"), "0405")
  expect.truthy(B.note(ev, "4 of the turn's 8"), B.all_notes(ev))
  -- a ride ends the arrivals' movement [6.3]
  local ok, why = B.move({ "q" }, { "0305" })
  expect.refused(ok, why, "6.1")

  board()
  expect.accepted(B.move({ "w" }, { "1005", "0905" }))
  ok, why = rail_move({ "w" }, { "0405" })
  expect.refused(ok, why, "6.3", "already moved this phase")
  expect.accepted(B.move({ "w" }, { "1005" }))
  expect.eq(B.where("w"), "1005", "back on its entry hex, having moved")
  ok, why = rail_move({ "w" }, { "0405" })
  expect.refused(ok, why, "6.3", "already moved this phase")
  expect.eq(listed_rail_moves("w"), 0, "no rail move listed for it")
end)
