local expect = kessel.expect

-- Rule Y1: no crossing at the Yelnya bridge on turns 1 and 2.
kessel.test("case_Y1_bridge_down_on_turn_1", function()
  kessel.act{ kind = "end_air_placement" }        -- the German's pre-game air markers [13.2]
  while kessel.game.step().id ~= "german_movement" do
    expect.accepted(kessel.act{ kind = "end_phase" })
  end
  local ok, reasons = kessel.act{ kind = "move", units = { "g-10pz-pz" }, path = { "3120" } }
  expect.refused(ok, reasons, "Y1", "bridge")
end)

-- The German Initial Movement Phase of turn 1, from the scenario's set-up.
local function german_movement_of_turn_1()
  kessel.act{ kind = "end_air_placement" }
  while kessel.game.step().id ~= "german_movement" do
    expect.accepted(kessel.act{ kind = "end_phase" })
  end
end

-- Whether `kessel.legal()` offers an action of `kind` for `unit` whose path ends in `hex`.
local function offered(kind, unit, hex)
  for _, a in ipairs(kessel.legal()) do
    if a.kind == kind and a.units and a.units[1] == unit and a.path and a.path[#a.path] == hex then return true end
  end
  return false
end

-- Rule Y1 and the notes: nothing crosses the bridge on turns 1 and 2. A move given by its
-- destination alone (as the editor and the computer player give it) goes the cheapest way: the
-- 86th Rifle Regiment at 3021 is two hexes from 3120, and the way is over the bridge from 3020.
-- The rule read the path as written, so this move crossed, and the list of legal moves had it.
kessel.test("case_Y1_a_move_given_by_its_destination_does_not_cross_the_bridge", function()
  german_movement_of_turn_1()
  expect.eq(kessel.units.get("g-10pz-s2").hex, "3021")
  local ok, reasons = kessel.validate{ kind = "move", units = { "g-10pz-s2" }, path = { "3120" } }
  expect.refused(ok, reasons, "Y1", "bridge")
  expect.falsy(offered("move", "g-10pz-s2", "3120"), "the crossing is not among the legal moves")
  -- the long way round, by 3121, is open
  expect.accepted(kessel.validate{ kind = "move", units = { "g-10pz-s2" }, path = { "3121", "3120" } })
end)

local function position(turn, step, soviet)
  local units = {
    { id = "pz", side = "german", type = "panzer", faces = { "4-4-10", "2-2-10" }, formation = "10 Pz", at = "3020" },
    { id = "s1", side = "german", type = "rifle_mot", faces = { "2-2-10", "1-1-10" }, formation = "10 Pz", at = "3020" },
    { id = "s2", side = "german", type = "rifle_mot", faces = { "2-2-10", "1-1-10" }, formation = "10 Pz", at = "3020" },
  }
  for _, u in ipairs(soviet) do units[#units + 1] = u end
  kessel.setup{ turn = turn, step = step, run_step_start = true, units = units }
end

local function rifle(id, at, faces) return { id = id, side = "soviet", type = "rifle", faces = { faces or "1-1-6" }, at = at } end
local function leader(at) return { id = "ldr", side = "soviet", type = "leader", faces = { "0-3-10" }, attrs = { rating = 3 }, at = at } end

-- Y1 holds for the other ways a unit changes hex: an overrun (whose units enter the hex they
-- clear), an advance after combat and a retreat. On turn 3 the bridge is open to them again.
kessel.test("case_Y1_no_overrun_across_the_bridge_on_turn_1_and_one_on_turn_3", function()
  for _, turn in ipairs{ 1, 3 } do
    position(turn, "german_movement", { rifle("r", "3120"), leader("3319") })
    local ok, reasons = kessel.validate{ kind = "overrun", units = { "pz", "s1", "s2" }, target = "3120" }
    if turn == 1 then
      expect.refused(ok, reasons, "Y1", "bridge")
      for _, a in ipairs(kessel.legal()) do
        expect.truthy(not (a.kind == "overrun" and a.target == "3120"), "no overrun over the bridge is listed")
      end
    else
      expect.accepted(ok, reasons)
    end
  end
end)

kessel.test("case_Y1_no_advance_across_the_bridge", function()
  position(1, "german_combat", { rifle("r", "3120"), leader("3319") })
  kessel.inject_dice{ 1 }
  expect.accepted(kessel.act{ kind = "attack", units = { "pz", "s1", "s2" }, targets = { "3120" } })
  local ok, reasons = kessel.validate{ kind = "advance", units = { "pz" }, path = { "3120" } }
  expect.refused(ok, reasons, "Y1", "bridge")
  expect.falsy(offered("advance", "pz", "3120"), "no advance over the bridge is listed")
  expect.accepted(kessel.act{ kind = "advance", skip = true })
end)

kessel.test("case_Y1_no_retreat_across_the_bridge", function()
  kessel.setup{ turn = 2, step = "soviet_combat", units = {
    { id = "g", side = "german", type = "rifle_mot", faces = { "2-2-10", "1-1-10" }, formation = "10 Pz", at = "3020" },
    rifle("a1", "2920", "5-5-6"), rifle("a2", "2920", "5-5-6"), rifle("a3", "2920", "5-5-6"), leader("2920"),
  } }
  kessel.inject_dice{ 1 }
  expect.accepted(kessel.act{ kind = "attack", units = { "a1", "a2", "a3", "ldr" }, targets = { "3020" } })
  expect.accepted(kessel.act{ kind = "choose", choice = "retreat", units = { "g" } })
  local ok, reasons = kessel.validate{ kind = "retreat", units = { "g" }, path = { "3120", "3219" } }
  expect.refused(ok, reasons, "Y1", "bridge")
  expect.falsy(offered("retreat", "g", "3219"), "no retreat over the bridge is listed")
  expect.accepted(kessel.act{ kind = "retreat", units = { "g" }, path = { "3021", "3022" } })
end)
