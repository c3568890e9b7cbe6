//! `kessel pack`: one `.kessel` file holding a scenario folder and a hashed manifest (see
//! `crate::package` and docs/file-formats.md).

use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `kessel pack`.
#[derive(clap::Args)]
pub struct Args {
    /// The scenario folder (holding scenario.toml), or a scenario file in its folder.
    scenario: PathBuf,
    /// The package to write (name.kessel).
    #[arg(short, long)]
    output: PathBuf,
    /// Put the ruleset's files in the package too (by default it is named with its content hash,
    /// for a ruleset bundled with Kessel).
    #[arg(long)]
    include_ruleset: bool,
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    anyhow::ensure!(
        crate::package::is_package(&args.output),
        "{}: a package's name ends in .kessel",
        args.output.display()
    );
    super::overwrite_only(&args.output, super::Output::Package)?;
    let scenario = crate::bundle::resolve(&args.scenario)?;
    let packed = crate::package::pack(&scenario, &args.output, args.include_ruleset)?;
    let (name, included) = packed.ruleset;
    if !packed.differs.is_empty() {
        // the players' kessel compares the hash with its own copy: say so now, and why
        eprintln!(
            "note: the ruleset `{name}` packed by reference is not the one this kessel bundles \
             ({}): a player's kessel will warn that the package was made with another version \
             and play its own copy; to send these files, pack with --include-ruleset",
            packed.differs.join(", ")
        );
    }
    if let Some(p) = &packed.profile_not_bundled {
        eprintln!(
            "warning: the scenario plays under the profile `{p}`, which the ruleset `{name}` \
             bundled with Kessel does not have: a player's kessel will refuse to open the package \
             (unless they have that profile in their own profiles folder); pack with \
             --include-ruleset to send it along"
        );
    }
    println!(
        "{}: {} files and a manifest; ruleset `{name}` {}",
        args.output.display(),
        packed.files,
        if included {
            "included"
        } else {
            "by reference (name and content hash)"
        }
    );
    Ok(ExitCode::SUCCESS)
}
