-- Every PGG action refuses a malformed field (a list given as one value, a list item that is not
-- an id or a hex, a hex that is not on the map), naming the field and citing the action's rule
-- case, instead of failing inside the rules with a Lua error (C.shape_reason). Actions come from
-- players, scripts and saved games. The combat actions are covered by
-- case_9_combat_actions_with_malformed_fields_are_refused_naming_the_field.
local expect = kessel.expect
local B = require("testing.board10")

local function refused(a, rule, text)
  local ok, why = kessel.validate(a)
  expect.refused(ok, why, rule, text)
end

kessel.test("case_6_movement_actions_with_malformed_fields_are_refused_naming_the_field", function()
  B.setup({ B.pz("g", "0303", "8-8-10"), B.rifle("s", "0603", "2-2-6") }, { step = "german_movement" })
  refused({ kind = "move", units = { {} }, path = { "0304" } }, "6.1", "`units` item 1 is a table")
  refused({ kind = "move", units = "g", path = { "0304" } }, "6.1", "`units` is a list")
  refused({ kind = "move", units = { "g" }, path = "0304" }, "6.1", "`path` is a list")
  refused({ kind = "move", units = { "g" }, path = { 304 } }, "6.1", "`path` item 1 is a number")
  refused({ kind = "move", units = { "g" }, path = { "9999" } }, "6.1", "`9999`, is not a hex")
  refused({ kind = "move", unit = {}, path = { "0304" } }, "6.1", "`unit` is text")
  refused({ kind = "move", units = { "g" }, path = { "0304" }, rail_cut = {} }, "6.1", "`rail_cut` is one hex")
  refused({ kind = "move", units = { "g" }, path = { "0304" }, lift = "9999" }, "6.1", "`lift`, `9999`, is not a hex")
  refused({ kind = "overrun", units = { {} }, target = "0403" }, "6.5", "`units` item 1 is a table")
  refused({ kind = "overrun", units = { "g" }, target = { "0403" } }, "6.5", "`target` is one hex")
  -- a well-formed move still goes
  expect.accepted(kessel.act{ kind = "move", units = { "g" }, path = { "0304" } })
end)

kessel.test("case_6_3_14_soviet_movement_actions_with_malformed_fields_are_refused_naming_the_field", function()
  B.setup({ B.rifle("s", "0603", "2-2-6") }, { step = "soviet_movement" })
  refused({ kind = "rail_move", units = { 5 }, path = { "0604" } }, "6.3", "`units` item 1 is a number")
  refused({ kind = "rail_move", units = { "s" }, path = "0604" }, "6.3", "`path` is a list")
  refused({ kind = "place_provisional", hex = {} }, "14.1", "`hex` is one hex")
  refused({ kind = "place_provisional", hex = "9999" }, "14.1", "`hex`, `9999`, is not a hex")
  refused({ kind = "swf_call", hex = 5 }, "14.2", "`hex` is one hex")
  refused({ kind = "evacuate", leader = {} }, "10.4", "`leader` is text")
end)

kessel.test("case_5_1_13_placement_actions_with_malformed_fields_are_refused_naming_the_field", function()
  B.setup({ B.pz("g", "0303", "8-8-10"), B.rifle("s", "0603", "2-2-6") }, { step = "german_air_interdiction" })
  refused({ kind = "place_marker", hex = { "0603" } }, "13", "`hex` is one hex")
  refused({ kind = "place_marker", hex = "0603", marker = 7 }, "13", "`marker` is text")
  refused({ kind = "setup_place", unit = {}, hex = "0603" }, "5.1", "`unit` is text")
  refused({ kind = "setup_place", unit = "s", hex = "x" }, "5.1", "`hex`, `x`, is not a hex")
end)
