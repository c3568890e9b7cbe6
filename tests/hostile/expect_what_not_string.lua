-- expect: expected 2, got 1
-- line: 5
-- An assertion's `what` that is no string failed inside the engine's own Lua, with its private
-- chunk name: "kessel prelude:14: attempt to concatenate a table value (local 'what')".
kessel.expect.eq(1, 2, {})
