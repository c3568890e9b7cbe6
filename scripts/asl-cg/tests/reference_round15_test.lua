-- Round 15 of the outside check against the refit-phase text: the PB set-up of 9.620 (who sets up
-- what first, HIP, mines laid twice in one Location), the Strategic Locations a Fortification
-- makes, and the RB records nothing read.
local T = require("testing.cg")
local expect = T.expect

-- [11.619] [11.6201] our RB text stops at 11.618: the RG chart and the RG Strength DR are the
-- players', in the RePh's last step. The scenario vars `rb_rg_chart` and `rg_strength_drm` were
-- declared and read by nothing in play (an RB game refuses `buy_rg`); a scenario giving one is
-- now told so at check, and PB's RG Strength DR takes no DRM of it.
kessel.test("case_11.619_11.6201_the_rb_rg_records_nothing_reads_are_refused", function()
  local S = require("rules.sequence")
  T.setup{ module = "rb", step = "markers", vars = { date = "18oct", rg_strength_drm = 2, rb_rg_chart = { X1 = { cost = 3 } } } }
  local text = table.concat(S.record_problems(), "\n")
  expect.truthy(text:find("[11.6201] `rg_strength_drm`: our Red Barricades text stops at 11.618", 1, true), text)
  expect.truthy(text:find("[11.619] `rb_rg_chart`: our Red Barricades text stops at 11.618", 1, true), text)
  T.setup{ module = "rb", step = "markers", vars = { date = "18oct" } }
  expect.eq(#S.record_problems(), 0, table.concat(S.record_problems(), "\n"))
end)

-- [9.605] [9.6073] [11.615] The map marking of 9.605 lists "F" for a Fortification among the
-- Strategic Locations, and our text counts minefields and wire among the Fortifications (9.6073's
-- "each such minefield" of the still-hidden Fortifications; 11.615's wire, minefield and
-- Entrenchment, "all mines" one type beside the "non-mine" Fortifications). Before, PB's 9.605
-- counted only pillboxes, Entrenchments and `fortification` markers: a British squad holding a wire
-- or a Known minefield Location had no Setup Area around it and stood in Uncontrolled Territory.
-- A still-hidden minefield is not yet one (9.602 lets it stay hidden; areas drawn around it would
-- give it away: our reading), and a roadblock, on a hexside, makes no Location one.
kessel.test("case_9.605_wire_and_a_known_minefield_are_strategic_locations", function()
  local function cls(hex) return kessel.game.var("setup_areas").hexes[hex] end
  T.setup{ step = "setup_areas",
    units = { T.squad("b1", "british", "6-4-8", "C3"), T.squad("b2", "british", "6-4-8", "J3"),
      T.squad("b3", "british", "6-4-8", "C10"), T.squad("b4", "british", "6-4-8", "J10") },
    valued = { { kind = "wire", side = "british", hex = "C3", value = { owner = "british" } },
      { kind = "ap_mine", side = "british", hex = "J3", value = { owner = "british", strength = 4 } },
      { kind = "ap_mine", side = "british", hex = "C10", value = { owner = "british", strength = 4, hidden = true } } },
    markers = { { kind = "roadblock", side = "british", at = "J10", other = "J11" } } }
  T.resolve()
  expect.eq(cls("C3"), "british", "wire")
  expect.eq(cls("E3"), "british", "two hexes from the wire")
  expect.eq(cls("J3"), "british", "a Known minefield")
  expect.eq(cls("H3"), "british", "two hexes from the minefield")
  expect.eq(cls("C10"), "ut", "a still-hidden minefield is no Strategic Location yet")
  expect.eq(cls("J10"), "ut", "a roadblock is on a hexside")
end)

-- [9.619] [9.6073] [11.615] A Location holds one minefield of each type: 9.619 records a
-- purchase's type and strength, 9.6073 marks "each such minefield" with one counter hiding its
-- strength/type, 11.615 takes all the mines of a Location as one item. Mines set up twice in one
-- hex, or where the side's minefield of that type already lies, add their factors to it (our
-- reading). Before, each set-up made a marker of its own: three A-P minefields in D8.
kessel.test("case_9.62022_mines_set_up_twice_in_a_location_are_one_minefield", function()
  T.setup{ step = "fortifications", units = { T.squad("b", "british", "6-4-8", "D8") },
    valued = { { kind = "ap_mine", side = "british", hex = "D8", value = { owner = "british", strength = 3, hidden = true } } },
    vars = { date = "day_i", fpp = { british = 12 },
      setup_areas = { hexes = { D8 = "british" }, areas = { british = { { id = "B", hexes = { "D8" } } }, german = {} } } } }
  expect.accepted(kessel.act{ kind = "buy_fortification", side = "british", item = "ap_mine", count = 4 })
  expect.accepted(kessel.act{ kind = "buy_fortification", side = "british", item = "at_mine", count = 2 })
  T.resolve()  -- 9.619
  expect.accepted(kessel.act{ kind = "set_up_fortification", side = "british", item = "ap_mine", hex = "D8", count = 2 })
  expect.accepted(kessel.act{ kind = "set_up_fortification", side = "british", item = "ap_mine", hex = "D8", count = 2 })
  expect.accepted(kessel.act{ kind = "set_up_fortification", side = "british", item = "at_mine", hex = "D8" })
  local ev = T.resolve()  -- 9.620
  local ap = kessel.markers.all{ kind = "ap_mine", placed = true }
  expect.eq(#ap, 1, "one A-P minefield in D8")
  expect.eq(ap[1].value.strength, 7, "3 + 2 + 2 factors")
  expect.truthy(#kessel.markers.hidden_from(ap[1].id) > 0, "its strength stays hidden")
  local at = kessel.markers.all{ kind = "at_mine", placed = true }
  expect.eq(#at, 1, "the A-T mines are a minefield of their own type")
  expect.eq(at[1].value.strength, 2)
  T.has_note(ev, "added to the british minefield")
end)

-- [11.6134] [11.615] [11.617] Our text counts Assault Engineer squads (the FT/DC a side may
-- Retain, the removal DRM, the Original 6's Casualty Reduction) but names none: 11.617 gives the
-- 8-3-8s ELR 5 and no more. That the German 8-3-8 and the Russian 6-2-8 are Assault Engineers is
-- chapter A data, a declared choice of the ruleset's `squads` data; each count now says so in its
-- note, naming the faces. Before, the 6-2-8 was counted in silence, as if our text said so.
kessel.test("case_11.6134_11.615_the_assault_engineer_faces_are_a_declared_data_choice", function()
  T.setup{ module = "rb", step = "repair", vars = { date = "18oct" },
    units = { T.squad("ae", "russian", "6-2-8", "C5"),
      T.sw("dc", "russian", "DC", nil, { location = "removed", vars = { removed_dr = 8 } }) } }
  local ev = T.resolve()
  expect.eq(T.unit("dc").location, "pending", "Retained against the one 6-2-8")
  T.has_note(ev, "russian: 1 non-Isolated Assault Engineer squad(s) (Assault Engineer squads by the ruleset's squad data, not our text: 6-2-8)")
  T.setup{ module = "rb", step = "fort_removal", vars = { date = "18oct" },
    units = { T.squad("a1", "german", "8-3-8", "B2"), T.squad("a2", "german", "8-3-8", "B3"), T.squad("a3", "german", "8-3-8", "B4") },
    markers = { { kind = "control", side = "german", at = "C3" }, { kind = "wire", side = "russian", at = "C3" } } }
  kessel.inject_dice{ 5 }
  local ok, events = kessel.act{ kind = "remove_fortification", side = "german", marker = 1 }
  expect.accepted(ok, events)
  T.has_note(events, "-1 three or more non-Isolated Assault Engineer squads (Assault Engineer squads by the ruleset's squad data, not our text: 8-3-8)")
end)

-- a Day II position (the Germans set up first [9.62023]): each side has an Isolated Setup Area and
-- one that is not, and foxholes to set up
local function day_ii_setup(fpp)
  T.setup{ step = "fortifications",
    units = { T.squad("g1", "german", "4-6-7", "C3", { vars = { isolated = true } }), T.squad("g2", "german", "4-6-7", "H8"),
      T.squad("b1", "british", "6-4-8", "J3", { vars = { isolated = true } }), T.squad("b2", "british", "6-4-8", "D10") },
    vars = { date = "day_ii", fpp = fpp,
      setup_areas = { hexes = { C3 = "german", H8 = "german", J3 = "british", D10 = "british" },
        areas = { german = { { id = "A", hexes = { "C3" }, isolated = true }, { id = "B", hexes = { "H8" } } },
          british = { { id = "A", hexes = { "J3" }, isolated = true }, { id = "B", hexes = { "D10" } } } } } } }
end

-- [9.62021] [9.62022] [9.62023] The side that sets up first sets up what goes into Isolated
-- Locations, then the other side; then the first side the remainder, then the other side. Before,
-- either side set up any Fortification anywhere at any time of 9.620: the British set up their
-- non-Isolated foxholes before the Germans had set up anything.
kessel.test("case_9.62021_9.62022_the_set_up_goes_in_the_order_of_the_text", function()
  day_ii_setup({ german = 2, british = 3 })
  expect.accepted(kessel.act{ kind = "buy_fortification", side = "german", item = "foxhole_1s", count = 2 })
  expect.accepted(kessel.act{ kind = "buy_fortification", side = "british", item = "foxhole_1s", count = 3 })
  T.resolve()  -- 9.619
  local function deciding() return kessel.queries.ask("deciding_side") end
  expect.eq(deciding(), "german", "the Germans set up first on Day II")
  local ok, r = kessel.act{ kind = "set_up_fortification", side = "british", item = "foxhole_1s", hex = "J3" }
  expect.refused(ok, r, "9.62021", "J3: it is the german setting up its Isolated Locations [9.62021] (german sets up first on day_ii [9.62023])")
  ok, r = kessel.act{ kind = "set_up_fortification", side = "german", item = "foxhole_1s", hex = "H8" }
  expect.refused(ok, r, "9.62021", "H8 is not in an Isolated Location: the Isolated ones are set up first")
  expect.accepted(kessel.act{ kind = "set_up_fortification", side = "german", item = "foxhole_1s", hex = "C3" })
  ok, r = kessel.act{ kind = "finish_setup", side = "british" }
  expect.refused(ok, r, "9.62021", "it is the german setting up its Isolated Locations [9.62021], not the british")
  expect.accepted(kessel.act{ kind = "finish_setup", side = "german" })
  expect.eq(deciding(), "british", "then the British Isolated Locations")
  ok, r = kessel.act{ kind = "set_up_fortification", side = "german", item = "foxhole_1s", hex = "H8" }
  expect.refused(ok, r, "9.62021", "it is the british setting up its Isolated Locations")
  expect.accepted(kessel.act{ kind = "set_up_fortification", side = "british", item = "foxhole_1s", hex = "J3" })
  expect.accepted(kessel.act{ kind = "finish_setup", side = "british" })
  ok, r = kessel.act{ kind = "set_up_fortification", side = "british", item = "foxhole_1s", hex = "D10" }
  expect.refused(ok, r, "9.62022", "it is the german setting up its non-Isolated Locations [9.62022]")
  expect.eq(deciding(), "german")
  expect.accepted(kessel.act{ kind = "set_up_fortification", side = "german", item = "foxhole_1s", hex = "H8" })
  -- the German has nothing left: the British set up the remainder
  expect.eq(deciding(), "british")
  ok, r = kessel.act{ kind = "set_up_fortification", side = "british", item = "foxhole_1s", hex = "J3" }
  expect.refused(ok, r, "9.62021", "J3 is in an Isolated Location: those were set up first")
  expect.accepted(kessel.act{ kind = "set_up_fortification", side = "british", item = "foxhole_1s", hex = "D10", count = 2 })
  local ev = T.resolve()  -- 9.620
  local holes = {}
  for _, m in ipairs(kessel.markers.all{ kind = "foxhole", placed = true }) do holes[#holes + 1] = m.hex end
  table.sort(holes)
  expect.eq(table.concat(holes, " "), "C3 D10 D10 H8 J3")
  T.has_note(ev, "the german set up first")
  T.replays()
end)

-- [9.62021] A side whose Fortification can only go into an Isolated Location sets it up in its
-- Isolated turn: ending that turn is refused. A side with nothing to set up has no turn.
kessel.test("case_9.62021_a_fortification_with_only_isolated_locations_is_set_up_first", function()
  T.setup{ step = "fortifications",
    units = { T.squad("g1", "german", "4-6-7", "C3", { vars = { isolated = true } }), T.squad("b2", "british", "6-4-8", "D10") },
    vars = { date = "day_ii", fpp = { german = 1 },
      setup_areas = { hexes = { C3 = "german", D10 = "british" },
        areas = { german = { { id = "A", hexes = { "C3" }, isolated = true } }, british = { { id = "B", hexes = { "D10" } } } } } } }
  expect.accepted(kessel.act{ kind = "buy_fortification", side = "german", item = "foxhole_1s" })
  T.resolve()  -- 9.619
  local ok, r = kessel.act{ kind = "finish_setup", side = "german" }
  expect.refused(ok, r, "9.62021", "the german has foxhole_1s left to set up, and its only Locations are Isolated ones")
  expect.accepted(kessel.act{ kind = "set_up_fortification", side = "german", item = "foxhole_1s", hex = "C3" })
  expect.eq(kessel.queries.ask("deciding_side"), nil, "nobody has anything left to set up")
  ok, r = kessel.act{ kind = "finish_setup", side = "british" }
  expect.refused(ok, r, "9.62022", "every set-up turn of 9.620 is over")
  T.resolve()
end)

-- [9.619] notes b, c, h: HIP bought per counter (5/8" counter, squad, HS, SMC) is used in 9.620 by
-- a unit of that size, which sets up hidden from the other side with the SW it holds up to its IPC
-- (the rest stays in sight). Before, HIP was bought and nothing used it: no unit was ever hidden.
-- The unit is set up in its side's turn, and only its owner uses it.
kessel.test("case_9.619_hip_bought_hides_a_unit_in_the_set_up", function()
  T.setup{ step = "fortifications",
    units = { T.squad("b1", "british", "6-4-8", "D8"), T.sw("lmg", "british", "LMG", "D8", { vars = { possessed_by = "b1" } }),
      T.sw("mmg", "british", "MMG", "D8", { vars = { possessed_by = "b1" } }), T.leader("bl", "british", "8-0", "D8"),
      T.squad("g1", "german", "4-6-7", "H8") },
    vars = { date = "day_i", fpp = { british = 5, german = 3 },
      setup_areas = { hexes = { D8 = "british", H8 = "german" },
        areas = { british = { { id = "B", hexes = { "D8" } } }, german = { { id = "A", hexes = { "H8" } } } } } } }
  expect.accepted(kessel.act{ kind = "buy_fortification", side = "british", item = "hip_squad" })
  expect.accepted(kessel.act{ kind = "buy_fortification", side = "german", item = "hip_squad" })
  T.resolve()  -- 9.619
  -- Day I: the British set up first
  local ok, r = kessel.act{ kind = "set_up_hip", side = "german", unit = "g1" }
  expect.refused(ok, r, "9.62022", "g1: it is the british setting up its non-Isolated Locations")
  ok, r = kessel.act{ kind = "set_up_hip", side = "german", unit = "b1" }
  expect.refused(ok, r, "9.619", "only its owner (british) decides about b1")
  ok, r = kessel.act{ kind = "set_up_hip", side = "british", unit = "bl" }
  expect.refused(ok, r, "9.619", "the british has no hip_smc bought on this CG Date left for bl")
  expect.accepted(kessel.act{ kind = "set_up_hip", side = "british", unit = "b1" })
  local function hidden(id, side)
    for _, s in ipairs(kessel.units.hidden_from(id)) do if s == side then return true end end
    return false
  end
  expect.truthy(hidden("b1", "german") and not hidden("b1", "british"), "the squad is hidden from the German")
  expect.truthy(hidden("lmg", "german") and not hidden("lmg", "british"), "its LMG (1 PP) goes hidden with it")
  expect.eq(#kessel.units.hidden_from("mmg"), 0, "the MMG (4 PP) is beyond its IPC of 3: in sight")
  expect.eq(T.unit("mmg").vars.possessed_by, nil, "set up on its own: it names no hidden unit")
  expect.eq(T.unit("lmg").vars.possessed_by, "b1")
  expect.eq(T.unit("b1").vars.hidden, true, "9.602 of the next RePh places it on the map")
  local seen = {}
  for _, u in ipairs(kessel.game.view("german").units) do seen[u.id] = true end
  expect.falsy(seen.b1, "the German view has no b1")
  expect.truthy(seen.mmg and seen.bl, "the MMG and the leader are in sight")
  local gv = kessel.game.view("german", { log = true })
  expect.truthy(gv.log[#gv.log].params_withheld, "the German does not read which unit was hidden")
  ok, r = kessel.act{ kind = "set_up_hip", side = "british", unit = "b1" }
  expect.refused(ok, r, "9.619", "b1 is hidden already")
  -- the British are done (their HIP is used): the German's turn
  expect.accepted(kessel.act{ kind = "set_up_hip", side = "german", unit = "g1" })
  expect.truthy(hidden("g1", "british") and not hidden("g1", "german"))
  T.resolve()  -- 9.620
  T.replays()
end)

-- [9.6073] [11.6073] the same reading for a scenario's own markers: two minefields of one type and
-- side in a Location are refused at check (their factors are one strength); an A-T and an A-P
-- minefield, or two sides' minefields, in one Location are not. Before, they loaded.
kessel.test("case_9.6073_11.6073_a_scenario_gives_one_minefield_of_a_type_to_a_location", function()
  local S = require("rules.sequence")
  T.setup{ module = "rb", step = "markers", vars = { date = "18oct" }, valued = {
    { kind = "ap_mine", side = "russian", hex = "D3", value = { strength = 4 } },
    { kind = "ap_mine", side = "russian", hex = "D3", value = { strength = 2 } },
    { kind = "at_mine", side = "russian", hex = "D3", value = { strength = 2 } },
    { kind = "ap_mine", side = "german", hex = "D3", value = { strength = 2 } },
  } }
  local text = {}
  for _, p in ipairs(S.marker_problems()) do text[#text + 1] = p.message end
  text = table.concat(text, "\n")
  expect.truthy(text:find("[11.6073] marker 1 (ap_mine in D3): a second A-P minefield of the russian in D3 (marker 0 is there)", 1, true), text)
  expect.eq(#S.marker_problems(), 1, text)
end)

-- [9.6178] [9.62022] [9.6183] An RG is recorded for a friendly non-Isolated Setup Area or an
-- Eligible Entry Area; one recorded for a Setup Area sets up there in 9.620, in its side's turn
-- for non-Isolated Locations, its leader with a unit of his RG. Before, its counters waited off the
-- map for good: nothing set them up (only an Entry Area let counters in).
kessel.test("case_9.62022_an_rg_recorded_for_a_setup_area_sets_up_there", function()
  T.setup{ step = "rg_purchase", units = { T.squad("g1", "german", "4-6-7", "H8"), T.squad("b1", "british", "6-4-8", "C3") },
    vars = { date = "day_i", cpp = { german = 20 },
      setup_areas = { hexes = { H8 = "german", H9 = "german", C3 = "british" },
        areas = { german = { { id = "A", hexes = { "H8", "H9" } } }, british = { { id = "A", hexes = { "C3" } } } } } } }
  expect.accepted(kessel.act{ kind = "buy_rg", side = "german", rg = "I4", area = "A" })
  T.resolve()  -- 9.617
  kessel.inject_dice{ 3, 3, 1, 1, 1, 3, 3 }   -- Full; SW drs; leader DR 6 (an 8-1)
  T.resolve()  -- 9.618
  T.resolve()  -- 9.619
  local rec = kessel.game.var("rg_record")[1]
  local squads, leader = rec.units, nil
  for _, id in ipairs(rec.made) do if T.unit(id).type == "leader" then leader = id end end
  expect.truthy(#squads == 4 and leader, "a Full PzGren Pltn: four squads and a leader")
  -- Day I: the British set up first; they have nothing to set up, so it is the German's turn
  local ok, r = kessel.act{ kind = "end_step", side = "german" }
  expect.refused(ok, r, "9.62022", "the german sets up its RG in the Setup Area recorded for it before the step ends")
  ok, r = kessel.act{ kind = "set_up_unit", side = "german", unit = squads[1], hex = "C3" }
  expect.refused(ok, r, "9.62022", "C3 is not in Setup Area A, which " .. squads[1] .. "'s RG is recorded for")
  ok, r = kessel.act{ kind = "set_up_unit", side = "german", unit = leader, hex = "H9" }
  expect.refused(ok, r, "9.6183", leader .. " sets up with a unit of his RG: none is in H9")
  ok, r = kessel.act{ kind = "set_up_unit", side = "british", unit = squads[1], hex = "H8" }
  -- still hidden from the British: to them it is no unit (the words an unknown id gets)
  expect.refused(ok, r, "9.62022", squads[1] .. " is no RG counter waiting to set up")
  -- three squads a Location [A5.1]: the fourth goes to H8, beside g1
  for i, id in ipairs(squads) do expect.accepted(kessel.act{ kind = "set_up_unit", side = "german", unit = id, hex = i < 4 and "H9" or "H8" }) end
  expect.accepted(kessel.act{ kind = "set_up_unit", side = "german", unit = leader, hex = "H9" })
  for _, id in ipairs(rec.made) do
    if T.unit(id).location == "pending" then expect.accepted(kessel.act{ kind = "set_up_unit", side = "german", unit = id, hex = "H9" }) end
  end
  expect.eq(T.unit(squads[1]).hex, "H9")
  expect.eq(#kessel.units.hidden_from(squads[1]), 0, "set up on the map, it is seen")
  -- its RG set up, the German's turn goes on (his Retained units) until he ends it [9.62022]
  expect.eq(kessel.queries.ask("deciding_side"), "german")
  expect.accepted(kessel.act{ kind = "finish_setup", side = "german" })
  T.resolve()  -- 9.620
  T.replays()
end)

-- [9.619] note b: "leaders may lend their IPC to a MMC": a leader stacked with a HIP MMC lends it
-- his spare IPC, so an MMG (4 PP) sets up hidden with a squad (IPC 3) and an 8-0; he lends to one
-- MMC, so a HS set up HIP after it in the same Location takes its MMG along only up to its own IPC.
-- Before, a HIP unit took its own IPC only.
kessel.test("case_9.619_a_leader_lends_his_ipc_to_a_hip_mmc", function()
  T.setup{ step = "fortifications",
    units = { T.squad("b1", "british", "6-4-8", "D8"), T.sw("mmg", "british", "MMG", "D8", { vars = { possessed_by = "b1" } }),
      T.leader("bl", "british", "8-0", "D8"),
      T.hs("h1", "british", "6-4-8", "D8"), T.sw("mmg2", "british", "MMG", "D8", { vars = { possessed_by = "h1" } }),
      T.squad("g1", "german", "4-6-7", "H8") },
    vars = { date = "day_i", fpp = { british = 5 },
      setup_areas = { hexes = { D8 = "british", H8 = "german" },
        areas = { british = { { id = "B", hexes = { "D8" } } }, german = { { id = "A", hexes = { "H8" } } } } } } }
  expect.accepted(kessel.act{ kind = "buy_fortification", side = "british", item = "hip_squad" })
  expect.accepted(kessel.act{ kind = "buy_fortification", side = "british", item = "hip_hs" })
  T.resolve()  -- 9.619
  local ok, ev = kessel.act{ kind = "set_up_hip", side = "british", unit = "b1" }
  expect.accepted(ok, ev)
  expect.truthy(#kessel.units.hidden_from("mmg") > 0, "the MMG goes hidden with the squad and the 8-0's IPC")
  expect.eq(T.unit("bl").vars.hip_ipc_lent, "day_i")
  T.has_note(ev, "(IPC lent by bl)")
  expect.accepted(kessel.act{ kind = "set_up_hip", side = "british", unit = "h1" })
  expect.eq(#kessel.units.hidden_from("mmg2"), 0, "the 8-0 has lent his IPC: the MMG is beyond the HS's 2")
  T.replays()
end)
