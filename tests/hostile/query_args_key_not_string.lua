-- expect: a table key must be a string
-- line: 6
-- A query's arguments keyed by a number were refused in the parser's words: "`kessel.queries.ask`:
-- a value it read does not fit: invalid type: floating point `1.5`, expected a string key".
kessel.setup{ map = { columns = 4, rows = 4 } }
kessel.queries.ask("moves", { [1.5] = 1 })
