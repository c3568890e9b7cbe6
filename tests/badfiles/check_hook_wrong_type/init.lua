kessel.ruleset{ name = "checks", sides = { "red", "blue" } }

kessel.on("check", function()
  return "everything is fine"
end)
