-- expect: instruction budget
-- line: 6
-- The strings' metatable is reachable (getmetatable("")): a __close put there closes a string
-- given as a generic for's fourth value, and looped for ever once the budget stopped the loop.
getmetatable("").__close = function() while true do end end
for _ in function() return 1 end, nil, nil, "x" do while true do end end
