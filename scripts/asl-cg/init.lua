-- The Refit Phase (RePh) of the ASL historical-module campaign games, as a Kessel ruleset.
--
-- Pegasus Bridge (PB) RePh steps 9.601-9.620 and the Red Barricades (RB) steps 11.602-11.618 that
-- its text gives. The option `module` ("pb", default, or "rb"; profiles/pb.toml, profiles/rb.toml)
-- picks the campaign game: the sequence holds the steps of both, and the sequencer skips the steps
-- of the other module (rules/sequence.lua). Every ruling cites its case in its note or record
-- ("[9.6041] ...") and every refusal carries the case as its rule.
--
-- Layout: data.lua (unit types, terrain, marker kinds, word tables for the charts printed in the
-- text, scenario vars for those we do not have), rules/common.lua (sides, dice, units, notes),
-- then one module per RePh step group, rules/sequence.lua (the step list and `end_step`),
-- rules/ai.lua (a computer player for the whole phase). Tests are in tests/, one file per group.

kessel.ruleset{
  name = "asl-cg",
  sides = { "german", "british", "russian" },
  description = "ASL campaign-game Refit Phase (Pegasus Bridge 9.6, Red Barricades 11.6)",
}

kessel.constant("side_style", {
  german = { name = "German", color = "#7f8c8d" },
  british = { name = "British", color = "#b5835a" },
  russian = { name = "Russian", color = "#a04030" },
})

kessel.option{ id = "module", type = { "pb", "rb" }, default = "pb",
  description = "Campaign game whose Refit Phase is played: Pegasus Bridge (9.6) or Red Barricades (11.6)",
  rule = "9.6" }

require("data")
require("rules.sequence")
require("rules.melee")
require("rules.encirclement")
require("rules.areas")
require("rules.escape")
require("rules.equipment")
require("rules.fire")
require("rules.hardening")
require("rules.date")
require("rules.shift")
require("rules.repair")
require("rules.reinforcements")
require("rules.purchase")
require("rules.commencement")
require("rules.rb")
require("rules.choices")
require("rules.ai")
require("rules.params")
