-- expect: instruction budget
-- A message handler that never returns (Lua runs it with the hooks off after a hook error).
while true do
  xpcall(function() while true do end end, function(e) while true do end end)
end
