-- RePh step 9.620 Scenario Commencement (PB): who sets up and moves first [9.62023]; Isolated
-- units set up first and suffer Ammunition Shortage [9.62021]; the others after [9.62022].
local C = require("rules.common")
local S = require("rules.sequence")
local M = {}

function M.order(date)
  local ok, first = pcall(kessel.tables.cell, "setup_move", date or "", "sets_up_first")
  if not ok then return nil end
  return { sets_up_first = first, moves_first = kessel.tables.cell("setup_move", date, "moves_first") }
end

S.on_end("commencement", function()
  local date = C.var("date")
  local o = M.order(date)
  if o then
    kessel.emit.var("sets_up_first", o.sets_up_first)
    kessel.emit.var("moves_first", o.moves_first)
    C.note("9.62023", string.format("%s: the %s set up first; the %s move first", date, o.sets_up_first, o.moves_first))
  end
  -- "Each unit/Equipment piece set up in an Isolated Location": a Weapon too (one held by an
  -- Isolated unit, mounted on an Isolated vehicle, or lying in an Isolated Setup Area: C.weapon_isolated)
  local isolated = {}
  for _, u in ipairs(C.on_map()) do
    local weapon = u.type == "sw" or u.type == "gun" or u.vars.vehicular
    if u.vars.isolated or (weapon and C.weapon_isolated(u)) then
      isolated[#isolated + 1] = u.id
      kessel.emit.unit_var(u.id, "ammo_shortage", true)
    end
  end
  C.record("commencement", "9.620", { date = date, sets_up_first = o and o.sets_up_first, moves_first = o and o.moves_first,
    isolated = isolated })
  -- each side's new Fortifications, to set up [9.62021] [9.62022]: its own record (9.619's secret)
  for _, side in ipairs(C.sides()) do
    local bought = {}
    for _, f in ipairs(C.fortifications(side)) do if f.date == date then bought[#bought + 1] = f end end
    if #bought > 0 then C.record("fortifications", "9.62022", { side = side, date = date, bought = bought }, { secret_to = side }) end
  end
  if #isolated > 0 then
    C.note("9.62021", "Isolated units set up first in their Setup Area, with Ammunition Shortage (A19.131): " .. table.concat(isolated, ", "))
  end
  C.note("9.6201", "a PB CG scenario has no Victory Conditions of its own")
  -- an Initial Scenario's "!" steps are done: the next RePh is a whole one
  if kessel.game.var("initial_reph") ~= nil then kessel.emit.var("initial_reph", nil) end
end)

return M
