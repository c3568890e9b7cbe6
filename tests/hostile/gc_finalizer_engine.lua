-- expect: __gc finalizers are not allowed
-- A finalizer that calls the engine while Rust may hold the game state.
for i = 1, 1000 do
  setmetatable({}, { __gc = function() kessel.emit.note(nil, "from a finalizer") end })
end
