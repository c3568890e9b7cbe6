kessel.ruleset{ name = "checks", sides = { "red", "blue" } }

kessel.on("check", function()
  return { { unit = "r1", message = "fine" }, 42 }
end)
