-- expect: kessel.emit.create_unit: the game already holds 100000 units, the limit
-- line: 10
-- Units created in play live in Rust memory: their number is bounded, set-up and created alike.
-- A set-up brings the game to the edge, so the loop meets the limit within a few creations
-- (created one by one, each running the toy's unit_created hook, they took 15 s of a debug build
-- and met the per-call event limit first, which emit_flood shows).
local units = {}
for i = 1, 99990 do units[i] = { id = "u" .. i, side = "red", type = "inf", faces = { "1-1-1" }, at = "0101" } end
kessel.setup{ map = { columns = 4, rows = 4 }, units = units }
while true do kessel.emit.create_unit{ side = "red", type = "inf", faces = { "1-1-1" } } end
