-- Round 18 of the outside check against the refit-phase text: 9.606's exception for an Isolated,
-- Overstacked unit, and the per-side records of a side the CG does not have.
local T = require("testing.cg")
local expect = T.expect

local function problems()
  local S = require("rules.sequence")
  local out = {}
  for _, p in ipairs(S.record_problems()) do out[#out + 1] = type(p) == "table" and p.message or tostring(p) end
  return table.concat(out, "\n")
end

-- [9.619] [11.616] [11.6114] [11.617] A record kept under a side's name (`fortifications_<side>`,
-- `cpp_<side>`, `fpp_<side>`) or keyed by side (`reph_cvp_lost`, `promoted`, `elr_scenarios`)
-- that names a side the CG does not have is read by no rule: refused at check, naming the field.
-- Before, RB's `fortifications_british` (and PB's `fortifications_russian`) passed the check, the
-- side's purchases silently dropped.
kessel.test("case_9.619_11.616_a_record_of_a_side_the_cg_does_not_have_is_refused", function()
  T.setup{ module = "rb", step = "markers", vars = { date = "18oct",
    fortifications_british = { { item = "foxhole_1s", date = "18oct" } }, cpp_british = 3,
    fortifications_german = { { item = "foxhole_1s", date = "18oct" } }, reph_cvp_lost = { british = 2 } } }
  local text = problems()
  expect.truthy(text:find("[9.619] scenario var `fortifications_british` is the record of `british`, not a side of the RB campaign game (german, russian)", 1, true), text)
  expect.truthy(text:find("[11.616] scenario var `cpp_british` is the record of `british`, not a side of the RB campaign game", 1, true), text)
  expect.truthy(text:find("[11.616] scenario var `reph_cvp_lost` names `british`, not a side of the RB campaign game", 1, true), text)
  expect.falsy(text:find("fortifications_german", 1, true), text)
  T.setup{ module = "pb", step = "fortifications", vars = { date = "day_i",
    fortifications_russian = { { item = "foxhole_1s", date = "day_i" } }, fpp_russian = 2, promoted = { russian = "day_i" } } }
  text = problems()
  expect.truthy(text:find("[9.619] scenario var `fortifications_russian` is the record of `russian`, not a side of the PB campaign game (german, british)", 1, true), text)
  expect.truthy(text:find("[9.619] scenario var `fpp_russian` is the record of `russian`", 1, true), text)
  expect.truthy(text:find("[11.6114] scenario var `promoted` names `russian`", 1, true), text)
  T.setup{ module = "pb", step = "fortifications", vars = { date = "day_i",
    fortifications_british = { { item = "foxhole_1s", date = "day_i" } }, fpp_german = 2 } }
  expect.eq(problems(), "")
end)

