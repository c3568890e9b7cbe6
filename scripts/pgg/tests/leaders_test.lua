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
