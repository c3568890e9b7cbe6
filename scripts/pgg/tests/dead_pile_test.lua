-- Rule 12.4: once a pool of untried counters is used up, reveals draw from the dead pile (the
-- values of eliminated units of that pool), each dead counter at most once.

local expect = kessel.expect

local function pz(id, at) return { id = id, side = "german", type = "panzer", formation = "F" .. id, faces = { "6-6-10", "1-1-10" }, at = at } end
local function hidden(id, at) return { id = id, side = "soviet", type = "rifle", hidden = true, pool = "rifle", at = at } end

kessel.test("case_12_4_empty_pool_draws_from_the_dead_pile", function()
  kessel.setup{
    map = { columns = 8, rows = 8 }, step = "german_combat", turn = 7,
    units = {
      pz("g", "0303"), hidden("s", "0403"),
      -- a rifle division that died earlier, revealed as 2-5-6, in the dead pile
      { id = "dead", side = "soviet", type = "rifle", pool = "rifle", faces = { "2-5-6" }, location = "eliminated" },
      { id = "sup", side = "soviet", type = "leader", faces = { "0-5-10" }, attrs = { rating = 5 }, at = "0706" },
    },
    pools = { rifle = {} },
    vars = { dead_pile = { "dead" } },
  }
  kessel.inject_dice{ 1, 6 } -- the dead-pile draw, then the combat roll
  local events = expect.accepted(kessel.act{ kind = "attack", units = { "g" }, targets = { "0403" } })
  expect.eq(kessel.units.get("s").defence, 5, "the dead counter's values")
  local noted = false
  for _, e in ipairs(events) do
    if e.rule == "12.4" and e.text:find("dead pile", 1, true) then noted = true end
  end
  expect.truthy(noted, "the draw is noted with its rule")
  expect.eq(kessel.game.var("dead_faces_used")[1], "dead")
end)

-- [12.4] -----------------------------------------------------------------------------------------
do
  local B = require("testing.board8")
  local expect, K, Z, S, L, M, V, pz, rifle, leader, board, attack, choose, retreat, mv, note, end_phases =
    B.expect, B.K, B.Z, B.S, B.L, B.M, B.V, B.pz, B.rifle, B.leader, B.board, B.attack, B.choose, B.retreat, B.mv, B.note, B.end_phases

  -- Rule 12.3 / 12.4: a revealed 0-0-6 is removed into its own pile; only real casualties return from
  -- the dead pile as reinforcements [14.1] [14.2].
  kessel.test("case_12_4_duds_not_recycled_as_reinforcements", function()
    local R = require("rules.reinforcements")
    board({ pz("g", "0303", "6-6-10"), { id = "d", name = "d", side = "soviet", type = "rifle", hidden = true, pool = "rifle", at = "0403" },
      rifle("k", nil, "3-3-6", { location = "eliminated" }) }, { pools = { rifle = { "0-0-6" } } })
    kessel.inject_dice{ 1 }
    expect.accepted(attack({ "g" }, { "0403" }))
    expect.eq(kessel.units.get("d").location, "eliminated")
    expect.eq(kessel.game.var("dud_pile")[1], "d")
    local ids = {}
    for _, u in ipairs(R.available_rifles()) do ids[#ids + 1] = u.id end
    expect.eq(table.concat(ids, ","), "k", "the killed division may return, the dud may not")
  end)
end
