-- expect: __close handlers are not allowed
-- line: 4
-- A metatable with a __close is refused when it is set, as one with a __gc is.
local closer = setmetatable({}, { __close = function() end })
for _ in function() return nil end, nil, nil, closer do end
