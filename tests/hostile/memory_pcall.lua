-- expect: memory
-- The memory error caught by pcall, forever.
while true do
  pcall(function()
    local t = {}
    for i = 1, 1e9 do t[i] = { i } end
  end)
end
