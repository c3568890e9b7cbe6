-- expect: turn 99999 is after the last turn
-- line: 5
-- A clock past the last turn (or at a step the sequence lacks) is refused at the call.
kessel.setup{ map = { columns = 2, rows = 1 }, last_turn = 3 }
kessel.emit.clock(99999, 0)
