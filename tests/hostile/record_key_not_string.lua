-- expect: integer keys must run from 1
-- line: 6
-- A record's field table keyed by a negative integer was refused in the parser's words:
-- "fields are plain data (...): deserialize error: invalid type: integer `-5`, expected a string key".
kessel.setup{ map = { columns = 4, rows = 4 } }
kessel.emit.record{ kind = "note", fields = { n = { [-5] = 1 } } }
