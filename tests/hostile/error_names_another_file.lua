-- expect: error_names_another_file.lua: bad `x`: see fake.lua:9
-- A message raised without a position (level 0) that names another Lua file was said to come
-- from that file (`bad `x`: see fake.lua`, line 9), a file that does not exist; it comes from
-- this script, which the error names.
kessel.setup{ map = { columns = 4, rows = 4 } }
error("bad `x`: see fake.lua:9", 0)
