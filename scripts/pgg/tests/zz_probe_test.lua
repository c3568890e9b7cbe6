local function rifle(id, at, face) return { id = id, name = id, side = "soviet", type = "rifle", faces = { face or "2-2-6" }, at = at } end
local function pz(id, at, face) return { id = id, name = id, side = "german", type = "panzer", formation = "F" .. id, faces = { face or "4-4-10", "2-2-10" }, at = at } end
local function leader(id, at, rating) return { id = id, name = id, side = "soviet", type = "leader", faces = { "0-" .. rating .. "-10" }, attrs = { rating = rating }, at = at } end
local function show(ok, r) print(ok) if ok then for _, e in ipairs(r) do if e.text then print("  note", e.rule, e.text) end end else for _, x in ipairs(r) do print("  refused", x.rule, x.message) end end end
kessel.test("probe_corner", function()
  kessel.setup{ map = { columns = 10, rows = 10 }, units = { pz("g", "0201", "2-2-10"), rifle("a", "0101", "2-2-6"), leader("l", "0505", 5) }, step = "german_combat", turn = 7 }
  kessel.inject_dice{ 1 }
  show(kessel.act{ kind = "attack", units = { "g" }, targets = { "0101" } })
  show(kessel.act{ kind = "choose", choice = "retreat" })
  local p = kessel.game.var("pending"); print(p and p.kind, p and p.prompt)
  for _, a in ipairs(kessel.legal()) do print("legal", a.kind, a.path and table.concat(a.path, ",")) end
  show(kessel.act{ kind = "retreat", units = { "a" }, path = {} })
end)
kessel.test("probe_overstack_retreat", function()
  kessel.setup{ map = { columns = 10, rows = 10 }, units = { pz("g", "0303", "4-4-10"), rifle("a", "0403"), rifle("f1", "0503"), rifle("f2", "0503"), rifle("f3", "0503"),
    pz("z1", "0502"), pz("z2", "0404"), leader("l", "0707", 5) }, step = "german_combat", turn = 7 }
  kessel.inject_dice{ 6 }
  show(kessel.act{ kind = "attack", units = { "g" }, targets = { "0403" } })
  show(kessel.act{ kind = "choose", choice = "retreat" })
  local p = kessel.game.var("pending"); print(p and p.kind, p and p.prompt)
  for _, a in ipairs(kessel.legal()) do print("legal", a.kind, a.path and table.concat(a.path, ",")) end
end)
