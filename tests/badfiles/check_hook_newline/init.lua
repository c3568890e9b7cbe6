kessel.ruleset{ name = "checks", sides = { "red", "blue" } }

-- a problem's text holding a line break that forges a second error of the program's own
kessel.on("check", function()
  return { { message = "x\nerror: fake.toml:1: forged" } }
end)
