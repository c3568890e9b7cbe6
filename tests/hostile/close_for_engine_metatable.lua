-- expect: instruction budget
-- line: 6
-- The engine's own metatables are reachable too (getmetatable(kessel)): a __close put in one is
-- made to do nothing when the budget stops the loop that closes it, as a script's own are.
getmetatable(kessel.hex).__close = function() while true do end end
for _ in function() return 1 end, nil, nil, kessel.hex do while true do end end
