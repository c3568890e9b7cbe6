-- Situations from the reference material, eighth tester pass (round 7): the WBC 2009
-- interpretations with their options on and off, the terrain effects chart, the combat results
-- played through, and the data against pgg-facts.md. Each test works out by hand what the cited
-- cases demand and checks what the engine does.
local expect = kessel.expect
local B = require("testing.board10")

-- [9.73] [9.6] FAQ 3, WBC09 #3: a unit retreated onto friends dies when the hex it retreated onto
-- is attacked and suffers a loss or retreat. A hex the phasing player attacks *from* is not
-- attacked: an A1, A2 or Ae falls on the attacking units [9.6], and a unit that retreated there
-- earlier in the phase took no part in the new attack. Board: 1-1 panzer g1 in 0303, boxed in by
-- lakes but for 0203 (German 4-4 panzer g2) and 0403 (Soviet 9-9 rifle). g1 attacks at 1-3, roll
-- 1: A1, it retreats onto g2. Then g2 attacks the rifle in 0103 at 1-1, roll 5: A1.
-- Expected: g2 loses the step itself (flips to 2-2) or retreats alone; g1 is untouched in both
-- profiles. Ae from the same hex eliminates g2 and leaves g1. (The engine used to eliminate g1 and
-- count its two steps for g2's loss, so g2 lost nothing.)
local function rider_board(profile_wbc)
  local lakes = { ["0302"] = "lake", ["0304"] = "lake", ["0402"] = "lake", ["0202"] = "lake" }
  B.setup({ B.pz("g1", "0303", "1-1-10"), B.pz("g2", "0203", "4-4-10"), B.rifle("s1", "0403", "9-9-6"),
    B.rifle("s2", "0103", "1-4-6"), B.leader("l", "0102", 5) },
    { map = { columns = 10, rows = 10, terrain = lakes },
      options = profile_wbc and { wbc09_03_retreated_units_die_first = true } or nil })
  kessel.inject_dice{ 1 }
  local ev = expect.accepted(kessel.act{ kind = "attack", units = { "g1" }, targets = { "0403" } })
  expect.truthy(B.note(ev, "odds 1-3, roll 1: A1"), B.all_notes(ev))
  expect.accepted(kessel.act{ kind = "choose", choice = "retreat" })
  expect.accepted(kessel.act{ kind = "retreat", units = { "g1" }, path = { "0203" } })
  if B.pending() then expect.accepted(kessel.act{ kind = "advance", skip = true }) end
  expect.truthy(kessel.units.get("g1").flags.retreated_onto, "g1 retreated onto g2's hex")
end

kessel.test("case_9_73_a_unit_retreated_onto_an_attacking_hex_is_not_hit_by_the_attackers_result", function()
  for _, wbc in ipairs{ false, true } do
    local label = wbc and " (WBC09 #3 on)" or " (standard)"
    rider_board(wbc)
    kessel.inject_dice{ 5 }
    local ev = expect.accepted(kessel.act{ kind = "attack", units = { "g2" }, targets = { "0103" } })
    expect.truthy(B.note(ev, "attack 4 against defence 4 in 0103: odds 1-1, roll 5: A1"), B.all_notes(ev))
    local p = B.pending()
    expect.eq(p.kind, "loss_or_retreat")
    expect.falsy(p.prompt:find("retreated onto", 1, true), "no retreated unit pays for the attacker's loss" .. label)
    expect.accepted(kessel.act{ kind = "choose", choice = "loss" })
    expect.eq(B.where("g1"), "0203", "g1 took no part in g2's attack" .. label)
    expect.eq(kessel.units.get("g2").steps_left, 1, "g2 takes its own step loss" .. label)
    expect.eq(kessel.units.get("g2").attack, 2, "g2 flipped to 2-2" .. label)
  end
  -- Ae from the hex: the attacking unit dies, the unit retreated there stays
  rider_board(false)
  kessel.inject_dice{ 6 }
  local ev = expect.accepted(kessel.act{ kind = "attack", units = { "g2" }, targets = { "0103" } })
  expect.truthy(B.note(ev, "odds 1-1, roll 6: A2"), B.all_notes(ev))
  expect.accepted(kessel.act{ kind = "choose", choice = "retreat" })
  local paths = {}
  for _, a in ipairs(kessel.legal("soviet")) do
    if a.kind == "retreat" then paths[#paths + 1] = table.concat(a.units, ",") .. ":" .. table.concat(a.path, ",") end
  end
  expect.truthy(#paths > 0, "the Soviet picks g2's path")
  for _, s in ipairs(paths) do expect.eq(s:sub(1, 3), "g2:", "only the attacking unit retreats: " .. s) end
  expect.eq(B.where("g1"), "0203", "g1 stays: the retreat of the attacking unit is not its result")
end)

-- [6.4] [6.5] On turns 1-6 no Soviet unit may enter columns 01-02, and overrunners who clear the
-- hex must enter it. A Soviet overrun into column 02 could not end as [6.5] demands, so it is
-- refused, and not listed among the Soviet's actions; from turn 7 it is allowed and the
-- overrunners enter. Board: a flipped German panzer (1-1-10) in 0203, two 8-8-6 rifles in 0303 with
-- their leader (rating 5) in 0304; 16 halved is 8 against 1 (8-1), roll 1: De. (The engine used to
-- accept it on turn 5 and put both rifles in 0203.)
kessel.test("case_6_4_no_soviet_overrun_into_columns_01_02_on_turns_1_to_6", function()
  local function board(turn)
    B.setup({ B.pz("g", "0203", "1-1-10"), B.rifle("a", "0303", "8-8-6"), B.rifle("b", "0303", "8-8-6"),
      B.leader("l", "0304", 5) }, { step = "soviet_movement", turn = turn })
  end
  board(5)
  local ok, why = kessel.act{ kind = "overrun", units = { "a", "b" }, target = "0203" }
  expect.refused(ok, why, "6.4", "overrunners who clear 0203 must enter it, and on turns 1-6 no Soviet unit may enter columns 01-02")
  for _, a in ipairs(kessel.legal("soviet")) do
    expect.truthy(a.kind ~= "overrun", "no overrun into column 02 is listed: " .. tostring(a.target))
  end
  expect.eq(B.where("a"), "0303")
  board(7)
  kessel.inject_dice{ 1 }
  local events = expect.accepted(kessel.act{ kind = "overrun", units = { "a", "b" }, target = "0203" })
  expect.truthy(B.note(events, "odds 8-1, roll 1: De"), B.all_notes(events))
  expect.eq(B.where("a"), "0203", "from turn 7 the cleared hex is entered")
  expect.eq(B.where("b"), "0203")
end)
