-- expect: to-be-closed variables
-- line: 6
-- A string continued over lines (\z) ends on the next line: the <close> after it is code. A
-- scanner that ended the string at the line break read the rest of that line as a new string.
local s = "a\z
  b" local guard <close> = setmetatable({}, { __close = function() while true do end end })
while true do end
