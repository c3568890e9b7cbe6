-- expect: rolls would wait in the queue, more than 65536
-- line: 6
-- Queued rolls are engine memory no limit saw: a loop of big queues held half a gigabyte.
kessel.setup{ map = { columns = 2, rows = 2 } }
local rolls = {} for i = 1, 40000 do rolls[i] = 3 end
while true do kessel.inject_dice(rolls) end
