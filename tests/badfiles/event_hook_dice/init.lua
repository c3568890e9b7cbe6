kessel.ruleset{ name = "hooks", sides = { "red", "blue" } }

kessel.on("event:dice", function(e) end)
