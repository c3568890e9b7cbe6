-- RePh 9.610-9.611 and RB 11.610-11.611 (rules/hardening.lua).
local T = require("testing.cg")
local expect = T.expect

-- [9.6101] a wounded leader: dr -1 British: <= 1 unwounded, 2-4 wounded, >= 5 evacuated
kessel.test("case_9.6101_wounded_leaders", function()
  T.setup{ step = "wounded", units = {
    T.leader("b1", "british", "9-1", "C3", { vars = { wounded = true } }),
    T.leader("g1", "german", "8-0", "D3", { vars = { wounded = true } }),
    T.leader("g2", "german", "8-1", "D4", { vars = { wounded = true, isolated = true } }) } }
  kessel.inject_dice{ 2, 4, 4 }  -- b1: 2-1 = 1 unwounded; g1: 4 wounded; g2: 4+1 = 5 Eliminated
  T.resolve()
  expect.eq(T.unit("b1").vars.wounded, nil)
  expect.eq(T.unit("g1").vars.wounded, true)
  expect.eq(T.unit("g2").location, "eliminated")
end)

-- [9.6102] Walking Wounded MMC recovered go to a non-Isolated British Setup Area and count as CVP
kessel.test("case_9.6102_walking_wounded_count_as_cvp", function()
  T.setup{ step = "wounded", vars = { walking_wounded = 2, cvp_lost = { british = 3, german = 0 },
    setup_areas = { hexes = {}, areas = { british = { { id = "A", hexes = { "C3" } } }, german = {} } } } }
  T.resolve()
  local ww = 0
  for _, u in ipairs(kessel.units.all{ side = "british" }) do if u.vars.ww then ww = ww + 1; expect.eq(u.hex, "C3") end end
  expect.eq(ww, 2)
  expect.eq(kessel.game.var("cvp_lost").british, 7)
end)

-- [9.6102] with no non-Isolated British Setup Area (the only one is Isolated) the Walking Wounded
-- recovered wait off-map at Z28, the Eligible Entry Hex 9.6152 Note 1 gives when the British cannot
-- set up on-map (our reading), Retained in that Entry Area; they still count as CVP. Before, they
-- were made off-map Retained in no area at all.
kessel.test("case_9.6102_walking_wounded_with_no_open_setup_area_wait_at_z28", function()
  T.setup{ step = "wounded", vars = { walking_wounded = 1, cvp_lost = { british = 0, german = 0 },
    setup_areas = { hexes = {}, areas = { british = { { id = "A", hexes = { "C3" }, isolated = true } }, german = {} } } } }
  local ev = T.resolve()
  local ww
  for _, u in ipairs(kessel.units.all{ side = "british" }) do if u.vars.ww then ww = u end end
  expect.truthy(ww, "a WW squad is recovered")
  expect.eq(ww.location, "pending", "not placed in the Isolated Setup Area A")
  expect.eq(ww.vars.reph.area, "Z28")
  expect.eq(ww.vars.reph.status, "retained")
  T.has_note(ev, "off-map, to enter at Z28")
  expect.eq(kessel.game.var("cvp_lost").british, 2)
end)

-- [11.610] RB: <= 2 stays wounded, >= 3 Eliminated; +1 Isolated
kessel.test("case_11.610_rb_wounded_leaders", function()
  T.setup{ module = "rb", step = "wounded", units = {
    T.leader("r1", "russian", "9-1", "C3", { vars = { wounded = true } }),
    T.leader("r2", "russian", "8-0", "D3", { vars = { wounded = true, isolated = true } }) } }
  kessel.inject_dice{ 2, 2 }
  T.resolve()
  expect.eq(T.unit("r1").vars.wounded, true)
  expect.eq(T.unit("r2").location, "eliminated")
end)

local function area(id, a) return { vars = { reph = { status = "retained", area = a } } } end

