-- expect: 10000 commitments are waiting
-- Commitments waiting to be opened live in Rust memory: their number is bounded.
local i = 0
while true do
  i = i + 1
  kessel.emit.commit("c" .. i, "red", i)
end
