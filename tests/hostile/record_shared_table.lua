-- expect: kessel.emit.record `note`: the fields: over the size limit
-- line: 7
-- A record's fields were copied whole and measured afterwards: one 100 KB table listed twenty
-- thousand times was 2 GB in the engine before the 1 MiB limit refused it.
local one = { string.rep("x", 100000) }
local many = {} for i = 1, 20000 do many[i] = one end
kessel.emit.record{ kind = "note", fields = { list = many } }
