//! The texts of a new scenario's files: `scenario.toml` commented section by section from what
//! the ruleset declares, a special-rules file showing how a rule wraps an action, and two rule
//! tests that pass from the start.

use crate::ruleset::Ruleset;
use std::fmt::Write as _;

/// What the skeleton's texts are made of.
pub(super) struct Skeleton<'a> {
    pub(super) name: &'a str,
    pub(super) ruleset: &'a str,
    pub(super) turns: u32,
    pub(super) first_turn: Option<u32>,
    pub(super) map_name: &'a str,
    pub(super) first: String,
    pub(super) last: String,
    pub(super) profiles: Vec<String>,
}

impl Skeleton<'_> {
    pub(super) fn scenario_toml(&self, rules: &Ruleset) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "# {} — written by `kessel new scenario`; see docs/scenario-guide.md and\n\
             # docs/file-formats.md for every key. Check it with `kessel check` after each change.\n",
            self.name
        );
        s.push_str("# --- The scenario: its ruleset, map, length and special rules ----------------------------\n");
        s.push_str("[scenario]\n");
        let _ = writeln!(s, "name = {}", toml_str(self.name));
        let _ = writeln!(
            s,
            "ruleset = {}          # the ruleset folder, relative to this file",
            toml_str(self.ruleset)
        );
        if self.profiles.is_empty() {
            s.push_str(
                "# profile = \"…\"     # the ruleset has no profiles/ folder: its defaults apply\n",
            );
        } else {
            let _ = writeln!(
                s,
                "# profile = {}     # option values; the ruleset has: {}; none = its defaults",
                toml_str(&self.profiles[0]),
                self.profiles.join(", ")
            );
        }
        let _ = writeln!(
            s,
            "map = \"map.toml\"         # {} — hexes {} to {}, numbered as printed",
            self.map_name, self.first, self.last
        );
        let _ = writeln!(s, "turns = {}", self.turns);
        match self.first_turn {
            Some(first) => {
                let last = first.saturating_add(self.turns.saturating_sub(1));
                let _ = writeln!(
                    s,
                    "first_turn = {first}          # the game-turn it starts on: it plays turns {first} to {last}"
                );
            }
            None => s.push_str("# first_turn = 1         # the game-turn the scenario starts on\n"),
        }
        s.push_str(
            "scripts = [\"special.lua\"] # this scenario's own rules, run after the ruleset's\n",
        );
        s.push_str("notes = \"\"\"\nWhat the players are told before they start: the situation, the special rules.\n\"\"\"\n\n");

        s.push_str("# --- Units: one [[units]] table per counter -------------------------------------------\n");
        s.push_str("# id (unique), side, type, faces (full strength first), and where it starts: `at = \"CCRR\"`,\n");
        s.push_str("# `area = \"ID\"` (set up anywhere in an area), or `enter = { turn = N, area = \"ID\" }`.\n");
        let _ = writeln!(s, "# Sides of this ruleset: {}.", rules.sides.join(", "));
        s.push_str("# Unit types (see `kessel info` for what each means):\n");
        for (id, t) in &rules.unit_types {
            let side = t.get("side").and_then(|v| v.as_str()).unwrap_or("any side");
            let _ = writeln!(s, "#   {id:<14} {side}");
        }
        let example_side = rules.sides.first().map_or("SIDE", String::as_str);
        // a type of that side if the ruleset ties types to sides, else any; not a leader's (drawn
        // with the leader symbol) while there is another: a leader often needs more than an id,
        // a type, faces and a hex (PGG's a rating), and the example copied as it is failed
        let text = |t: &crate::state::Value, key: &str| {
            t.get(key).and_then(|v| v.as_str()).map(str::to_string)
        };
        let of_side = |t: &crate::state::Value| text(t, "side").as_deref() == Some(example_side);
        let leader = |t: &crate::state::Value| text(t, "symbol").as_deref() == Some("leader");
        let example = (rules.unit_types.iter())
            .find(|(_, t)| of_side(t) && !leader(t))
            .or_else(|| rules.unit_types.iter().find(|(_, t)| of_side(t)))
            .or_else(|| rules.unit_types.iter().next());
        let example_type = example.map_or("TYPE", |(id, _)| id.as_str());
        // what a face is made of: the type's `face_fields`, else attack-defence-movement
        let fields: Option<Vec<String>> = example
            .and_then(|(_, t)| t.get("face_fields"))
            .and_then(|f| f.as_array())
            .map(|a| {
                a.iter()
                    .filter_map(|v| v.as_str().map(str::to_string))
                    .collect()
            });
        let parts = fields.map_or("attack-defence-movement".to_string(), |f| f.join("-"));
        let _ = writeln!(
            s,
            "#\n# [[units]]\n# id = \"u1\"\n# side = {}\n# type = {}\n# faces = [\"…\"]   # one a step, full strength first: {parts}\n# at = {}\n",
            toml_str(example_side),
            toml_str(example_type),
            toml_str(&self.first)
        );

        s.push_str("# --- Pools: counters drawn at random (a hidden unit's values, a reinforcement's) ----------\n");
        s.push_str("# A unit with `pool = \"ID\"` draws its faces from the pool when the rules reveal it.\n");
        s.push_str("# [[pools]]\n# id = \"…\"\n");
        let _ = writeln!(
            s,
            "# side = {}\n# faces = [[\"…\", 2], [\"…\", 1]]   # each face and how many counters carry it\n",
            toml_str(example_side)
        );
        s.push_str("# --- Markers: what each side has to place in play, and any on the map at the start --------\n");
        s.push_str("# The rules place only the markers listed here: a kind left out is one the scenario does\n");
        s.push_str(
            "# not have (the ruleset's scenarios show which kinds its rules use and how many).\n",
        );
        let _ = writeln!(
            s,
            "# [[markers]]\n# kind = \"…\"\n# side = {}\n# count = 1\n",
            toml_str(example_side)
        );
        s.push_str("# --- Victory: [[objectives]] (a place or hex worth VP to a side) and [[levels]] ------------\n");
        s.push_str("# [[objectives]]\n# place = \"…\"\n# vp = 10\n");
        let _ = writeln!(s, "# side = {}\n", toml_str(example_side));
        s.push_str("# [[levels]]\n# name = \"…\"\n# max = 9\n\n");

        s.push_str("# --- Scenario variables the ruleset reads ---------------------------------------------\n");
        s.push_str("# Left out, a variable takes the ruleset's default (said in its description); a value set\n");
        s.push_str("# here holds for this scenario only.\n");
        s.push_str("[vars]\n");
        if rules.scenario_vars.is_empty() {
            s.push_str("# (this ruleset declares none)\n");
        }
        for (id, v) in &rules.scenario_vars {
            let _ = writeln!(s, "# {id} = …   # {}: {}", v.kind, v.description);
        }
        s
    }

    pub(super) fn special_lua(&self, rules: &Ruleset) -> String {
        // the kinds said are this ruleset's own (they were PGG's whatever the ruleset)
        let others: Vec<&str> = rules.action_kinds().filter(|k| *k != "move").collect();
        let has_move = rules.action_kinds().any(|k| k == "move");
        let listed = if others.is_empty() {
            "none".to_string()
        } else {
            others
                .iter()
                .map(|k| format!("`{k}`"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let wrap_note = if has_move {
            format!(
                "-- Wrapping `move` covers ordinary movement only: units may change hex by other kinds of\n\
                 -- action too (this ruleset's other kinds: {listed}; `kessel info` describes them).\n\
                 -- Wrap each kind the rule is about the same way.\n"
            )
        } else {
            format!(
                "-- This ruleset has no `move` action (its kinds: {listed}; `kessel info` describes\n\
                 -- them): wrap the kinds the rule is about the same way, with their own parameters.\n"
            )
        };
        format!(
            "-- Special rules of {name}, run after the ruleset's own files (listed in scenario.toml's\n\
             -- `scripts`). Name each rule with an id of its own (S1, S2, …) so refusals cite it.\n\
             --\n\
             -- A special rule usually wraps an action of the ruleset: take its handlers, and refuse what\n\
             -- the rule forbids before asking the ruleset. For example, to keep a hex closed:\n\
             --\n\
             --   local move = kessel.action_handlers(\"move\")\n\
             --   local function closed(a)\n\
             --     for _, h in ipairs(a.path or {{}}) do\n\
             --       if h == \"{first}\" then return {{ rule = \"S1\", message = \"{first} is closed\" }} end\n\
             --     end\n\
             --   end\n\
             --   kessel.action{{\n\
             --     kind = \"move\", rule = move.rule, description = move.description,\n\
             --     validate = function(a) return closed(a) or move.validate(a) end,\n\
             --     apply = move.apply,\n\
             --     enumerate = function(side)\n\
             --       local out = {{}}\n\
             --       for _, a in ipairs(move.enumerate(side) or {{}}) do\n\
             --         if not closed(a) then out[#out + 1] = a end\n\
             --       end\n\
             --       return out\n\
             --     end,\n\
             --   }}\n\
             --\n\
             {wrap_note}\
             --\n\
             -- docs/lua-api.md lists everything a rule can read and do.\n",
            name = self.name,
            first = self.first
        )
    }

    pub(super) fn test_lua(&self) -> String {
        format!(
            "-- Rule tests of {name}: `kessel test` on the scenario folder runs every kessel.test here,\n\
             -- each from the scenario's set-up. Name a test after the rule it guards (case_S1_…).\n\
             local expect = kessel.expect\n\
             \n\
             kessel.test(\"scenario_runs_its_turns\", function()\n\
             \x20 expect.eq(kessel.game.last_turn() - kessel.game.turn() + 1, {turns}, \"turns in scenario.toml\")\n\
             end)\n\
             \n\
             -- The legal actions at the start must pass the rules' own checks: a special rule that\n\
             -- refuses something must also leave it out of `enumerate`, or the AI and the editor offer it.\n\
             kessel.test(\"legal_actions_at_the_start_are_valid\", function()\n\
             \x20 for _, a in ipairs(kessel.legal()) do\n\
             \x20   local ok, reasons = kessel.validate(a)\n\
             \x20   expect.accepted(ok, reasons)\n\
             \x20 end\n\
             end)\n",
            name = self.name,
            turns = self.turns
        )
    }
}

/// A TOML basic string.
fn toml_str(s: &str) -> String {
    toml::Value::String(s.to_string()).to_string()
}