-- [9.6111] same HS in one area recombine (step 0 again, the other counter removed); other areas
-- and different HS do not
kessel.test("case_9.6111_recombining_half_squads", function()
  T.setup{ step = "hardening", units = {
    T.hs("h1", "german", "4-6-7", "C3", area(nil, "A")), T.hs("h2", "german", "4-6-7", "C4", area(nil, "A")),
    T.hs("h3", "german", "4-6-7", "H8", area(nil, "B")), T.hs("h4", "german", "4-4-7", "C3", area(nil, "A")),
    T.sw("mg", "german", "LMG", "C4", { vars = { possessed_by = "h2" } }) } }
  local ev = T.resolve()
  expect.eq(T.unit("h1").step, 0)
  expect.eq(T.C.face_label(T.unit("h1")), "4-6-7")
  expect.eq(T.unit("h2").location, "removed")
  expect.eq(T.unit("mg").vars.possessed_by, "h1")
  expect.eq(T.unit("h3").step, 1, "another Setup Area")
  expect.eq(T.unit("h4").step, 1, "another HS type")
  T.has_note(ev, "Recombine")
  T.replays()
end)

-- [9.6111] EXC: one HS per MTR Retained may stay apart
kessel.test("case_9.6111_one_hs_kept_per_mortar", function()
  T.setup{ step = "hardening", units = {
    T.hs("h1", "british", "6-4-8", "C3", area(nil, "A")), T.hs("h2", "british", "6-4-8", "C3", area(nil, "A")),
    T.sw("m", "british", "51 MTR", "C3") } }
  expect.accepted(kessel.act{ kind = "keep_hs", unit = "h1" })
  local ok, reasons = kessel.act{ kind = "keep_hs", unit = "h2" }
  expect.refused(ok, reasons, "9.6111", "no MTR left")
  T.resolve()
  expect.eq(T.unit("h1").step, 1)
  expect.eq(T.unit("h2").step, 1)
end)

-- [9.6112] a Retained Hero is Eliminated and Battle Hardens an MMC of his area (4-6-7 -> 4-6-8);
-- with no MMC there he stays
kessel.test("case_9.6112_hero_battle_hardens_an_mmc", function()
  T.setup{ step = "hardening", units = {
    T.hero("hero", "german", "C3", area(nil, "A")), T.squad("s", "german", "4-6-7", "C3", area(nil, "A")),
    T.hero("lonely", "german", "H8", area(nil, "B")) } }
  T.resolve()
  expect.eq(T.unit("hero").location, "eliminated", "the Hero is Eliminated [9.6112]")
  expect.eq(T.C.face_label(T.unit("s")), "4-6-8")
  expect.eq(T.unit("s").vars.battle_hardened, true)
  expect.eq(T.unit("lonely").location, "map")
end)

-- [9.6112] an elite MMC that Battle Hardens becomes Fanatic for the next scenario; the owner picks
kessel.test("case_9.6112_elite_becomes_fanatic_owner_choice", function()
  T.setup{ step = "hardening", units = {
    T.hero("hero", "british", "C3", area(nil, "A")), T.squad("a", "british", "6-4-8", "C3", area(nil, "A")),
    T.squad("b", "british", "4-5-7", "C3", area(nil, "A")) } }
  expect.accepted(kessel.act{ kind = "hero_harden", hero = "hero", unit = "a" })
  T.resolve()   -- the choice is carried out as 9.611 ends, after Recombining
  expect.eq(T.unit("a").vars.fanatic_next, true)
  expect.eq(T.C.face_label(T.unit("a")), "6-4-8")
  expect.eq(T.unit("hero").location, "eliminated")
end)

-- [9.6113] a heroic leader Battle Hardens and loses his heroic status; a 10-3 only loses it
kessel.test("case_9.6113_heroic_leaders", function()
  T.setup{ step = "hardening", units = {
    T.leader("l", "british", "8-1", "C3", { vars = { heroic = true } }),
    T.leader("top", "british", "10-3", "C4", { vars = { heroic = true } }) } }
  T.resolve()
  expect.eq(T.unit("l").face.label, "9-1")
  expect.eq(T.unit("l").vars.heroic, nil)
  expect.eq(T.unit("top").face.label, "10-3")
  expect.eq(T.unit("top").vars.heroic, nil)
end)

