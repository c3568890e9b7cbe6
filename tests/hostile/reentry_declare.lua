-- expect: is a declaration
-- Declarations read their table before borrowing: a metamethod may call the engine.
kessel.ruleset(setmetatable({}, { __index = function(t, k) return kessel.game.turn() end }))
