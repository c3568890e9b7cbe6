-- expect: expected a refusal citing [T1]
-- line: 5
-- A reason that is no table (or whose message is no string) failed inside the engine's own Lua:
-- "kessel prelude:47: attempt to index a number value (local 'r')".
kessel.expect.refused(false, { 5 }, "T1")
