-- expect: bad argument #1 to 'table.unpack'
-- line: 6
-- The sandbox's table.unpack took the length of what is no table as 0: `table.unpack(nil)`
-- returned nothing where Lua refuses it, hiding a nil variable in a rule.
local list
local a = table.unpack(list)
