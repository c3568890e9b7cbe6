local expect = kessel.expect

-- Rule Y1: no crossing at the Yelnya bridge on turns 1 and 2.
kessel.test("case_Y1_bridge_down_on_turn_1", function()
  kessel.act{ kind = "end_air_placement" }        -- the German's pre-game air markers [13.2]
  while kessel.game.step().id ~= "german_movement" do
    expect.accepted(kessel.act{ kind = "end_phase" })
  end
  local ok, reasons = kessel.act{ kind = "move", units = { "g-10pz-pz" }, path = { "3120" } }
  expect.refused(ok, reasons, "Y1", "bridge")
end)
