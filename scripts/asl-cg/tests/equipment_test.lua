-- RePh 9.607 Equipment Possession, 9.608 Prisoners; RB 11.607-11.608 (rules/equipment.lua).
local T = require("testing.cg")
local expect = T.expect

local function ctrl(side, hex) return { kind = "control", side = side, at = hex } end
local function field(units, extra)
  local spec = { step = "setup_areas", map = { columns = 16, rows = 9, tags = { strategic = { "C5", "N5" } },
      areas = { P1 = { "P1", "P2" }, A1 = { "A1", "A2" } } },
    markers = { ctrl("british", "C5"), ctrl("german", "N5") }, units = units,
    vars = { entry_areas = { german = { P1 = true }, british = { A1 = true } }, date = "day_i" } }
  for k, v in pairs(extra or {}) do spec[k] = v end
  T.setup(spec)
  T.resolve(); T.resolve()  -- 9.605, 9.606
  expect.eq(kessel.game.step().id, "equipment")
end

-- [9.6071] unpossessed enemy Equipment in a Setup Area is Captured by the Controlling side;
-- friendly Equipment is Retained; [9.6072] elsewhere it stays put
kessel.test("case_9.6071_equipment_in_setup_areas", function()
  field{ T.sw("gmg", "german", "MMG", "C4"), T.sw("bmg", "british", "LMG", "D5"), T.sw("lost", "british", "PIAT", "H5") }
  local ev = T.resolve()
  expect.eq(T.unit("gmg").side, "british")
  expect.eq(T.unit("gmg").vars.captured, true)
  expect.eq(T.unit("bmg").side, "british")
  expect.eq(T.unit("bmg").vars.captured, nil)
  expect.eq(T.unit("lost").hex, "H5")
  T.has_note(ev, "[9.6072]")
end)

-- [9.6071] an Immobile vehicle without functioning MA in the enemy area is Captured with its crew
kessel.test("case_9.6071_immobile_vehicle_captured_with_crew", function()
  field{ T.vehicle("pz", "german", "PzKpfw IVH", "C4", { vars = { immobile = true, ma_disabled = true } }) }
  local ev = T.resolve()
  expect.eq(T.unit("pz").side, "british")
  T.has_note(ev, "Inherent crew is Captured")
end)

-- [9.6073] a still-hidden minefield in the opponent's Setup Area is revealed as Known (strength
-- kept), and is Controlled by the side Controlling its Location
kessel.test("case_9.6073_hidden_minefield_revealed", function()
  field({}, { valued = { { kind = "ap_mine", side = "german", hex = "C4", value = { strength = 6, hidden = true, fortification = true } },
    { kind = "ap_mine", side = "german", hex = "N4", value = { strength = 4, hidden = true, fortification = true } } } })
  T.resolve()
  local mines = kessel.markers.all{ kind = "ap_mine" }
  expect.eq(mines[1].value.known, true)
  expect.eq(mines[1].value.strength, 6)
  expect.eq(mines[1].value.controlled_by, "british")
  expect.eq(mines[2].value.hidden, true, "in its own side's area it stays hidden")
end)

