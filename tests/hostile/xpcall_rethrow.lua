-- expect: instruction budget
-- A handler that swallows the error and the loop goes on.
local n = 0
while true do
  xpcall(function() while true do n = n + 1 end end, function(e) return "ignored" end)
end
