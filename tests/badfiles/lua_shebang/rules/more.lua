#!/usr/bin/env lua
-- a module starting with a shebang line too, then a real error on its line 3
error("here")
