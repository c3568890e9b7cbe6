//! Runs the editor without the CLI, for working on the editor alone and for scripted screenshots:
//!
//! ```text
//! cargo run -p kessel-editor --example editor -- SCENARIO [--screenshot OUT.png]
//!     [--mode edit|scenario|play|rules] [--act JSON]... [--select HEX] [--attack HEX]... [--target HEX]
//!     [--hover HEX] [--zoom PX] [--compare A,B] [--delay SECONDS] [--load SAVE]
//!     [--ai-until STEP_ID] [--save FILE]
//!     [--print-legal] [--profile NAME] [--option ID=VALUE]...
//! ```
//!
//! e.g. `--mode play --act '{"kind":"end_setup"}' --act '{"kind":"end_air_placement"}' --select 1513 --hover 1716 --zoom 34`.

use kessel_editor::panels::Mode;
use kessel_editor::{run_with, EditorOptions, Startup};
use std::path::PathBuf;

fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let mut scenario = None;
    let mut screenshot = None;
    let mut st = Startup::default();
    let usage = "usage: editor SCENARIO [--screenshot OUT.png] [--mode edit|scenario|play|rules] [--act JSON]... \
                 [--select HEX] [--attack HEX]... [--target HEX] [--hover HEX] [--zoom PX] \
                 [--compare A,B] [--delay SECONDS] [--load SAVE] [--ai-until STEP_ID] [--save FILE] [--print-legal] \
                 [--profile NAME] [--option ID=VALUE]...";
    while let Some(a) = args.next() {
        let mut value = || {
            args.next()
                .ok_or_else(|| anyhow::anyhow!("{a} needs a value\n{usage}"))
        };
        match a.as_str() {
            "--screenshot" => screenshot = Some(PathBuf::from(value()?)),
            "--mode" => {
                st.mode = Some(match value()?.as_str() {
                    "edit" => Mode::Edit,
                    "scenario" => Mode::Scenario,
                    "play" => Mode::Play,
                    "rules" => Mode::Rules,
                    other => anyhow::bail!("unknown mode `{other}`\n{usage}"),
                })
            }
            "--act" => st.actions.push(value()?),
            "--select" => st.select = Some(value()?),
            "--attack" => st.attackers.push(value()?),
            "--target" => st.target = Some(value()?),
            "--hover" => st.hover = Some(value()?),
            "--zoom" => st.zoom = Some(value()?.parse()?),
            "--delay" => st.delay = Some(value()?.parse()?),
            "--load" => st.load = Some(PathBuf::from(value()?)),
            "--save" => st.save = Some(PathBuf::from(value()?)),
            "--print-legal" => st.print_legal = true,
            "--profile" => st.profile = Some(value()?),
            "--option" => {
                let v = value()?;
                let (id, val) = v
                    .split_once('=')
                    .ok_or_else(|| anyhow::anyhow!("--option takes ID=VALUE\n{usage}"))?;
                st.options.push((id.to_string(), val.to_string()));
            }
            "--ai-until" => st.ai_until = Some(value()?),
            "--compare" => {
                let v = value()?;
                let (x, y) = v
                    .split_once(',')
                    .ok_or_else(|| anyhow::anyhow!("--compare takes A,B\n{usage}"))?;
                st.compare = Some((x.to_string(), y.to_string()));
            }
            flag if flag.starts_with("--") => anyhow::bail!("unknown option {flag}\n{usage}"),
            _ => scenario = Some(PathBuf::from(a)),
        }
    }
    let scenario = scenario.ok_or_else(|| anyhow::anyhow!("{usage}"))?;
    run_with(
        EditorOptions {
            scenario,
            screenshot,
        },
        st,
    )
}
