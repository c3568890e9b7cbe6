-- Situations from the reference material, examiner pass B (round 12): combat [9], its results and
-- what follows them (retreat [9.7], advance [9.8]), the sequence of play [4] and victory [15],
-- each played through actions on a small board and compared with the rules text. Geometry of the
-- 10x10 map: odd columns N, NE = c+1 r-1, SE = c+1 r, S, SW = c-1 r, NW = c-1 r-1; even columns
-- NE = c+1 r, SE = c+1 r+1, SW = c-1 r+1, NW = c-1 r. So 0303 touches 0302 0402 0403 0304 0203
-- 0202, and 0403 touches 0402 0503 0504 0404 0304 0303.
local expect = kessel.expect
local B = require("testing.board10")
local V = require("rules.victory")

local function attack(units, targets) return kessel.act{ kind = "attack", units = units, targets = targets } end
local function choose(c, units) return kessel.act{ kind = "choose", choice = c, units = units } end
local function retreat(units, path) return kessel.act{ kind = "retreat", units = units, path = path } end
local function advance(units, path) return kessel.act{ kind = "advance", units = units, path = path } end

-- The advances on offer for `side`, as "units>path" sorted (skip left out).
local function advances(side)
  local out = {}
  for _, a in ipairs(kessel.legal(side)) do
    if a.kind == "advance" and not a.skip then
      out[#out + 1] = table.concat(a.units, ",") .. ">" .. table.concat(a.path, "-")
    end
  end
  table.sort(out)
  return table.concat(out, " ")
end

-- [6.6] with [9.8]: a disrupted unit may not move, and an advance after combat is a move, so a
-- disrupted victor stays put (a retreat is a combat result, not a move, and is still made).
-- Board: Soviet Combat Phase; g (2-2-10, disrupted by an overrun earlier in the Soviet Movement
-- Phase) and h (2-2-10) in 0403; s (2-2-6) in 0503 attacks them, 2 against 4, 1-2, roll 4: A1, and
-- s retreats. Only h may advance into 0503; naming g is refused citing 6.6 and a note says why g
-- stays. Second board: s (1-1-6) attacks g alone, 1 against 2, 1-2, roll 6: Ae; g is the only
-- victor and disrupted, so no advance is offered at all. The engine let a disrupted unit advance.
kessel.test("case_6_6_a_disrupted_victor_may_not_advance_after_combat", function()
  B.setup({ B.pz("g", "0403", "2-2-10", { flags = { "disrupted" } }), B.pz("h", "0403", "2-2-10"),
    B.rifle("s", "0503", "2-2-6"), B.leader("l", "0906", 5) }, { step = "soviet_combat" })
  kessel.inject_dice{ 4 }
  local ev = expect.accepted(attack({ "s" }, { "0403" }))
  expect.truthy(B.note(ev, "odds 1-2, roll 4: A1"), B.all_notes(ev))
  expect.accepted(choose("retreat"))
  ev = expect.accepted(retreat({ "s" }, { "0502" }))
  local p = B.pending()
  expect.eq(p and p.kind, "advance", "h may advance")
  expect.eq(table.concat(p.units, ","), "h", "only the undisrupted victor")
  expect.truthy(B.note(ev, "g (Fg) in 0403: disrupted, may not advance after combat"), B.all_notes(ev))
  expect.eq(advances("german"), "h>0503")
  local ok, why = advance({ "g", "h" }, { "0503" })
  expect.refused(ok, why, "6.6", "disrupted")
  ok, why = advance({ "g" }, { "0503" })
  expect.refused(ok, why, "6.6", "disrupted")
  expect.accepted(advance({ "h" }, { "0503" }))
  expect.eq(B.where("g"), "0403")
  expect.eq(B.where("h"), "0503")

  B.setup({ B.pz("g", "0403", "2-2-10", { flags = { "disrupted" } }), B.rifle("s", "0503", "1-1-6"), B.leader("l", "0906", 5) },
    { step = "soviet_combat" })
  kessel.inject_dice{ 6 }
  ev = expect.accepted(attack({ "s" }, { "0403" }))
  expect.truthy(B.note(ev, "odds 1-2, roll 6: Ae"), B.all_notes(ev))
  expect.eq(B.where("s"), "eliminated")
  expect.eq(B.pending(), nil, "no advance on offer: the only victor is disrupted")
  expect.truthy(B.note(ev, "disrupted, may not advance after combat"), B.all_notes(ev))
  expect.eq(B.where("g"), "0403")
end)
