-- WBC 2009 sides: bidding for the German side (option `vp_bidding`).
--
-- Who plays the German is bid for in victory points: a die decides which player bids first, then
-- the 16th and 19th Armies make their first-turn roll [5.2], and only then does the bidding start
-- (WBC09 sides gives the two dice in that order); then the players take turns, each either raising
-- the bid (`bid{vp = n}`, more than the standing bid) or passing (`bid{pass = true}`). The first to
-- pass loses: the other player takes the German side, and his standing bid (0 if none was made)
-- is the German − Soviet VP margin [15] he said he can take: reaching it is a German Marginal
-- Victory, and the other levels move with it (victory.lua). Players are "player 1" and
-- "player 2": the engine knows sides, not people, so the result names which player is German.
-- Until the bidding ends nothing else may happen (a pending decision).
--
-- A bid agreed before the game can be given as the option `vp_bid` instead: then there is no
-- bidding at the start.
local C = require("rules.common")
local B = {}

B.RULE = "WBC09 sides"
-- raises listed to players and the computer player (any higher bid up to MAX_BID is accepted)
local LISTED_RAISES = 20
-- the highest bid: the option `vp_bid` stops there too (options.lua); a bid of 1e300 passed the
-- whole-number test and then failed in `apply` (string.format %d), one of 2^63 wrapped the total
local MAX_BID = 1000

-- The bidding state (game var `bidding`): { first =, to_bid =, high =, high_by =, done =, german = }.
-- `rolled_only` marks the state between the die for who bids first and the start of the bidding,
-- while the 16th and 19th Armies roll [5.2].
function B.state() return kessel.game.var("bidding") end

-- Is a bidding under way (started and not over)?
local function bidding_open(s) return s ~= nil and not s.done and not s.rolled_only end

-- The German's bid in force: the bidding's result, else the agreed option (above 0); nil when
-- the game is played without one.
function B.german_bid()
  local s = B.state()
  if s and s.done then return s.high or 0 end
  local agreed = C.option("vp_bid") or 0
  if agreed > 0 then return agreed end
  return nil
end

-- Is the bidding due to open now? On the turn the game began on (turn 1 of the campaign, or a
-- scenario's `first_turn` later in the calendar, or a position's `turn`), before the Soviet moves,
-- once the 16th and 19th Armies have rolled [5.2].
local function bidding_due()
  return C.option("vp_bidding") and (C.option("vp_bid") or 0) == 0
    and kessel.game.turn() == kessel.game.first_turn() and C.step_is("soviet_movement")
end

function B.open_needed()
  local s = B.state()
  return bidding_due() and (s == nil or s.rolled_only == true)
    and not require("rules.movement").roll_needed()
end

-- The die for who bids first (inside an apply or a setup hook), made once, before the 16th and
-- 19th Armies' roll (movement.lua calls it first) [WBC09 sides].
function B.roll_first_bidder()
  if not bidding_due() or B.state() ~= nil then return end
  local r = kessel.dice.roll("bidding: who bids first (1-3 player 1, 4-6 player 2) [" .. B.RULE .. "]")
  local first = r <= 3 and 1 or 2
  kessel.emit.var("bidding", { first = first, to_bid = first, rolled_only = true })
  kessel.emit.note(B.RULE, string.format("player %d rolls to bid first (%d)", first, r))
end

local function prompt(s)
  local standing = s.high and string.format("standing bid %d VP by player %d", s.high, s.high_by) or "no bid yet"
  return string.format("bidding for the German side: player %d to bid or pass (%s)", s.to_bid, standing)
end

-- Opens the bidding (inside an apply or a setup hook), rolling for who bids first when no die
-- was rolled for it yet (a position set up with the first-turn roll already made).
function B.open()
  B.roll_first_bidder()
  local first = B.state().first
  local s = { first = first, to_bid = first }
  kessel.emit.var("bidding", s)
  kessel.emit.var("pending", { kind = "bid", rule = B.RULE, prompt = prompt(s) })
end

kessel.on("setup", function()
  if B.open_needed() then B.open() end
end)

-- Opens the bidding, as an action for positions where no set-up hook ran (tests) or the first-turn
-- roll was made by hand (which rolled for who bids first already, unless the position came with
-- the armies' roll made: then the die is rolled here).
kessel.action{
  kind = "bid_roll", rule = B.RULE, description = "open the bidding for the German side (rolling for who bids first if no die was rolled for it)",
  validate = function(a)
    if not B.open_needed() then
      return C.reason(B.RULE, "the bidding opens once, at the start of the game, when option vp_bidding is on and no bid was agreed (vp_bid)")
    end
  end,
  apply = function(a) B.open() end,
  enumerate = function(side)
    if B.open_needed() then return { { kind = "bid_roll" } } end
    return {}
  end,
}

local function reasons(a)
  local s = B.state()
  if not bidding_open(s) then
    return C.reason(B.RULE, "there is no bidding open (option vp_bidding, at the start of the game)")
  end
  if a.pass then return nil end
  local vp = tonumber(a.vp)
  if vp == nil or vp ~= math.floor(vp) or vp < 0 then
    return C.reason(B.RULE, "a bid is a whole number of VP (bid{vp = n}) or a pass (bid{pass = true})")
  end
  if vp > MAX_BID then
    return C.reason(B.RULE, "a bid is at most %d VP (bid{vp = %s} is more than the game holds)", MAX_BID, tostring(a.vp))
  end
  if s.high and vp <= s.high then
    return C.reason(B.RULE, "a bid must beat the standing bid of %d VP", s.high)
  end
end

kessel.action{
  kind = "bid", rule = B.RULE, description = "bid VP for the German side, or pass: bid{vp=n} / bid{pass=true}",
  validate = reasons,
  apply = function(a)
    local s = B.state()
    local other = s.to_bid == 1 and 2 or 1
    local n = { first = s.first, high = s.high, high_by = s.high_by }
    if a.pass then
      n.done, n.german = true, other
      kessel.emit.var("bidding", n)
      kessel.emit.var("pending", nil)
      kessel.emit.note(B.RULE, string.format("player %d passes: player %d plays the German, bidding %d VP",
        s.to_bid, other, n.high or 0))
    else
      n.high, n.high_by, n.to_bid = tonumber(a.vp), s.to_bid, other
      kessel.emit.var("bidding", n)
      kessel.emit.var("pending", { kind = "bid", rule = B.RULE, prompt = prompt(n) })
      kessel.emit.note(B.RULE, string.format("player %d bids %d VP for the German side", s.to_bid, n.high))
    end
  end,
  enumerate = function(side)
    local s = B.state()
    if not bidding_open(s) then return {} end
    local out = { { kind = "bid", pass = true } }
    local from = (s.high or -1) + 1
    for vp = from, from + LISTED_RAISES - 1 do out[#out + 1] = { kind = "bid", vp = vp } end
    return out
  end,
}

return B
