//! `kessel render`: draw a scenario's map to an image.

use crate::render::{render_svg, svg_to_png, Options, Picture};
use anyhow::Context;
use kessel_core::engine::Engine;
use kessel_core::scenario::Scenario;
use kessel_core::script::Limits;
use kessel_draw::MapStyle;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Arguments of `kessel render`.
#[derive(clap::Args)]
pub struct Args {
    /// Scenario file or package (.kessel).
    scenario: PathBuf,
    /// Output file (.svg or .png).
    #[arg(short, long)]
    output: PathBuf,
    /// Leave out the entry and set-up areas.
    #[arg(long)]
    no_areas: bool,
    /// Leave out the units placed at set-up.
    #[arg(long)]
    no_units: bool,
    /// PNG only: pixels per SVG unit (1 = a hex 48 pixels wide; 0.05 to 10, and at most 64
    /// million pixels in all).
    #[arg(long, default_value_t = 1.0)]
    scale: f32,
    /// Draw what this side is shown at set-up: the units and markers hidden from it are left
    /// off, those hidden from others only are drawn (without it, anything hidden from a side is
    /// left off: a picture is for sending round).
    #[arg(long = "as", value_name = "SIDE")]
    side: Option<String>,
}

/// The output formats, by file extension.
enum Format {
    Svg,
    Png,
}

fn format_of(path: &Path) -> anyhow::Result<Format> {
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    match ext.as_deref() {
        Some("svg") => Ok(Format::Svg),
        Some("png") => Ok(Format::Png),
        _ => anyhow::bail!("{}: the output must end in .svg or .png", path.display()),
    }
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let format = format_of(&args.output)?;
    super::overwrite_only(&args.output, super::Output::Picture)?;
    let scenario = Scenario::load(&crate::open_scenario(&args.scenario)?)
        .context("cannot load the scenario")?;
    // the ruleset declares how its kinds and sides look; a broken ruleset still gets a picture,
    // drawn with the fallback style, and a warning
    let style = match Engine::bare(&scenario.ruleset_dir, Limits::default()) {
        Ok(engine) => MapStyle::from_ruleset(&engine.ruleset()),
        Err(e) => {
            // (the error may quote the rules' own text: shown as any error is)
            eprintln!(
                "warning: {}",
                kessel_core::error::printable(&format!(
                    "the ruleset did not load, so its colours and names are not used: {e}"
                ))
            );
            MapStyle::default()
        }
    };
    // sides nobody declared, in the order they first appear among the units
    let sides: Vec<String> = style
        .sides()
        .iter()
        .cloned()
        .chain(scenario.units.iter().map(|s| s.unit.side.clone()))
        .fold(Vec::new(), |mut v, s| {
            if !v.contains(&s) {
                v.push(s);
            }
            v
        });
    let style = style.with_sides(sides.iter().map(String::as_str));
    let state = scenario.initial_state(sides, crate::DEFAULT_SEED);
    let shown = match &args.side {
        Some(side) => {
            if !state.sides.iter().any(|s| s == side) {
                let hint = kessel_core::names::did_you_mean(side, &state.sides);
                anyhow::bail!(
                    "--as {}: not a side of this scenario (it has: {}){hint}",
                    kessel_core::error::printable_name(side),
                    state.sides.join(", ")
                );
            }
            // the one rule of what a side is shown, as `kessel view` and `kessel query --as`
            kessel_core::secrets::state_for(&state, side)
        }
        None => state.clone(),
    };
    // without a side, a picture is for sending round: what is hidden from any side (a
    // minefield, a concealed squad) stays off it; a side's view has kept what that side sees
    let open = |hidden_from: &mut dyn Iterator<Item = &str>| {
        args.side.is_some() || hidden_from.next().is_none()
    };
    let units: Vec<_> = (shown.units.iter())
        .filter(|u| open(&mut shown.secrets.hidden_from(&u.id)))
        .cloned()
        .collect();
    let markers: Vec<_> = (shown.markers.iter())
        .filter(|m| open(&mut shown.secrets.marker_hidden_from(m.id)))
        .cloned()
        .collect();
    let opts = Options {
        areas: !args.no_areas,
        units: !args.no_units,
    };
    let svg = render_svg(
        &Picture {
            map: &shown.map,
            title: &scenario.name,
            units: &units,
            objectives: &scenario.objectives,
            markers: &markers,
            style: &style,
            seen_by: args.side.as_deref(),
        },
        &opts,
    );
    let bytes = match format {
        Format::Svg => svg.into_bytes(),
        Format::Png => svg_to_png(&svg, args.scale).context("cannot draw the PNG")?,
    };
    kessel_core::fsio::write_atomic(&args.output, &bytes)?;
    println!("{}: {} bytes", args.output.display(), bytes.len());
    Ok(ExitCode::SUCCESS)
}
