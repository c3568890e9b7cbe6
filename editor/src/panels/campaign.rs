//! The campaign part of the play-test panel: the campaign's name and which game is on, *Next
//! game* once the game has ended, and what carried over into this game (the text `kessel
//! campaign` prints, from the core's `CarryReport::text`).

use crate::play::campaign::CampaignRun;
use crate::play::{PlayCommand, PlaySession};
use egui::{Color32, RichText, Ui};

/// Gold for the campaign's headings.
const CAMPAIGN: Color32 = Color32::from_rgb(235, 195, 90);

/// Draws the campaign's lines above the game's own.
pub fn campaign_ui(ui: &mut Ui, run: &CampaignRun, s: &PlaySession, cmds: &mut Vec<PlayCommand>) {
    ui.label(RichText::new(&run.campaign.name).color(CAMPAIGN).strong());
    ui.label(RichText::new(run.game_line()).strong());
    let ended = s.engine.state().campaign_ended.clone();
    if let (true, Some(end)) = (s.engine.state().finished, ended) {
        // the rules said this game was the campaign's last, whatever the file lists after it
        ui.label(RichText::new("The campaign has ended with this game.").strong());
        ui.label(end.to_string());
    } else if s.engine.state().finished {
        match run.next_name() {
            Some(next) => {
                ui.label("This game has ended.");
                if ui
                    .button(RichText::new(format!("Next game: {next}")).strong())
                    .on_hover_text(
                        "Start the campaign's next game with what carries over from this one",
                    )
                    .clicked()
                {
                    cmds.push(PlayCommand::NextGame);
                }
            }
            None => {
                ui.label("The campaign's last game has ended.");
            }
        }
    }
    if run.index > 0 {
        let from = run
            .played
            .games
            .last()
            .map_or("the game before", |g| g.name.as_str());
        egui::CollapsingHeader::new(format!("Carried over from {from}"))
            .id_salt(("carried", run.index))
            .default_open(true)
            .show(ui, |ui| {
                let text = run.carried.text(usize::MAX);
                if text.is_empty() {
                    ui.label("Nothing: the campaign carries nothing, or the game left nothing.");
                }
                let parts = carried_parts(&text);
                // what the last game changed comes first, in view: the units' count, where each
                // value was last set, what the new game's set-up dropped (they were under the
                // unit lists, at the bottom of a scrolled box, where a GM never saw them)
                for line in &parts.changed {
                    carried_line(ui, line);
                }
                // the units, a campaign's long part, scroll by themselves, so the game's tools
                // stay in view
                if !parts.lists.is_empty() {
                    egui::ScrollArea::vertical()
                        .id_salt("carried-lines")
                        .max_height(180.0)
                        .show(ui, |ui| {
                            for line in &parts.lists {
                                carried_line(ui, line);
                            }
                        });
                }
                // the values in full (a record of purchases runs to many lines), the markers,
                // what was not carried: there to look up, folded, so they no longer push the
                // unit lists and the game's tools out of sight
                if !parts.rest.is_empty() {
                    egui::CollapsingHeader::new(format!(
                        "Values and the rest of what carried ({} lines)",
                        parts.rest.len()
                    ))
                    .id_salt(("carried-rest", run.index))
                    .default_open(false)
                    .show(ui, |ui| {
                        for line in &parts.rest {
                            carried_line(ui, line);
                        }
                    });
                }
            });
    }
    ui.separator();
}

/// The headings of the carry report's unit lists, in the order the panel shows them: what
/// changed first, as a GM reads a campaign.
const UNIT_LISTS: [&str; 4] = [
    "changed",
    "created",
    "new arrivals from the scenario",
    "unchanged",
];

/// The heading of the carry report's lines saying where each value was last set.
const WHERE_SET: &str = "where each value was last set:";

