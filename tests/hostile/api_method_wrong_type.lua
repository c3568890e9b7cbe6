-- expect: bad argument #1 to `hexset:union`: expected a hexset (made by kessel.hexset{…}), got a table
-- line: 6
-- A method of an engine object given a plain table where it takes another such object: named as
-- scripts call it, not as the bindings' Rust type ("LuaHexSet.union", "error converting ...").
kessel.setup{ map = { columns = 4, rows = 4 } }
local both = kessel.hexset{ "0101" }:union({ "0102" })
