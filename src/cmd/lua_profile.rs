//! `--lua-profile FILE` (`kessel simulate`, `kessel script`, `kessel campaign`): where the scripts spend their time,
//! sampled while the command runs ([`kessel_core::script::profile`]) and written as a text report.

use anyhow::Context;
use kessel_core::script::profile::{self, LuaProfile};
use std::path::{Path, PathBuf};

/// The flag of the commands that can profile their scripts.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct LuaProfileArgs {
    /// Sample where the Lua scripts spend their time (rules, the computer player, the script)
    /// and write a report to FILE: functions and lines by their share of the time, for finding
    /// what makes a ruleset slow. The run itself plays the same.
    #[arg(long, value_name = "FILE")]
    pub lua_profile: Option<PathBuf>,
}

/// Rows of each table in the report.
const ROWS: usize = 60;

impl LuaProfileArgs {
    /// Refuses, before any work is done, a file the report may not be written over.
    pub fn check(&self) -> anyhow::Result<()> {
        match &self.lua_profile {
            Some(out) => super::overwrite_only(out, super::Output::LuaProfile),
            None => Ok(()),
        }
    }

    /// Starts profiling the scripts this thread runs, when asked for.
    pub fn start(&self) {
        if self.lua_profile.is_some() {
            profile::start();
        }
    }

    /// Runs `body` on this thread with its scripts profiled, when asked for, and writes the
    /// report after it, whether it succeeded or not (a run that failed may be the one to look
    /// at).
    pub fn around<T>(&self, body: impl FnOnce() -> anyhow::Result<T>) -> anyhow::Result<T> {
        self.check()?;
        self.start();
        let out = body();
        if let Some(gathered) = profile::finish() {
            self.write(&gathered)?;
        }
        out
    }

    /// Writes the report of `gathered`, when asked for, and says so on stderr.
    pub fn write(&self, gathered: &LuaProfile) -> anyhow::Result<()> {
        let Some(out) = &self.lua_profile else {
            return Ok(());
        };
        write_report(out, gathered)
    }
}

fn write_report(out: &Path, gathered: &LuaProfile) -> anyhow::Result<()> {
    kessel_core::fsio::write_atomic(out, gathered.report(ROWS).as_bytes())
        .with_context(|| format!("writing the Lua profile {}", out.display()))?;
    let top = gathered
        .self_lines()
        .into_iter()
        .next()
        .map(|r| {
            format!(
                "; the costliest line alone: {} ({:.0}%)",
                r.key,
                r.share * 100.0
            )
        })
        .unwrap_or_default();
    eprintln!(
        "{}: Lua profile written, {} samples over {:.2} s of script time{}",
        out.display(),
        gathered.samples(),
        gathered.seconds(),
        kessel_core::error::terminal_line(&top)
    );
    Ok(())
}
