//! Runs the editor without the CLI, for working on the editor alone:
//! `cargo run -p kessel-editor --example editor -- SCENARIO [--screenshot OUT.png]`.

use kessel_editor::{run, EditorOptions};
use std::path::PathBuf;

fn main() -> anyhow::Result<()> {
    let mut args = std::env::args_os().skip(1);
    let mut scenario = None;
    let mut screenshot = None;
    while let Some(a) = args.next() {
        if a == "--screenshot" {
            screenshot = args.next().map(PathBuf::from);
        } else {
            scenario = Some(PathBuf::from(a));
        }
    }
    let scenario =
        scenario.ok_or_else(|| anyhow::anyhow!("usage: editor SCENARIO [--screenshot OUT.png]"))?;
    run(EditorOptions {
        scenario,
        screenshot,
    })
}
