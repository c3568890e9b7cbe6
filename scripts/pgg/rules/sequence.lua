-- [4] The sequence of play: ending a phase moves the game to the next step (the engine's
-- sequencer), after the phase's own end-of-phase rules ran through `step_end` hooks.
--
-- Rules that must hold before a phase may end (stacking at its checkpoints [7], the first-turn
-- obligations [5.2]) register a check with `SEQ.add_end_phase_check(fn)`: fn() returns nil or a
-- list of reasons; while any reason stands, `end_phase` is refused with it. fn(true) may stop at
-- its first reason: listing the actions only asks whether there is one.
local C = require("rules.common")
local SEQ = {}

local checks = {}

function SEQ.add_end_phase_check(fn) checks[#checks + 1] = fn end

-- Every reason the current phase may not end yet.
function SEQ.end_phase_problems()
  return C.per_revision("end_phase_problems", function()
    local out = {}
    for _, fn in ipairs(checks) do
      for _, r in ipairs(fn() or {}) do out[#out + 1] = r end
    end
    return out
  end)
end

-- Does any reason stand? (The enumerator's question: it stops at the first reason, where the
-- refusal lists them all.)
function SEQ.end_phase_blocked()
  return C.per_revision("end_phase_blocked", function()
    for _, fn in ipairs(checks) do
      if #(fn(true) or {}) > 0 then return true end
    end
    return false
  end)
end

kessel.action{
  kind = "end_phase", rule = "4", description = "end the current phase",
  validate = C.sided(function(a)
    if kessel.game.finished() then return C.reason("15", "the game is over") end
    local pending = kessel.game.var("pending")
    if pending then
      return C.reason(pending.rule or "9.6", "a decision is waiting: %s", pending.prompt or pending.kind)
    end
    local problems = SEQ.end_phase_problems()
    if #problems > 0 then return problems end
  end),
  apply = function(a)
    kessel.emit.advance()
  end,
  enumerate = C.sided_list(function(side)
    if kessel.game.finished() or kessel.game.var("pending") then return {} end
    if SEQ.end_phase_blocked() then return {} end
    return { { kind = "end_phase" } }
  end),
}

return SEQ
