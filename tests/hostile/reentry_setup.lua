-- expect: read back into the engine
-- A set-up table whose metamethods call back into the engine while it is read.
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
