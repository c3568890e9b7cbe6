-- expect: to-be-closed variables
-- line: 5
-- A coroutine killed by the budget keeps the hooks off; closing it would run a looping __close.
local co = coroutine.create(function()
  local guard <close> = setmetatable({}, { __close = function() while true do end end })
  while true do end
end)
local ok = coroutine.resume(co)
coroutine.close(co)
