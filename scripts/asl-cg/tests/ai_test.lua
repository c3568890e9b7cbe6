-- The computer player plays the whole Refit Phase headless (rules/ai.lua), and a full RePh is
-- deterministic and replays from its events.
local T = require("testing.cg")
local expect = T.expect
local AI = require("rules.ai")

-- the engine's `legal(kind)` of the ai hook, from one listing of every kind: the computer player
-- asks for up to six kinds a decision, and each `kessel.legal()` runs every enumerator (a whole
-- RePh played in one test call ran near its 10 s wall clock on a busy machine)
local function lister(all)
  all = all or kessel.legal()
  return function(kind)
    local out = {}
    for _, a in ipairs(all) do if kind == nil or a.kind == kind then out[#out + 1] = a end end
    return out
  end
end

local function ctrl(side, hex) return { kind = "control", side = side, at = hex } end
local function position(seed)
  T.setup{ seed = seed, map = { columns = 16, rows = 10, tags = { strategic = { "C5", "N5", "G2" } },
      terrain = { G2 = "wooden_building" }, areas = { P1 = { "P1", "P2" }, A7 = { "P9", "P10" }, A1 = { "A1", "A2" } } },
    markers = { ctrl("british", "C5"), ctrl("german", "N5"), ctrl("british", "G2"), { kind = "blaze", at = "G2" } },
    units = {
      T.squad("b1", "british", "6-4-8", "C5"), T.hs("b2", "british", "6-4-8", "C4"), T.hs("b3", "british", "6-4-8", "C6"),
      T.leader("bl", "british", "9-1", "C5", { vars = { wounded = true } }), T.hero("bh", "british", "C5"),
      T.squad("g1", "german", "4-6-7", "N5"), T.squad("g2", "german", "4-6-7", "B5", { vars = { encircled = true } }),
      T.squad("g3", "german", "4-4-7", "H5"), T.sw("gmg", "german", "MMG", "N5", { vars = { possessed_by = "g1", malfunctioned = true } }),
      T.vehicle("pz", "german", "PzKpfw IVH", "M5", { vars = { immobile = true } }),
    },
    vars = { date = "dawn", cpp = { german = 3 }, san = { british = 4, german = 4 }, cvp_lost = { german = 20, british = 4 },
      entry_areas = { german = { P1 = true, A7 = true }, british = { A1 = true } }, entry_costs = { P1 = 0, A7 = 2 } } }
end

local function play()
  local n = 0
  while not kessel.game.finished() do
    local a = AI.choose(lister())
    expect.truthy(a, "the AI always has something to do")
    expect.accepted(kessel.act(a))
    n = n + 1
    expect.truthy(n < 200, "the phase ends")
  end
  return n
end

-- [9.6] the AI takes every step to the end; it buys RG it can afford and spends its FPP
kessel.test("case_9.6_ai_plays_the_whole_refit_phase", function()
  position(7)
  local n = play()
  expect.truthy(n >= 20, "at least one action per step")
  local rec = kessel.game.var("rg_record") or {}
  expect.truthy(#rec >= 1, "something bought with 3 + 32 CPP")
  expect.eq(kessel.game.var("date"), "day_i")
  expect.eq(T.C.fpp("german"), 0)
  -- the foxholes it bought are set up in 9.620 [9.62022] (they never came into play)
  expect.truthy(#kessel.markers.all{ kind = "foxhole", placed = true } > 0, "foxholes set up")
  for _, side in ipairs({ "german", "british" }) do
    for _, f in ipairs(T.C.fortifications(side)) do expect.eq(f.placed, true, side .. " " .. f.item) end
  end
  expect.eq(kessel.map.terrain("G2"), "wooden_rubble", "the blazing building burned down")
  expect.eq(T.unit("b3").location, "removed", "the two 3-4-8 HS recombined")
  expect.eq(T.unit("bh").location, "eliminated", "the hero hardened an MMC and is Eliminated")
  expect.eq(T.unit("g2").vars.encircled, nil)
end)

-- the same seed gives the same phase (two phases in one test call: the replay has a call of its own)
kessel.test("ai_refit_phase_is_deterministic", function()
  position(11)
  play()
  local a = kessel.state_hash()
  position(11)
  play()
  expect.eq(kessel.state_hash(), a)
end)

-- the log of the AI's phase replays without rules to the same state
kessel.test("ai_refit_phase_replays", function()
  position(11)
  play()
  T.replays()
end)

-- every action the rules list in every step is one their validators accept
kessel.test("enumerated_choices_are_valid_in_every_step", function()
  position(3)
  local kinds = {}
  while not kessel.game.finished() do
    local all = kessel.legal()
    for _, a in ipairs(all) do
      local ok, reasons = kessel.validate(a)
      expect.truthy(ok, a.kind .. ": " .. tostring(reasons[1] and reasons[1].message))
      kinds[a.kind] = true
    end
    expect.accepted(kessel.act(AI.choose(lister(all))))
  end
  local got = {}
  for k in pairs(kinds) do got[#got + 1] = k end
  table.sort(got)
  -- no Deploy: the only squad stacked with a leader (b1, C5) is Retained in a British Setup Area, so
  -- it has no Escape to Deploy for [9.606], and its wounded leader is gone by 9.613 (it was offered
  -- a Deploy in 9.606 before round 8); a side with Retained units it may set up elsewhere in their
  -- Setup Area has its set-up turns of 9.620, which it ends [9.62022], and may set them up
  -- elsewhere there (`set_up_retained`)
  expect.eq(table.concat(got, " "), "buy_fortification buy_rg end_step escape finish_setup hero_harden set_up_fortification set_up_retained shift", "choices offered")
end)

-- the editor's queries: a unit's RePh status and what a hex is
kessel.test("queries_reph_unit_and_setup_area", function()
  position(3)
  for _ = 1, 5 do T.resolve() end
  local q = kessel.queries.ask("reph_unit", { unit = "g2" })
  expect.eq(q.must_escape, true, "a German squad in the British area")
  local h = kessel.queries.ask("setup_area", { hex = "C5" })
  expect.eq(h.class, "british")
  expect.eq(h.area, "A")
end)
