-- Situations from the reference texts, sixth tester pass (ASL round 6): each test rebuilds one
-- situation, names its case, and checks what the text says must happen.
local T = require("testing.cg")
local expect = T.expect

-- [9.6152] Note 3 (Dawn): the two 57L AT Guns set up in a non-Isolated British Setup Area, in a
-- hex numbered 20 or more. Area A (rows 3-4) is the first non-Isolated area, where Note 1 sends
-- the rest; the Guns go to area B's hex numbered >= 20 (C21), not to A. Before, they were put
-- with the rest in A's C3.
kessel.test("case_9.6152_note_3_dawn_guns_set_up_in_hexes_numbered_20_or_more", function()
  local areas = { hexes = {}, areas = { british = { { id = "A", hexes = { "C3", "C4" } }, { id = "B", hexes = { "C19", "C21" } },
    { id = "C", hexes = { "H22" }, isolated = true } }, german = {} } }
  T.setup{ map = { rows = 24 }, step = "reinforcements", vars = { date = "dawn", setup_areas = areas } }
  local ev = T.resolve()
  local guns, squads = 0, 0
  for _, u in ipairs(kessel.units.all{ side = "british" }) do
    if u.type == "gun" then
      guns = guns + 1
      expect.eq(u.hex, "C21", "a Gun in a hex numbered >= 20")
      expect.eq(u.vars.reph.area, "B")
    elseif u.type == "squad" then
      squads = squads + 1
      expect.eq(u.hex, "C3", "Note 1: the first non-Isolated Setup Area")
    end
  end
  expect.eq(guns, 2)
  expect.eq(squads, 4)
  T.has_note(ev, "Note 3: the Guns set up in Setup Area B, in C21")
  expect.eq(T.record(ev, "reinforcements").guns, "B")
  T.replays()
end)

-- [9.6152] Note 3: no non-Isolated British Setup Area holds a hex numbered 20 or more (C22 is in
-- an Isolated one): Z28 becomes an Eligible Entry Area and the Guns are Manhandled on from it;
-- the rest still set up in area A (Note 1)
kessel.test("case_9.6152_note_3_no_hex_numbered_20_guns_enter_at_z28", function()
  local areas = { hexes = {}, areas = { british = { { id = "A", hexes = { "C3", "C4" } }, { id = "B", hexes = { "C22" }, isolated = true } },
    german = {} } }
  T.setup{ map = { rows = 24 }, step = "reinforcements", vars = { date = "dawn", setup_areas = areas } }
  local ev = T.resolve()
  for _, u in ipairs(kessel.units.all{ side = "british", type = "gun" }) do
    expect.eq(u.location, "pending", "off-map at the Entry Area")
    expect.eq(u.vars.reph.area, "Z28")
  end
  T.has_note(ev, "Z28 is an Eligible Entry Area and the Guns are Manhandled")
  for _, u in ipairs(kessel.units.all{ side = "british", type = "squad" }) do expect.eq(u.hex, "C3") end
end)
