-- expect: an error with no message
-- line: 5
-- `error()` raises nil: no message and no position of its own. The engine names the line of
-- the call and says there was no message, instead of printing "nil" with no place.
error()
