-- expect: instruction budget
-- coroutine.resume catches errors like pcall does.
while true do
  local co = coroutine.create(function() while true do end end)
  coroutine.resume(co)
end
