-- expect: the game state can only change while an action is applied
-- line: 9
-- A set-up table whose metamethods call back into the engine while it is read: reading is
-- allowed, a change (an event) or a nested set-up is refused (a nested set-up won, and the outer
-- call answered as if its own had been made).
local spec = setmetatable({ map = { columns = 4, rows = 4 } }, {
  __index = function(t, k)
    kessel.state_hash()
    kessel.emit.note(nil, "from __index of " .. tostring(k))
    kessel.setup{ map = { columns = 3, rows = 3 } }
    if k == "options" then error("read back into the engine") end
    return nil
  end,
})
kessel.setup(spec)
