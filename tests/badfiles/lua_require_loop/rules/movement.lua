-- needs the combat module, which needs this one back
local combat = require("rules.combat")
return {}
