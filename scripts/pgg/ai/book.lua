-- What the computer player believes the sides are worth, for bidding (WBC 2009 sides, option
-- `vp_bidding`): the German − Soviet VP margin it expects when it plays itself, per scenario and
-- set of options, measured with the balance lab and written down here (it cannot play games
-- inside a decision).
--
-- To measure a profile, run the lab with bidding off (`vp_bid` fixed at 0 means no bidding is
-- held) and read the mean of the `german − soviet` line:
--   kessel simulate scenarios/pgg/campaign.toml --games 40 --profile wbc2009
-- then add an entry under the scenario's name with the options the profile sets.
--
-- The worth never depends on a profile's *name*: the options in force are matched against the
-- entries, and the entry with the fewest options set otherwise is used. So a new profile made from
-- `wbc2009` with one interpretation changed is priced like `wbc2009`, and comparing the two in the
-- lab is not skewed by a bid guessed from the name. A scenario with no entries is bid at the
-- margin where its chart's German Marginal Victory starts (50 in the printed chart), which leaves
-- its levels as printed, until it is measured.
local Book = {}

-- The interpretations a `wbc2009` game plays with (scripts/pgg/profiles/wbc2009.toml).
local WBC2009 = {
  wbc09_01_retreat_priority = true, wbc09_01a_no_switching_places = true,
  wbc09_01b_no_retreat_into_lone_defender_hex = true, wbc09_01c_simultaneous_retreats = true,
  wbc09_02_opponent_orders_retreats = true, wbc09_03_retreated_units_die_first = true,
  wbc09_04_overrun_stack_defends_with_first = true, wbc09_05_no_leader_evacuation = true,
  wbc09_06_rail_break_relocation = true, wbc09_07_overrun_loss_stays_put = true,
  wbc09_08_supply_mp_by_unit_type = true, wbc09_09_integrity_before_halving = true,
  wbc09_10_integrity_with_gd_lehr = true, wbc09_11_overrun_stack_may_split = true,
  wbc09_12_multiple_leaders = true, wbc09_13_loc_not_through_swamp = true,
  wbc09_14_rifle_recycling_delay = true, wbc09_15_interdiction_on_overrun_cost = true,
}

-- Mean German − Soviet VP margin, AI against AI (fast level), by scenario name and the options
-- the measured profile sets (every other option at its default). Last measured on 2026-11-27,
-- after scheduled arrivals were let ride on by rail from their entry hex [14.3] [6.3] and the
-- stop in an enemy zone made to last the phase [6.22]: standard 59.7 and wbc2009 with
-- `vp_bidding = false` 61.7, seeds 1..40 each (sd about 35-40 VP, so each is known to about
-- ±12 VP). Rules changes that move the computer's games make these stale: measure again and
-- write the new figures here (git keeps the earlier ones).
Book.entries = {
  ["Panzergruppe Guderian — Campaign"] = {
    { profile = "standard", margin = 60, options = {} },
    { profile = "wbc2009", margin = 62, options = WBC2009 },
  },
}

-- How many of the options an entry speaks of are set otherwise in the game (an option an entry
-- does not list is at its default there: false).
local function distance(entry, keys)
  local d = 0
  for id in pairs(keys) do
    local want = entry.options[id] or false
    if (kessel.game.option(id) or false) ~= want then d = d + 1 end
  end
  return d
end

-- The entry for the game in force: the scenario's entry whose options are nearest (the first
-- listed on a tie), or nil when the scenario has none.
function Book.entry()
  local list = Book.entries[kessel.scenario.name()]
  if not list then return nil end
  local keys = {}
  for _, e in ipairs(list) do
    for id in pairs(e.options) do keys[id] = true end
  end
  local best, best_d = nil, math.huge
  for _, e in ipairs(list) do
    local d = distance(e, keys)
    if d < best_d then best, best_d = e, d end
  end
  return best
end

-- What the German side is worth to a bidder in the game in force: the German − Soviet margin
-- it expects to take, the bid at which a German Marginal Victory is as likely as not
-- [WBC09 sides] (victory.lua).
function Book.german_worth()
  local e = Book.entry()
  if not e then return require("rules.victory").german_marginal_from() end
  return math.max(0, math.floor(e.margin + 0.5))
end

return Book
