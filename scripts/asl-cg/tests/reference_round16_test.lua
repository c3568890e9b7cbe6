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
  local ok, r = kessel.act{ kind = "buy_fortification", side = "british", item = "question_mark" }
  expect.refused(ok, r, "9.619", "a \"?\" (item question_mark) is priced at 1 FPP, but our text does not say what it does in the set-up of 9.620")
  expect.eq(T.C.fpp("british"), 3, "no FPP spent")
  expect.eq(#T.C.fortifications("british"), 0, "nothing recorded")
  for _, a in ipairs(kessel.legal()) do
    expect.truthy(not (a.kind == "buy_fortification" and a.item == "question_mark"), "a \"?\" is not offered")
  end
end)

-- [9.62021] [9.62022] Each side sets up its Retained units in the Setup Area each is Retained in:
-- the Isolated ones first, in their current Setup Area, by each side in turn, then the rest; an
-- Immobile vehicle remains in its Location (EXC, 9.6071); held Equipment goes with its unit. Day
-- I: the British set up first. Before, no Retained unit could be set up: each stayed in the hex
-- where the CG scenario ended (and a side with nothing else to set up had no turn).
kessel.test("case_9.62022_retained_units_are_set_up_in_their_setup_area", function()
  local function kept(area) return { vars = { reph = { status = "retained", area = area } } } end
  T.setup{ step = "fortifications",
    units = { T.squad("b1", "british", "6-4-8", "D8", kept("B")), T.sw("lmg", "british", "LMG", "D8", { vars = { possessed_by = "b1" } }),
      T.squad("b2", "british", "6-4-8", "J3", { vars = { isolated = true, reph = { status = "isolated", area = "C" } } }),
      T.squad("g1", "german", "4-6-7", "H8", kept("A")),
      T.vehicle("pz", "german", "PzKpfw IVH", "H8", { vars = { immobile = true, reph = { status = "retained", area = "A" } } }) },
    vars = { date = "day_i",
      setup_areas = { hexes = { D8 = "british", D9 = "british", D10 = "british", J3 = "british", J4 = "british", H8 = "german", H9 = "german" },
        areas = { british = { { id = "B", hexes = { "D8", "D9", "D10" } }, { id = "C", hexes = { "J3", "J4" }, isolated = true } },
          german = { { id = "A", hexes = { "H8", "H9" } } } } } } }
  T.resolve()  -- 9.619
  expect.eq(kessel.queries.ask("deciding_side"), "british", "the British set up first on Day I, their Isolated unit first")
  -- what the listing offers: exactly the Isolated unit's other Location, then b1's two
  local function offered()
    local out = {}
    for _, a in ipairs(kessel.legal()) do
      if a.kind == "set_up_retained" then out[#out + 1] = a.unit .. ">" .. a.hex end
    end
    table.sort(out)
    return table.concat(out, " ")
  end
  expect.eq(offered(), "b2>J4")
  local ok, r = kessel.act{ kind = "set_up_retained", side = "british", unit = "b1", hex = "D10" }
  expect.refused(ok, r, "9.62021", "b1 is not in an Isolated Location: the Isolated ones are set up first")
  ok, r = kessel.act{ kind = "set_up_retained", side = "british", unit = "b2", hex = "D9" }
  expect.refused(ok, r, "9.62021", "D9 is not in Setup Area C, which b2 is Retained in")
  expect.accepted(kessel.act{ kind = "set_up_retained", side = "british", unit = "b2", hex = "J4" })
  expect.accepted(kessel.act{ kind = "finish_setup", side = "british" })
  expect.eq(offered(), "b1>D10 b1>D9", "no set-up for the LMG b1 holds")
  -- the German has no Isolated unit: the British set up the rest
  ok, r = kessel.act{ kind = "set_up_retained", side = "german", unit = "g1", hex = "H9" }
  expect.refused(ok, r, "9.62022", "g1: it is the british setting up its non-Isolated Locations")
  ok, r = kessel.act{ kind = "set_up_retained", side = "british", unit = "lmg", hex = "D9" }
  expect.refused(ok, r, "9.62022", "lmg is held by b1: it sets up with it")
  ok, r = kessel.act{ kind = "set_up_retained", side = "british", unit = "b1", hex = "H9" }
  expect.refused(ok, r, "9.62022", "H9 is not in Setup Area B, which b1 is Retained in")
  expect.accepted(kessel.act{ kind = "set_up_retained", side = "british", unit = "b1", hex = "D10" })
  expect.eq(T.unit("lmg").hex, "D10", "its LMG goes with it")
  expect.accepted(kessel.act{ kind = "finish_setup", side = "british" })
  ok, r = kessel.act{ kind = "set_up_retained", side = "german", unit = "pz", hex = "H9" }
  expect.refused(ok, r, "9.62022", "pz is an Immobile vehicle: it remains in its current Location (EXC, 9.6071)")
  expect.accepted(kessel.act{ kind = "set_up_retained", side = "german", unit = "g1", hex = "H9" })
  expect.accepted(kessel.act{ kind = "finish_setup", side = "german" })
  T.resolve()  -- 9.620
  expect.eq(T.unit("b1").hex, "D10")
  expect.eq(T.unit("b2").hex, "J4")
  expect.eq(T.unit("g1").hex, "H9")
  expect.eq(T.unit("pz").hex, "H8")
  T.replays()
end)
