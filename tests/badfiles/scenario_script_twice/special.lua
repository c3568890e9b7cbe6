kessel.option{ id = "fog", type = "bool", default = false, description = "fog on turn 1", rule = "S1" }
