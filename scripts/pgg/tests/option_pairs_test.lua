-- Options in combination, as a tournament GM switches them: each test puts two options that touch
-- the same rule case (or the same moment of play) in one position and checks the engine with both
-- on, each alone and both off.

local expect = kessel.expect
local K = require("rules.combat")

local function reg(id, formation, face, at)
  local a, d, m = face:match("(%d+)-(%d+)-(%d+)")
  return { id = id, side = "german", type = "motorized", formation = formation,
    faces = { face, math.max(1, a // 2) .. "-" .. math.max(1, d // 2) .. "-" .. m }, at = at }
end

-- [7.3] WBC09 #9 with the source-conflict option supply_halving_before_integrity: alone, the
-- option halves each 3 to 1 before doubling (2 + 2); WBC09 #9 rules that the doubling comes first
-- (6 halved 3, each), so with both on the tournament reading stands, as WBC09 #5 stands over the
-- optional rule [10.4].
kessel.test("pair_wbc09_09_overrides_supply_halving_before_integrity", function()
  local oos = { in_supply = function() return false end }
  local function attack(options)
    kessel.setup{ map = { columns = 8, rows = 8 }, step = "german_combat", turn = 7, options = options,
      units = { reg("m1", "14 Mot", "3-3-10", "0303"), reg("m2", "14 Mot", "3-3-10", "0303"),
        { id = "sov", side = "soviet", type = "leader", faces = { "0-5-10" }, attrs = { rating = 5 }, at = "0706" } } }
    local us = { kessel.units.get("m1"), kessel.units.get("m2") }
    return (K.attack_total(us, oos)), K.defence_of({ "0303" }, oos), (K.attack_total(us, { in_supply = oos.in_supply, overrun = true }))
  end
  local cases = {
    { {}, 6, 6, 3, "both off: [7.3] doubles first" },
    { { wbc09_09_integrity_before_halving = true }, 6, 6, 3, "WBC09 #9 alone: the same" },
    { { supply_halving_before_integrity = true }, 4, 4, 2, "source-conflict option alone: halve first" },
    { { supply_halving_before_integrity = true, wbc09_09_integrity_before_halving = true }, 6, 6, 3,
      "both on: WBC09 #9 decides" },
  }
  for _, c in ipairs(cases) do
    local att, def, ovr = attack(c[1])
    expect.eq(att, c[2], c[5] .. " (attack)")
    expect.eq(def, c[3], c[5] .. " (defence)")
    expect.eq(ovr, c[4], c[5] .. " (overrun)")
  end
end)

-- [6.5] WBC09 #11 with option overrun_group: after a stack of two clears 0403, a second overrun
-- (0503) by one of them alone. Standard (either overrun_group): the stack goes on as one, by
-- overrun as by move, so one unit alone may not. WBC09 #11: it may, and its partner, which has not
-- finished yet, still belongs to the stack: it may overrun 0404 in its turn, and once another
-- unit moves it is stopped like the rest.
local function two_overruns(wbc11, group)
  local function pz(id, at) return { id = id, side = "german", type = "panzer", formation = "F" .. id, faces = { "14-14-10", "7-7-10" }, at = at } end
  kessel.setup{ map = { columns = 8, rows = 8 }, step = "german_movement", turn = 7,
    options = { wbc09_11_overrun_stack_may_split = wbc11, overrun_group = group },
    units = { pz("a", "0303"), pz("b", "0303"), pz("c", "0101"),
      { id = "s", side = "soviet", type = "rifle", faces = { "1-1-6" }, at = "0403" },
      { id = "s2", side = "soviet", type = "rifle", faces = { "0-1-6" }, at = "0503" },
      -- (disrupted: no zone of control [6.6], so the stack in 0403 may still overrun 0503 [6.22])
      { id = "s3", side = "soviet", type = "rifle", faces = { "0-1-6" }, at = "0404", flags = { "disrupted" } },
      { id = "sup", side = "soviet", type = "leader", faces = { "0-5-10" }, attrs = { rating = 5 }, at = "0808" } } }
  kessel.inject_dice{ 1 } -- 28 halved 14 against 1: 10-1, roll 1: De
  expect.accepted(kessel.act{ kind = "overrun", units = { "a", "b" }, target = "0403" })
  expect.eq(kessel.units.get("b").hex, "0403", "the stack entered the cleared hex")
  kessel.inject_dice{ 1 } -- 14 halved 7 against 1: 7-1, roll 1: De
  return kessel.act{ kind = "overrun", units = { "a" }, target = "0503" }
end

kessel.test("pair_wbc09_11_overrun_group_a_second_overrun_keeps_the_stack", function()
  for _, group in ipairs{ "started_together", "assembled" } do
    local ok, r = two_overruns(false, group)
    expect.refused(ok, r, "6.5", "moves on together")
    expect.eq(kessel.units.get("a").hex, "0403", group .. ": a stays with b")
    kessel.inject_dice{ 1 }
    expect.accepted(kessel.act{ kind = "overrun", units = { "a", "b" }, target = "0503" })

    expect.accepted(two_overruns(true, group))
    expect.eq(kessel.units.get("a").hex, "0503", group .. ": WBC09 #11 lets a go on alone")
    kessel.inject_dice{ 1 }
    expect.accepted(kessel.act{ kind = "overrun", units = { "b" }, target = "0404" })
    expect.falsy(kessel.units.get("a").flags.stopped, group .. ": b is of the same stack: a goes on")
    expect.accepted(kessel.act{ kind = "move", units = { "a" }, path = { "0603" } })

    expect.accepted(two_overruns(true, group))
    expect.accepted(kessel.act{ kind = "move", units = { "c" }, path = { "0102" } })
    kessel.inject_dice{ 1 }
    local ok2, r2 = kessel.act{ kind = "overrun", units = { "b" }, target = "0404" }
    expect.refused(ok2, r2, "6.5", "stopped by an earlier overrun")
  end
end)

-- [12.3] [12.4] option two_zero_one_rifles with the dead pile (and WBC09 #14, which governs who
-- comes back from it): the 1-1-6 that counted as the second 0-1-6 died; once the rifle pool is
-- used up, a face-down division revealed with its values is that counter again, so under the
-- option it may only defend too. Without the option a 1-1-6 is a 1-1-6.
kessel.test("pair_two_zero_one_rifles_dead_pile_keeps_the_second_zero_one", function()
  for _, wbc14 in ipairs{ false, true } do
    for _, two in ipairs{ false, true } do
      kessel.setup{ map = { columns = 8, rows = 8 }, step = "german_combat", turn = 7,
        options = { two_zero_one_rifles = two, wbc09_14_rifle_recycling_delay = wbc14 },
        units = {
          { id = "g", side = "german", type = "panzer", formation = "Fg", faces = { "6-6-10", "1-1-10" }, at = "0303" },
          { id = "s", side = "soviet", type = "rifle", hidden = true, pool = "rifle", at = "0403" },
          { id = "dead", side = "soviet", type = "rifle", pool = "rifle", faces = { "1-1-6" }, location = "eliminated",
            flags = two and { "no_attack" } or nil },
          { id = "sup", side = "soviet", type = "leader", faces = { "0-5-10" }, attrs = { rating = 5 }, at = "0706" } },
        pools = { rifle = {} },
        vars = { dead_pile = { "dead" }, second_zero_one = two and "dead" or nil } }
      kessel.inject_dice{ 1, 6 } -- the dead-pile draw, then the combat roll
      expect.accepted(kessel.act{ kind = "attack", units = { "g" }, targets = { "0403" } })
      local s = kessel.units.get("s")
      local what = string.format("two_zero_one_rifles=%s wbc09_14=%s", two, wbc14)
      expect.eq(s.attack, 1, what .. ": the dead counter's values")
      expect.eq(s.flags.no_attack == true, two, what .. ": may only defend under the option")
      expect.eq(kessel.game.var("second_zero_one"), two and "s" or nil, what)
    end
  end
end)
