-- expect: a function without __tostring
-- line: 5
-- An error value that is neither a message nor an object with __tostring (a function; a
-- coroutine is the same): described, at the line of the `error` call.
error(function() end)
