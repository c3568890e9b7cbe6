//! `kessel editor`: the map and scenario editor (see the `kessel-editor` crate), with the flags
//! that set up a scripted start, so a screenshot of any mode can be taken without a person at
//! the mouse (`--screenshot out.png --mode play --select 1513 --hover 1716`).

use kessel_editor::{EditorOptions, Mode, Startup};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `kessel editor`.
#[derive(clap::Args)]
pub struct Args {
    /// Scenario, map or campaign file (default: the bundled PGG campaign). A campaign file opens
    /// on its first game; *Next game* in play-test goes on to the next.
    scenario: Option<PathBuf>,
    /// Render the window to this PNG after the first frames settle, then exit.
    #[arg(long, value_name = "PNG")]
    screenshot: Option<PathBuf>,
    /// Mode to open in: map, scenario, play or rules.
    #[arg(long, value_parser = parse_mode)]
    mode: Option<Mode>,
    /// Select a unit (by id) or a hex (by label): the inspector or play-test panel shows it.
    #[arg(long, value_name = "UNIT|HEX")]
    select: Option<String>,
    /// Explain a hex as if the pointer rested on it.
    #[arg(long, value_name = "HEX")]
    hover: Option<String>,
    /// Window size in pixels.
    #[arg(long, value_name = "WxH", value_parser = kessel_editor::parse_size)]
    size: Option<[f32; 2]>,
    /// Zoom (points per hex radius) centred on the selected or hovered hex.
    #[arg(long, value_name = "PX")]
    zoom: Option<f32>,
    /// Play-test: take this action first (a JSON object with a "kind"); repeatable.
    #[arg(long = "act", value_name = "JSON")]
    actions: Vec<String>,
    /// Play-test: declare an attack from this hex; repeatable.
    #[arg(long = "attack", value_name = "HEX")]
    attackers: Vec<String>,
    /// Play-test: the declared attack's target hex.
    #[arg(long, value_name = "HEX")]
    target: Option<String>,
    /// Play-test: the computer plays this side (at the fast pace), at the ruleset's default AI
    /// level or at `SIDE:LEVEL` (`kessel info` lists the levels); repeatable.
    #[arg(long = "computer", value_name = "SIDE[:LEVEL]")]
    computer: Vec<String>,
    /// Play-test: let the ruleset's AI play until this step (by id) offers an attack.
    #[arg(long, value_name = "STEP_ID")]
    ai_until: Option<String>,
    /// Play-test: load this saved game first.
    #[arg(long, value_name = "SAVE")]
    load: Option<PathBuf>,
    /// Play-test: save the game here once the start is set up.
    #[arg(long, value_name = "FILE")]
    save: Option<PathBuf>,
    /// Play-test: print the legal actions (JSON, one a line) once the start is set up.
    #[arg(long)]
    print_legal: bool,
    /// Profile to apply (a name of the ruleset or a path).
    #[arg(long)]
    profile: Option<String>,
    /// Set an option, ID=VALUE (JSON, or a plain word for a choice); repeatable.
    #[arg(long = "option", value_name = "ID=VALUE", value_parser = parse_option)]
    options: Vec<(String, String)>,
    /// Rules mode: compare two profiles, A,B.
    #[arg(long, value_name = "A,B", value_parser = parse_pair)]
    compare: Option<(String, String)>,
    /// Map editing: pick a tool (view, paint, fill, hexside, link, region).
    #[arg(long, value_name = "TOOL")]
    tool: Option<String>,
    /// Map editing: show *New scenario from a region* with this rectangle, A,B (two opposite
    /// corner hexes as printed).
    #[arg(long, value_name = "A,B", value_parser = parse_pair)]
    region: Option<(String, String)>,
    /// Seconds to wait before the screenshot (to catch a reload made meanwhile).
    #[arg(long, value_name = "SECONDS")]
    delay: Option<f32>,
}

fn parse_mode(word: &str) -> Result<Mode, String> {
    Mode::from_arg(word).ok_or_else(|| format!("`{word}` is not one of map, scenario, play, rules"))
}

fn parse_option(text: &str) -> Result<(String, String), String> {
    text.split_once('=')
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .ok_or_else(|| format!("`{text}` is not ID=VALUE"))
}

fn parse_pair(text: &str) -> Result<(String, String), String> {
    text.split_once(',')
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .ok_or_else(|| format!("`{text}` is not A,B"))
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let scenario = crate::scenario_or_default(args.scenario)?;
    let startup = Startup {
        mode: args.mode,
        actions: args.actions,
        select: args.select,
        attackers: args.attackers,
        target: args.target,
        hover: args.hover,
        zoom: args.zoom,
        compare: args.compare,
        delay: args.delay,
        load: args.load,
        save: args.save,
        print_legal: args.print_legal,
        profile: args.profile,
        options: args.options,
        ai_until: args.ai_until,
        computer: args.computer,
        tool: args.tool,
        region: args.region,
    };
    let not_yours = crate::bundle::not_the_users(&scenario);
    kessel_editor::run(EditorOptions {
        not_yours,
        screenshot: args.screenshot,
        size: args.size,
        startup,
        ..EditorOptions::open(scenario)
    })?;
    Ok(ExitCode::SUCCESS)
}
