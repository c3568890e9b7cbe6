-- Try a few illegal actions on the campaign and print the rulings, each with its rule case.
-- Run: kessel script scripts/pgg/examples/illegal_actions.lua --scenario scenarios/pgg/campaign.toml

local function try(what, action)
  local ok, info = kessel.act(action)
  if ok then
    print(what .. ": accepted")
  else
    for _, r in ipairs(info) do print(what .. ": refused: " .. r.message .. " [" .. tostring(r.rule) .. "]") end
  end
end

-- A German unit can't move in the Soviet Movement Phase (and hasn't entered yet).
try("german move in the soviet phase", { kind = "move", units = { "g-7pz-pz" }, path = { "0110" } })

-- Before turn 1 the Soviet sets up [5.1], then the German places his air interdiction markers
-- [13.2]: ending the air placement before the set-up is refused; the Soviet then ends his set-up
-- and the German places none.
try("german ends pre-game air placement before the set-up", { kind = "end_air_placement" })
try("soviet ends his set-up", { kind = "end_setup" })
try("german ends pre-game air placement", { kind = "end_air_placement" })

-- A Soviet rifle division moving into the west columns on turn 1.
try("soviet move into column 01", { kind = "move", units = { "s-16a-r1" }, path = { "0116" } })

-- An attack in a movement phase.
try("attack in the movement phase", { kind = "attack", units = { "s-16a-r1" }, targets = { "2316" } })

-- A retreat with no combat result waiting.
try("retreat with nothing to retreat", { kind = "retreat", unit = "s-16a-r1", path = { "2316" } })

-- A move far beyond a rifle division's 6 MP.
try("move too far", { kind = "move", units = { "s-24a-r1" }, path = { "5907" } })
