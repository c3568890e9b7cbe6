-- [5] Set-up checks run by `kessel check` (and the editor's validation) before play: the things a
-- scenario author can get wrong that the rules, not the file format, know about.
local C = require("rules.common")
local ST = require("rules.stacking")

kessel.on("check", function()
  local problems = {}
  -- a unit's type must belong to its side
  for _, u in ipairs(kessel.units.all()) do
    local t = kessel.game.unit_type(u.type)
    if t and t.side and t.side ~= u.side then
      problems[#problems + 1] = { unit = u.id, message = string.format(
        "unit `%s` is %s, but unit type `%s` is a %s type", u.id, u.side, u.type, t.side) }
    end
  end
  -- [7.1, 7.2] stacking at set-up. The printed campaign puts whole Soviet armies in one hex; the
  -- first Soviet Movement Phase cures that [5.2]. A scenario lists such hexes in its
  -- `setup_overstack_hexes` variable; anywhere else an overstacked set-up is a mistake.
  local allowed = {}
  for _, h in ipairs(kessel.scenario.var("setup_overstack_hexes") or {}) do allowed[h] = true end
  local seen = {}
  for _, u in ipairs(kessel.units.all{ location = "map" }) do
    if not seen[u.hex] and not allowed[u.hex] then
      seen[u.hex] = true
      local here = kessel.units.at(u.hex)
      local ok, why = ST.limit_ok(here[1].side, here)
      if not ok then
        problems[#problems + 1] = { unit = here[#here].id, message = string.format(
          "hex %s is overstacked at set-up: %s [%s]", u.hex, why.message, why.rule) }
      end
    end
  end
  return problems
end)

return {}
