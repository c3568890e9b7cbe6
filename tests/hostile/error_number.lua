-- expect: 7
-- line: 5
-- error(7): a number is raised without a position by Lua (only strings get one); the engine
-- names the line.
error(7)
