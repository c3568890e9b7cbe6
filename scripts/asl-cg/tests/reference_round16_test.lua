-- Round 16 of the outside check against the refit-phase text: RB's Strategic Locations read as
-- PB's, "?" counters, the Retained units' own set-up in 9.620.
local T = require("testing.cg")
local expect = T.expect

-- [11.6051] [11.6062] [11.602] [9.605] A type B Isolated Area becomes No Man's Land but keeps the
-- Control of its Strategic Locations. The Control markers here are ones the rules made (11.6062),
-- so only a Fortification makes a Location Strategic: a Known minefield (E7) does; a still-hidden
-- one (E5) does not, as 11.602 lets it stay hidden as 9.602 does and a kept marker would give it
-- away; a roadblock (first hex E6) is on a hexside, in no one Location. Before, RB kept E5 and E6.
kessel.test("case_11.6051_a_hidden_fortification_or_a_roadblock_keeps_no_control", function()
  T.setup{ module = "rb", step = "perimeter",
    vars = { date = "18oct", isolated_areas = { { hexes = { "E5", "E6", "E7", "E8" } } } },
    units = { T.leader("gl", "german", "8-0", "E8") },
    markers = { { kind = "roadblock", side = "russian", at = "E6", other = "F6" } },
    valued = { { kind = "control", side = "russian", hex = "E5", value = { level = 0, made = "11.6062" } },
      { kind = "control", side = "russian", hex = "E6", value = { level = 0, made = "11.6062" } },
      { kind = "control", side = "russian", hex = "E7", value = { level = 0, made = "11.6062" } },
      { kind = "ap_mine", side = "russian", hex = "E5", value = { owner = "russian", strength = 4, hidden = true } },
      { kind = "ap_mine", side = "russian", hex = "E7", value = { owner = "russian", strength = 4 } } } }
  local ev = T.resolve()
  expect.eq(kessel.game.var("isolated_areas")[1].type, "B")
  T.has_note(ev, "[11.6051] Isolated Area 1: a Strategic Location is never No Man's Land, and keeps its Control: E7 (russian)")
  local left = {}
  for _, m in ipairs(kessel.markers.all{ kind = "control", placed = true }) do left[#left + 1] = m.hex end
  expect.eq(table.concat(left, " "), "E7", "only the Known minefield's Location keeps its Control marker")
end)

-- [9.619] [9.602] The purchase table prices a "?" at 1 FPP and 9.602 removes "?" counters, but the
-- text says nothing of what a "?" does in 9.620 (which unit or stack it conceals, in what terrain:
-- A12, outside our text). The purchase is refused, naming the case, and no FPP are spent. Before,
-- it was bought, its FPP spent, and nothing ever placed it.
kessel.test("case_9.619_a_question_mark_is_not_sold", function()
  T.setup{ step = "fortifications", units = { T.squad("b", "british", "6-4-8", "D8") },
    vars = { date = "day_i", fpp = { british = 3 } } }
  local ok, r = kessel.act{ kind = "buy_fortification", side = "british", item = "dummy" }
  expect.refused(ok, r, "9.619", "a \"?\" (item dummy) is priced at 1 FPP, but our text does not say what it does in the set-up of 9.620")
  expect.eq(T.C.fpp("british"), 3, "no FPP spent")
  expect.eq(#T.C.fortifications("british"), 0, "nothing recorded")
  for _, a in ipairs(kessel.legal()) do
    expect.truthy(not (a.kind == "buy_fortification" and a.item == "dummy"), "a \"?\" is not offered")
  end
end)
