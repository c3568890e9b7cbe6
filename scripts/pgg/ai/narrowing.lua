-- The seam through which a computer player narrows the rules' enumerations.
--
-- `kessel simulate` asks for the legal actions before each choice, and listing every destination
-- of every stack (thousands of actions, each copied into the engine and back) costs far more than
-- the choice itself. While the computer player chooses (ai/player.lua, inside its `ai` hook and
-- only then) it installs a narrower: the move, rail_move and overrun enumerators hand it their
-- candidates, stack by stack, as they would list them (`provider.stacks`, a sorted list of hexes;
-- `provider.moves(hex)`, the actions of that stack; `provider.extra()` for actions not tied to a
-- stack, such as reinforcement entries), and list only what it returns. The move enumerator's
-- `provider.moves(hex, want, compact, kept)` also takes which groups to work out and, with `compact`,
-- hands one record per group with its destinations instead of one action per destination
-- (M.stack_moves); with `kept`, a table the narrower keeps while the enemy's units and markers and
-- the step stay the same, it reuses the destinations of groups it worked out before (a stack that
-- a unit joined or left has the same ways out); `provider.expand(record, i)` makes the action of
-- its i-th destination. The narrower never adds an
-- action: it picks among the candidates the enumerator itself produced, and the engine validates
-- the chosen action like any other. Returning nil lists everything.
--
-- This decides no ruling and is not game state. Outside the computer player's own call there is
-- no narrower, so tests, scripts, the editor and a human player's turn always see full lists.

local N = {}

local narrower = nil

-- Runs `body(...)` with `fn` as the narrower, and removes it afterwards, whatever happens.
function N.within(fn, body, ...)
  narrower = fn
  local out = table.pack(pcall(body, ...))
  narrower = nil
  if not out[1] then error(out[2], 0) end
  return table.unpack(out, 2, out.n)
end

-- Is a computer player narrowing the lists now? (The attack enumerator then lists its short,
-- representative list instead of every combination.)
function N.active() return narrower ~= nil end

-- The actions an enumerator of `kind` lists: all of them, or the narrower's pick.
function N.listed(kind, provider)
  if narrower then
    local picked = narrower(kind, provider)
    if picked then return picked end
  end
  local out = {}
  for _, hex in ipairs(provider.stacks) do
    for _, a in ipairs(provider.moves(hex)) do out[#out + 1] = a end
  end
  if provider.extra then
    for _, a in ipairs(provider.extra()) do out[#out + 1] = a end
  end
  return out
end

return N
