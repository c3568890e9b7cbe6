-- Rule tests for the Soviet set-up [5.1] (rules/setup.lua).

-- [5.1] Soviet set-up within multi-hex set-up areas ---------------------------------------------
do
  local B = require("testing.board8_combat")
  local expect, V, pz, inf, rifle, leader, board, attack, choose, retreat, offered, has_retreat =
    B.expect, B.V, B.pz, B.inf, B.rifle, B.leader, B.board, B.attack, B.choose, B.retreat, B.offered, B.has_retreat

  -- A set-up area S13 of three hexes; `setup_areas` names each unit's area (the game var a unit
  -- without `setup_area` is read by; the campaign's units carry theirs). The German's three initial air markers
  -- are not down yet [13.2].
  local function setup_board(extra)
    extra = extra or {}
    local vars = { first_turn_16 = "move", first_turn_19 = "move",
      setup_areas = { r1 = "S13", r2 = "S13", r3 = "S13", r4 = "S13", rem = "S13" } }
    kessel.setup{ map = { columns = 8, rows = 8, areas = { S13 = { "0104", "0105", "0106" } } },
      units = { leader("rem", "0104", 4), rifle("r1", "0104"), rifle("r2", "0104"), rifle("r3", "0105"), rifle("r4", "0106"),
        rifle("other", "0404"), leader("sup", "0706", 5), pz("g", "0808") },
      markers = { { kind = "air_interdiction", side = "german", count = 3 } },
      step = extra.step or "soviet_movement", turn = extra.turn or 1, vars = vars }
  end

  -- Rule 5.1: the Soviet arranges the units of a multi-hex set-up area himself, within the stacking
  -- limits [7.1], before his first move and before the German's initial air markers, which wait until
  -- he ends his set-up (`end_setup`) [13.2].
  kessel.test("case_5_1_soviet_arranges_units_within_setup_area", function()
    setup_board()
    local list = offered("soviet", "setup_place")
    local count = 0
    for _, a in ipairs(list) do
      expect.truthy(a.unit ~= "other", "a unit with a printed hex is not rearranged")
      count = count + 1
    end
    -- rem, r1, r2 (in 0104) may go to 0105 or 0106; r3 to 0104 or 0106; r4 to 0104 or 0105
    expect.eq(count, 10, "every unit of the area, to every other hex of it")
    expect.eq(#offered("german", "setup_place"), 0, "only the Soviet sets up")
    local events = expect.accepted(kessel.act{ kind = "setup_place", unit = "r1", hex = "0106" })
    expect.eq(kessel.units.get("r1").hex, "0106")
    expect.eq(events[1].event, "located", "the unit is placed, not moved")
    local ok, r = kessel.act{ kind = "setup_place", unit = "r2", hex = "0107" }
    expect.refused(ok, r, "5.1", "not in")
    ok, r = kessel.act{ kind = "setup_place", unit = "other", hex = "0105" }
    expect.refused(ok, r, "5.1", "printed hex")
    ok, r = kessel.act{ kind = "setup_place", unit = "g", hex = "0105" }
    expect.refused(ok, r, "5.1", "not a Soviet unit")
    -- 0106 holds r4 and r1: a third combat unit fits, a fourth does not [7.1]
    expect.accepted(kessel.act{ kind = "setup_place", unit = "r3", hex = "0106" })
    ok, r = kessel.act{ kind = "setup_place", unit = "r2", hex = "0106" }
    expect.refused(ok, r, "7.1", "limit 3")
    -- the leader may join them: four units with a leader among them
    expect.accepted(kessel.act{ kind = "setup_place", unit = "rem", hex = "0106" })
    expect.eq(#kessel.units.at("0106"), 4)
    -- the German's initial markers wait for the Soviet set-up [13.2]
    ok, r = kessel.act{ kind = "place_marker", hex = "0404", side = "german" }
    expect.refused(ok, r, "13.2", "after the Soviet set-up")
    expect.eq(#offered("german", "place_marker"), 0)
    expect.eq(#offered("german", "end_air_placement"), 0)
    expect.eq(#offered("soviet", "end_setup"), 1)
    expect.eq(kessel.queries.ask("deciding_side", {}), "soviet", "the Soviet sets up first")
    expect.accepted(kessel.act{ kind = "end_setup" })
    expect.eq(kessel.queries.ask("deciding_side", {}), "german", "then the German places his markers")
    ok, r = kessel.act{ kind = "setup_place", unit = "r2", hex = "0105" }
    expect.refused(ok, r, "5.1", "set-up is over")
    expect.eq(#offered("soviet", "setup_place"), 0)
    expect.accepted(kessel.act{ kind = "place_marker", hex = "0404" })
  end)

  -- Rule 5.1: no set-up once the German's initial air placement is over, nor outside the first
  -- Soviet Movement Phase of turn 1.
  kessel.test("case_5_1_setup_only_before_the_first_soviet_move", function()
    setup_board()
    local ok, r = kessel.act{ kind = "end_air_placement" }
    expect.refused(ok, r, "13.2", "after the Soviet set-up")
    expect.accepted(kessel.act{ kind = "end_setup" })
    expect.accepted(kessel.act{ kind = "end_air_placement" })
    ok, r = kessel.act{ kind = "setup_place", unit = "r1", hex = "0106" }
    expect.refused(ok, r, "5.1", "set-up is over")
    setup_board{ turn = 2 }
    ok, r = kessel.act{ kind = "setup_place", unit = "r1", hex = "0106" }
    expect.refused(ok, r, "5.1", "first Movement Phase of turn 1")
    setup_board{ step = "soviet_combat" }
    ok, r = kessel.act{ kind = "setup_place", unit = "r1", hex = "0106" }
    expect.refused(ok, r, "5.1", "first Movement Phase of turn 1")
    expect.eq(#offered("soviet", "setup_place"), 0)
  end)
end