-- a PB position at 9.606 (Day I): British Setup Area B (D8 D9 D10) Isolated, C (F8) not, German A
-- (H8 H9); `units` the British Isolated in B where the CG scenario ended
local function isolated_b(units, hexes)
  local iso = { vars = { isolated = true, reph = { status = "isolated", area = "B", why = "9.6052" } } }
  local list = {}
  for _, x in ipairs(units) do
    local id, at, kind = x[1], x[2], x[3]
    list[#list + 1] = kind == "leader" and T.leader(id, "british", "8-0", at, T.C.copy(iso)) or T.squad(id, "british", "6-4-8", at, T.C.copy(iso))
  end
  hexes = hexes or { "D8", "D9", "D10" }
  local classes = { E8 = "ut", F8 = "british", H8 = "german", H9 = "german" }
  for _, h in ipairs(hexes) do classes[h] = "british" end
  T.setup{ step = "escape", units = list, vars = { date = "day_i",
    setup_areas = { hexes = classes, areas = { british = { { id = "B", hexes = hexes, isolated = true }, { id = "C", hexes = { "F8" } } },
      german = { { id = "A", hexes = { "H8", "H9" } } } } } } }
end

-- [9.606 EXC] [A5.1] An Isolated unit may stay, but each Isolated unit of an Overstacked Location
-- must attempt Escape or be moved freely to another Location of the same Isolated Setup Area,
-- until the Location is not Overstacked: the choices name the Location, `move_overstacked` moves a
-- unit within the area (never over the limit, never out of it), and a unit of a Location within
-- the limit is refused. RB's 11.6063 has no such exception. Before, the units stayed Overstacked.
kessel.test("case_9.606_an_isolated_overstacked_unit_must_leave_its_location", function()
  isolated_b({ { "b1", "D8" }, { "b2", "D8" }, { "b3", "D8" }, { "b4", "D8" }, { "c1", "D9" }, { "c2", "D9" }, { "c3", "D9" } })
  local over = 0
  for _, a in ipairs(kessel.legal("british")) do
    if a.kind == "escape" and a.units[1]:match("^b") then
      expect.eq(a.overstacked, "D8", a.units[1] .. " is in an Overstacked Location")
      over = over + 1
    elseif a.kind == "escape" then
      expect.eq(a.overstacked, nil, a.units[1] .. " is within the limit")
    end
  end
  expect.eq(over, 4, "each Isolated unit of D8 is offered its Escape, naming the Location")
  expect.eq(kessel.queries.ask("reph_unit", { unit = "b2" }).overstacked, true)
  expect.eq(kessel.queries.ask("reph_unit", { unit = "c1" }).overstacked, false)
  local ok, r = kessel.act{ kind = "move_overstacked", side = "british", unit = "b1", hex = "D9" }
  expect.refused(ok, r, "9.62022", "D9 would hold 4 squad-equivalents of the british, over the stacking limit of 3 squads")
  ok, r = kessel.act{ kind = "move_overstacked", side = "british", unit = "b1", hex = "F8" }
  expect.refused(ok, r, "9.606", "F8 is not in Isolated Setup Area B, which b1 is in: it may be moved within that area only (EXC)")
  ok, r = kessel.act{ kind = "move_overstacked", side = "british", unit = "c1", hex = "D10" }
  expect.refused(ok, r, "9.606", "c1 is not an Isolated unit of an Overstacked Location (D9)")
  local ev = expect.accepted(kessel.act{ kind = "move_overstacked", side = "british", unit = "b1", hex = "D10" })
  T.has_note(ev, "[9.606] b1 is moved freely from D8, Overstacked, to D10, in its Isolated Setup Area B (EXC)")
  expect.eq(T.unit("b1").hex, "D10")
  ok, r = kessel.act{ kind = "move_overstacked", side = "british", unit = "b2", hex = "D10" }
  expect.refused(ok, r, "9.606", "b2 is not an Isolated unit of an Overstacked Location (D8)")
  -- within the limit the step ends with every unit where it is: an Isolated unit may stay
  T.resolve()
  expect.eq(T.unit("b2").hex, "D8")
  T.setup{ module = "rb", step = "escape", vars = { date = "18oct" }, units = { T.squad("r1", "russian", "4-4-7", "C5", { vars = { isolated = true } }) } }
  ok, r = kessel.act{ kind = "move_overstacked", side = "russian", unit = "r1", hex = "C6" }
  expect.refused(ok, r, "11.6063", "RB's Escape from Isolation has no Overstacked exception")
end)

-- [9.606 EXC] A Location still Overstacked when the step ends is brought to the limit for its
-- owner: a unit is moved to a Location of its area with room, else it attempts Escape (a move of
-- its own area being the owner's free choice; the ruleset's pick, the last unit by id).
kessel.test("case_9.606_an_overstacked_location_is_brought_to_the_limit_at_the_end_of_the_step", function()
  isolated_b({ { "b1", "D8" }, { "b2", "D8" }, { "b3", "D8" }, { "b4", "D8" } })
  local ev = T.resolve()
  T.has_note(ev, "[9.606] b4 is moved from D8, Overstacked, to D9, in its Isolated Setup Area B (EXC)")
  expect.eq(T.unit("b4").hex, "D9")
  expect.eq(T.unit("b3").hex, "D8")
  -- an area with no room: the unit attempts Escape, and goes to the nearest friendly area
  isolated_b({ { "b1", "D8" }, { "b2", "D8" }, { "b3", "D8" }, { "b4", "D8" }, { "l1", "D8", "leader" } }, { "D8" })
  kessel.inject_dice{ 2, 3 }
  ev = T.resolve()
  T.has_note(ev, "[9.606] b4 is Isolated in D8, Overstacked, with no Location of its Isolated Setup Area to be moved to: it must attempt Escape (EXC)")
  expect.eq(T.record(ev, "escape").units[1], "b4")
  expect.eq(T.unit("b4").hex, "F8")
  expect.eq(T.unit("b3").hex, "D8")
  expect.eq(T.unit("l1").hex, "D8", "an SMC within the SMC limit stays")
end)
