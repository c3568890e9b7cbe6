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
