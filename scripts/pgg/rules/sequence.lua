-- [4] The sequence of play: ending a phase moves the game to the next step (the engine's
-- sequencer), after the phase's own end-of-phase rules ran through `step_end` hooks.
local C = require("rules.common")

kessel.action{
  kind = "end_phase", rule = "4", description = "end the current phase",
  validate = function(a)
    if kessel.game.finished() then return C.reason("15", "the game is over") end
    local pending = kessel.game.var("pending")
    if pending then
      return C.reason(pending.rule or "9.6", "a decision is waiting: %s", pending.prompt or pending.kind)
    end
  end,
  apply = function(a)
    kessel.emit.advance()
  end,
  enumerate = function(side)
    if kessel.game.finished() or kessel.game.var("pending") then return {} end
    return { { kind = "end_phase" } }
  end,
}

return {}
