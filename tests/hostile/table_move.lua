-- expect: instruction budget
-- line: 3
table.move({}, 1, 1e15, 2)
