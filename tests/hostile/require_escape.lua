-- expect: not a module name
-- line: 3
require("..etc.passwd")