-- [9.602] [9.6073] a hidden Fortification is hidden by the engine from the other side: the British
-- view had the German's hidden minefields with their hex, kind and strength. Revealed as Known,
-- a minefield's presence is told in a public note naming its hex and marker, its type and
-- strength stay the German's; a minefield still hidden stays out of the British view
kessel.test("case_9.602_9.6073_hidden_fortifications_are_hidden_from_the_other_side", function()
  field({}, { valued = { { kind = "ap_mine", side = "german", hex = "C4", value = { strength = 6, hidden = true, fortification = true } },
    { kind = "at_mine", side = "german", hex = "N4", value = { strength = 4, hidden = true, fortification = true } } } })
  local function mines(side)
    local out = {}
    for _, m in ipairs(kessel.game.view(side).markers) do
      if m.kind == "ap_mine" or m.kind == "at_mine" then out[#out + 1] = m end
    end
    return out
  end
  expect.eq(#mines("british"), 0, "the British see neither minefield")
  expect.eq(#mines("russian"), 0, "nor does a side the module does not have")
  expect.eq(#mines("german"), 2, "the German sees his own")
  local ev = T.resolve()
  T.has_note(ev, "a minefield (marker 2) in C4 is revealed as a Known minefield")
  expect.eq(#mines("british"), 0, "a Known minefield's type and strength stay the German's")
  for _, entry in ipairs(kessel.game.view("british", { log = true }).log) do
    for _, e in ipairs(entry.events) do
      if e.event == "note" and e.text then
        expect.falsy(e.text:find("at_mine", 1, true) or e.text:find("ap_mine", 1, true), e.text)
      end
      if e.event == "marker_changed" or e.event == "marker_created" then expect.truthy(false, "a minefield's record shows") end
    end
  end
  expect.eq(kessel.markers.all{ kind = "ap_mine" }[1].value.known, true, "the rules read the truth")
  T.replays()
end)

-- [9.6073] a hidden Fortification that is not a minefield is revealed to every side
kessel.test("case_9.6073_a_revealed_fortification_shows_to_every_side", function()
  field({}, { valued = { { kind = "foxhole", side = "german", hex = "C4", value = { hidden = true, fortification = true } } } })
  local function seen(side)
    for _, m in ipairs(kessel.game.view(side).markers) do if m.kind == "foxhole" then return m end end
  end
  expect.falsy(seen("british"), "hidden before the step")
  T.resolve()
  local m = seen("british")
  expect.truthy(m, "revealed in the British's Setup Area")
  expect.eq(m.value.hidden, nil)
  expect.eq(#kessel.markers.hidden_from(m.id), 0)
  T.replays()
end)

-- [9.608] a prisoner of a non-Isolated Guard is Eliminated; an Isolated Guard keeps his
kessel.test("case_9.608_prisoners_of_non_isolated_guards_eliminated", function()
  T.setup{ step = "prisoners", units = {
    T.squad("g", "german", "4-6-7", "C5"), T.squad("p", "british", "6-4-8", "C5", { vars = { prisoner_of = "german", guarded_by = "g" } }),
    T.squad("gi", "german", "4-6-7", "H5", { vars = { isolated = true } }),
    T.squad("p2", "british", "6-4-8", "H5", { vars = { prisoner_of = "german", guarded_by = "gi" } }) } }
  T.resolve()
  expect.eq(T.unit("p").location, "eliminated")
  expect.eq(T.unit("p2").location, "map")
end)

-- [9.608] a freed unarmed MMC is Replaced by a Green/Conscript MMC of its size and goes to the
-- nearest friendly area; execution is refused in PB
kessel.test("case_9.608_freed_prisoner_replaced_by_conscript", function()
  field{ T.squad("gi", "german", "4-6-7", "J5"), T.squad("p", "british", "6-4-8", "J5", { vars = { prisoner_of = "german", guarded_by = "gi", unarmed = true } }) }
  T.resolve()  -- 9.607
  kessel.emit.unit_var("gi", "isolated", true)
  local ok, reasons = kessel.act{ kind = "prisoner", unit = "p", choice = "execute" }
  expect.refused(ok, reasons, "9.608", "not executed")
  expect.accepted(kessel.act{ kind = "prisoner", unit = "p", choice = "free" })
  local p = T.unit("p")
  expect.eq(p.vars.prisoner_of, nil)
  expect.eq(T.C.face_label(p), "4-4-7")
  expect.eq(p.vars.reph.status, "retained")
end)

-- [11.608] RB: an Isolated Guard may execute; Massacre is in effect next scenario
kessel.test("case_11.608_execution_sets_massacre", function()
  T.setup{ module = "rb", step = "prisoners", units = {
    T.squad("gi", "german", "4-6-7", "H5", { vars = { isolated = true } }),
    T.squad("p", "russian", "4-4-7r", "H5", { vars = { prisoner_of = "german", guarded_by = "gi" } }) } }
  expect.accepted(kessel.act{ kind = "prisoner", unit = "p", choice = "execute" })
  expect.eq(T.unit("p").location, "eliminated")
  expect.eq(kessel.game.var("massacre"), true)
end)

-- [11.607] RB clears non-Isolated units to the Retained box; Isolated ones and Immobile vehicles stay
kessel.test("case_11.607_clearing_the_map", function()
  T.setup{ module = "rb", step = "equipment", units = {
    T.squad("g", "german", "4-6-7", "C5"), T.squad("gi", "german", "4-6-7", "D5", { vars = { isolated = true } }),
    T.vehicle("t", "russian", "T-34", "E5", { vars = { immobile = true } }), T.sw("mg", "russian", "LMG", "C6") },
    markers = { ctrl("german", "C6") } }
  T.resolve()
  expect.eq(T.unit("g").location, "pending")
  expect.eq(T.unit("gi").location, "map")
  expect.eq(T.unit("t").location, "map")
  expect.eq(T.unit("mg").side, "german", "Retained by the side Controlling its Location [11.6072]")
end)

-- [11.6073] a friendly-Set hidden Set DC in a friendly-Controlled Location may be "removed" and
-- Retained: the owner says so in 11.607 (a secret action); one in an enemy-Controlled Location may
-- not (it is Eliminated); the other side may not decide it; the Russian reads nothing of where the
-- German DC that stays hidden is
kessel.test("case_11.6073_hidden_set_dc_may_be_removed_and_retained", function()
  T.setup{ module = "rb", step = "equipment", vars = { date = "18oct" }, units = {
    T.sw("dc1", "german", "DC", "C3", { vars = { hidden = true, set_dc = true } }),
    T.sw("dc2", "german", "DC", "D4", { vars = { hidden = true, set_dc = true } }),
    T.sw("dc3", "german", "DC", "C5", { vars = { hidden = true, set_dc = true } }) },
    markers = { { kind = "control", side = "german", at = "C3" }, { kind = "control", side = "russian", at = "D4" },
      { kind = "control", side = "german", at = "C5" } } }
  local ok, r = kessel.act{ kind = "retain_set_dc", unit = "dc2", side = "german" }
  expect.refused(ok, r, "11.6073", "enemy-Controlled")
  ok, r = kessel.act{ kind = "retain_set_dc", unit = "dc1", side = "russian" }
  expect.refused(ok, r, "11.6073", "only its owner")
  expect.accepted(kessel.act{ kind = "retain_set_dc", unit = "dc1", side = "german" })
  local ev = T.resolve()
  expect.eq(T.unit("dc1").location, "pending", "removed from the map")
  expect.eq(T.unit("dc1").vars.reph.area, "retained_box")
  expect.eq(T.unit("dc1").vars.hidden, nil)
  expect.eq(T.unit("dc1").vars.set_dc, nil, "no longer Set")
  expect.eq(T.unit("dc2").location, "eliminated")
  expect.eq(T.unit("dc3").vars.hidden, true, "the default: stays hidden")
  T.has_note(ev, "dc1 (a hidden Set DC in a friendly-Controlled Location) is removed and Retained")
  local russian = kessel.game.view("russian", { log = true })
  for _, entry in ipairs(russian.log) do
    for _, e in ipairs(entry.events) do
      if e.event == "note" and e.text then
        expect.falsy(e.text:find("dc3 (Set DC) in C5", 1, true), "the Russian does not read where the hidden DC stays")
      end
    end
  end
  T.replays()
end)
