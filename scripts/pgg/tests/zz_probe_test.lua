local expect = kessel.expect
local B = require("testing.board10")
kessel.test("probe_overrun_from_other_zoc", function()
  B.setup({ B.pz("a", "0402", "20-20-10"), B.rifle("s", "0403", "1-1-6"), B.rifle("t", "0302", "1-1-6"),
     B.leader("l", "1010", 5) }, { step = "german_movement" })
  kessel.inject_dice{ 1 }
  local ok, ev = kessel.act{ kind = "overrun", units = { "a" }, target = "0403" }
  print(ok, type(ev) == "table" and B.all_notes(ev) or tostring(ev))
  print("a at", B.where("a"))
  ok, ev = kessel.act{ kind = "move", units = { "a" }, path = { "0503" } }
  print(ok, type(ev) == "table" and B.all_notes(ev) or tostring(ev))
end)
