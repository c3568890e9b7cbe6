-- [R8] Victory: North scores the VP of each objective it holds (a North unit in every hex, or
-- the last unit to stand there North's). [R9] Sudden death: North holding every objective at the
-- end of its combat phase wins at once.

local function north_vp()
  local vp, control = 0, {}
  for _, o in ipairs(kessel.scenario.objectives()) do
    local held = true
    for _, h in ipairs(o.hexes) do
      local here = kessel.units.at(h)
      if not (here[1] and here[1].side == "north") then held = false end
    end
    if held then vp = vp + o.vp; control[o.name] = "north" else control[o.name] = "south" end
  end
  return vp, control
end

kessel.on("step_end", function()
  local step = kessel.game.step()
  if step.id ~= "north_combat" then return end
  local vp = north_vp()
  local all = 0
  for _, o in ipairs(kessel.scenario.objectives()) do all = all + o.vp end
  if all > 0 and vp == all then
    kessel.emit.note("R9", "North holds every objective: the game ends")
    kessel.emit.clock(kessel.game.turn(), step.index, true)
  end
end)

kessel.on("result", function()
  local vp, control = north_vp()
  local level
  for _, l in ipairs(kessel.scenario.levels()) do
    if l.max == nil or vp <= l.max then level = l.name; break end
  end
  return { level = level, scores = { north = vp }, control = control }
end)

-- a small AI: attack at the best odds, else move toward the nearest objective (North) or stay
-- near it (South), else end the phase
kessel.ai_level{ id = "plain", description = "attacks at its best odds, else closes on the objectives" }

kessel.on("ai", function(legal, kinds, view, level, tiebreak, side)
  local goals = {}
  for _, o in ipairs(kessel.scenario.objectives()) do
    for _, h in ipairs(o.hexes) do goals[#goals + 1] = h end
  end
  local function nearest(h)
    local best = 99
    for _, g in ipairs(goals) do best = math.min(best, kessel.hex.distance(h, g)) end
    return best
  end
  local best, best_score = {}, nil
  for _, a in ipairs(legal()) do
    local score = 0
    if a.kind == "attack" then
      local q = kessel.queries.ask("odds", { units = a.units, targets = { a.target } })
      score = 100 + q.attack - q.defence
      if q.attack - q.defence < -1 then score = -5 end
    elseif a.kind == "move" then
      local u = kessel.units.get(a.unit)
      score = 50 + nearest(u.hex) - nearest(a.path[#a.path])
      if score <= 50 then score = -1 end
    end
    if best_score == nil or score > best_score then best, best_score = { a }, score
    elseif score == best_score then best[#best + 1] = a end
  end
  return best[tiebreak(#best)]
end)
