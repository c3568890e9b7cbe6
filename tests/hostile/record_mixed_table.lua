-- expect: a table mixes integer and string keys
-- line: 8
-- A record's fields were read by another converter than game variables and actions: a table
-- mixing a list and fields lost its fields ({ 1, 2, x = 3 } was logged as { 1, 2 }), a list
-- with holes lost its tail ({ [1] = 1, [3] = 3 } as { 1 }), a list from 0 lost its first item,
-- all without a word. `kessel.emit.var` refuses each of them.
kessel.setup{ map = { columns = 4, rows = 4 } }
kessel.emit.record{ kind = "note", fields = { m = { 1, 2, x = 3 } } }
