-- Rule tests for Soviet leaders [10] (rules/leaders.lua).

local expect = kessel.expect
local K = require("rules.combat")
local L = require("rules.leaders")
local function C_contains(list, x) for _, v in ipairs(list) do if v == x then return true end end return false end

local function pz(id, at, face) return { id = id, side = "german", type = "panzer", formation = "F" .. id, faces = { face or "4-4-10", "2-2-10" }, at = at } end
local function rifle(id, at, face) return { id = id, side = "soviet", type = "rifle", faces = { face or "2-2-6" }, at = at } end
local function leader(id, at, rating, flags) return { id = id, side = "soviet", type = "leader", faces = { "0-" .. rating .. "-10" }, attrs = { rating = rating }, at = at, flags = flags } end
local function setup(units, extra)
  extra = extra or {}
  kessel.setup{ map = extra.map or { columns = 8, rows = 8 }, units = units, step = extra.step or "soviet_combat", turn = extra.turn or 7,
    options = extra.options, vars = extra.vars }
end

-- Rule 10.35: the command radius is a line of at most `rating` hexes, not through enemy ZOC.
kessel.test("case_10_35_command_radius_line", function()
  setup{ leader("l", "0101", 2), rifle("s", "0103"), rifle("far", "0104") }
  expect.truthy(L.in_command(kessel.units.get("s")))
  expect.falsy(L.in_command(kessel.units.get("far")), "three hexes from a rating-2 leader")
  -- a German unit's ZOC across the only short line blocks it
  setup{ leader("l", "0101", 2), rifle("s", "0103"), pz("g", "0202") }
  expect.falsy(L.in_command(kessel.units.get("s")), "0102 is in the German ZOC with no Soviet unit")
  setup{ leader("l", "0101", 2, { "disrupted" }), rifle("s", "0103") }
  expect.falsy(L.in_command(kessel.units.get("s")), "a disrupted leader commands nobody [6.6]")
end)

-- Rule 10.2: a leader defends with its rating and counts as one step (FAQ: it may absorb a loss).
kessel.test("case_10_2_leader_defends_and_absorbs_a_step", function()
  setup({ leader("l", "0403", 3), rifle("s", "0403", "2-2-6"), pz("g", "0303", "9-9-10"), leader("sup", "0706", 5) }, { step = "german_combat" })
  expect.eq(K.defence_of({ "0403" }), 5, "2 + the leader's 3")
  kessel.inject_dice{ 1 } -- 9 against 5: 1-1, roll 1: D1
  expect.accepted(kessel.act{ kind = "attack", units = { "g" }, targets = { "0403" } })
  local ok, r = kessel.act{ kind = "choose", choice = "loss", units = { "l", "s" } }
  expect.refused(ok, r, "9.6", "exactly 1")
  expect.accepted(kessel.act{ kind = "choose", choice = "loss", units = { "l" } })
  expect.eq(kessel.units.get("l").location, "eliminated")
  expect.eq(kessel.units.get("s").location, "map")
end)

