-- expect: inline map: columns = 65536
-- line: 3
kessel.setup{ map = { columns = 65536, rows = 65536 } }
