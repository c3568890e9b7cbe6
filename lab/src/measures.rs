//! How the lab's games were played, beside who won them: actions by kind under each side, how
//! often objectives changed hands, and the ruleset's own measures (its `result` hook's
//! `metrics`) — what a designer checks before trusting the computer player's verdicts.

use super::record::GameRecord;
use std::collections::BTreeMap;
use std::fmt::Write;

/// How the games were played, per finished game: what a designer checks before trusting the
/// computer player's verdicts (does a side attack at all? do objectives change hands?).
#[derive(Clone, Debug, Default)]
pub struct PlayStats {
    /// Side → (action kind, mean per game), kinds by decreasing mean.
    pub actions: Vec<(String, Vec<(String, f64)>)>,
    /// Times per game an objective passed from one side to the other (end of game-turn to end of
    /// game-turn).
    pub changes_of_hands: f64,
    /// The ruleset's measures (`metrics` of its `result` hook): mean over game-turns and games.
    pub metrics: Vec<(String, f64)>,
}

/// Width the summary's lists wrap at: the text stays readable in a terminal and in the report's
/// statistics block.
const WIDTH: usize = 100;

/// `head` and the items joined with commas, wrapped at [`WIDTH`] with continuation lines indented.
fn write_list(out: &mut String, head: &str, items: &[String]) {
    let mut line = head.to_string();
    for (i, item) in items.iter().enumerate() {
        let piece = if i + 1 < items.len() {
            format!("{item},")
        } else {
            item.clone()
        };
        let fresh = line.trim_end().ends_with(':') || line.trim().is_empty();
        if !fresh && line.chars().count() + 1 + piece.chars().count() > WIDTH {
            let _ = writeln!(out, "{line}");
            line = "      ".to_string();
        } else if !line.ends_with(' ') {
            line.push(' ');
        }
        line.push_str(&piece);
    }
    let _ = writeln!(out, "{line}");
}

/// A name from a data file (a side, an action kind, a measure) on one line: a record edited by
/// hand can hold any text.
fn shown(name: &str) -> std::borrow::Cow<'_, str> {
    kessel_core::error::printable_name(name)
}

pub(super) fn write_play(out: &mut String, play: &PlayStats) {
    for (side, kinds) in &play.actions {
        let listed: Vec<String> = kinds
            .iter()
            .filter(|(_, mean)| *mean >= 0.05)
            .map(|(k, mean)| format!("{} {mean:.1}", shown(k)))
            .collect();
        if !listed.is_empty() {
            // the data's `-` is the steps of no side (a random events roll, a supply phase)
            let head = if side == "-" {
                "  in steps of no side, actions per game: ".to_string()
            } else {
                format!("  {} actions per game: ", shown(side))
            };
            write_list(out, &head, &listed);
        }
    }
    if play.actions.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "  objectives changing hands per game: {:.1}",
        play.changes_of_hands
    );
    if !play.metrics.is_empty() {
        let listed: Vec<String> = play
            .metrics
            .iter()
            .map(|(k, v)| format!("{} {v:.1}", shown(k)))
            .collect();
        write_list(
            out,
            "  the ruleset's measures (mean per game-turn): ",
            &listed,
        );
    }
}

pub(super) fn play_stats(done: &[&GameRecord]) -> PlayStats {
    let n = done.len().max(1) as f64;
    let mut by_side: BTreeMap<&str, BTreeMap<&str, f64>> = BTreeMap::new();
    let mut changes = 0usize;
    let mut metric_sums: BTreeMap<&str, (f64, usize)> = BTreeMap::new();
    for g in done {
        for (side, kinds) in &g.actions_by_side {
            for (kind, k) in kinds {
                *by_side.entry(side).or_default().entry(kind).or_insert(0.0) += f64::from(*k);
            }
        }
        for pair in g.per_turn.windows(2) {
            for (objective, now) in &pair[1].control {
                let before = pair[0].control.get(objective).cloned().flatten();
                if let (Some(a), Some(b)) = (before, now) {
                    if a != *b {
                        changes += 1;
                    }
                }
            }
        }
        for t in &g.per_turn {
            for (k, v) in &t.metrics {
                let e = metric_sums.entry(k).or_insert((0.0, 0));
                e.0 += v;
                e.1 += 1;
            }
        }
    }
    PlayStats {
        actions: by_side
            .into_iter()
            .map(|(side, kinds)| {
                let mut list: Vec<(String, f64)> = kinds
                    .into_iter()
                    .map(|(k, total)| (k.to_string(), total / n))
                    .collect();
                list.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
                (side.to_string(), list)
            })
            .collect(),
        changes_of_hands: changes as f64 / n,
        metrics: metric_sums
            .into_iter()
            .map(|(k, (sum, count))| (k.to_string(), sum / count.max(1) as f64))
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The data's `-` (actions in steps of no side) is said in words, not printed as a side.
    #[test]
    fn actions_in_steps_of_no_side_are_said_so() {
        let play = PlayStats {
            actions: vec![
                ("-".into(), vec![("roll_event".into(), 8.0)]),
                ("red".into(), vec![("move".into(), 3.5)]),
            ],
            changes_of_hands: 0.0,
            metrics: vec![],
        };
        let mut out = String::new();
        write_play(&mut out, &play);
        assert!(
            out.contains("  in steps of no side, actions per game: roll_event 8.0\n")
                && out.contains("  red actions per game: move 3.5\n")
                && !out.contains("  - actions"),
            "{out}"
        );
    }

    #[test]
    fn long_lists_wrap_with_an_indent_and_lose_nothing() {
        let items: Vec<String> = (0..30).map(|i| format!("kind_{i} {i}.0")).collect();
        let mut out = String::new();
        write_list(&mut out, "  red actions per game: ", &items);
        let lines: Vec<&str> = out.lines().collect();
        assert!(lines.len() > 1, "{out}");
        assert!(lines.iter().all(|l| l.chars().count() <= WIDTH), "{out}");
        assert!(lines[1..].iter().all(|l| l.starts_with("      ")), "{out}");
        let joined = lines.iter().map(|l| l.trim()).collect::<Vec<_>>().join(" ");
        assert_eq!(
            joined,
            format!("red actions per game: {}", items.join(", ")),
            "every item once, in order"
        );
        let mut short = String::new();
        write_list(&mut short, "  x: ", &items[..2]);
        assert_eq!(short, "  x: kind_0 0.0, kind_1 1.0\n");
    }
}
