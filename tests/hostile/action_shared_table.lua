-- expect: an action is over the size limit (1048576 bytes, a table appearing N times counted N times)
-- line: 8
-- An action listing one 100 KB table twenty thousand times: Lua holds it once, the engine copied
-- it each time (gigabytes) before any check.
kessel.setup{ map = { columns = 4, rows = 4 } }
local one = { string.rep("x", 100000) }
local many = {} for i = 1, 20000 do many[i] = one end
kessel.act{ kind = "move", unit = "r", path = many }