-- Rule 10.36: standard, one leader per attacking hex adds to an attack (WBC09 #12 allows several).
kessel.test("case_10_36_one_leader_per_hex_standard", function()
  setup{ leader("l1", "0403", 2), leader("l2", "0403", 2), rifle("s", "0403", "4-4-6"), pz("g", "0303") }
  local ok, r = kessel.act{ kind = "attack", units = { "s", "l1", "l2" }, targets = { "0303" } }
  expect.refused(ok, r, "10.36", "only one leader")
  ok, r = kessel.act{ kind = "attack", units = { "s", "l1" }, targets = { "0303" } }
  kessel.undo()
  expect.accepted(ok, r)
  -- a leader adds only to combat units of its own hex
  setup{ leader("l1", "0404", 2), rifle("s", "0403", "4-4-6"), rifle("t", "0304", "1-1-6"), pz("g", "0303") }
  ok, r = kessel.act{ kind = "attack", units = { "s", "l1" }, targets = { "0303" } }
  expect.refused(ok, r, "10.36", "own hex")
end)

-- Rule 10.4 (optional): evacuation of a leader with no line of supply, once a turn, two a game.
kessel.test("case_10_4_leader_evacuation", function()
  local units = { leader("l", "0202", 2), pz("g1", "0302"), pz("g2", "0203") , pz("g3", "0101") }
  setup(units, { step = "soviet_movement" })
  local ok, r = kessel.act{ kind = "evacuate", leader = "l" }
  expect.refused(ok, r, "10.4", "optional rule")
  setup(units, { step = "soviet_movement", options = { leader_evacuation = true, wbc09_05_no_leader_evacuation = true } })
  ok, r = kessel.act{ kind = "evacuate", leader = "l" }
  expect.refused(ok, r, "WBC09 #5")
  setup({ leader("free", "0606", 2) }, { step = "soviet_movement", options = { leader_evacuation = true, wbc09_05_no_leader_evacuation = false } })
  ok, r = kessel.act{ kind = "evacuate", leader = "free" }
  expect.refused(ok, r, "10.4", "still has a line of supply")
  setup(units, { step = "soviet_movement", options = { leader_evacuation = true, wbc09_05_no_leader_evacuation = false } })
  expect.accepted(kessel.act{ kind = "evacuate", leader = "l" })
  expect.eq(kessel.units.get("l").location, "pending")
  local done = kessel.game.var("evacuations")
  expect.eq(done[1].returns, 8)
  setup(units, { step = "soviet_movement", options = { leader_evacuation = true, wbc09_05_no_leader_evacuation = false },
    vars = { evacuations = { { id = "x", turn = 3, returns = 4 }, { id = "y", turn = 5, returns = 6 } } } })
  ok, r = kessel.act{ kind = "evacuate", leader = "l" }
  expect.refused(ok, r, "10.4", "two leaders")
end)

-- Rule 10.4: an evacuated leader comes back by himself at the start of the next Soviet Movement
-- Phase. One that first came as a scheduled reinforcement (his entry turn long past) could be
-- moved straight back on in the phase he was evacuated, by a `move` from his entry area, and the
-- computer player was offered that move.
kessel.test("case_10_4_evacuated_reinforcement_leader_does_not_move_back_on", function()
  local l = leader("l", "0202", 2)
  l.enter = { turn = 2, area = "X" }
  setup({ l, pz("g1", "0302"), pz("g2", "0203"), pz("g3", "0101") },
    { step = "soviet_movement", map = { columns = 8, rows = 8, areas = { X = { "0808" } } },
      options = { leader_evacuation = true, wbc09_05_no_leader_evacuation = false } })
  expect.accepted(kessel.act{ kind = "evacuate", leader = "l" })
  local ok, r = kessel.act{ kind = "move", units = { "l" }, path = { "0808" } }
  expect.refused(ok, r, "10.4", "comes back by himself")
  expect.eq(kessel.units.get("l").location, "pending")
  for _, a in ipairs(kessel.legal("soviet")) do
    expect.falsy(a.kind == "move" and C_contains(a.units, "l"), "no move of the evacuated leader is offered")
  end
  local m = kessel.queries.ask("mp_left", { unit = "l" })
  expect.eq(m.may_move, false)
  expect.eq(m.reason.rule, "10.4")
  -- he comes back at the start of the next Soviet Movement Phase
  for _ = 1, 9 do expect.accepted(kessel.act{ kind = "end_phase" }) end
  expect.eq(kessel.game.turn(), 8)
  expect.eq(kessel.units.get("l").hex, "0808")
end)

-- Rule 10.36 in the action list: every attack a Soviet stack could make is listed once without
-- its leaders and once with them (the best-rated leader of each attacking hex; all of them under
-- WBC09 #12), and every listed attack is legal.
kessel.test("case_10_36_attacks_with_leaders_are_listed", function()
  local units = { leader("l1", "0403", 3), leader("l2", "0403", 2), rifle("s", "0403", "4-4-6"),
    rifle("t", "0402", "2-2-6"), pz("g", "0303") }
  local function listed(opts)
    setup(units, { options = opts })
    local keys = {}
    for _, a in ipairs(kessel.legal("soviet")) do
      if a.kind == "attack" then
        expect.truthy(kessel.validate(a), "listed attack is legal")
        keys[#keys + 1] = table.concat(a.units, "+") .. ">" .. table.concat(a.targets, "+")
      end
    end
    return keys
  end
  local keys = listed({})
  for _, want in ipairs({ "s+t>0303", "s>0303", "t>0303", "s+l1+t>0303", "s+l1>0303" }) do
    expect.truthy(C_contains(keys, want), want .. " listed: " .. table.concat(keys, " "))
  end
  expect.falsy(C_contains(keys, "s+l1+l2+t>0303"), "one leader per hex in the standard game")
  expect.falsy(C_contains(keys, "s+l2>0303"), "the better leader is the one listed")
  keys = listed({ wbc09_12_multiple_leaders = true })
  expect.truthy(C_contains(keys, "s+l1+l2+t>0303"), "WBC09 #12: both leaders of the hex")
end)

-- [10.4] Evacuation parameters from the scenario ------------------------------------------------
do
  local B = require("testing.board8_combat")
  local expect, V, pz, inf, rifle, leader, board, attack, choose, retreat, offered, has_retreat =
    B.expect, B.V, B.pz, B.inf, B.rifle, B.leader, B.board, B.attack, B.choose, B.retreat, B.offered, B.has_retreat

  -- Rule 10.4: the return area and the game limit are the scenario's `evacuation_area` and
  -- `evacuation_max` (game variables of the same names in an inline position); defaults X and 2.
  kessel.test("case_10_4_evacuation_area_and_limit_from_scenario_vars", function()
    local function start(vars, options)
      local o = { leader_evacuation = true }
      for k, v in pairs(options or {}) do o[k] = v end
      kessel.setup{ map = { columns = 8, rows = 8, areas = { X = { "0808" }, E2 = { "0707" } } }, step = "soviet_movement", turn = 7,
        units = { leader("l", "0202", 2), pz("g1", "0302"), pz("g2", "0203"), pz("g3", "0101") }, options = o, vars = vars }
    end
    -- a limit of one, already used
    start{ evacuation_max = 1, evacuations = { { id = "x", turn = 3, returns = 4, back = true } } }
    local ok, r = kessel.act{ kind = "evacuate", leader = "l" }
    expect.refused(ok, r, "10.4", "limit is 1")
    -- the default limit (2) would have allowed it
    start{ evacuations = { { id = "x", turn = 3, returns = 4, back = true } } }
    expect.accepted(kessel.act{ kind = "evacuate", leader = "l" })
    -- the return area
    start{ evacuation_area = "E2" }
    local events = expect.accepted(kessel.act{ kind = "evacuate", leader = "l" })
    local said = false
    for _, e in ipairs(events) do if e.text and e.text:find("returns next turn at E2", 1, true) then said = true end end
    expect.truthy(said, "the note names the scenario's area")
    for _ = 1, 9 do expect.accepted(kessel.act{ kind = "end_phase" }) end
    expect.eq(kessel.game.turn(), 8)
    expect.eq(kessel.units.get("l").hex, "0707", "back in the scenario's area, not X")
    -- WBC09 #5 still switches it off
    start({ evacuation_area = "E2" }, { wbc09_05_no_leader_evacuation = true })
    ok, r = kessel.act{ kind = "evacuate", leader = "l" }
    expect.refused(ok, r, "WBC09 #5")
  end)

  -- Rule 10.4: with evacuation in effect, an `evacuation_area` the map lacks is a set-up error at
  -- the variable's line (the check hook's `var =`; `L.evacuation_problems` is what it returns).
  -- Before, it loaded, and an evacuated leader never came back. Off, or under WBC09 #5, the area is
  -- never read and nothing is said.
  kessel.test("case_10_4_an_evacuation_area_the_map_lacks_is_a_setup_error", function()
    local L = require("rules.leaders")
    local function problems(vars, options)
      kessel.setup{ map = { columns = 8, rows = 8, areas = { X = { "0808" }, E2 = { "0707" } } }, step = "soviet_movement", turn = 7,
        units = { leader("l", "0202", 2), pz("g1", "0302") }, options = options, vars = vars }
      return L.evacuation_problems()
    end
    local list = problems({ evacuation_area = "Q" }, { leader_evacuation = true })
    expect.eq(#list, 1)
    expect.eq(list[1].var, "evacuation_area")
    expect.truthy(list[1].message:find("leader_evacuation is on [10.4] but the map has no entry area Q (evacuation_area)", 1, true), list[1].message)
    -- the scenario's own area, and the default X, are on this map
    expect.eq(#problems({ evacuation_area = "E2" }, { leader_evacuation = true }), 0)
    expect.eq(#problems({}, { leader_evacuation = true }), 0)
    -- not in effect: not read
    expect.eq(#problems({ evacuation_area = "Q" }, {}), 0)
    expect.eq(#problems({ evacuation_area = "Q" }, { leader_evacuation = true, wbc09_05_no_leader_evacuation = true }), 0)
  end)
end


-- [10] Leaders -----------------------------------------------------------------------------------
do
  local B = require("testing.board8")
  local expect, K, Z, S, L, M, V, pz, rifle, leader, board, attack, choose, retreat, mv, note, end_phases =
    B.expect, B.K, B.Z, B.S, B.L, B.M, B.V, B.pz, B.rifle, B.leader, B.board, B.attack, B.choose, B.retreat, B.mv, B.note, B.end_phases

  -- Rule 10.2: a leader has MA 10, moves as motorized on roads (½ MP) and as infantry in forest (1).
  kessel.test("case_10_2_leader_movement_road_and_forest", function()
    board({ leader("l", "0203", 3) }, { step = "soviet_movement", bare = true, map = { columns = 12, rows = 8,
      terrain = { ["0603"] = "forest", ["0604"] = "forest" },
      links = { { kind = "road", path = { "0203", "0303", "0403", "0503" } } } } })
    expect.eq(M.ma(kessel.units.get("l")), 10)
    local ok, ev = mv("l", { "0303", "0403", "0503" })
    expect.accepted(ok, ev)
    expect.eq(ev[1].cost, 1.5, "½ MP a road hex")
    ok, ev = mv("l", { "0603", "0604" })
    expect.accepted(ok, ev)
    expect.eq(ev[1].cost, 2, "1 MP a forest hex")
  end)

  -- Rule 10.36: a leader adds to one attack only in a phase.
  kessel.test("case_10_36_leader_adds_to_one_attack_only", function()
    board({ rifle("s1", "0403", "4-4-6"), rifle("s2", "0403", "4-4-6"), leader("l", "0403", 2),
      pz("g1", "0303", "4-4-10"), pz("g2", "0402", "4-4-10") }, { step = "soviet_combat" })
    kessel.inject_dice{ 4 } -- 4 + 2 against 4: 1-1, roll 4: Eng
    local events = expect.accepted(attack({ "s1", "l" }, { "0303" }))
    expect.truthy(note(events, "attack 6 against defence 4"))
    expect.accepted(choose(nil, { "s1" })) -- Eng: the Soviet names the unit that loses the step [9.6]
    local ok, r = attack({ "s2", "l" }, { "0402" })
    expect.refused(ok, r, "9.1", "already attacked")
    kessel.inject_dice{ 4 }
    expect.accepted(attack({ "s2" }, { "0402" }))
  end)

  -- Rule 10.4 (optional): an evacuated leader returns in entry area X at the start of the next
  -- Soviet Movement Phase.
  kessel.test("case_10_4_evacuated_leader_returns_at_x_next_turn", function()
    kessel.setup{ map = { columns = 8, rows = 8, areas = { X = { "0808" } } }, step = "soviet_movement", turn = 7,
      units = { leader("l", "0202", 2), pz("g1", "0302"), pz("g2", "0203"), pz("g3", "0101") },
      options = { leader_evacuation = true } }
    expect.accepted(kessel.act{ kind = "evacuate", leader = "l" })
    expect.eq(kessel.units.get("l").location, "pending")
    local ok, r = kessel.act{ kind = "evacuate", leader = "l" }
    expect.refused(ok, r, "10.4")
    end_phases(9)
    expect.eq(kessel.game.turn(), 8)
    expect.eq(kessel.game.step().id, "soviet_movement")
    local l = kessel.units.get("l")
    expect.eq(l.location, "map")
    expect.eq(l.hex, "0808", "back at X")
  end)
end

-- Rule 10.36: the leaders' bonus notes, which go into the combat record, list the hexes in label
-- order whatever order the leaders come in (`pairs` order changes from run to run, and the log of
-- the same game must not).
kessel.test("case_10_36_bonus_notes_in_hex_order", function()
  setup{ leader("a", "0604", 1), leader("b", "0203", 2), leader("c", "0501", 1), leader("d", "0102", 3) }
  local leaders = {}
  for _, id in ipairs({ "a", "b", "c", "d" }) do leaders[#leaders + 1] = kessel.units.get(id) end
  local total, notes = L.bonus(leaders, { ["0604"] = 5, ["0203"] = 5, ["0501"] = 5, ["0102"] = 5 })
  expect.eq(total, 7)
  local hexes = {}
  for _, n in ipairs(notes) do hexes[#hexes + 1] = n:match("leaders in (%d+)") end
  expect.eq(table.concat(hexes, ","), "0102,0203,0501,0604")
end)
