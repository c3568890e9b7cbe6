kessel.ruleset{ name = "costs", sides = { "red", "blue" } }
kessel.movement{
  terrain = { clear = 1, woods = { foot = -1, default = 0 / 0 } },
}
