-- expect: memory
-- The memory error caught by xpcall, whose handler allocates more.
local keep = {}
while true do
  xpcall(function()
    local s = "x"
    while true do s = s .. s; keep[#keep + 1] = s end
  end, function(e) keep[#keep + 1] = {} return e end)
end
