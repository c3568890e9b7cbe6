-- expect: this hexset was made on a map of 3 × 3 hexes and the map is now 20 × 20
-- line: 9
-- A set made before kessel.setup loaded a map of another size would name other hexes there
-- (its hexes are kept by their place on the old grid): using it is refused, not misread.
kessel.setup{ map = { columns = 3, rows = 3, default = "clear" }, units = {} }
local old = kessel.hexset(kessel.map.hexes())
kessel.setup{ map = { columns = 20, rows = 20, default = "clear" }, units = {} }
print(#kessel.hexset({ "1010" }):union(kessel.hexset({ "0101" })))
local r = kessel.paths.reach{ from = { "1010" }, budget = 3, step = { hex = true }, passage = { blocked = old } }
