-- Rule situations an outside checker met walking the campaign position (scenarios/pgg/campaign.toml)
-- through the set-up and turns 1-3, rebuilt here on the 10x10 board so each stands alone. Geometry
-- of the board: odd columns N, NE = c+1 r-1, SE = c+1 r, S, SW = c-1 r, NW = c-1 r-1; even columns
-- NE = c+1 r, SE = c+1 r+1, SW = c-1 r+1, NW = c-1 r.
local expect = kessel.expect
local B = require("testing.board10")

local function rules_of(list, rule)
  local out = {}
  for _, m in ipairs(list or {}) do
    if m.rule == rule then out[#out + 1] = m.message end
  end
  return out
end

-- [11.3] [12.2] A face-down division out of supply is halved whatever it proves, and its supply is
-- no secret: it follows from where the units stand. On the campaign map, turn 1, the odds query for
-- 7 Pz against a face-down 20th Army rifle division in Vitebsk, seven hexes from Kurochkin, gave a
-- worst case of 16 against 8 (8, halved 4, major city ×2) without a word of the halving: the only
-- 11.3 line appeared in the combat record after the roll. The answer now names the defender's
-- supply with the untried line. Board, German Combat Phase: g (6-6-10) in 0303 against u1 (face
-- down, pool 2-4-6) in 0403 with no Soviet leader anywhere, so u1 is out of supply: 4 halved 2,
-- 6 against 2 is 3-1.
kessel.test("case_11_3_odds_name_the_halving_of_an_untried_defender_out_of_supply", function()
  B.setup({ B.pz("g", "0303", "6-6-10"),
    { id = "u1", name = "u1", side = "soviet", type = "rifle", hidden = true, pool = "rifle", at = "0403" } },
    { pools = { rifle = { "2-4-6" } } })
  expect.eq(kessel.queries.ask("supply", { unit = "u1" }).in_supply, false, "no leader: out of supply [11.2]")
  local o = kessel.queries.ask("odds", { units = { "g" }, targets = { "0403" } })
  expect.eq(o.worst.defence, 2, "4 halved")
  expect.eq(o.label, "3-1")
  local lines = rules_of(o.defence_modifiers, "11.3")
  expect.eq(#lines, 1, "one 11.3 line for u1: " .. table.concat(lines, " | "))
  expect.truthy(lines[1]:find("rifle (face down) (0403) is out of supply", 1, true), lines[1])
  expect.eq(kessel.units.get("u1").hidden, true, "the query reveals nothing")
end)

-- [11.3] [12.2] The same face-down division within a leader's rating is in supply: no 11.3 line,
-- and the worst case is its full defence (4: 6 against 4 is 1-1).
kessel.test("case_11_3_odds_give_no_halving_line_for_an_untried_defender_in_supply", function()
  B.setup({ B.pz("g", "0303", "6-6-10"), B.leader("l", "0706", 5),
    { id = "u1", name = "u1", side = "soviet", type = "rifle", hidden = true, pool = "rifle", at = "0403" } },
    { pools = { rifle = { "2-4-6" } } })
  local o = kessel.queries.ask("odds", { units = { "g" }, targets = { "0403" } })
  expect.eq(o.worst.defence, 4)
  expect.eq(#rules_of(o.defence_modifiers, "11.3"), 0)
end)
