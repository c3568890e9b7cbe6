//! `kessel view`: what one side is shown of a scenario's opening position or a saved game — the
//! units it sees, the variables it may read, commitments as digests, and the log with the other
//! sides' secrets withheld (`Engine::view`).

use kessel_core::event::Event;
use kessel_core::secrets::View;
use std::fmt::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `kessel view`.
#[derive(clap::Args)]
pub struct Args {
    /// Scenario file (TOML or .kessel), or a saved game (JSON).
    game: PathBuf,
    /// The side whose view to show.
    #[arg(long = "as", value_name = "SIDE")]
    side: String,
    /// Profile: a name of the ruleset's (in its profiles/ folder, or for Kessel's own copy of
    /// the rules in ~/kessel/profiles/<ruleset>/), or a path (scenarios only).
    #[arg(long)]
    profile: Option<String>,
    #[command(flatten)]
    options: super::options::OptionArgs,
    /// Dice seed (scenarios only; a save has its own).
    #[arg(long, default_value_t = crate::DEFAULT_SEED)]
    seed: u64,
    /// Which game of a campaign save (`kessel campaign --save`) to show, from 1 (default: its
    /// last game).
    #[arg(long = "game", value_name = "N")]
    game_number: Option<usize>,
    /// Print the view as JSON.
    #[arg(long)]
    json: bool,
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if args.game_number.is_some() && !args.options.is_empty() {
        anyhow::bail!("--option applies to a scenario's opening; --game picks a game of a campaign save, which keeps the options it was played under");
    }
    let engine = match args.game_number {
        Some(n) => kessel_core::engine::Engine::load_any_save(
            &args.game,
            kessel_core::script::Limits::default(),
            Some(n),
        )
        .map_err(super::describe)?,
        None => super::load_game(
            &args.game,
            args.profile.as_deref(),
            &args.options,
            args.seed,
        )?,
    };
    let view = engine.view(&args.side)?;
    // The steps of the sequence the game is in: a mode's own (`kessel.emit.mode`) or the main one.
    let steps: Vec<String> = engine
        .ruleset()
        .steps_of(view.state.mode.as_deref())
        .iter()
        .map(|s| s.id.clone())
        .collect();
    if args.json {
        let mut json = view.to_json();
        // the step by its id, as scripts name it (`phase` is its place in the sequence)
        if let (Some(o), Some(step)) = (json.as_object_mut(), steps.get(view.state.phase)) {
            o.insert("step".into(), serde_json::Value::String(step.clone()));
        }
        println!("{}", serde_json::to_string_pretty(&json)?);
    } else {
        print!(
            "{}",
            kessel_core::error::terminal_safe(&text(&view, &steps))
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// A name from the scenario or the rules (a unit's id, a flag, a variable's key) in a cell of
/// the view's tables: on one line, a line break escaped, so it cannot break the table or add a
/// line that reads as the view's own.
fn cell(name: &str) -> std::borrow::Cow<'_, str> {
    kessel_core::error::terminal_line(name)
}

/// The view in lines a player reads.
fn text(view: &View, steps: &[String]) -> String {
    let st = &view.state;
    let mut s = String::new();
    let step = steps
        .get(st.phase)
        .map(|s| cell(s).into_owned())
        .unwrap_or_else(|| st.phase.to_string());
    let over = if st.finished { ", game over" } else { "" };
    let mode = st
        .mode
        .as_deref()
        .map_or(String::new(), |m| format!(" of the sequence {}", cell(m)));
    let _ = writeln!(
        s,
        "view of {}: turn {}, step {step}{mode}{over}",
        cell(&view.side),
        st.turn
    );
    let _ = writeln!(s, "units ({}):", st.units.len());
    for u in &st.units {
        let at = u.hex().map_or_else(
            || format!("{:?}", u.location).to_lowercase(),
            |h| st.map.label(h),
        );
        let hidden: Vec<&str> = st.secrets.hidden_from(&u.id).collect();
        let hidden = if hidden.is_empty() {
            String::new()
        } else {
            format!("  (hidden from {})", cell(&hidden.join(", ")))
        };
        // (a unit's step counts from 0, its full-strength face)
        let step = if u.step > 0 {
            format!("  step {}", u.step)
        } else {
            String::new()
        };
        let flags = if u.flags.is_empty() {
            String::new()
        } else {
            format!(
                "  flags {}",
                cell(&u.flags.iter().cloned().collect::<Vec<_>>().join(","))
            )
        };
        let vars = if u.vars.is_empty() {
            String::new()
        } else {
            format!(
                "  vars {}",
                serde_json::to_string(&u.vars).unwrap_or_default()
            )
        };
        let _ = writeln!(
            s,
            "  {:<12} {:<8} {:<8} {at}{step}{flags}{vars}{hidden}",
            cell(&u.id),
            cell(&u.side),
            cell(&u.kind)
        );
    }
    if !st.markers.is_empty() {
        let _ = writeln!(s, "markers ({}):", st.markers.len());
        for m in &st.markers {
            let at = match (m.hex, m.other) {
                (Some(a), Some(b)) => format!("{}-{}", st.map.label(a), st.map.label(b)),
                (Some(a), None) => st.map.label(a),
                _ => "off the map".to_string(),
            };
            let value = m.value.as_ref().map_or(String::new(), |v| format!("  {v}"));
            let hidden: Vec<&str> = st.secrets.marker_hidden_from(m.id).collect();
            let hidden = if hidden.is_empty() {
                String::new()
            } else {
                format!("  (hidden from {})", cell(&hidden.join(", ")))
            };
            let _ = writeln!(
                s,
                "  {:<5} {:<12} {:<8} {at}{value}{hidden}",
                m.id,
                cell(&m.kind),
                cell(m.side.as_deref().unwrap_or("-"))
            );
        }
    }
    if !st.vars.is_empty() {
        let _ = writeln!(s, "vars:");
        for (k, v) in &st.vars {
            let _ = writeln!(s, "  {} = {v}", cell(k));
        }
    }
    if !st.secrets.commitments.is_empty() {
        let _ = writeln!(s, "commitments (not opened):");
        for c in st.secrets.commitments.values() {
            let choice = if c.side == view.side {
                c.choice.to_string()
            } else {
                "(withheld)".to_string()
            };
            let _ = writeln!(
                s,
                "  {:<16} {:<8} {}  digest {}",
                cell(&c.id),
                cell(&c.side),
                cell(&choice),
                c.digest
            );
        }
    }
    let _ = writeln!(s, "log ({} actions):", view.log.len());
    for (i, e) in view.log.iter().enumerate() {
        let by = cell(e.action.side.as_deref().unwrap_or("-"));
        let params = if e.params_withheld {
            " (withheld)".to_string()
        } else if e.action.params.is_empty() {
            String::new()
        } else {
            format!(
                " {}",
                serde_json::to_string(&e.action.params).unwrap_or_default()
            )
        };
        let _ = writeln!(s, "  {:>3}. {by}: {}{params}", i + 1, cell(&e.action.kind));
        for ev in &e.events {
            let _ = writeln!(s, "       {}", cell(&event_line(ev, &st.map)));
        }
    }
    s
}

/// One event in a few words (the JSON form, with withheld ones named as such).
fn event_line(e: &Event, map: &kessel_core::map::Map) -> String {
    match e {
        Event::Withheld { kind } => format!("{kind}: (withheld)"),
        other => {
            let v = other.labelled(map);
            let mut parts = Vec::new();
            if let Some(o) = v.as_object() {
                for (k, v) in o {
                    if k != "event" {
                        parts.push(format!("{k}={v}"));
                    }
                }
            }
            format!("{}: {}", other.kind(), parts.join(" "))
        }
    }
}
