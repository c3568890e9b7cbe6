//! `kessel replay`: plays a saved game again through the scenario and rule files now in place and
//! says whether it still plays: every action, or the first that no longer does and why. With
//! `--save` it writes the game as far as it replays, for the players to go on from there. This is
//! what a GM reaches for when a rule is fixed mid-tournament, or when rules reloaded in the editor
//! during play refuse what was played before (`Engine::load_save_as_far_as_it_replays`).

use kessel_core::engine::Engine;
use kessel_core::script::{Limits, Stopper};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `kessel replay`.
#[derive(clap::Args)]
pub struct Args {
    /// One game's save (JSON); a campaign save is replayed by `kessel campaign --verify`.
    save: PathBuf,
    /// Write the game as far as it replays as a save here (all of it when every action replays:
    /// then a save of the same game made under the files now in place).
    #[arg(long = "save", value_name = "FILE")]
    out: Option<PathBuf>,
}

/// Runs the command: success when every action replays or `--save` wrote what does.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if let Some(out) = &args.out {
        super::overwrite_only(out, super::Output::Save)?;
    }
    let (engine, players, replayed) =
        Engine::load_save_as_far_as_it_replays(&args.save, Limits::default(), Stopper::default())
            .map_err(super::describe)?;
    let shown = args.save.display();
    let at = {
        let w = engine.world();
        let step = w
            .current_step()
            .map_or_else(String::new, |s| format!(", {}", s.name));
        format!("turn {}{step}", w.state.turn)
    };
    let actions = |n: usize| super::count(n, "action", "actions");
    match &replayed.stop {
        None => {
            let all = match replayed.of {
                1 => "its 1 action replays".to_string(),
                n => format!("all {n} actions replay"),
            };
            println!("{shown}: {all} under the files now in place ({at})");
            if let Some(note) = engine.save_changed_note() {
                println!("note: {}", kessel_core::error::printable(note));
            }
        }
        Some(stop) => {
            let why = kessel_core::error::printable(&stop.why);
            match stop.action {
                Some(n) => println!(
                    "{shown}: {} of {} replay under the files now in place; action {n} no longer \
                     does: {why}\nas far as it replays the game stands at {at}; {} from action \
                     {n} on would be left out, to be played again",
                    replayed.replayed,
                    actions(replayed.of),
                    actions(replayed.of - replayed.replayed)
                ),
                None => println!(
                    "{shown}: all {} replay, but the files now in place make another state of \
                     them: {why}",
                    actions(replayed.of)
                ),
            }
            // what the players play again, as the save holds it, numbered as in its log
            if !replayed.left_out.is_empty() {
                println!("left out:");
            }
            for (i, action) in replayed.left_out.iter().enumerate() {
                let json = serde_json::to_string(action).unwrap_or_default();
                println!(
                    "  {:>4}  {}",
                    replayed.replayed + i + 1,
                    kessel_core::error::printable(&json)
                );
            }
        }
    }
    let Some(out) = &args.out else {
        return Ok(if replayed.stop.is_none() {
            ExitCode::SUCCESS
        } else {
            ExitCode::FAILURE
        });
    };
    // the actions left out are in the original only: it is not written over
    let same = |a: &std::path::Path, b: &std::path::Path| {
        kessel_core::fsio::resolved(a) == kessel_core::fsio::resolved(b)
    };
    if replayed.stop.is_some() && same(out, &args.save) {
        anyhow::bail!(
            "{}: not written over: it holds the actions that no longer replay, which the players \
             need to play them again; name another file for what replays",
            out.display()
        );
    }
    let text = engine
        .save_as(out, &players)
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    super::script::save_checked(out, &text, false)?;
    println!(
        "{}: saved, {} ({at}); `kessel view` or `kessel editor` opens it",
        out.display(),
        actions(replayed.replayed)
    );
    Ok(ExitCode::SUCCESS)
}
