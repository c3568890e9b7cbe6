-- expect: recursion limit
-- line: 7
-- A million-deep table handed to the engine: converted with a depth limit, not a stack overflow.
kessel.setup{ map = { columns = 4, rows = 4 } }
local t = {}
for i = 1, 1e6 do t = { t } end
kessel.emit.var("x", t)
