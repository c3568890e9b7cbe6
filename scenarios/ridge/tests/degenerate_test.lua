-- Degenerate actions a careless script sends: refused naming the field or the unit and citing
-- the case, never accepted to fail when applied, to count a unit twice, or to stop on a Lua error.
local expect = kessel.expect

local function board(units, step)
  kessel.setup{ map = { columns = 6, rows = 6, default = "plain" }, units = units, step = step or "north_move" }
end
local function foot(id, side, at) return { id = id, side = side, type = "foot", faces = { "4-3-4", "2-2-4" }, at = at } end

local function refused(a, rule, text)
  local ok, why = kessel.validate(a)
  expect.refused(ok, why, rule, text)
end

-- Rule R2: a move goes to its path's last hex
kessel.test("case_R2_a_move_that_ends_where_it_starts_or_names_no_unit_is_refused", function()
  board{ foot("n", "north", "0202"), foot("s", "south", "0505") }
  refused({ kind = "move", unit = "n", path = { "0202" } }, "R2", "n is already in 0202")
  refused({ kind = "move", unit = "n", path = { "0203", "0202" } }, "R2", "n is already in 0202")
  refused({ kind = "move", units = { "n" }, path = { "0203" } }, "R2", "`unit` names one")
  refused({ kind = "move", unit = "n", path = { 203 } }, "R2", "`path` item 1 is not a hex")
  refused({ kind = "move", unit = "n", path = "0203" }, "R2", "a move needs a path")
  refused({ kind = "move", unit = "n", path = { "0203", "0203" } }, "R2", "`path` names 0203 twice")
  -- the search's reasons for a hex beyond the allowance cited no case
  board{ { id = "slow", side = "north", type = "foot", faces = { "4-3-1" }, at = "0202" } }
  refused({ kind = "move", unit = "slow", path = { "0205" } }, "R2", "cannot reach 0205")
  board{ foot("n", "north", "0202"), foot("s", "south", "0505") }
  expect.accepted(kessel.act{ kind = "move", unit = "n", path = { "0203" } })
end)

-- Rule R4: each attacker is counted once
kessel.test("case_R4_an_attack_naming_a_unit_twice_or_no_unit_is_refused", function()
  board({ foot("n", "north", "0202"), foot("s", "south", "0302") }, "north_combat")
  refused({ kind = "attack", units = { "n", "n" }, target = "0302" }, "R4", "n is named twice")
  refused({ kind = "attack", units = { 7 }, target = "0302" }, "R4", "7 is not a phasing unit")
  refused({ kind = "attack", units = { "n" }, target = "0202" }, "R4", "no enemy unit in 0202")
  expect.accepted(kessel.act{ kind = "attack", units = { "n" }, target = "0302" })
end)
