-- Rule tests for zones of control [8] (rules/zoc.lua).

-- [8] Zones of control ---------------------------------------------------------------------------
do
  local B = require("testing.board8")
  local expect, K, Z, S, L, M, V, pz, rifle, leader, board, attack, choose, retreat, mv, note, end_phases =
    B.expect, B.K, B.Z, B.S, B.L, B.M, B.V, B.pz, B.rifle, B.leader, B.board, B.attack, B.choose, B.retreat, B.mv, B.note, B.end_phases

  -- Rule 8 / 10.2: leaders and untried units exert a ZOC like any other unit.
  kessel.test("case_8_leaders_and_untried_units_exert_zoc", function()
    board({ leader("l", "0505", 2), { id = "u", side = "soviet", type = "rifle", hidden = true, pool = "rifle", at = "0202" },
      pz("p", "0502"), pz("q", "0205") }, { step = "german_movement", bare = true })
    local zoc = Z.zoc_of("soviet")
    expect.truthy(zoc:has("0504") and zoc:has("0604"), "around the leader")
    expect.truthy(zoc:has("0203") and zoc:has("0302"), "around the untried unit")
    local ok, r = mv("p", { "0503", "0504", "0604" })
    expect.refused(ok, r, "6.22", "enter")
    ok, r = mv("q", { "0204", "0203", "0103" })
    expect.refused(ok, r, "6.22", "enter")
  end)

  -- Rule 8: a ZOC extends across river hexsides but not across lake hexsides.
  kessel.test("case_8_zoc_crosses_rivers_not_lake_hexsides", function()
    board({ rifle("s", "0403") }, { bare = true, map = { columns = 8, rows = 8,
      hexsides = { { "0403", "0503", "river" }, { "0403", "0504", "lake" } } } })
    local zoc = Z.zoc_of("soviet")
    expect.truthy(zoc:has("0503"), "across the river")
    expect.falsy(zoc:has("0504"), "not across the lake")
    expect.truthy(zoc:has("0404"))
  end)

  -- Rule 8: friendly units negate enemy ZOC for supply and lines, never for movement.
  kessel.test("case_8_friendly_units_do_not_negate_zoc_for_movement", function()
    board({ rifle("r", "0505"), pz("f", "0504"), pz("p", "0502") }, { step = "german_movement", bare = true })
    local ok, r = mv("p", { "0503", "0504", "0403" })
    expect.refused(ok, r, "6.22", "0504")
    expect.accepted(mv("p", { "0503", "0504" }), "it may stop there, with its friend")
    local ok2, r2 = mv("p", { "0403" })
    expect.refused(ok2, r2, "6.22", "may not leave")
  end)
end
