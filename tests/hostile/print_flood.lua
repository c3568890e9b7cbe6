-- expect: instruction budget
-- line: 5
-- Printing a megabyte at a time: every byte written counts against the budget (this wrote 31 GB
-- in the ten seconds before the wall clock stopped it, enough to fill a disk).
local s = string.rep("x", 1e6) while true do print(s) end
