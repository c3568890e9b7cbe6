-- expect: from the filter
local filter = setmetatable({}, { __index = function(t, k)
  kessel.emit.note(nil, "note")
  kessel.setup{ map = { columns = 3, rows = 3 } }
  if k == "placed" then error("from the filter") end
end })
kessel.markers.all(filter)
