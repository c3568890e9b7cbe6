-- A constant mixing a list and fields lost its fields without a word ({ 1, 2, x = 3 } was
-- stored as { 1, 2 }), and a list with holes lost its tail ({ [1] = 1, [3] = 3 } as { 1 }).
-- `kessel.emit.var` refuses both.
kessel.ruleset{ name = "constant_mixed", sides = { "red", "blue" } }
kessel.constant("steps", { 1, 2, x = 3 })
