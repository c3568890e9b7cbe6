kessel.ruleset{ name = "checks", sides = { "red", "blue" } }

kessel.on("check", function()
  return { { mesage = "r1 overstacks its hex" } }
end)
