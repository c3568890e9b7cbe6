-- expect: to-be-closed variables
-- line: 6
-- A <close> whose tokens a comment or a line break splits is still one: Lua skips both between
-- tokens. After the budget error below, its __close ran with the hooks off and looped for ever.
local n = 0
local guard <--[[ hidden ]]close
> = setmetatable({}, { __close = function() while true do n = n + 1 end end })
while true do end
