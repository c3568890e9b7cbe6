-- expect: to-be-closed variables
-- line: 6
-- coroutine.wrap closes a dead coroutine itself; with pcall around it, forever.
while true do
  pcall(coroutine.wrap(function()
    local guard <close> = setmetatable({}, { __close = function() while true do end end })
    while true do end
  end))
end
