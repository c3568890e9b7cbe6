-- Situations from the reference material, rules26 pass: what a tester asks of the queries against
-- what the actions then accept, played as a tester plays them.
local expect = kessel.expect

local function reach_hexes(ids)
  local r = kessel.queries.ask("reach", { units = ids })
  local set = {}
  for _, e in ipairs(r.reachable or {}) do set[e.hex] = e.cost end
  return set, r
end

-- [5.2] [6.4] On the first turn the 13th and 20th Armies may pass through columns 01-02 but may
-- not end a move there. The `reach` query (the editor's move field, `kessel query ... reach`)
-- listed those hexes as destinations, and a move to any of them was refused citing 5.2.
-- Board, Soviet Movement Phase of turn 1: rifle a (3-3-6) of the 20th Army in 0105.
kessel.test("case_5_2_reach_leaves_out_columns_01_02_for_the_13th_and_20th_armies_on_turn_1", function()
  local function rifle(army, turn)
    kessel.setup{ map = { columns = 12, rows = 9 }, step = "soviet_movement", turn = turn,
      vars = { first_turn_16 = "move", first_turn_19 = "move" },
      units = { { id = "a", name = "a", side = "soviet", type = "rifle", formation = army, faces = { "3-3-6" }, at = "0105" } } }
  end
  rifle("20 Army", 1)
  local set = reach_hexes({ "a" })
  for _, h in ipairs({ "0104", "0106", "0205", "0204", "0206" }) do
    expect.falsy(set[h], h .. " is in columns 01-02: no destination for the 20th Army on turn 1")
    local ok, why = kessel.validate{ kind = "move", units = { "a" }, path = { h } }
    expect.refused(ok, why, "5.2", "columns 01-02")
  end
  expect.eq(set["0305"], 2, "through column 02 to column 03")
  -- every hex the query lists is accepted as a move's destination
  for h in pairs(set) do
    local ok, why = kessel.validate{ kind = "move", units = { "a" }, path = { h } }
    expect.truthy(ok, h .. ": " .. tostring(why and why[1] and why[1].message))
  end
  -- (the move through column 02 is made, and may go on east)
  expect.accepted(kessel.act{ kind = "move", units = { "a" }, path = { "0104", "0204", "0304" } })
  -- other armies on turn 1, and every army from turn 7, are not kept out by this rule; a unit of
  -- another army on turn 1 is kept out of columns 01-02 altogether [6.4]
  rifle("24 Army", 1)
  set = reach_hexes({ "a" })
  expect.falsy(set["0305"], "[6.4] another army may not pass through columns 01-02 on turns 1-6")
  rifle("20 Army", 7)
  set = reach_hexes({ "a" })
  expect.eq(set["0104"], 1, "turn 7: column 01 is open [6.4]")
end)

-- [6.5] After a successful overrun the stack that entered the cleared hex moves on as one stack
-- (WBC09 #11 lets it split). `reach` asked about one of its units answered with a field of hexes,
-- and a move of that unit to any of them was refused citing 6.5; it now gives the same refusal.
-- Board, German Initial Movement Phase of turn 7: panzer regiments a and b (7-7-10) in 0303
-- overrun rifle s (1-1-6) in 0403: 14 halved to 7 against 1, roll 1, De; they enter 0403.
kessel.test("case_6_5_reach_of_part_of_an_overrun_stack_is_refused_as_the_move_is", function()
  local function pz(id, at) return { id = id, name = id, side = "german", type = "panzer", formation = "F" .. id, faces = { "7-7-10", "1-1-10" }, at = at } end
  for _, split in ipairs({ false, true }) do
    kessel.setup{ map = { columns = 8, rows = 8 }, step = "german_movement", turn = 7,
      options = { wbc09_11_overrun_stack_may_split = split },
      units = { pz("a", "0303"), pz("b", "0303"),
        { id = "s", name = "s", side = "soviet", type = "rifle", faces = { "1-1-6" }, at = "0403" } } }
    kessel.inject_dice{ 1 }
    expect.accepted(kessel.act{ kind = "overrun", units = { "a", "b" }, target = "0403" })
    local set, r = reach_hexes({ "a" })
    if split then
      expect.eq(#(r.refused or {}), 0, "WBC09 #11: a unit of the stack may move alone")
      expect.truthy(set["0503"], "WBC09 #11")
      expect.accepted(kessel.validate{ kind = "move", units = { "a" }, path = { "0503" } })
    else
      expect.eq(next(set), nil, "no hex for part of the stack")
      expect.eq(r.refused[1].rule, "6.5")
      expect.truthy(r.refused[1].message:find("moves on together", 1, true), r.refused[1].message)
      local ok, why = kessel.validate{ kind = "move", units = { "a" }, path = { "0503" } }
      expect.refused(ok, why, "6.5", "moves on together")
      -- the whole stack: the query and the move agree
      set = reach_hexes({ "a", "b" })
      expect.truthy(set["0503"])
      expect.accepted(kessel.validate{ kind = "move", units = { "a", "b" }, path = { "0503" } })
    end
  end
end)

-- [12.2] [12.3] The note that says what an untried unit proved to be cites the case of the reveal,
-- 12.2 (revealed when first committed to combat or an overrun), and the note that a 1-1-6 counts
-- as the second 0-1-6 cites 12.3, the case of units that may only defend; both cited the whole
-- rule 12.
-- Board, German Combat Phase of turn 7: panzer g (4-4-10) in 0303 attacks face-down rifles s in
-- 0403 (a 3-3-6) and t in 0402 (a 1-1-6 under option two_zero_one_rifles).
kessel.test("case_12_2_the_reveal_note_cites_12_2_and_the_second_zero_one_12_3", function()
  kessel.setup{ map = { columns = 8, rows = 8 }, step = "german_combat", turn = 7,
    options = { two_zero_one_rifles = true },
    pools = { rifle = { "3-3-6", "1-1-6" } },
    units = {
      { id = "g", name = "g", side = "german", type = "panzer", formation = "Fg", faces = { "4-4-10", "2-2-10" }, at = "0303" },
      { id = "s", name = "s", side = "soviet", type = "rifle", hidden = true, pool = "rifle", at = "0403" },
      { id = "t", name = "t", side = "soviet", type = "rifle", hidden = true, pool = "rifle", at = "0402" },
    } }
  kessel.inject_dice{ 1, 1, 6 }   -- s draws the 3-3-6, t the 1-1-6; then the combat roll
  local ok, ev = kessel.act{ kind = "attack", units = { "g" }, targets = { "0403", "0402" } }
  expect.accepted(ok, ev)
  local reveals, second = 0, nil
  for _, e in ipairs(ev) do
    if e.text and e.text:find("revealed as", 1, true) then
      reveals = reveals + 1
      expect.eq(e.rule, "12.2", e.text)
    end
    if e.text and e.text:find("counts as the second 0-1-6", 1, true) then second = e end
  end
  expect.eq(reveals, 2, "both defenders revealed")
  expect.truthy(second, "t counts as the second 0-1-6")
  expect.eq(second.rule, "12.3", second.text)
end)

-- [6.22] [6.5] A stack in an enemy zone of control may not leave it voluntarily: the `reach` query
-- about it answered with no hex, no refused unit and no reason, as if the stack had merely run out
-- of room. It now refuses the units with the no-exit reason that a move gets, naming the enemy
-- unit; the overrun of that unit stays open (listed, and accepted).
-- Board, German Initial Movement Phase of turn 7: panzer g (4-4-10) in 0404 next to rifle r
-- (2-2-6) in 0504; leader l (rating 5) in 0808.
kessel.test("case_6_22_reach_of_a_stack_in_an_enemy_zoc_says_it_may_not_leave", function()
  kessel.setup{ map = { columns = 10, rows = 10 }, step = "german_movement", turn = 7, run_step_start = true,
    units = {
      { id = "g", name = "g", side = "german", type = "panzer", formation = "Fg", faces = { "4-4-10", "2-2-10" }, at = "0404" },
      { id = "r", name = "r", side = "soviet", type = "rifle", faces = { "2-2-6" }, at = "0504" },
      { id = "l", name = "l", side = "soviet", type = "leader", faces = { "0-5-10" }, attrs = { rating = 5 }, at = "0808" },
    } }
  local set, r = reach_hexes({ "g" })
  expect.eq(next(set), nil, "nowhere to move")
  expect.eq(#r.movers, 0)
  expect.eq(#r.refused, 1)
  expect.eq(r.refused[1].unit, "g")
  expect.eq(r.refused[1].rule, "6.22")
  expect.eq(r.refused[1].message, "the stack at 0404 is in the zone of control of r at 0504 and may not leave it voluntarily")
  local ok, why = kessel.validate{ kind = "move", units = { "g" }, path = { "0405" } }
  expect.refused(ok, why, "6.22", r.refused[1].message)
  local listed = false
  for _, a in ipairs(kessel.legal()) do
    if a.kind == "overrun" and a.target == "0504" then listed = true end
  end
  expect.truthy(listed, "the overrun of r is listed")
  expect.accepted(kessel.validate{ kind = "overrun", units = { "g" }, target = "0504" })
  -- out of the zone the stack moves, and the query lists its hexes
  kessel.setup{ map = { columns = 10, rows = 10 }, step = "german_movement", turn = 7, run_step_start = true,
    units = {
      { id = "g", name = "g", side = "german", type = "panzer", formation = "Fg", faces = { "4-4-10", "2-2-10" }, at = "0204" },
      { id = "r", name = "r", side = "soviet", type = "rifle", faces = { "2-2-6" }, at = "0504" },
    } }
  set, r = reach_hexes({ "g" })
  expect.eq(#r.refused, 0)
  expect.eq(set["0404"], 2, "into the zone, where the move ends")
end)

-- [9.73] FAQ 3 A unit retreated onto friends adds nothing to their defence when their hex is
-- attacked later that phase. The `odds` answer and the combat record gave the lower defence with
-- no line saying why, so the rider looked forgotten; each rider is now named in a defence line
-- citing 9.73.
-- Board, German Combat Phase of turn 7: German g (4-4-10) in 0404 attacks 0504, where rifle a
-- (3-3-6) stands and rifle b (5-5-6) has retreated onto it this phase; leader l (rating 5) in
-- 0806 keeps them in supply. 4 against 3, 1-1.
kessel.test("case_9_73_odds_and_the_combat_record_say_the_retreated_unit_adds_nothing", function()
  kessel.setup{ map = { columns = 10, rows = 10 }, step = "german_combat", turn = 7, units = {
    { id = "g", name = "g", side = "german", type = "panzer", formation = "Fg", faces = { "4-4-10", "2-2-10" }, at = "0404" },
    { id = "a", name = "a", side = "soviet", type = "rifle", faces = { "3-3-6" }, at = "0504" },
    { id = "b", name = "b", side = "soviet", type = "rifle", faces = { "5-5-6" }, at = "0504", flags = { "retreated_onto" } },
    { id = "l", name = "l", side = "soviet", type = "leader", faces = { "0-5-10" }, attrs = { rating = 5 }, at = "0806" },
  } }
  local o = kessel.queries.ask("odds", { units = { "g" }, targets = { "0504" } })
  expect.eq(o.defence, 3, "b adds nothing")
  expect.eq(o.label, "1-1")
  local line
  for _, m in ipairs(o.defence_modifiers) do if m.rule == "9.73" then line = m end end
  expect.truthy(line, "a defence line cites 9.73")
  expect.eq(line.message, "b retreated onto 0504 this phase and adds nothing to its defence")
  kessel.inject_dice{ 6 }   -- 1-1, roll 6: A2
  local ok, ev = kessel.act{ kind = "attack", units = { "g" }, targets = { "0504" } }
  expect.accepted(ok, ev)
  local seen = false
  for _, e in ipairs(ev) do
    if e.text == "b retreated onto 0504 this phase and adds nothing to its defence" then
      seen = true
      expect.eq(e.rule, "9.73")
    end
  end
  expect.truthy(seen, "the combat's notes say so too")
  -- without the rider there is no such line
  kessel.setup{ map = { columns = 10, rows = 10 }, step = "german_combat", turn = 7, units = {
    { id = "g", name = "g", side = "german", type = "panzer", formation = "Fg", faces = { "4-4-10", "2-2-10" }, at = "0404" },
    { id = "a", name = "a", side = "soviet", type = "rifle", faces = { "3-3-6" }, at = "0504" },
    { id = "l", name = "l", side = "soviet", type = "leader", faces = { "0-5-10" }, attrs = { rating = 5 }, at = "0806" },
  } }
  o = kessel.queries.ask("odds", { units = { "g" }, targets = { "0504" } })
  expect.eq(#o.defence_modifiers, 0)
end)

-- [11.2] [6.6] Why a Soviet unit is out of supply: the `supply` answer (and the note at the start
-- of the Movement Phase [11.3]) gave one text for every case, "no line of communication within a
-- leader's rating ...", whether no leader was near, the leader in range was cut off from the east
-- edge, or he was disrupted. It now names the leader in range and what fails, citing 11.2 for his
-- missing line of supply and 6.6 for his disruption (the disrupted leader himself is in supply
-- while his own line to the east edge is open: see reference_situations21).
-- Board, Soviet Movement Phase of turn 7 (east edge column 10): German infantry in 0502, 0504,
-- 0506, 0508 and 0510 close column 05 to Soviet lines. West of it rifle a (0305) and leader Lukin
-- (rating 3, 0304); east of it rifle b (0708) and leader Konev (rating 3, 0707, disrupted), and
-- rifle c alone in 0901.
kessel.test("case_11_2_the_supply_answer_names_the_leader_in_range_and_what_fails", function()
  local units = {
    { id = "a", name = "a", side = "soviet", type = "rifle", faces = { "3-3-6" }, at = "0305" },
    { id = "lukin", name = "Lukin", side = "soviet", type = "leader", faces = { "0-3-10" }, attrs = { rating = 3 }, at = "0304" },
    { id = "b", name = "b", side = "soviet", type = "rifle", faces = { "3-3-6" }, at = "0708" },
    { id = "konev", name = "Konev", side = "soviet", type = "leader", faces = { "0-3-10" }, attrs = { rating = 3 }, at = "0707", flags = { "disrupted" } },
    { id = "c", name = "c", side = "soviet", type = "rifle", faces = { "3-3-6" }, at = "0901" },
  }
  for i, row in ipairs({ "02", "04", "06", "08", "10" }) do
    units[#units + 1] = { id = "g" .. i, name = "g" .. i, side = "german", type = "infantry", formation = "I" .. i,
      faces = { "9-9-7", "4-4-7", "2-2-7", "1-1-7" }, at = "05" .. row }
  end
  kessel.setup{ map = { columns = 10, rows = 10 }, step = "soviet_movement", turn = 7, units = units, run_step_start = true }
  local want = {
    a = { "11.2", "the leader in range, Lukin in 0304 (rating 3), has no line of supply to the east edge [11.2]" },
    lukin = { "11.2", "no line of supply to the east edge [11.2]" },
    b = { "6.6", "the leader in range, Konev in 0707, is disrupted and gives no line of communication [6.6]" },
    c = { "11.2", "no line of communication within a leader's rating to a leader with a line of supply to the east edge [11.2]" },
  }
  for id, w in pairs(want) do
    local q = kessel.queries.ask("supply", { unit = id })
    expect.eq(q.in_supply, false, id)
    expect.eq(q.rule, w[1], id)
    expect.eq(q.why, w[2], id)
    expect.eq(kessel.units.get(id).flags.oos, true, id .. " marked out of supply at the start of the phase")
  end
  -- Konev himself supplies nobody, but his own line to the east edge keeps him in supply: a
  -- disrupted unit defends normally [6.6] (rules30; he was once judged out of supply "to himself")
  local q = kessel.queries.ask("supply", { unit = "konev" })
  expect.eq(q.in_supply, true, "konev")
  expect.eq(q.rule, "11.2")
  expect.eq(q.why, "disrupted, he gives no line of communication [6.6], but has his own line of supply to the east edge")
  expect.falsy(kessel.units.get("konev").flags.oos, "konev is not marked out of supply")
  -- the Movement Phase's note says the same
  kessel.setup{ map = { columns = 10, rows = 10 }, step = "soviet_interdiction", turn = 7, units = units }
  local ok, ev = kessel.act{ kind = "end_phase" }
  expect.accepted(ok, ev)
  while kessel.game.step().id ~= "soviet_movement" do
    ok, ev = kessel.act{ kind = "end_phase" }
    expect.accepted(ok, ev)
  end
  local seen = false
  for _, e in ipairs(ev) do
    if e.text == "a at 0305 is out of supply: " .. want.a[2] then seen = true; expect.eq(e.rule, "11.3") end
  end
  expect.truthy(seen, "the note of the Movement Phase names Lukin")
end)

-- [10.35] [6.6] A disrupted leader gives no command radius. An attack by a unit whose only leader
-- in range is disrupted was refused as "outside every leader's command radius" alone, which reads
-- as if no leader were near; the refusal (and the `odds` answer's reasons) now name the disrupted
-- leader, citing 6.6, beside the 10.35 refusal.
-- Board, Soviet Combat Phase of turn 7: rifle a (3-3-6) in 0305 next to German g (9-9-7) in 0405;
-- leader Konev (rating 3) in 0304, disrupted by an overrun. Then Konev not disrupted, and Konev
-- away in 0808.
kessel.test("case_10_35_an_attack_refused_for_a_disrupted_leader_names_him", function()
  local function board(konev_at, disrupted)
    kessel.setup{ map = { columns = 10, rows = 10 }, step = "soviet_combat", turn = 7, units = {
      { id = "a", name = "a", side = "soviet", type = "rifle", faces = { "3-3-6" }, at = "0305" },
      { id = "konev", name = "Konev", side = "soviet", type = "leader", faces = { "0-3-10" }, attrs = { rating = 3 }, at = konev_at,
        flags = disrupted and { "disrupted" } or nil },
      { id = "g", name = "g", side = "german", type = "infantry", formation = "Ig", faces = { "9-9-7", "4-4-7", "2-2-7", "1-1-7" }, at = "0405" },
    } }
  end
  board("0304", true)
  local ok, why = kessel.validate{ kind = "attack", units = { "a" }, targets = { "0405" } }
  expect.refused(ok, why, "10.35", "a in 0305 is outside every leader's command radius")
  expect.refused(ok, why, "6.6", "the leader in range, Konev in 0304, is disrupted and has no command radius")
  local o = kessel.queries.ask("odds", { units = { "a" }, targets = { "0405" } })
  expect.eq(o.legal, false)
  local cites = false
  for _, r in ipairs(o.reasons) do if r.rule == "6.6" then cites = true end end
  expect.truthy(cites, "the odds answer gives the same reasons")
  board("0304", false)
  expect.accepted(kessel.validate{ kind = "attack", units = { "a" }, targets = { "0405" } })
  board("0808", false)
  ok, why = kessel.validate{ kind = "attack", units = { "a" }, targets = { "0405" } }
  expect.refused(ok, why, "10.35", "outside every leader's command radius")
  for _, r in ipairs(why) do expect.falsy(r.rule == "6.6", "no disrupted leader to name: " .. r.message) end
end)

-- [11.3] [6.1] A unit out of supply at the start of its Movement Phase moves with half its
-- allowance. A move beyond the halved allowance was refused as "needs 6 MP, g has 5 MP left",
-- which says nothing of why a panzer has 5; the refusal now adds that its allowance of 10 is
-- halved out of supply, citing 11.3, and a unit in supply gets no such words.
-- Board, German Initial Movement Phase of turn 7, on a 12x10 map with no road to 0120 and the
-- west edge 5 hexes away: panzer g (4-4-10) in 0605 marked out of supply; panzer h in 0604 not.
kessel.test("case_11_3_a_move_beyond_the_halved_allowance_says_it_is_halved", function()
  kessel.setup{ map = { columns = 12, rows = 10 }, step = "german_movement", turn = 7, units = {
    { id = "h", name = "h", side = "german", type = "panzer", formation = "Fh", faces = { "4-4-10", "2-2-10" }, at = "0605" },
    { id = "g", name = "g", side = "german", type = "panzer", formation = "Fg", faces = { "4-4-10", "2-2-10" }, at = "0605", flags = { "oos" } },
  } }
  local halved = "(out of supply at the start of the phase: allowance 10 halved to 5 [11.3])"
  local ok, why = kessel.validate{ kind = "move", units = { "g" }, path = { "1205" } }
  expect.refused(ok, why, "6.1", "cannot reach 1205: needs 6 MP, g (Fg) has 5 MP left " .. halved)
  ok, why = kessel.validate{ kind = "move", units = { "g" }, path = { "0705", "0805", "0905", "1005", "1105", "1205" } }
  expect.refused(ok, why, "6.1", "g (Fg) has 5 MP left " .. halved)
  -- a stack is held to its unit out of supply, which the refusal names, listed first or not
  ok, why = kessel.validate{ kind = "move", units = { "h", "g" }, path = { "0705", "0805", "0905", "1005", "1105", "1205" } }
  expect.refused(ok, why, "6.1", "g (Fg) has 5 MP left " .. halved)
  ok, why = kessel.validate{ kind = "move", units = { "h", "g" }, path = { "1205" } }
  expect.refused(ok, why, "6.1", "g (Fg) has 5 MP left " .. halved)
  expect.accepted(kessel.validate{ kind = "move", units = { "g" }, path = { "1105" } })
  -- in supply: the whole allowance, and a refusal beyond it has no such words
  expect.accepted(kessel.validate{ kind = "move", units = { "h" }, path = { "1205" } })
  kessel.setup{ map = { columns = 20, rows = 10 }, step = "german_movement", turn = 7, units = {
    { id = "h", name = "h", side = "german", type = "panzer", formation = "Fh", faces = { "4-4-10", "2-2-10" }, at = "0605" },
  } }
  ok, why = kessel.validate{ kind = "move", units = { "h" }, path = { "1705" } }
  local r = expect.refused(ok, why, "6.1", "needs 11 MP, h (Fh) has 10 MP left")
  expect.falsy(r.message:find("11.3", 1, true), r.message)
end)

-- [6.5] [11.3] An overrun costs 3 MP. A unit short of them was refused as "has 2.0 MP left", a
-- whole number written as a float, and with no word of why it had so few when out of supply;
-- the refusal now writes MP as the other refusals do and says the allowance is halved.
-- Board, German Initial Movement Phase of turn 7: panzer g (4-4-10) in 0303, out of supply (5 MP)
-- with 3 spent, next to rifle s (2-2-6) in 0403; panzer h in 0302, in supply, with 8 of 10 spent.
kessel.test("case_6_5_an_overrun_short_of_mp_says_how_many_and_why", function()
  kessel.setup{ map = { columns = 8, rows = 8 }, step = "german_movement", turn = 7, units = {
    { id = "g", name = "g", side = "german", type = "panzer", formation = "Fg", faces = { "4-4-10", "2-2-10" }, at = "0303",
      flags = { "oos" }, vars = { mp_spent = 6 } },
    { id = "h", name = "h", side = "german", type = "panzer", formation = "Fh", faces = { "4-4-10", "2-2-10" }, at = "0302",
      vars = { mp_spent = 16 } },
    { id = "s", name = "s", side = "soviet", type = "rifle", faces = { "2-2-6" }, at = "0403" },
  } }
  local ok, why = kessel.validate{ kind = "overrun", units = { "g" }, target = "0403" }
  expect.refused(ok, why, "6.5", "g (Fg) in 0303 has 2 MP left (out of supply at the start of the phase: allowance 10 halved to 5 [11.3]); an overrun into 0403 costs 3")
  ok, why = kessel.validate{ kind = "overrun", units = { "h" }, target = "0403" }
  expect.refused(ok, why, "6.5", "h (Fh) in 0302 has 2 MP left; an overrun into 0403 costs 3")
end)

-- [14.3] A reinforcement enters in its own area. Set up inline on a map without that area, its
-- entry was refused as "0101 is not in entry area C ()" (an empty list), and the `reach` answer
-- said only that no hex of its area could be entered now; both now say the map has no area C.
-- Before its turn, the refusal is still the turn's.
-- Board, German Initial Movement Phase of turn 5 on a 7x7 map with no areas: panzer g due on turn
-- 5 in area C; panzer h due on turn 6 in area C.
kessel.test("case_14_3_an_entry_area_the_map_lacks_is_named_as_missing", function()
  kessel.setup{ map = { columns = 7, rows = 7 }, step = "german_movement", turn = 5, units = {
    { id = "g", name = "g", side = "german", type = "panzer", formation = "Fg", faces = { "4-4-10", "2-2-10" }, enter = { turn = 5, area = "C" } },
    { id = "h", name = "h", side = "german", type = "panzer", formation = "Fh", faces = { "4-4-10", "2-2-10" }, enter = { turn = 6, area = "C" } },
  } }
  local ok, why = kessel.validate{ kind = "move", units = { "g" }, path = { "0101" } }
  expect.refused(ok, why, "14.3", "g (Fg) enters in area C, which this map does not have")
  local r = kessel.queries.ask("reach", { units = { "g" } })
  expect.eq(#r.reachable, 0)
  expect.eq(r.refused[1].rule, "14.3")
  expect.eq(r.refused[1].message, "g (Fg) enters in area C, which this map does not have")
  r = kessel.queries.ask("reach", { units = { "h" } })
  expect.eq(r.refused[1].rule, "14.3")
  expect.falsy(r.refused[1].message:find("does not have", 1, true), "not yet due: " .. r.refused[1].message)
  -- with the area on the map, the entry is made
  kessel.setup{ map = { columns = 7, rows = 7, areas = { C = { "0101", "0102" } } }, step = "german_movement", turn = 5, units = {
    { id = "g", name = "g", side = "german", type = "panzer", formation = "Fg", faces = { "4-4-10", "2-2-10" }, enter = { turn = 5, area = "C" } },
  } }
  expect.accepted(kessel.act{ kind = "move", units = { "g" }, path = { "0101" } })
end)
