-- Tests of the computer player's choices (ai/player.lua), called as `kessel simulate` calls it:
-- `AI.pick(legal, kinds, view, level)` in a small position.

local expect = kessel.expect
local AI = require("ai.player")
local C = require("rules.common")

local function inf(id, at)
  return { id = id, side = "german", type = "infantry", formation = id, faces = { "9-9-7", "4-4-7", "2-2-7", "1-1-7" }, at = at }
end
local function rifle(id, at) return { id = id, side = "soviet", type = "rifle", faces = { "2-2-6" }, at = at } end

local OBJ = { { name = "Orsha", vp = 5, hexes = { "0304" } }, { name = "Smolensk", vp = 25, hexes = { "1404" } } }

-- What the computer player picks for `side` now, at `level`.
local function pick(side, level)
  local kinds, seen = {}, {}
  for _, a in ipairs(kessel.legal(side)) do
    if not seen[a.kind] then seen[a.kind] = true; kinds[#kinds + 1] = a.kind end
  end
  local function legal(kind)
    local out = {}
    for _, a in ipairs(kessel.legal(side)) do if kind == nil or a.kind == kind then out[#out + 1] = a end end
    return out
  end
  return AI.pick(legal, kinds, nil, level)
end

local function position(turn, soviet_at)
  kessel.setup{ map = { columns = 16, rows = 8 }, step = "german_movement", turn = turn,
    units = { inf("a", "0304"), rifle("s1", soviet_at), rifle("s2", soviet_at), rifle("s3", soviet_at) },
    vars = { objectives = OBJ, city_owner = { ["0304"] = "german" } } }
end

-- Rule 15: one Soviet unit in a hex of a city the German held takes it back (2 VP each time), so
-- the German does not leave a city hex empty while a Soviet unit could walk in.
kessel.test("ai_german_keeps_a_garrison_in_a_threatened_city", function()
  for _, level in ipairs({ "fast", "strong" }) do
    -- with no Soviet unit within 6 hexes of Orsha, the infantry marches on toward Smolensk
    position(5, "1208")
    local a = pick("german", level)
    expect.truthy(a and a.kind == "move" and a.units[1] == "a", "the infantry marches on at " .. level)
    expect.truthy(kessel.hex.distance(a.path[#a.path], "1404") < kessel.hex.distance("0304", "1404"),
      "toward Smolensk at " .. level)
    -- a stack of Soviet rifle divisions three hexes from Orsha (too strong to attack at good
    -- odds): the infantry stays
    position(6, "0604")
    a = pick("german", level)
    expect.truthy(a ~= nil, "a choice at " .. level)
    expect.truthy(not (a.kind == "move" and a.units[1] == "a"), "the garrison holds Orsha at " .. level .. ": " .. a.kind .. " " .. table.concat(a.path or {}, ","))
  end
end)

-- The Soviet brings units up for an attack at 2-1 in its Movement Phase, at both levels: a lone
-- German 2-2 next to one Soviet 2-2 (1-1) draws the second 2-2, three hexes off, next to it rather
-- than to the line two hexes from the German where it would otherwise stand.
kessel.test("ai_soviet_brings_a_second_unit_up_to_attack", function()
  for _, level in ipairs({ "fast", "strong" }) do
    kessel.setup{ map = { columns = 16, rows = 8 }, step = "soviet_movement", turn = 7,
      units = { { id = "g", side = "german", type = "infantry", faces = { "2-2-7" }, at = "0804" },
        rifle("s1", "0904"), rifle("s2", "1104"),
        { id = "l", side = "soviet", type = "leader", faces = { "0-3-10" }, attrs = { rating = 3 }, at = "1004" } },
      vars = { objectives = {} } }
    local a = pick("soviet", level)
    expect.truthy(a and a.kind == "move" and C.contains(a.units, "s2"), "s2 moves first at " .. level .. ": "
      .. tostring(a and a.kind) .. " " .. table.concat(a and a.units or {}, ","))
    expect.eq(kessel.hex.distance(a.path[#a.path], "0804"), 1, "s2 ends next to the German at " .. level)
  end
end)

-- Over the last four turns the German closes the ring around a city the Soviet holds rather than
-- piling up on the side he already covers: a motorized regiment joins an infantry division west of
-- the city by ending on its far side, where its zone of control covers the hexes the division's
-- does not, so the defenders' lines are cut [11.2] and they defend at half [11.3].
kessel.test("ai_german_closes_the_ring_around_a_held_city", function()
  for _, level in ipairs({ "fast", "strong" }) do
    kessel.setup{ map = { columns = 16, rows = 8 }, step = "german_movement", turn = 10,
      units = { { id = "i1", side = "german", type = "infantry", formation = "i1", faces = { "9-9-7" }, at = "0704" },
        { id = "m1", side = "german", type = "motorized", formation = "m", faces = { "3-3-10" }, at = "0305" },
        { id = "s1", side = "soviet", type = "rifle", faces = { "5-5-6" }, at = "0804" },
        { id = "s2", side = "soviet", type = "rifle", faces = { "5-5-6" }, at = "0804" } },
      vars = { objectives = { { name = "X", vp = 25, hexes = { "0804" } } }, city_owner = { ["0804"] = "soviet" } } }
    local a = pick("german", level)
    expect.truthy(a and a.kind == "move" and a.units[1] == "m1", "the regiment moves at " .. level)
    local dest = a.path[#a.path]
    expect.truthy(kessel.hex.adjacent(dest, "0804"), "next to the city at " .. level .. ": " .. dest)
    -- hexes around the city the division's zone leaves open that the regiment's now covers
    local closed = 0
    for _, n in ipairs(kessel.hex.neighbors("0804")) do
      if not kessel.hex.adjacent(n, "0704") and n ~= "0704" and (n == dest or kessel.hex.adjacent(n, dest)) then
        closed = closed + 1
      end
    end
    expect.truthy(closed >= 2, "the regiment covers the city's far side at " .. level .. ": " .. dest)
  end
end)

-- The Soviet's Movement Phase played out by the computer player (at most `limit` actions).
local function play_phase(side, level, limit)
  local step = kessel.game.step().id
  for _ = 1, limit or 40 do
    local a = pick(side, level)
    if a == nil or a.kind == "end_phase" then return end
    expect.accepted(kessel.act(a))
    if kessel.game.step().id ~= step then return end
  end
end

-- Rule 11.2: a Soviet unit beyond every leader's radius is out of supply (half its movement and
-- strength [11.3]). One such unit five hexes from a rating-2 leader, the Germans far west: the
-- first move brings the two within the radius (the unit walks back, or the leader comes to it),
-- rather than the unit on toward the front.
kessel.test("ai_soviet_brings_a_unit_back_into_a_leaders_radius", function()
  local L = require("rules.leaders")
  for _, level in ipairs({ "fast", "strong" }) do
    kessel.setup{ map = { columns = 16, rows = 8 }, step = "soviet_movement", turn = 7,
      units = { { id = "g", side = "german", type = "infantry", faces = { "2-2-7" }, at = "0104" },
        rifle("s1", "0704"),
        { id = "l", side = "soviet", type = "leader", faces = { "0-2-10" }, attrs = { rating = 2 }, at = "1204" } },
      vars = { objectives = {} } }
    expect.truthy(not L.in_command(kessel.units.get("s1")), "s1 starts out of command at " .. level)
    local a = pick("soviet", level)
    expect.truthy(a and a.kind == "move", "a move at " .. level .. ": " .. tostring(a and a.kind))
    expect.accepted(kessel.act(a))
    expect.truthy(L.in_command(kessel.units.get("s1")), "s1 is within the leader's radius at " .. level .. ": "
      .. kessel.units.get("s1").hex .. ", leader at " .. kessel.units.get("l").hex)
  end
end)

-- While the German has no unit on the map (the campaign's turn 1) the front is where his units
-- come in: his entry hexes by the next turn. A rifle division next to its leader (rating 3), the
-- German due on the west edge this turn: it moves west toward them, within the radius. (Before,
-- with no German on the map every hex was equally far from the front and it stood still.)
kessel.test("ai_soviet_faces_the_german_entry_before_any_german_is_on_the_map", function()
  local west = {}
  for r = 1, 8 do west[#west + 1] = string.format("01%02d", r) end
  for _, level in ipairs({ "fast", "strong" }) do
    kessel.setup{ map = { columns = 16, rows = 8, areas = { W = west } }, step = "soviet_movement", turn = 2,
      units = { { id = "g", side = "german", type = "infantry", faces = { "2-2-7" }, enter = { turn = 2, area = "W" } },
        rifle("s1", "1204"),
        { id = "l", side = "soviet", type = "leader", faces = { "0-3-10" }, attrs = { rating = 3 }, at = "1104" } },
      vars = { objectives = {} } }
    play_phase("soviet", level)
    local dest = kessel.units.get("s1").hex
    expect.truthy(kessel.hex.distance(dest, "0104") < kessel.hex.distance("1204", "0104"),
      "s1 moved toward the German entry at " .. level .. ": " .. dest)
    expect.truthy(kessel.hex.distance(dest, kessel.units.get("l").hex) <= 3, "within its leader's radius at " .. level)
  end
end)

-- Near the front a line of communication at the very rim of a leader's radius is cut by the
-- German's next move [11.2]; with the choice, a Soviet unit stands where a hex or two are to spare.
-- A rating-3 leader at 1004, a German at 0404: the rifle division coming up from 1002 ends no
-- further than two hexes from the leader (without the spare-hex weight it stops at the rim, 0402).
kessel.test("ai_soviet_keeps_a_hex_to_spare_near_the_front", function()
  for _, level in ipairs({ "fast", "strong" }) do
    kessel.setup{ map = { columns = 16, rows = 8 }, step = "soviet_movement", turn = 7,
      units = { { id = "g", side = "german", type = "infantry", faces = { "2-2-7" }, at = "0404" },
        rifle("s1", "1002"),
        { id = "l", side = "soviet", type = "leader", faces = { "0-3-10" }, attrs = { rating = 3 }, at = "1004" } },
      vars = { objectives = {} } }
    play_phase("soviet", level)
    local dest = kessel.units.get("s1").hex
    local lhex = kessel.units.get("l").hex
    expect.truthy(kessel.hex.distance(dest, lhex) <= 2, "s1 keeps a hex to spare at " .. level .. ": " .. dest .. ", leader at " .. lhex)
    expect.truthy(kessel.hex.distance(dest, "0404") <= 3, "and stands near the front at " .. level .. ": " .. dest)
  end
end)

-- A Soviet who has not attacked all game takes an even fight (1-1) from the fifth turn on, and
-- only then: a lone 2-2 German next to a lone 2-2 rifle division.
kessel.test("ai_soviet_attacks_at_even_odds_when_it_has_not_attacked_yet", function()
  local function at_turn(turn)
    kessel.setup{ map = { columns = 16, rows = 8 }, step = "soviet_combat", turn = turn,
      units = { { id = "g", side = "german", type = "infantry", faces = { "2-2-7" }, at = "0804" },
        rifle("s1", "0904"),
        { id = "l", side = "soviet", type = "leader", faces = { "0-2-10" }, attrs = { rating = 2 }, at = "1104" } },
      vars = { objectives = {} } }
    return pick("soviet", "fast")
  end
  local a = at_turn(3)
  expect.truthy(a and a.kind == "end_phase", "no 1-1 on turn 3: " .. tostring(a and a.kind))
  a = at_turn(6)
  expect.truthy(a and a.kind == "attack" and a.targets[1] == "0804", "a 1-1 on turn 6: " .. tostring(a and a.kind))
  -- (the attack is remembered: the next turn the Soviet is back at his usual odds)
  a = at_turn(7)
  expect.truthy(a and a.kind == "end_phase", "no 1-1 once he has attacked: " .. tostring(a and a.kind))
end)
