-- A few actions of Sallow Crossing's first turn, played with `kessel script`:
--   kessel script opening.lua --scenario scenario.toml --seed 3 --save opening.save.json
-- The Crown closes on Pell from three hexes and attacks it; the League picks the retreat.
local function act(a)
  local ok, info = kessel.act(a)
  if not ok then
    local why = {}
    for _, r in ipairs(info) do why[#why + 1] = r.message .. " [" .. tostring(r.rule) .. "]" end
    error("refused: " .. table.concat(why, "; "))
  end
  return info
end

local function say(events)
  for _, e in ipairs(events) do
    if e.event == "note" then print("  " .. e.text .. " [" .. tostring(e.rule) .. "]") end
  end
end

print(kessel.scenario.name() .. ", turn " .. kessel.game.turn() .. ", " .. kessel.game.step().name)
local ca3 = act{ kind = "move", unit = "ca3", path = { "0403" } }
print("ca3 to 0403 for " .. ca3[1].cost .. " MP, by " .. table.concat(ca3[1].path, " "))
act{ kind = "move", unit = "c4", path = { "0304" } }
act{ kind = "move", unit = "c2", path = { "0305" } }
act{ kind = "end_phase" }
local o = kessel.queries.ask("odds", { units = { "c4", "ca3", "c2" }, targets = { "0404" } })
print(string.format("attack on Pell: %d vs %d, %s", o.attack, o.defence, o.label))
say(act{ kind = "attack", units = { "c4", "ca3", "c2" }, target = "0404" })
local p = kessel.game.var("pending")
if p then
  print("the league chooses: " .. p.prompt)
  say(act{ kind = "retreat", to = p.hexes[1] })
end
local s = kessel.queries.ask("score")
print("crown VP now: " .. s.vp.crown .. " (" .. s.level .. ")")
