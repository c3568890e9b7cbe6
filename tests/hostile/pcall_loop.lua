-- expect: instruction budget
-- A budget error caught by pcall, forever: it must stay raised until the engine has control.
local function spin() while true do end end
while true do pcall(spin) end
