-- What the computer player believes the sides are worth, for bidding (WBC 2009 sides, option
-- `vp_bidding`): the German − Soviet VP margin it expects when it plays itself, per profile,
-- measured with the balance lab and written down here (it cannot play games inside a decision).
--
-- To measure a profile, run the lab with bidding off (`vp_bid` fixed at 0 means no bidding is
-- held) and read the mean of the `german − soviet` line:
--   kessel simulate scenarios/pgg/campaign.toml --games 40 --profile wbc2009
-- A profile not listed is taken to be worth what `standard` is.
local Book = {}

-- Mean German − Soviet VP margin, AI against AI (fast level), by profile, measured on 2026-11-26
-- after the fast Soviet learnt to set attacks up and the German to close rings around held cities
-- over the last four turns: standard over seeds 1..40 (85.4), wbc2009 over seeds 1..20 (33.7
-- after the bid of 40 the old book settled at, so 74 before it); sd about 40-50 VP, so each is
-- known to about ±15-20 VP.
Book.margin = {
  standard = 85,
  wbc2009 = 74,
}

-- The margin [15] that splits the levels between the sides: German Marginal starts at 50.
Book.EVEN = 49.5

-- What the German side is worth to a bidder under the profile in force: the VP a player may give
-- up and still expect the German side to do as well as the Soviet.
function Book.german_worth()
  local m = Book.margin[kessel.game.profile()] or Book.margin.standard
  return math.max(0, math.floor(m - Book.EVEN))
end

return Book
