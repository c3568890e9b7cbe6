//! `kessel report`: reads the JSON Lines files `kessel simulate --out` wrote (shards of one run,
//! or runs of other profiles over the same scenario and ruleset), merges them, prints the same
//! statistics `simulate` prints, and with `-o` writes one self-contained HTML report with SVG
//! charts.

use anyhow::Context;
use kessel_lab::{html, record, summary};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `kessel report`.
#[derive(clap::Args)]
pub struct Args {
    /// Data files written by `kessel simulate --out` (shards are merged).
    #[arg(required = true, value_name = "FILE.jsonl")]
    files: Vec<PathBuf>,
    /// Write an HTML report (one file, no network needed) here.
    #[arg(long, short, value_name = "REPORT.html")]
    output: Option<PathBuf>,
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if let Some(out) = &args.output {
        super::overwrite_only(out, super::Output::Report)?;
    }
    let data = record::merge_files(&args.files)?;
    let s = summary::summarize(&data);
    let text = summary::text(&data, &s);
    let mut stdout = std::io::stdout().lock();
    // the data files are anyone's text: control characters are shown escaped, never obeyed
    write!(stdout, "{}", kessel_core::error::terminal_safe(&text))?;
    stdout.flush()?;
    drop(stdout);
    if let Some(path) = &args.output {
        let page = html::report(&data, &s, &text);
        kessel_core::fsio::write_atomic(path, page.as_bytes())
            .with_context(|| format!("writing {}", path.display()))?;
        eprintln!("wrote {}", path.display());
    }
    let games = data.games.len();
    if games > 0 {
        eprintln!(
            "{} over {games} games",
            kessel_lab::summary::cpu_line(&data.games)
        );
    }
    Ok(ExitCode::SUCCESS)
}
