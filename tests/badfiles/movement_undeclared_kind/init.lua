kessel.ruleset{ name = "typos", sides = { "red", "blue" } }
kessel.terrain{ id = "clear" }
kessel.terrain{ id = "woods" }
kessel.movement{
  classes = { "foot" },
  terrain = { clear = 1, wods = { foot = 1, default = 2 } },
}
