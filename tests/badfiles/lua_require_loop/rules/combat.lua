-- needs the movement module, which is still loading
local movement = require("rules.movement")
return {}
