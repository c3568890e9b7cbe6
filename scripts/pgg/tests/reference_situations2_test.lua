-- Situations from the reference material, second tester pass: supply, leaders, untried units,
-- reinforcements, victory and the options. Each test works out by hand what the cited cases demand
-- and checks what the engine does and which case it names. 10x10 inline map unless said otherwise
-- (odd columns: N, NE = c+1 r-1, SE = c+1 r, S, SW = c-1 r, NW = c-1 r-1; even columns:
-- NE = c+1 r, SE = c+1 r+1, SW = c-1 r+1, NW = c-1 r).
local expect = kessel.expect

local function pz(id, at, face, extra)
  local u = { id = id, name = id, side = "german", type = "panzer", formation = "F" .. id, faces = { face or "4-4-10", "2-2-10" }, at = at }
  for k, v in pairs(extra or {}) do u[k] = v end
  return u
end
local function rifle(id, at, face, extra)
  local u = { id = id, name = id, side = "soviet", type = "rifle", faces = { face or "2-2-6" }, at = at }
  for k, v in pairs(extra or {}) do u[k] = v end
  return u
end
local function leader(id, at, rating, extra)
  local u = { id = id, name = id, side = "soviet", type = "leader", faces = { "0-" .. rating .. "-10" }, attrs = { rating = rating }, at = at }
  for k, v in pairs(extra or {}) do u[k] = v end
  return u
end
local function setup(units, extra)
  local spec = { map = { columns = 10, rows = 10 }, units = units, step = "german_combat", turn = 7 }
  for k, v in pairs(extra or {}) do spec[k] = v end
  kessel.setup(spec)
end
local function note(events, text)
  for _, e in ipairs(events or {}) do if e.text and e.text:find(text, 1, true) then return e end end
  return nil
