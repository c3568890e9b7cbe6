-- RePh 9.613 Shift (rules/shift.lua).
local T = require("testing.cg")
local expect = T.expect

local function ctrl(side, hex) return { kind = "control", side = side, at = hex } end
-- German areas around C3 (A) and C9 (B), German Entry Area A1 next to A, British strategic M6
local function field(units, extra)
  local spec = { step = "setup_areas", map = { columns = 14, rows = 12, tags = { strategic = { "C3", "C9", "M6" } },
      areas = { A1 = { "A1" }, N12 = { "N12" } } },
    markers = { ctrl("german", "C3"), ctrl("german", "C9"), ctrl("british", "M6") }, units = units,
    vars = { entry_areas = { german = { A1 = true, N12 = true } }, date = "day_i" } }
  for k, v in pairs(extra or {}) do spec[k] = v end
  T.setup(spec)
  for _ = 1, 8 do T.resolve() end
  expect.eq(kessel.game.step().id, "shift")
end

-- [9.613] a Shift to an Entry Area adjacent to the Setup Area needs no DR
kessel.test("case_9.613_shift_to_adjacent_entry_area_is_automatic", function()
  field{ T.squad("g", "german", "4-6-7", "C3") }
  local ok, ev = kessel.act{ kind = "shift", units = { "g" }, to = "A1" }
  expect.accepted(ok, ev)
  for _, e in ipairs(ev) do expect.truthy(e.event ~= "dice", "no DR") end
  expect.eq(T.unit("g").location, "pending")
  expect.eq(T.unit("g").vars.reph.area, "A1")
end)

-- [9.613] to another Setup Area: a DR; <= 8 Shifted; the group moves with its SW
kessel.test("case_9.613_shift_between_setup_areas", function()
  field{ T.squad("g", "german", "4-6-7", "C3"), T.leader("l", "german", "8-0", "C3"), T.sw("mg", "german", "LMG", "C3", { vars = { possessed_by = "g" } }) }
  kessel.inject_dice{ 4, 4 }
  local ok, ev = kessel.act{ kind = "shift", units = { "g", "l" }, to = "B" }
  expect.accepted(ok, ev)
  expect.eq(T.record(ev, "shift").result, "shifted")
  expect.eq(T.unit("g").vars.reph.area, "B")
  expect.eq(kessel.game.var("setup_areas").hexes[T.unit("g").hex], "german")
  expect.eq(T.unit("mg").hex, T.unit("g").hex)
  -- one attempt per CG Date
  local ok2, r2 = kessel.act{ kind = "shift", units = { "g" }, to = "A" }
  expect.refused(ok2, r2, "9.613", "already tried")
end)

-- [9.613] 9-10 No Shift; 11 Shifted with Casualties (dr >= 4 per unit); >= 12 all Eliminated
kessel.test("case_9.613_shift_table_results", function()
  -- three groups, each from one area to another (units going from and to the same areas are one group)
  field{ T.squad("a", "german", "4-6-7", "C3"), T.squad("b", "german", "4-6-7", "C9"),
    T.squad("c", "german", "4-6-7", "C3") }
  kessel.inject_dice{ 5, 4 }
  expect.accepted(kessel.act{ kind = "shift", units = { "a" }, to = "B" })
  expect.eq(T.unit("a").vars.reph.area, "A", "No Shift")
  kessel.inject_dice{ 5, 6, 4 }
  expect.accepted(kessel.act{ kind = "shift", units = { "b" }, to = "A" })
  expect.eq(T.unit("b").step, 1, "Shifted with Casualties: reduced")
  expect.eq(T.unit("b").vars.reph.area, "A")
  kessel.inject_dice{ 6, 6 }
  expect.accepted(kessel.act{ kind = "shift", units = { "c" }, to = "N12" })
  expect.eq(T.unit("c").location, "eliminated")
end)

-- [9.613] a Gun can not Shift; an Isolated area can not receive units; a path must exist
kessel.test("case_9.613_refusals", function()
  field{ T.gun("pak", "german", "75L AT", "C3"), T.squad("g", "german", "4-6-7", "C3") }
  local ok, r = kessel.act{ kind = "shift", units = { "pak" }, to = "B" }
  expect.refused(ok, r, "9.613", "Gun")
  ok, r = kessel.act{ kind = "shift", units = { "g" }, to = "Q" }
  expect.refused(ok, r, "9.613", "no friendly Setup Area")
end)

