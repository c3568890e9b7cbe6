-- expect: instruction budget
-- Almost every instruction runs inside pcall, so the hook nearly always fires there.
local function f() local x = 0 for i = 1, 5000 do x = x + i end return x end
while true do pcall(f) end
