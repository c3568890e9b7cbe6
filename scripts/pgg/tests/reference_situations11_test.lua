-- Situations from the reference material, eleventh tester pass (round 10): cases read one by one
-- against the rules, each played where the text is thin or was left open. Geometry of the 10x10
-- map: odd columns N, NE = c+1 r-1, SE = c+1 r, S, SW = c-1 r, NW = c-1 r-1; even columns NE = c+1 r,
-- SE = c+1 r+1, SW = c-1 r+1, NW = c-1 r.
local expect = kessel.expect
local B = require("testing.board10")

local function choose(c, units) return kessel.act{ kind = "choose", choice = c, units = units } end
local function retreat(units, path) return kessel.act{ kind = "retreat", units = units, path = path } end
local function end_phase() return expect.accepted(kessel.act{ kind = "end_phase" }) end

-- WBC09 #7: overrunners who cleared the hex but took their loss "end their turn and their movement
-- phase". Read: their movement is over for the player-turn, so units that overran in the German
-- Initial Movement Phase do not move again in the Mechanized Movement Phase; they still attack in
-- the Combat Phase (the item speaks of movement). Board: a (4-4-10) and b (2-2-10) in 0303 overrun
-- s (1-1-6) in 0403, 6 halved 3 against 1, 3-1, roll 4: D1/A1; s retreats to 0504, b takes the
-- step. A disrupted rifle t in 0402 (no zone [6.6]) is there to be attacked. Standard [6.5]: a and
-- b enter 0403 and stop for the phase; in the Mechanized Movement Phase they move again.
kessel.test("case_wbc09_07_overrunners_who_took_the_loss_do_not_move_in_the_mechanized_phase", function()
  for _, wbc in ipairs{ false, true } do
    local label = wbc and "WBC09 #7" or "standard"
    B.setup({ B.pz("a", "0303", "4-4-10"), B.pz("b", "0303", "2-2-10"), B.rifle("s", "0403", "1-1-6"),
      B.rifle("t", "0402", "1-1-6", { flags = { "disrupted" } }), B.leader("l", "0907", 5) },
      { step = "german_movement", options = { wbc09_07_overrun_loss_stays_put = wbc } })
    kessel.inject_dice{ 4 }
    local ev = expect.accepted(kessel.act{ kind = "overrun", units = { "a", "b" }, target = "0403" })
    expect.truthy(B.note(ev, "odds 3-1, roll 4: D1/A1"), B.all_notes(ev))
    expect.accepted(choose("retreat"))
    expect.accepted(retreat({ "s" }, { "0504" }))
    ev = expect.accepted(choose("loss", { "b" }))
    expect.eq(B.where("a"), wbc and "0303" or "0403", label)
    expect.eq(B.note(ev, "end their movement for the player-turn") ~= nil, wbc, label .. ": " .. B.all_notes(ev))
    end_phase()
    -- the Combat Phase: a may attack t (next to 0303 and to 0403 alike)
    local K = require("rules.combat")
    local why = K.attack_reasons({ kind = "attack", units = { "a" }, targets = { "0402" } })
    expect.eq(#why, 0, label .. ": " .. ((why[1] or {}).message or ""))
    end_phase()
    expect.eq(kessel.game.step().id, "german_mech_movement")
    local here = B.where("a")
    local to = here == "0303" and "0304" or "0404"
    local ok, whyr = kessel.act{ kind = "move", units = { "a" }, path = { to } }
    if wbc then
      expect.refused(ok, whyr, "WBC09 #7", "movement is over for the turn")
      local M = require("rules.movement")
      expect.eq(M.cannot_move(kessel.units.get("b")).rule, "WBC09 #7")
    else
      expect.accepted(ok, whyr)
    end
    -- the bar ends with the player-turn
    for _ = 1, 3 do end_phase() end
    expect.eq(kessel.game.step().id, "soviet_movement")
    expect.falsy(kessel.units.get("a").flags.turn_ended, label)
  end
end)
