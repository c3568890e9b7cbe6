#!/usr/bin/env lua
kessel.ruleset{ name = "shebang", sides = { "red", "blue" } }
kessel.terrain{ id = "clear" }
require("rules.more")
