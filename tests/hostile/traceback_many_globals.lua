-- Lua makes a traceback for every error an engine function raises, and a traceback looks each
-- frame's function up in every library table, `_G` among them. A script that filled `_G` with a
-- million names made each such error a second of work the instruction count never saw: these 30
-- took 30 s (and a pcall loop of them ran on well past the time limit). The tables a traceback
-- looks through are the sandbox's own copies now.
-- expect: thirty errors caught
-- line: 11
-- timeout: 20
for i = 1, 1e6 do rawset(_G, "g" .. i, true) end
for _ = 1, 30 do pcall(kessel.hex.neighbors, {}) end
error("thirty errors caught")
