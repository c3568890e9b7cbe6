-- Round 20 of the outside check against the refit-phase text: a set-up turn of 9.620 that would
-- end with a Location over the stacking limit (9.62022, A5.1), and the set-up choices listed.
local T = require("testing.cg")
local expect = T.expect
local AI = require("rules.ai")

-- German Setup Areas A (C3 C4) and B (K5), both non-Isolated; the British D (H8). On Day II the
-- German sets up first [9.62023].
local AREAS = { hexes = { C3 = "german", C4 = "german", K5 = "german", H8 = "british" },
  areas = { german = { { id = "A", hexes = { "C3", "C4" } }, { id = "B", hexes = { "K5" } } },
    british = { { id = "D", hexes = { "H8" } } } } }

local function in_area(area) return { vars = { reph = { status = "retained", area = area } } } end

-- C3 holds four German squads and C4 five leaders, each a Location over the limit (three squads,
-- four SMC) with room in the other hex of area A; K5, area B's only hex, holds four squads
local function overstacked_position()
  local units = { T.squad("b1", "british", "6-4-8", "H8", in_area("D")) }
  for i = 1, 4 do
    units[#units + 1] = T.squad("g" .. i, "german", "4-6-7", "C3", in_area("A"))
    units[#units + 1] = T.squad("k" .. i, "german", "4-6-7", "K5", in_area("B"))
  end
  for i = 1, 5 do units[#units + 1] = T.leader("l" .. i, "german", "8-0", "C4", in_area("A")) end
  T.setup{ map = { rows = 10 }, step = "commencement", vars = { date = "day_ii", setup_areas = AREAS }, units = units }
end

local function finish_offered(side)
  for _, a in ipairs(kessel.legal(side)) do if a.kind == "finish_setup" then return true end end
  return false
end

-- [9.62022] [A5.1] the German's set-up turn does not end while a unit of an overstacked Location
-- may be set up where there is room: the refusal names each such Location and its count (K5,
-- which no unit of it can leave, is not among them), and `finish_setup` is not offered. Once C3
-- and C4 are within the limit the turn ends, and K5 is noted as staying over it. Before, the
-- German ended its turn at once with C3, C4 and K5 all over the limit.
kessel.test("case_9.62022_a_set_up_turn_does_not_end_over_the_stacking_limit", function()
  overstacked_position()
  local ok, r = kessel.act{ kind = "finish_setup", side = "german" }
  local why = expect.refused(ok, r, "9.62022", "C3 holds 4 squad-equivalents (the limit 3); C4 holds 5 SMC (the limit 4); set_up_retained")
  expect.falsy(why.message:find("K5", 1, true), "K5 has no unit that can go to a Location with room: " .. why.message)
  expect.falsy(finish_offered("german"), "finish_setup is not offered while C3 can be relieved")
  expect.accepted(kessel.act{ kind = "set_up_retained", side = "german", unit = "g4", hex = "C4" })
  ok, r = kessel.act{ kind = "finish_setup", side = "german" }
  why = expect.refused(ok, r, "9.62022", "C4 holds 5 SMC (the limit 4)")
  expect.falsy(why.message:find("C3 holds", 1, true), "C3 is within the limit now: " .. why.message)
  -- a leader to C3 (no SMC there) ends the excess
  expect.accepted(kessel.act{ kind = "set_up_retained", side = "german", unit = "l5", hex = "C3" })
  expect.truthy(finish_offered("german"))
  local ev = expect.accepted(kessel.act{ kind = "finish_setup", side = "german" })
  T.has_note(ev, "K5 holds 4 squad-equivalents (the limit 3) stays over the stacking limit")
  T.replays()
end)

-- the computer player ends such a turn too: it sets up a unit of the overstacked Location where
-- there is room, and the step comes to its end (before the rule, it ended the turn at once; with
-- the rule and no such move, `finish_setup` was its only way on and the game stood still)
kessel.test("case_9.62022_the_computer_player_relieves_an_overstacked_location", function()
  overstacked_position()
  local n = 0
  local S = require("rules.sequence")
  while not kessel.game.finished() and S.current() and S.current().id == "commencement" do
    local a = AI.choose(function(kind)
      local out = {}
      for _, x in ipairs(kessel.legal()) do if x.kind == kind then out[#out + 1] = x end end
      return out
    end)
    if not a then
      local kinds = {}
      for _, x in ipairs(kessel.legal()) do kinds[#kinds + 1] = x.kind end
      error("the AI has nothing to do; listed: " .. table.concat(kinds, ", ") .. "; turn " .. tostring(kessel.game.var("setup_turn")))
    end
    expect.accepted(kessel.act(a))
    n = n + 1
    expect.truthy(n < 40, "the set-up comes to an end")
  end
  local hs, smc = T.C.stack_count("german", "C3", 0)
  expect.eq(T.C.over_limit(hs, smc), nil, "C3 within the limit")
  hs, smc = T.C.stack_count("german", "C4", 0)
  expect.eq(T.C.over_limit(hs, smc), nil, "C4 within the limit")
  T.replays()
end)

-- the set-up choices as the listing made them before it was made cheaper: each unit of the side
-- on the map by each ground-level Location of its area(s), kept when `validate_set_up_retained`
-- passes it; each unit on the map kept when `validate_hip` passes it
local function listed_one_by_one(side)
  local M = require("rules.commencement")
  local out = {}
  for _, u in ipairs(kessel.units.all{ side = side }) do
    if u.location == "map" then
      local why, area = M.retained_barrier(u)
      if not why then
        for _, h in ipairs(M.setup_hexes(u, area)) do
          local a = { kind = "set_up_retained", side = side, unit = u.id, hex = h }
          if M.validate_set_up_retained(a) == nil then out[#out + 1] = a.unit .. ">" .. a.hex end
        end
      end
    end
  end
  for _, u in ipairs(T.C.on_map(side)) do
    if M.validate_hip({ kind = "set_up_hip", side = side, unit = u.id }) == nil then out[#out + 1] = u.id .. " hip" end
  end
  return out
end

local function listed(side)
  local out, hip = {}, {}
  for _, a in ipairs(kessel.legal(side)) do
    if a.kind == "set_up_retained" then out[#out + 1] = a.unit .. ">" .. a.hex end
    if a.kind == "set_up_hip" then hip[#hip + 1] = a.unit .. " hip" end
    expect.truthy(a.kind ~= "repossess", "no repossess outside 9.607")
  end
  for _, x in ipairs(hip) do out[#out + 1] = x end
  return out
end

-- [9.62022] [9.6152] Note 1 and 3 [9.619] note b [A5.1]: the set-up listing (`set_up_retained`,
-- `set_up_hip`) is the same, choice for choice and in the same order, as each unit tried at each
-- Location of its area(s) by the validation alone — Dawn's reinforcements free to go to any
-- non-Isolated British area, its Guns to hexes numbered 20 or more, a German Location at the limit,
-- another upstairs, HIP bought — in each set-up turn; and the listing checks the step (9.620's
-- `S.only_in`) a few times, not once a choice: it did so for every unit and Location, the most of
-- a random player's time at set-up (a Night II game took over 300 s).
kessel.test("case_9.62022_the_set_up_listing_is_the_same_and_checks_the_step_once", function()
  local areas = { hexes = { C3 = "british", C4 = "british", E20 = "british", C19 = "british", C21 = "british", H22 = "british",
      K5 = "german", K6 = "german", K7 = "german" },
    areas = { british = { { id = "A", hexes = { "C3", "C4", "E20" } }, { id = "B", hexes = { "C19", "C21" } },
      { id = "C", hexes = { "H22" }, isolated = true } },
      german = { { id = "A", hexes = { "K5", "K6", "K7" } } } } }
  local units = { T.squad("own", "british", "6-4-8", "C4", in_area("A")), T.squad("iso", "british", "6-4-8", "H22", { vars = { isolated = true, reph = { status = "isolated", area = "C" } } }) }
  for i = 1, 3 do units[#units + 1] = T.squad("g" .. i, "german", "4-6-7", "K5", in_area("A")) end
  units[#units + 1] = T.hs("gh", "german", "4-6-7", "K6", in_area("A"))
  units[#units + 1] = T.leader("gl", "german", "8-1", "K6", { vars = { level = 1, reph = { status = "retained", area = "A" } } })
  T.setup{ map = { rows = 24, terrain = { K6 = "stone_building" } }, step = "reinforcements",
    vars = { date = "dawn", setup_areas = areas, fortifications_british = { { item = "hip_squad", count = 1, date = "dawn", cost = 1 } } },
    units = units }
  local S = require("rules.sequence")
  for _ = 1, 30 do
    if S.current().id == "commencement" then break end
    T.resolve()
  end
  expect.eq(S.current().id, "commencement")
  local M = require("rules.commencement")
  local seen, total = 0, 0
  while M.turn() do
    local t = M.turn()
    local want = listed_one_by_one(t.side)
    local steps, real = 0, S.only_in
    S.only_in = function(...) steps = steps + 1; return real(...) end
    local ok, got = pcall(listed, t.side)
    S.only_in = real
    if not ok then error(got) end
    expect.eq(table.concat(got, " "), table.concat(want, " "), "the " .. t.side .. "'s choices")
    total = total + #got
    -- HIP is still checked a unit (validate_hip); a Location of a unit's area is not
    local bound = #T.C.on_map(t.side) + 8
    expect.truthy(steps <= bound, string.format("the step checked %d times for %d choices (at most %d)", steps, #got, bound))
    seen = seen + 1
    expect.accepted(kessel.act{ kind = "finish_setup", side = t.side })
  end
  expect.eq(seen, 3, "the British Isolated turn and both sides' non-Isolated turns")
  expect.truthy(total >= 30, "listings with choices to compare: " .. total)
end)
