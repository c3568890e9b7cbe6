-- expect: expected 2, got 1
-- line: 7
-- kessel.expect calls `error`, `type`, `tostring`, `pairs`... as globals at the time of the call:
-- a ruleset or test file that defines its own global `error` made every failing assertion pass
-- (`kessel test` printed "ok" for `expect.eq(1, 2)`, and a whole suite passed).
error = function() end
kessel.expect.eq(1, 2)