/// The carry report's lines (`CarryReport::text`), in the order the panel shows them.
#[derive(Debug, Default, PartialEq)]
struct CarriedParts<'a> {
    /// What the last game changed: the units' count, the steps that last set each value, and
    /// the values the new game's set-up dropped.
    changed: Vec<&'a str>,
    /// The unit lists, in [`UNIT_LISTS`]' order.
    lists: Vec<&'a str>,
    /// The rest (the values in full, the markers, the map), in the report's order.
    rest: Vec<&'a str>,
}

/// Splits the carry report (lines come trimmed); see [`CarriedParts`].
fn carried_parts(text: &str) -> CarriedParts<'_> {
    let list_of = |line: &str| {
        let head = line.split_once(": ").map_or(line, |(h, _)| h);
        UNIT_LISTS.iter().position(|l| *l == head)
    };
    let mut parts = CarriedParts::default();
    let (mut count, mut lists) = (Vec::new(), Vec::new());
    let mut under_where = false;
    for raw in text.lines() {
        let line = raw.trim_start();
        // the lines under the heading are indented further than the report's own
        under_where = line == WHERE_SET || (under_where && raw.starts_with("    "));
        if under_where || line.starts_with("dropped as the game began") {
            parts.changed.push(line);
        } else if let Some(k) = list_of(line) {
            lists.push((k, line));
        } else if count.is_empty()
            && parts.rest.is_empty()
            && line.ends_with(')')
            && line.contains(" units (")
        {
            count.push(line);
        } else {
            parts.rest.push(line);
        }
    }
    lists.sort_by_key(|(k, _)| *k);
    count.append(&mut parts.changed);
    parts.changed = count;
    parts.lists = lists.into_iter().map(|(_, l)| l).collect();
    parts
}

/// The lists of what carried (`created: a (…), b (…)`, `changed: …`, the new arrivals) one item
/// a line under their heading, so a campaign's many units read as a list; other facts as they
/// are. (They were one run of small print each.)
fn carried_line(ui: &mut Ui, line: &str) {
    let listed = &UNIT_LISTS[..3];
    match line.split_once(": ") {
        Some((head, rest)) if listed.contains(&head) => {
            ui.label(RichText::new(format!("{head}:")).strong());
            for item in top_level_items(rest) {
                ui.label(format!("• {item}"));
            }
        }
        _ => {
            ui.label(line);
        }
    }
}

/// `a (x, y), b (z)` → `["a (x, y)", "b (z)"]`: split at the commas outside parentheses.
fn top_level_items(text: &str) -> Vec<&str> {
    let (mut items, mut depth, mut start) = (Vec::new(), 0i32, 0);
    for (i, c) in text.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                items.push(text[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    items.push(text[start..].trim());
    items.retain(|s| !s.is_empty());
    items
}

#[cfg(test)]
mod carried_tests {
    #[test]
    fn where_values_were_set_comes_first_and_the_unit_lists_last() {
        let text = "  3 units (red 3)\n  created: a (red inf, 0101)\n  changed: b (0202: step)\n  \
                    unchanged: 1\n  cpp = 4\n  where each value was last set:\n    turn 2, \
                    Purchase: cpp\n  dropped as the game began (its rules' setup cleared them): \
                    x\n";
        let parts = super::carried_parts(text);
        assert_eq!(
            parts.changed,
            vec![
                "3 units (red 3)",
                "where each value was last set:",
                "turn 2, Purchase: cpp",
                "dropped as the game began (its rules' setup cleared them): x",
            ]
        );
        assert_eq!(
            parts.lists,
            vec![
                "changed: b (0202: step)",
                "created: a (red inf, 0101)",
                "unchanged: 1"
            ]
        );
        assert_eq!(parts.rest, vec!["cpp = 4"], "the values, folded");
    }

    #[test]
    fn items_split_at_commas_outside_parentheses() {
        assert_eq!(
            super::top_level_items("b1 (J6: vars fanatic_next reph), b2 (I6: flags, vars reph), x"),
            vec![
                "b1 (J6: vars fanatic_next reph)",
                "b2 (I6: flags, vars reph)",
                "x"
            ]
        );
        assert_eq!(super::top_level_items(""), Vec::<&str>::new());
    }
}
