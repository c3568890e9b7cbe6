-- expect: kessel.setup: the map: terrain `lava` is not declared by the ruleset
-- line: 5
-- An inline map with a terrain the ruleset does not declare was set up, and failed only at the
-- first move, as "terrain `lava` used by the map has no movement cost".
kessel.setup{ map = { columns = 4, rows = 4, terrain = { ["0101"] = "lava" } } }
