kessel.ruleset{ name = "bom", sides = { "red", "blue" } }
-- saved by an editor that writes a byte-order mark and CRLF line ends

local x = = 1
