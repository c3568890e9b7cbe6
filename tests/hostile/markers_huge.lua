-- expect: more than 100000 markers
-- line: 3
kessel.setup{ map = { columns = 4, rows = 4 }, markers = { { kind = "x", count = 4000000000 } } }
