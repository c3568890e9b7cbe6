-- expect: over the limit
-- line: 3
kessel.setup{ map = { columns = 4, rows = 4 }, last_turn = 4000000000 }
