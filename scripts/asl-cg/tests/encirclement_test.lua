-- RePh 9.604 / 11.604: Encirclement, Minefields, Bog, Shock (rules/encirclement.lua).
local T = require("testing.cg")
local expect = T.expect

local function at_step(units, extra)
  local spec = { step = "encirclement", units = units }
  for k, v in pairs(extra or {}) do spec[k] = v end
  T.setup(spec)
end

-- [9.6041] an Encircled squad passes its 1TC on DR + 1 <= morale and stays
kessel.test("case_9.6041_encircled_unit_passes_1tc", function()
  at_step{ T.squad("g", "german", "4-6-7", "C5", { vars = { encircled = true } }) }
  kessel.inject_dice{ 3, 3 }
  local ev = T.resolve()
  expect.eq(T.unit("g").location, "map")
  local tc = T.record(ev, "task_check")
  expect.eq(tc.final, 7)
  expect.eq(tc.passed, true)
  expect.eq(T.unit("g").vars.encircled, true, "Encircled markers stay until 9.6062")
end)

-- [9.6041] failing it Eliminates the unit
kessel.test("case_9.6041_encircled_unit_fails_1tc_and_is_eliminated", function()
  at_step{ T.squad("g", "german", "4-6-7", "C5", { vars = { encircled = true } }) }
  kessel.inject_dice{ 4, 3 }
  local ev = T.resolve()
  expect.eq(T.unit("g").location, "eliminated")
  T.has_note(ev, "[9.6041]")
  T.replays()
end)

-- [9.6041] a leader's DRM helps the others in his Location (he tests first)
kessel.test("case_9.6041_leader_drm_applies", function()
  at_step{ T.squad("g", "german", "4-6-7", "C5", { vars = { encircled = true } }),
    T.leader("l", "german", "9-1", "C5", { vars = { encircled = true } }) }
  kessel.inject_dice{ 2, 2, 4, 3 }  -- leader: 4+1 <= 9; squad: 7+1-1 = 7 <= 7
  T.resolve()
  expect.eq(T.unit("g").location, "map")
  expect.eq(T.unit("l").location, "map")
end)

-- [9.6041] a prisoner takes no 1TC; an Eliminated Guard's prisoner is Rearmed and takes its SW
kessel.test("case_9.6041_prisoner_of_an_eliminated_guard_is_rearmed", function()
  at_step{ T.squad("g", "german", "4-6-7", "C5", { vars = { encircled = true } }),
    T.squad("p", "british", "6-4-8", "C5", { vars = { prisoner_of = "german", guarded_by = "g", unarmed = true, encircled = true } }),
    T.sw("mg", "german", "LMG", "C5", { vars = { possessed_by = "g" } }) }
  kessel.inject_dice{ 6, 6 }
  local ev = T.resolve()
  expect.eq(T.unit("g").location, "eliminated")
  expect.eq(T.unit("p").vars.prisoner_of, nil)
  expect.eq(T.unit("mg").vars.possessed_by, "p")
  T.has_note(ev, "Rearmed")
end)

-- [9.6041] another friendly unit in the Location claims the prisoner instead
kessel.test("case_9.6041_prisoner_claimed_by_another_guard", function()
  at_step{ T.squad("g", "german", "4-6-7", "C5", { vars = { encircled = true } }), T.squad("g2", "german", "4-6-7", "C5"),
    T.squad("p", "british", "6-4-8", "C5", { vars = { prisoner_of = "german", guarded_by = "g" } }),
    T.sw("mg", "german", "LMG", "C5", { vars = { possessed_by = "g" } }) }
  kessel.inject_dice{ 6, 6 }
  T.resolve()
  expect.eq(T.unit("p").vars.guarded_by, "g2")
  expect.eq(T.unit("mg").vars.possessed_by, nil, "left unpossessed")
end)

-- [9.6042] Infantry in an A-P minefield hex takes a NTC; failure is Casualty Reduction
kessel.test("case_9.6042_ap_minefield_ntc_casualty_reduction", function()
  at_step({ T.squad("b", "british", "6-4-8", "D4") }, { markers = { { kind = "ap_mine", side = "german", at = "D4" } } })
  kessel.inject_dice{ 5, 4 }
  local ev = T.resolve()
  expect.eq(T.unit("b").step, 1, "reduced to a 3-4-8 HS")
  expect.eq(T.unit("b").face.firepower, 3)
  T.has_note(ev, "NTC (A-P minefield)")
end)

-- [9.6042] EXC: a unit that could leave without being attacked takes no NTC
kessel.test("case_9.6042_no_ntc_for_a_unit_that_can_leave_clear", function()
  at_step({ T.squad("b", "british", "6-4-8", "D4", { vars = { can_exit_clear = true } }) },
    { markers = { { kind = "ap_mine", side = "german", at = "D4" } } })
  local ev = T.resolve()
  expect.eq(T.unit("b").step, 0)
  expect.eq(T.record(ev, "task_check"), nil, "no DR made")
end)

-- [9.6043] a bogged vehicle rolls until unbogged or Immobilized
kessel.test("case_9.6043_bog_removal_until_resolved", function()
  at_step{ T.vehicle("pz", "german", "PzKpfw IVH", "E5", { vars = { bogged = true } }) }
  kessel.inject_dice{ 5, 4, 6, 6 }  -- 9: still bogged; 12: Immobilized
  local ev = T.resolve()
  expect.eq(T.unit("pz").vars.bogged, nil)
  expect.eq(T.unit("pz").vars.immobile, true)
  T.has_note(ev, "attempt 2")
end)

-- [9.6044] a Shocked AFV rolls until recovered or Eliminated
kessel.test("case_9.6044_shock_recuperation", function()
  at_step{ T.vehicle("pz", "german", "PzKpfw IVH", "E5", { vars = { shock = true } }),
    T.vehicle("pz2", "german", "PzKpfw IVH", "E6", { vars = { uk = true } }) }
  kessel.inject_dice{ 4, 2, 6 }
  T.resolve()
  expect.eq(T.unit("pz").vars.shock, nil)
  expect.eq(T.unit("pz").location, "map")
  expect.eq(T.unit("pz2").location, "eliminated")
end)

-- [11.6041] RB: the same 1TC, cited as 11.6041; no bog step in RB
kessel.test("case_11.6041_rb_encirclement", function()
  T.setup{ module = "rb", step = "encirclement", units = {
    T.squad("r", "russian", "4-4-7r", "C5", { vars = { encircled = true } }),
    T.vehicle("t", "russian", "T-34", "D5", { vars = { bogged = true } }) } }
  kessel.inject_dice{ 6, 5 }
  local ev = T.resolve()
  expect.eq(T.unit("r").location, "eliminated")
  T.has_note(ev, "[11.6041]")
  expect.eq(T.unit("t").vars.bogged, true, "RB 11.604 has no bog sub-step")
end)
