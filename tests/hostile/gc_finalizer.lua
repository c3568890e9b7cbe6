-- expect: __gc finalizers are not allowed
-- line: 4
-- A finalizer runs with the hooks off: a looping one would never stop.
setmetatable({}, { __gc = function() while true do end end })
