-- expect: strings and comments may say <close>
-- "<close>" inside strings and comments is no declaration: this file runs to its last line.
local s = "local x <close> = nil" --[[ local y <close> = nil ]]
local t = [==[ <close> ]==]
assert(#s > 0 and #t > 0)
error("strings and comments may say <close> freely")
