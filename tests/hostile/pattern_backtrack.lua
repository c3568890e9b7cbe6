-- expect: instruction budget
-- line: 4
-- Exponential backtracking inside one C call.
return string.find(string.rep("a", 60), "a-a-a-a-a-a-a-a-a-a-a-a-b")
