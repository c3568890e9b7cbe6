-- expect: caught errors read plainly
-- line: 18
-- An error caught by pcall reads as it would uncaught: an engine function's argument error in
-- words with the calling line (not the bindings' error object, "error converting Lua table to
-- String" and a traceback), a wrapped library function under its public name (not the wrapper's
-- private `tinsert` at `sandbox:139`). Error values that are no messages are left as they are.
kessel.setup{ map = { columns = 4, rows = 4 } }
local _, e = pcall(kessel.hex.neighbors, {})
assert(type(e) == "string", type(e))
assert(e:find("bad argument #1 to `kessel.hex.neighbors`: expected a string, got a table", 1, true), e)
assert(not e:find("error converting") and not e:find("traceback"), e)
local _, e2 = pcall(function() table.insert(nil, 1) end)
assert(e2 == "bad argument #1 to 'table.insert' (table expected, got nil)", e2)
local _, e3 = pcall(function() error({ code = 7 }) end)
assert(type(e3) == "table" and e3.code == 7, tostring(e3))
local _, e4 = xpcall(function() kessel.hex.distance("0101", {}) end, function(m) return m end)
assert(e4:find("bad argument #2 to `kessel.hex.distance`", 1, true), e4)
error("caught errors read plainly")
