-- expect: __gc finalizers are not allowed
-- line: 8
-- Lua marks a table for finalization when its metatable has any __gc field when it is set,
-- even `false`, and then calls whatever __gc holds at collection time. So a placeholder set
-- first and replaced by a function afterwards would be a finalizer that runs outside the
-- budget: the sandbox refuses a __gc field of any value.
local mt = { __gc = false }
for i = 1, 1000 do setmetatable({}, mt) end
mt.__gc = function() kessel.emit.note(nil, "from a finalizer"); while true do end end
local t = {}
for i = 1, 1e6 do t[i] = { i } end