-- [9.613] SW over the portage limit must be dropped before a Shift
kessel.test("case_9.613_portage_limit", function()
  field{ T.leader("l", "german", "8-0", "C3"), T.sw("mg", "german", "MMG", "C3", { vars = { possessed_by = "l" } }) }
  local ok, r = kessel.act{ kind = "shift", units = { "l" }, to = "B" }
  expect.refused(ok, r, "9.613", "more than its limit of 2")
end)

-- [9.613] +1 per five Uncontrolled-Territory hexes along the path
kessel.test("case_9.613_long_path_drm", function()
  T.setup{ step = "setup_areas", map = { columns = 20, rows = 5, tags = { strategic = { "B3", "S3" } }, areas = { T1 = { "T1" } } },
    markers = { ctrl("german", "B3"), ctrl("german", "S3") }, units = { T.squad("g", "german", "4-6-7", "B3") },
    vars = { date = "day_i", entry_areas = { german = { T1 = true } } } }
  for _ = 1, 8 do T.resolve() end
  kessel.inject_dice{ 3, 3 }
  local ok, ev = kessel.act{ kind = "shift", units = { "g" }, to = "B" }
  expect.accepted(ok, ev)
  expect.eq(T.record(ev, "shift").drm, 2, "12 Uncontrolled-Territory hexes between D and Q")
end)

-- [9.6131] a Setup Area left empty by a Shift stays Controlled by the side that left it
kessel.test("case_9.6131_vacated_setup_area", function()
  field{ T.squad("g", "german", "4-6-7", "C9") }
  kessel.inject_dice{ 2, 2 }
  local ok, ev = kessel.act{ kind = "shift", units = { "g" }, to = "A" }
  expect.accepted(ok, ev)
  T.has_note(ev, "[9.6131]")
  expect.eq(kessel.game.var("setup_areas").hexes.C9, "german", "still a German Setup Area")
end)

-- [9.613] all units Shifting from the same area to the same area go as a single group: a second
-- group from A to B the same CG Date is refused; another destination is not
kessel.test("case_9.613_one_group_per_origin_and_destination", function()
  field{ T.squad("a", "german", "4-6-7", "C3"), T.squad("b", "german", "4-6-7", "C3") }
  kessel.inject_dice{ 2, 2 }
  expect.accepted(kessel.act{ kind = "shift", units = { "a" }, to = "B" })
  local ok, r = kessel.act{ kind = "shift", units = { "b" }, to = "B" }
  expect.refused(ok, r, "9.613", "single group")
  expect.accepted(kessel.act{ kind = "shift", units = { "b" }, to = "A1" })
end)

