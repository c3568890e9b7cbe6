//! `kessel map …`: tools on map files. `kessel map cut` cuts a region out of a map, keeping the
//! printed hex numbers (see `Map::cut` and `scaffold::cut_map` in the core, which the editor's
//! *New scenario from a region* calls too).

use anyhow::Context;
use kessel_core::fsio::write_atomic;
use kessel_core::scaffold::{cut_map, CutText};
use kessel_core::scenario::load_map;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `kessel map`.
#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: MapCommand,
}

#[derive(clap::Subcommand)]
enum MapCommand {
    /// Cut a rectangle of hexes out of a map into a new map file, keeping the printed numbering.
    Cut(CutArgs),
}

/// Arguments of `kessel map cut`.
#[derive(clap::Args)]
struct CutArgs {
    /// The map to cut from (map.toml).
    source: PathBuf,
    /// One corner of the region, as printed (e.g. 1918).
    #[arg(long)]
    from: String,
    /// The opposite corner, as printed (e.g. 3431).
    #[arg(long)]
    to: String,
    /// The new map file; its folder is created if missing.
    #[arg(short, long)]
    output: PathBuf,
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    match args.command {
        MapCommand::Cut(a) => cut(a),
    }
}

fn cut(args: CutArgs) -> anyhow::Result<ExitCode> {
    // (as the system will reach them: `new/../map.toml` is the map itself once `new` is made)
    let same = |a: &std::path::Path, b: &std::path::Path| {
        use kessel_core::fsio::resolved;
        resolved(a) == resolved(b)
    };
    if same(&args.output, &args.source) {
        anyhow::bail!(
            "{}: the output is the map being cut; write the cut to a new file",
            args.output.display()
        );
    }
    crate::cmd::overwrite_only(&args.output, crate::cmd::Output::Map)?;
    let map =
        load_map(&crate::bundle::resolve(&args.source)?).map_err(|e| anyhow::anyhow!("{e}"))?;
    let corner = |label: &str| {
        map.parse(label).ok_or_else(|| {
            anyhow::anyhow!(
                "{}: no hex {label} on this map (its hexes run from {} to {})",
                args.source.display(),
                map.label(map.hex_at(0, 0)),
                map.label(map.hex_at(map.columns() as i32 - 1, map.rows() as i32 - 1)),
            )
        })
    };
    let (a, b) = (corner(&args.from)?, corner(&args.to)?);
    let CutText { cut, text } = cut_map(&map, &args.source.display().to_string(), a, b)?;
    // shortened things one a line; things wholly outside one line per kind, as they are many
    let mut dropped: std::collections::BTreeMap<&str, Vec<&str>> = Default::default();
    for note in &cut.notes {
        if note.kept == 0 {
            dropped.entry(note.what).or_default().push(&note.name);
        } else {
            // (names from the map file: shown, never obeyed, never a line of their own)
            eprintln!("note: {}", kessel_core::error::printable(&note.to_string()));
        }
    }
    for (what, names) in dropped {
        // a map may give two features one name (a river's upper and lower course): the one
        // left out is told apart from the one kept in part, which was just reported
        let partly = |name: &str| {
            cut.notes
                .iter()
                .any(|n| n.what == what && n.kept > 0 && n.name == name)
        };
        let names: Vec<String> = names
            .iter()
            .map(|n| {
                if partly(n) {
                    format!("{n} (another {what} of that name, not the one kept in part)")
                } else {
                    (*n).to_string()
                }
            })
            .collect();
        eprintln!(
            "note: {}",
            kessel_core::error::printable(&format!(
                "{} {what}(s) wholly outside the region left out: {}",
                names.len(),
                names.join(", ")
            ))
        );
    }
    if let Some(dir) = args.output.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot create the folder {}", dir.display()))?;
    }
    write_atomic(&args.output, text.as_bytes())?;
    let m = &cut.map;
    println!(
        "{}: {}×{} hexes, {} to {}; {} places, {} areas, {} features",
        args.output.display(),
        m.columns(),
        m.rows(),
        m.label(m.hex_at(0, 0)),
        m.label(m.hex_at(m.columns() as i32 - 1, m.rows() as i32 - 1)),
        m.places.len(),
        m.areas.len(),
        m.features.len()
    );
    Ok(ExitCode::SUCCESS)
}
