-- House rule B1, "Bloody 3-1": the 3-1 column of the CRT [9.5] reads one roll lower, so each roll
-- gives what the printed table gives for the roll below it (roll 1 keeps its D2): the Eng
-- (Engaged) at roll 6 drops off and the defender takes a D2 more. Off by default; the profile
-- bloody.toml turns it on over `standard`.
kessel.option{ id = "bloody_3_1", type = "bool", default = false,
  description = "House rule B1: the CRT's 3-1 column reads one roll lower (more D2, no Eng)",
  rule = "B1" }

-- Built from the bundled table as it is declared, so this file repeats no result of it.
local cols = kessel.tables.columns("crt")
local rows = {}
for roll = 1, 6 do
  local row = {}
  for c, label in ipairs(cols) do
    local from = roll
    if label == "3-1" then from = math.max(1, roll - 1) end
    row[c] = kessel.tables.result("crt", c, from)
  end
  rows[roll] = row
end
kessel.results_table{ id = "crt", columns = cols, rows = rows, rule = "B1",
  description = "CRT with the Bloody 3-1 house rule", when = { bloody_3_1 = true } }

-- The bundled rules have a variant of this table too (option crt_row2). A table variant replaces
-- the whole table, so this one, built from the printed row 2, cannot be played beside
-- crt_row2 = transcribed: with both on, the engine refuses the game and names the two variants
-- (a variant declared for the pair, `when = { bloody_3_1 = true, crt_row2 = "transcribed" }`,
-- would settle it instead).