end
local function all_notes(events)
  local t = {}
  for _, e in ipairs(events or {}) do if e.text then t[#t + 1] = "[" .. tostring(e.rule) .. "] " .. e.text end end
  return table.concat(t, " | ")
end
local function where(id) local u = kessel.units.get(id); return u.location == "map" and u.hex or u.location end

-- Reading (a): [9.5] Eng means both sides stay where they are and nobody advances, and WBC09 #7
-- names Eng among the results after which overrunners who cleared the hex stay in the hex they
-- came from. 8 halved is 4 against a lone 1-1-6: 4-1, roll 6: Eng. The rifle loses its only step
-- (the hex is cleared), the panzer flips; it stays in 0303 and stops [6.5], in both profiles.
kessel.test("case_6_5_eng_that_clears_the_hex_leaves_the_overrunners_in_place", function()
  for _, wbc in ipairs{ false, true } do
    setup({ pz("g", "0303", "8-8-10"), rifle("s", "0403", "1-1-6"), leader("l", "0606", 5) },
      { step = "german_movement", options = { wbc09_07_overrun_loss_stays_put = wbc } })
    kessel.inject_dice{ 6 }
    local events = expect.accepted(kessel.act{ kind = "overrun", units = { "g" }, target = "0403" })
    expect.truthy(note(events, "odds 4-1, roll 6: Eng"), all_notes(events))
    expect.eq(where("s"), "eliminated", "the lone rifle loses its step")
    expect.eq(where("g"), "0303", "Eng: the overrunners remain in place [9.5] (wbc = " .. tostring(wbc) .. ")")
    expect.truthy(kessel.units.get("g").flags.stopped, "the overrun failed: the panzer stops [6.5]")
    expect.truthy(note(events, "remain in"), all_notes(events))
    local ok, r = kessel.act{ kind = "move", units = { "g" }, path = { "0403" } }
    expect.refused(ok, r, "6.5")
  end
end)

-- Reading (c): WBC09 #1b names one result, D1/A1 against a single defender who is eliminated. A
-- D2/A1 against a single defender who takes two losses (or dies) is not that result: the attacker
-- may retreat into the emptied hex [FAQ 2] whatever the option says. 12 against 3 is 4-1, roll 3:
-- D2/A1. The rifle takes the loss (eliminated); the panzer retreats one hex into 0403.
kessel.test("case_wbc09_01b_only_after_d1_a1", function()
  for _, wbc in ipairs{ false, true } do
    setup({ pz("g", "0303", "12-12-10"), rifle("s", "0403", "3-3-6"), leader("l", "0606", 5) },
      { options = { wbc09_01b_no_retreat_into_lone_defender_hex = wbc } })
    kessel.inject_dice{ 3 }
    local events = expect.accepted(kessel.act{ kind = "attack", units = { "g" }, targets = { "0403" } })
    expect.truthy(note(events, "odds 4-1, roll 3: D2/A1"), all_notes(events))
    expect.accepted(kessel.act{ kind = "choose", choice = "loss" })
    expect.eq(where("s"), "eliminated")
    expect.accepted(kessel.act{ kind = "choose", choice = "retreat" })
    expect.accepted(kessel.act{ kind = "retreat", units = { "g" }, path = { "0403" } })
    expect.eq(where("g"), "0403", "wbc = " .. tostring(wbc))
  end
  -- and D1/A1 (12 against 4 is 3-1, roll 4) still forbids it under the option
  setup({ pz("g", "0303", "12-12-10"), rifle("s", "0403", "4-4-6"), leader("l", "0606", 5) },
    { options = { wbc09_01b_no_retreat_into_lone_defender_hex = true } })
  kessel.inject_dice{ 4 }
  local events = expect.accepted(kessel.act{ kind = "attack", units = { "g" }, targets = { "0403" } })
  expect.truthy(note(events, "odds 3-1, roll 4: D1/A1"), all_notes(events))
  expect.accepted(kessel.act{ kind = "choose", choice = "loss" })
  expect.accepted(kessel.act{ kind = "choose", choice = "retreat" })
  local ok, r = kessel.act{ kind = "retreat", units = { "g" }, path = { "0403" } }
  expect.refused(ok, r, "WBC09 #1b")
end)

-- Reading (b): [9.8] the two-hex advance is for a combat whose defenders were all eliminated ("if
-- all enemy units eliminated"). g (0304) attacks 0403 (a 1-1-6) and 0404 (two 2-2-6) together
-- [9.23]: 12 against 5 is 2-1, roll 2: D1. The defender takes the step with a: 0403 is empty but
-- b and c survive, so the victor may enter 0403 and go no further.
kessel.test("case_9_8_two_hex_advance_only_when_every_defender_of_the_combat_died", function()
  setup({ pz("g", "0304", "12-12-10"), rifle("a", "0403", "1-1-6"), rifle("b", "0404"), rifle("c", "0404"), leader("l", "0606", 5) })
  kessel.inject_dice{ 2 }
  local events = expect.accepted(kessel.act{ kind = "attack", units = { "g" }, targets = { "0403", "0404" } })
  expect.truthy(note(events, "odds 2-1, roll 2: D1"), all_notes(events))
  expect.accepted(kessel.act{ kind = "choose", choice = "loss", units = { "a" } })
  expect.eq(where("a"), "eliminated")
  local p = kessel.game.var("pending")
  expect.eq(p and p.kind, "advance", "0403 is vacated: the attacker may advance into it")
  local ok, r = kessel.act{ kind = "advance", units = { "g" }, path = { "0403", "0503" } }
  expect.refused(ok, r, "9.8")
  expect.accepted(kessel.act{ kind = "advance", units = { "g" }, path = { "0403" } })
  expect.eq(where("g"), "0403")
  -- every defender dead (6-1, roll 1: De): two hexes, the first the defenders' hex
  setup({ pz("g", "0304", "12-12-10"), rifle("a", "0403", "1-1-6"), leader("l", "0707", 5) })
  kessel.inject_dice{ 1 }
  events = expect.accepted(kessel.act{ kind = "attack", units = { "g" }, targets = { "0403" } })
  expect.truthy(note(events, "roll 1: De"), all_notes(events))
  expect.accepted(kessel.act{ kind = "advance", units = { "g" }, path = { "0403", "0503" } })
  expect.eq(where("g"), "0503")
end)