-- [11.6112] RB: the MMC Battle Hardening DR; -3 for the winner, -1 Russian, -1 per 20 CVP amassed
kessel.test("case_11.6112_rb_mmc_hardening_table", function()
  T.setup{ module = "rb", step = "hardening", units = {
    T.squad("g1", "german", "4-6-7", "C3"), T.squad("g2", "german", "4-4-7", "C4"), T.squad("g3", "german", "4-3-6", "C5"),
    T.squad("r1", "russian", "4-2-6", "H8") },
    vars = { scenario_winner = "german", cvp_amassed = { german = 40 } } }
  -- German DR 6 -3 -2 = 1: three MMC; Russian DR 12 -1 = 11: none; leader DRs after
  kessel.inject_dice{ 3, 3, 6, 6, 6, 6, 6, 6 }
  local ev = T.resolve()
  expect.eq(T.C.face_label(T.unit("g1")), "4-6-8")
  expect.eq(T.C.face_label(T.unit("g2")), "4-6-7")
  expect.eq(T.C.face_label(T.unit("g3")), "4-4-7")
  expect.eq(T.C.face_label(T.unit("r1")), "4-2-6")
  local r
  for _, e in ipairs(ev) do if e.event == "record" and e.kind == "mmc_hardening" and e.fields.side == "german" then r = e.fields end end
  expect.eq(r.count, 3)
end)

-- [11.6113] RB: the leader rolled hardens if Retained, else the lowest-grade one
kessel.test("case_11.6113_rb_leader_hardening", function()
  T.setup{ module = "rb", step = "hardening", units = {
    T.leader("g80", "german", "8-0", "C3"), T.leader("g91", "german", "9-1", "C4"),
    T.leader("r70", "russian", "7-0", "H8"), T.leader("r90", "russian", "9-0", "H9") } }
  -- MMC DRs (German 12, Russian 12: none), then German leader DR 4: 9-1; Russian DR 5: 9-0
  kessel.inject_dice{ 6, 6, 6, 6, 2, 2, 3, 2 }
  T.resolve()
  expect.eq(T.unit("g91").face.label, "9-2")
  expect.eq(T.unit("g80").face.label, "8-0")
  expect.eq(T.unit("r90").face.label, "10-0", "a 9-0 always hardens to a 10-0")
end)

-- [11.6114] promotion out of the ranks instead of the leader DR, within the leader ratio
kessel.test("case_11.6114_promotion_out_of_the_ranks", function()
  local units = { T.leader("l", "german", "8-1", "C3") }
  for i = 1, 8 do units[#units + 1] = T.squad("s" .. i, "german", "4-6-7", "C4") end
  T.setup{ module = "rb", step = "hardening", units = units }
  expect.accepted(kessel.act{ kind = "promote", leader = "l" })
  expect.eq(T.unit("l").face.label, "8-0")
  expect.eq(#kessel.units.all{ type = "leader" }, 2)
  local ok, reasons = kessel.act{ kind = "promote", leader = "l" }
  expect.refused(ok, reasons, "11.6114")
  kessel.inject_dice{ 6, 6, 6, 6 }
  local ev = T.resolve()
  T.has_note(ev, "promoted out of the ranks")
end)

-- [11.6114] refused when it would give more than one leader per four squad-equivalents
kessel.test("case_11.6114_leader_ratio_limit", function()
  T.setup{ module = "rb", step = "hardening", units = { T.leader("l", "german", "8-0", "C3"), T.squad("s", "german", "4-6-7", "C4") } }
  local ok, reasons = kessel.act{ kind = "promote", leader = "l" }
  expect.refused(ok, reasons, "11.6114", "more than one per 4")
end)

-- [11.6112] "-1 per 20 CVP amassed by friendly side in the previous scenario": the CVP a side amassed
-- are those its enemy lost (cvp_lost, counted in play), without a separate cvp_amassed
kessel.test("case_11.6112_cvp_amassed_are_the_enemys_losses", function()
  T.setup{ module = "rb", step = "hardening", units = {
    T.squad("g1", "german", "4-6-7", "C3"), T.squad("g2", "german", "4-4-7", "C4"), T.squad("r1", "russian", "4-2-6", "H8") },
    vars = { cvp_lost = { russian = 41, german = 5 } } }
  kessel.inject_dice{ 4, 4, 6, 6, 6, 6, 6, 6 }
  local ev = T.resolve()
  local r
  for _, e in ipairs(ev) do if e.event == "record" and e.kind == "mmc_hardening" and e.fields.side == "german" then r = e.fields end end
  expect.eq(r.drm, -2, "41 Russian CVP lost: the German amassed 41: -2")
  T.has_note(ev, "(-2 41 CVP amassed)")
end)
