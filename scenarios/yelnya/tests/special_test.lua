local expect = kessel.expect

-- Whether `kessel.legal()` offers an action of `kind` for `unit` whose path ends in `hex`.
local function offered(kind, unit, hex)
  for _, a in ipairs(kessel.legal()) do
    if a.kind == kind and a.units and a.units[1] == unit and a.path and a.path[#a.path] == hex then
      return true
    end
  end
  return false
end

local function rifle(id, at, face)
  return { id = id, side = "soviet", type = "rifle", faces = { face or "1-1-6" }, at = at }
end

local function leader(at)
  return { id = "ldr", side = "soviet", type = "leader", faces = { "0-3-10" }, attrs = { rating = 3 }, at = at }
end

-- The 10th Panzer Division whole in 3020, with `soviet` against it, on turn 1 in `step`.
local function at_yelnya(step, soviet)
  local units = {
    { id = "pz", side = "german", type = "panzer", faces = { "4-4-10", "2-2-10" }, formation = "10 Pz", at = "3020" },
    { id = "s1", side = "german", type = "rifle_mot", faces = { "2-2-10", "1-1-10" }, formation = "10 Pz", at = "3020" },
    { id = "s2", side = "german", type = "rifle_mot", faces = { "2-2-10", "1-1-10" }, formation = "10 Pz", at = "3020" },
  }
  for _, u in ipairs(soviet) do units[#units + 1] = u end
  kessel.setup{ turn = 1, step = step, run_step_start = true, units = units }
end

-- Rule Y1: no crossing at the Yelnya bridge on turns 1 and 2.
kessel.test("case_Y1_bridge_down_on_turn_1", function()
  kessel.act{ kind = "end_air_placement" }        -- the German's pre-game air markers [13.2]
  while kessel.game.step().id ~= "german_movement" do
    expect.accepted(kessel.act{ kind = "end_phase" })
  end
  local ok, reasons = kessel.act{ kind = "move", units = { "g-10pz-pz" }, path = { "3120" } }
  expect.refused(ok, reasons, "Y1", "bridge")

  -- The notes: nothing crosses. A move given by its destination alone (as the editor and the
  -- computer player give it) goes the cheapest way: the 86th Rifle Regiment at 3021 is two hexes
  -- from 3120, and the way is over the bridge from 3020. The rule read the path as written, so
  -- this move crossed, and the list of legal moves had it. The long way round, by 3121, is open.
  expect.eq(kessel.units.get("g-10pz-s2").hex, "3021")
  ok, reasons = kessel.validate{ kind = "move", units = { "g-10pz-s2" }, path = { "3120" } }
  expect.refused(ok, reasons, "Y1", "bridge")
  expect.falsy(offered("move", "g-10pz-s2", "3120"), "the crossing is not among the legal moves")
  expect.accepted(kessel.validate{ kind = "move", units = { "g-10pz-s2" }, path = { "3121", "3120" } })

  -- Nor by the other ways a unit changes hex: an overrun (whose units enter the hex they
  -- clear), an advance after combat, a retreat.
  at_yelnya("german_movement", { rifle("r", "3120"), leader("3319") })
  ok, reasons = kessel.validate{ kind = "overrun", units = { "pz", "s1", "s2" }, target = "3120" }
  expect.refused(ok, reasons, "Y1", "bridge")
  for _, a in ipairs(kessel.legal()) do
    expect.truthy(not (a.kind == "overrun" and a.target == "3120"), "no overrun over the bridge is listed")
  end

  at_yelnya("german_combat", { rifle("r", "3120"), leader("3319") })
  kessel.inject_dice{ 1 }
  expect.accepted(kessel.act{ kind = "attack", units = { "pz", "s1", "s2" }, targets = { "3120" } })
  ok, reasons = kessel.validate{ kind = "advance", units = { "pz" }, path = { "3120" } }
  expect.refused(ok, reasons, "Y1", "bridge")
  expect.falsy(offered("advance", "pz", "3120"), "no advance over the bridge is listed")
  expect.accepted(kessel.act{ kind = "advance", skip = true })

  kessel.setup{ turn = 1, step = "soviet_combat", units = {
    { id = "g", side = "german", type = "rifle_mot", faces = { "2-2-10", "1-1-10" }, formation = "10 Pz", at = "3020" },
    rifle("a1", "2920", "5-5-6"), rifle("a2", "2920", "5-5-6"), rifle("a3", "2920", "5-5-6"), leader("2920"),
  } }
  kessel.inject_dice{ 1 }
  expect.accepted(kessel.act{ kind = "attack", units = { "a1", "a2", "a3", "ldr" }, targets = { "3020" } })
  expect.accepted(kessel.act{ kind = "choose", choice = "retreat", units = { "g" } })
  ok, reasons = kessel.validate{ kind = "retreat", units = { "g" }, path = { "3120", "3219" } }
  expect.refused(ok, reasons, "Y1", "bridge")
  expect.falsy(offered("retreat", "g", "3219"), "no retreat over the bridge is listed")
  expect.accepted(kessel.act{ kind = "retreat", units = { "g" }, path = { "3021", "3022" } })
end)
