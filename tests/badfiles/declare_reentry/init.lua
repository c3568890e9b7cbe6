-- A declaration table whose metamethods declare more while it is read (re-entry, not a panic).
local spec = setmetatable({}, { __index = function(t, k)
  kessel.unit_type{ id = "inf_" .. k }
  kessel.constant("read_" .. k, kessel.version)
  if k == "name" then return "reentry" end
  if k == "sides" then return { "red", "blue" } end
end })
kessel.ruleset(spec)
kessel.action(setmetatable({ kind = "wait", validate = function() end, apply = function() end }, {
  __index = function(t, k) kessel.unit_type{ id = "from_action_" .. k } end,
}))
error("re-entrant declarations were read without a panic")