-- [9.613] the Shift DR is a Secret DR: the British read that the group attempted (a public note),
-- not the dice, the value, the result note or the record (one run of events they are shown nothing
-- of); the German sees everything
kessel.test("case_9.613_the_shift_dr_is_secret", function()
  field{ T.squad("g", "german", "4-6-7", "C3") }
  kessel.inject_dice{ 5, 4 }
  expect.accepted(kessel.act{ kind = "shift", units = { "g" }, to = "B" })
  local british = kessel.game.view("british", { log = true })
  local dice, hidden, attempt, secret = 0, 0, false, 0
  for _, e in ipairs(british.log[#british.log].events) do
    if e.event == "withheld" and e.kind == "secret" then secret = secret + 1 end
    if e.event == "dice" and e.purpose == "shift" then
      dice = dice + 1
      if e.rolls == nil or #e.rolls == 0 then hidden = hidden + 1 end
    end
    if e.event == "note" and e.text and e.text:find("DR 9") then expect.truthy(false, "the British read the DR: " .. e.text) end
    if e.event == "note" and e.text and e.text:find("attempts to Shift", 1, true) then attempt = true end
    if e.event == "record" and e.kind == "shift" then expect.eq(e.fields, nil, "the record is the German's") end
  end
  expect.eq(dice, 0, "the British see no die of the Shift DR")
  expect.eq(hidden, 0)
  expect.truthy(secret > 0, "the DR, its note and record are events they are shown nothing of")
  expect.truthy(attempt, "the British read that a Shift was attempted")
  local german = kessel.game.view("german", { log = true })
  local seen = false
  for _, e in ipairs(german.log[#german.log].events) do
    if e.event == "note" and e.text and e.text:find("DR 9+0 = 9: no_shift", 1, true) then seen = true end
  end
  expect.truthy(seen, "the German reads his own DR and result")
  T.replays()
end)

-- [9.613] a vehicle Eliminated by "Shifted with Casualties" makes a CS DR for its Inherent crew:
-- below the CS# the crew survives (no Casualty Reduction) and arrives with the group
kessel.test("case_9.613_vehicle_eliminated_by_shift_casualties_rolls_crew_survival", function()
  field{ T.vehicle("t", "german", "PzIVH", "C3", { vars = { cs = 7 } }), T.vehicle("u", "german", "PzIVH", "C3", { vars = { cs = 7 } }) }
  -- Shift DR 11 (with casualties); t: dr 5 Eliminated, CS DR 4 < 7 survives; u: dr 6 Eliminated, CS DR 9: crew lost
  kessel.inject_dice{ 5, 6, 5, 2, 2, 6, 4, 5 }
  local ok, ev = kessel.act{ kind = "shift", units = { "t", "u" }, to = "B" }
  expect.accepted(ok, ev)
  expect.eq(T.unit("t").location, "eliminated")
  expect.eq(T.unit("u").location, "eliminated")
  local crews = kessel.units.all{ type = "crew" }
  expect.eq(#crews, 1, "one crew survives")
  expect.eq(crews[1].vars.from_vehicle, "t")
  expect.eq(crews[1].step, 0, "Casualty Reduction is NA")
  expect.eq(crews[1].vars.reph.area, "B", "the surviving crew Shifted with its group")
  T.has_note(ev, "CS DR 4 < CS# 7")
  T.has_note(ev, "CS DR 9, not below CS# 7")
  T.has_note(ev, "the CS# and this threshold are chapter D's, outside the RePh text")
  T.replays()
end)

-- [9.613] each squad stacked with a leader may freely Deploy (before its Shift), so its halves can
-- go to different Areas; a squad with no leader may not
kessel.test("case_9.613_squad_with_a_leader_may_freely_deploy", function()
  field{ T.squad("g", "german", "4-6-7", "C3"), T.leader("l", "german", "8-0", "C3"), T.squad("h", "german", "4-6-7", "C9") }
  local ok, ev = kessel.act{ kind = "deploy", unit = "g" }
  expect.accepted(ok, ev)
  expect.eq(T.unit("g").step, 1, "g is a half-squad")
  local halves = 0
  for _, u in ipairs(kessel.units.all{ side = "german", type = "squad" }) do
    if u.hex == "C3" and u.step == 1 then halves = halves + 1; expect.eq(u.vars.reph.area, "A") end
  end
  expect.eq(halves, 2, "two half-squads in C3")
  local r
  ok, r = kessel.act{ kind = "deploy", unit = "h" }
  expect.refused(ok, r, "9.613", "not stacked with a leader")
  ok, r = kessel.act{ kind = "deploy", unit = "g" }
  expect.refused(ok, r, "9.613", "not a full squad")
  T.replays()
end)

-- [9.613] from an Entry Area only to "the next" Eligible Entry Area: with the Entry Areas listed in
-- order along the edge (entry_order), A1 -> N12 skips E5 and is refused; A1 -> E5 is allowed
kessel.test("case_9.613_entry_to_entry_only_the_next", function()
  field({ T.squad("g", "german", "4-6-7", nil, { location = "pending", vars = { reph = { status = "retained", area = "A1" } } }) },
    { vars = { entry_areas = { german = { A1 = true, E5 = true, N12 = true } }, entry_order = { german = { "A1", "E5", "N12" } }, date = "day_i" },
      map = { columns = 14, rows = 12, tags = { strategic = { "C3", "C9", "M6" } }, areas = { A1 = { "A1" }, E5 = { "E5" }, N12 = { "N12" } } } })
  local ok, r = kessel.act{ kind = "shift", units = { "g" }, to = "N12" }
  expect.refused(ok, r, "9.613", "next Eligible Entry Area (E5)")
  kessel.inject_dice{ 3, 3 }
  local ev
  ok, ev = kessel.act{ kind = "shift", units = { "g" }, to = "E5" }
  expect.accepted(ok, ev)
  expect.eq(T.record(ev, "shift").drm, 0, "no path DRM between Entry Areas")
  expect.eq(T.unit("g").vars.reph.area, "E5")
end)

-- [9.613] the choices offered are whole groups (everything Retained in one Area), not single units
kessel.test("case_9.613_offered_shifts_are_whole_groups", function()
  field{ T.squad("a", "german", "4-6-7", "C3"), T.squad("b", "german", "4-6-7", "C3"), T.squad("c", "german", "4-6-7", "C9") }
  local to_b
  for _, a in ipairs(kessel.legal()) do
    if a.kind == "shift" then
      expect.truthy(#a.units ~= 1 or a.units[1] == "c", "no single unit of Area A is offered alone")
      if a.to == "B" then to_b = a end
    end
  end
  expect.truthy(to_b ~= nil, "A -> B is offered")
  expect.eq(#to_b.units, 2, "as the group a and b")
end)

-- [9.613] the path DRMs apply to a Shift from an Entry Area to a Setup Area too (only one Entry
-- Area to another is exempt): from Entry Area A1 by Setup Area A to Setup Area B, 12 UT hexes: +2
kessel.test("case_9.613_entry_to_setup_area_path_drm", function()
  T.setup{ step = "setup_areas", map = { columns = 20, rows = 5, tags = { strategic = { "B3", "S3" } }, areas = { A1 = { "A1" } } },
    markers = { ctrl("german", "B3"), ctrl("german", "S3") },
    units = { T.squad("s", "german", "4-6-7", "S3"),
      T.squad("g", "german", "4-6-7", nil, { location = "pending", vars = { reph = { status = "retained", area = "A1" } } }) },
    vars = { date = "day_i", entry_areas = { german = { A1 = true } } } }
  for _ = 1, 8 do T.resolve() end
  kessel.inject_dice{ 3, 3 }
  local ok, ev = kessel.act{ kind = "shift", units = { "g" }, to = "B" }
  expect.accepted(ok, ev)
  expect.eq(T.record(ev, "shift").drm, 2, "12 Uncontrolled-Territory hexes between Setup Areas A and B")
end)

-- [9.613] Shifted with Casualties Eliminates a half-squad (Casualty Reduction): its SW is not left
-- possessed by an Eliminated unit; it stays, unpossessed, where it was (the text is silent: our reading)
kessel.test("case_9.613_sw_of_a_hs_eliminated_by_shift_casualties", function()
  field{ T.hs("h", "german", "4-6-7", "C3"), T.sw("mg", "german", "LMG", "C3", { vars = { possessed_by = "h" } }) }
  kessel.inject_dice{ 5, 6, 4 }
  local ok, ev = kessel.act{ kind = "shift", units = { "h" }, to = "B" }
  expect.accepted(ok, ev)
  expect.eq(T.unit("h").location, "eliminated")
  expect.eq(T.unit("mg").vars.possessed_by, nil)
  expect.eq(T.unit("mg").hex, "C3")
  T.has_note(ev, "mg is left unpossessed")
end)

-- [9.613] [9.6052] an Entry Area the scenario marks false in entry_areas is not Eligible: no Shift
-- goes to it and it is not offered (it used to count because the name was listed)
kessel.test("case_9.613_an_entry_area_marked_false_is_not_eligible", function()
  field({ T.squad("g", "german", "4-6-7", "C3") },
    { vars = { entry_areas = { german = { A1 = true, N12 = false } }, date = "day_i" } })
  local ok, r = kessel.act{ kind = "shift", units = { "g" }, to = "N12" }
  expect.refused(ok, r, "9.613", "no friendly Setup Area or Eligible Entry Area")
  for _, a in ipairs(kessel.legal()) do
    if a.kind == "shift" then expect.truthy(a.to ~= "N12", "N12 is not offered") end
  end
end)
