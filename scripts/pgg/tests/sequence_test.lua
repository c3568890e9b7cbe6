-- Rule tests for the sequence of play [4] (rules/sequence.lua).

-- [4] Sequence of play -------------------------------------------------------------------------
do
  local B = require("testing.board8")
  local expect, K, Z, S, L, M, V, pz, rifle, leader, board, attack, choose, retreat, mv, note, end_phases =
    B.expect, B.K, B.Z, B.S, B.L, B.M, B.V, B.pz, B.rifle, B.leader, B.board, B.attack, B.choose, B.retreat, B.mv, B.note, B.end_phases

  -- Rule 4: the nine phases come in the printed order and the turn advances after the German Air
  -- Interdiction Phase.
  kessel.test("case_4_sequence_of_play_order_and_turn_advance", function()
    board({}, { step = "soviet_movement", turn = 2, bare = true })
    local order = { "soviet_movement", "soviet_combat", "soviet_disruption_removal", "soviet_interdiction",
      "german_movement", "german_combat", "german_mech_movement", "german_disruption_removal",
      "german_air_interdiction" }
    for i, id in ipairs(order) do
      local st = kessel.game.step()
      expect.eq(st.id, id, "phase " .. i)
      expect.eq(kessel.game.turn(), 2)
      expect.accepted(kessel.act{ kind = "end_phase" })
    end
    expect.eq(kessel.game.step().id, "soviet_movement", "a new game-turn starts with the Soviet")
    expect.eq(kessel.game.turn(), 3)
  end)
end
