-- expect: instruction budget
-- A generic for's closing value inside a coroutine, stopped by the budget: its __close (given
-- after setmetatable) is made to do nothing, and the script stops.
local mt = {}
local closer = setmetatable({}, mt)
mt.__close = function() while true do end end
local co = coroutine.wrap(function()
  for _ in function() return 1 end, nil, nil, closer do while true do end end
end)
co()
