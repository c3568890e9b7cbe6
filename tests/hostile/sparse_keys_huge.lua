-- expect: integer keys must run from 1 to at most 65536
-- line: 5
-- One integer key far out would make a huge array of holes: refused before anything is built.
kessel.setup{ map = { columns = 4, rows = 4 } }
kessel.emit.var("v", { [1] = 1, [2 ^ 40] = 2 })
