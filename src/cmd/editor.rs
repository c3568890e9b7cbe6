//! `kessel editor`: the map and scenario editor (see the `kessel-editor` crate), with the flags
//! that set up a scripted start, so a screenshot of any mode can be taken without a person at
//! the mouse (`--screenshot out.png --mode play --select 1513 --hover 1716`).

use kessel_editor::{CheckoutSaves, EditorOptions, Mode, Startup};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `kessel editor`.
#[derive(clap::Args)]
pub struct Args {
    /// Scenario, map or campaign file (default: the bundled PGG campaign). A campaign file opens
    /// on its first game; *Next game* in play-test goes on to the next. A saved game (`.json`,
    /// one game's or a campaign's) opens as with --load.
    scenario: Option<PathBuf>,
    /// Render the window to this PNG after the first frames settle, then exit.
    #[arg(long, value_name = "PNG")]
    screenshot: Option<PathBuf>,
    /// Mode to open in: map, scenario, play or rules.
    #[arg(long, value_parser = parse_mode)]
    mode: Option<Mode>,
    /// Select a unit (by id) or a hex (by label), brought into view: the inspector, the unit's
    /// form (scenario editing) or the play-test panel shows it. In play-test a unit is found
    /// where it stands after the --act actions and, with --computer, once the computer has made
    /// its moves (at the first decision of a side at the screen; with the computer on every side,
    /// which no side at the screen would ever stop, it is paused at once and the selection stays).
    #[arg(long, value_name = "UNIT|HEX")]
    select: Option<String>,
    /// Explain a hex as if the pointer rested on it.
    #[arg(long, value_name = "HEX")]
    hover: Option<String>,
    /// Window size in pixels.
    #[arg(long, value_name = "WxH", value_parser = kessel_editor::parse_size)]
    size: Option<[f32; 2]>,
    /// Interface size, as View → Interface size sets it (1 = plain, 1.5, 2; 0.5 to 3). Without
    /// it the size last picked in the editor is used.
    #[arg(long, value_name = "SCALE", value_parser = kessel_editor::parse_ui_scale)]
    ui_scale: Option<f32>,
    /// Zoom (points per hex radius) centred on the selected or hovered hex.
    #[arg(long, value_name = "PX")]
    zoom: Option<f32>,
    /// Play-test: take this action first (a JSON object with a "kind"); repeatable. One the rules
    /// refuse is said on stderr, and the start goes on.
    #[arg(long = "act", value_name = "JSON")]
    actions: Vec<String>,
    /// Play-test: declare an attack from this hex; repeatable.
    #[arg(long = "attack", value_name = "HEX")]
    attackers: Vec<String>,
    /// Play-test: the declared attack's target hex.
    #[arg(long, value_name = "HEX")]
    target: Option<String>,
    /// Play-test: the computer plays this side, at the ruleset's default AI level or at
    /// `SIDE:LEVEL` (`kessel info` lists the levels), its moves made at the Fast pace of the
    /// Players box (a pace, not the level `fast`); repeatable.
    #[arg(long = "computer", value_name = "SIDE[:LEVEL]")]
    computer: Vec<String>,
    /// Play-test: let the ruleset's AI play until this step (by id) offers an attack.
    #[arg(long, value_name = "STEP_ID")]
    ai_until: Option<String>,
    /// Play-test: load this saved game first (opens in play-test; without a scenario argument,
    /// on the scenario or campaign the save names).
    #[arg(long, value_name = "SAVE")]
    load: Option<PathBuf>,
    /// Play-test: save the game here once the start is set up; with --computer, once the
    /// computer has made its moves (when --select is made).
    #[arg(long, value_name = "FILE")]
    save: Option<PathBuf>,
    /// Play-test: print the legal actions (JSON, one a line) once the start is set up.
    #[arg(long)]
    print_legal: bool,
    /// Profile to apply (a name of the ruleset or a path).
    #[arg(long)]
    profile: Option<String>,
    /// Set one option on top of the profile, ID=VALUE (true/false, a number, or a choice's word;
    /// `kessel rules` lists the options and their values); repeatable.
    #[arg(long = "option", value_name = "ID=VALUE", value_parser = super::options::parse_option)]
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
    /// Rules mode: open the balance lab and start a run of N games per profile (the profile in
    /// force against --lab-against). A screenshot waits for the run to end unless --delay is
    /// given.
    #[arg(long, value_name = "N")]
    lab_run: Option<u64>,
    /// With --lab-run: the profile to compare with (a profile name, `defaults`, or `none`).
    #[arg(long, value_name = "PROFILE", requires = "lab_run")]
    lab_against: Option<String>,
}

/// The scenario (or campaign) file a save names, found as the engine finds it: beside the save
/// first, then from the working folder. None for a save that names none.
fn saved_scenario(save: &std::path::Path) -> anyhow::Result<Option<PathBuf>> {
    use anyhow::Context;
    // only the two names are read: the rest (the log) is skipped, not built
    #[derive(serde::Deserialize)]
    struct Names {
        scenario: Option<String>,
        campaign: Option<String>,
    }
    let text = kessel_core::error::read_text(save, "saved game")?;
    kessel_core::error::json_bounds(save, &text, "save", kessel_core::error::MAX_JSON_VALUES)?;
    let names: Names = serde_json::from_str(&text)
        .with_context(|| format!("{}: not a Kessel save (not JSON)", save.display()))?;
    let Some(named) = names.scenario.or(names.campaign).map(PathBuf::from) else {
        return Ok(None);
    };
    let beside = save
        .parent()
        .unwrap_or(std::path::Path::new(""))
        .join(&named);
    Ok(Some(if named.is_relative() && beside.exists() {
        beside
    } else {
        named
    }))
}

fn parse_mode(word: &str) -> Result<Mode, String> {
    Mode::from_arg(word).ok_or_else(|| format!("`{word}` is not one of map, scenario, play, rules"))
}

fn parse_pair(text: &str) -> Result<(String, String), String> {
    text.split_once(',')
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .ok_or_else(|| format!("`{text}` is not A,B"))
}

/// *File → Open…* reads a path as this command reads its argument: a scenario folder, a
/// `.kessel` package, a bundled scenario's path; with the folder that is Kessel's it lies in.
fn open_in_editor(p: &std::path::Path) -> anyhow::Result<(PathBuf, Option<(PathBuf, PathBuf)>)> {
    let scenario = crate::open_scenario(p)?;
    let not_yours = crate::bundle::not_the_users(&scenario);
    Ok((scenario, not_yours))
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    // a save is a game: without a scenario argument it opens on what the save names, and in
    // play-test unless another mode is asked for; a saved game (`.json`) given as the file is loaded as with --load
    let (file, load) = match (args.scenario, args.load) {
        (Some(f), None)
            if f.extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("json")) =>
        {
            (None, Some(f))
        }
        other => other,
    };
    let named = match (&file, &load) {
        (None, Some(save)) => saved_scenario(save)?,
        _ => None,
    };
    let scenario = crate::scenario_or_default(file.or(named))?;
    let mode = args.mode.or(load.as_ref().map(|_| Mode::Play));
    let startup = Startup {
        mode,
        actions: args.actions,
        select: args.select,
        attackers: args.attackers,
        target: args.target,
        hover: args.hover,
        zoom: args.zoom,
        compare: args.compare,
        delay: args.delay,
        load,
        save: args.save,
        print_legal: args.print_legal,
        profile: args.profile,
        options: args.options,
        ai_until: args.ai_until,
        computer: args.computer,
        tool: args.tool,
        region: args.region,
        lab: args.lab_run.map(|n| (n, args.lab_against)),
    };
    let not_yours = crate::bundle::not_the_users(&scenario);
    kessel_editor::run(EditorOptions {
        not_yours,
        opener: Some(open_in_editor),
        // (the scenario's checkout, or the working folder's: File → Open may come to it later)
        saves: crate::bundle::checkout_of(&scenario)
            .or_else(|| crate::bundle::checkout_of(std::path::Path::new(".")))
            .map(|checkout| CheckoutSaves {
                checkout,
                folder: crate::bundle::user_scenarios(),
            }),
        // a picture shows the editor as the flags say, not as this user last sized it
        settings: if args.screenshot.is_none() {
            kessel_editor::app::default_settings_file()
        } else {
            None
        },
        screenshot: args.screenshot,
        size: args.size,
        ui_scale: args.ui_scale,
        startup,
        ..EditorOptions::open(scenario)
    })?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::saved_scenario;
    use std::path::{Path, PathBuf};

    #[test]
    fn a_save_opens_on_the_scenario_it_names_beside_it_first() {
        let dir = kessel_test_support::scratch("editor-load");
        std::fs::create_dir_all(&dir).expect("scratch folder");
        // a save written by the editor names its scenario relative to itself
        std::fs::write(dir.join("mine.toml"), "").expect("scenario");
        let save = dir.join("game.json");
        std::fs::write(
            &save,
            r#"{"format":"kessel-save/1","scenario":"mine.toml"}"#,
        )
        .expect("save");
        let found = saved_scenario(&save).expect("reads");
        assert_eq!(found, Some(dir.join("mine.toml")));
        // else from the working folder, as the engine loads it
        std::fs::write(&save, r#"{"scenario":"scenarios/pgg/learning.toml"}"#).expect("save");
        let found = saved_scenario(&save).expect("reads");
        assert_eq!(found, Some(PathBuf::from("scenarios/pgg/learning.toml")));
        // a campaign save names its campaign
        std::fs::write(&save, r#"{"campaign":"c.toml"}"#).expect("save");
        assert_eq!(
            saved_scenario(&save).expect("reads"),
            Some(PathBuf::from("c.toml"))
        );
        // not a save: said so, with the file
        std::fs::write(&save, "not json").expect("save");
        let err = saved_scenario(&save).expect_err("not JSON");
        assert!(err.to_string().contains("game.json"), "{err}");
        assert!(saved_scenario(Path::new("no/such/save.json")).is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// *File → Open…* reads a path as the command reads its argument: a scenario folder is its
    /// scenario.toml, a package is verified and unpacked (a scenario file in the cache, which is
    /// Kessel's folder, not the user's).
    #[test]
    fn the_open_dialog_takes_a_folder_and_a_package() {
        let dir = kessel_test_support::toy_copy("editor-opener");
        let (file, _) = super::open_in_editor(&dir).expect("a folder opens");
        assert_eq!(file, dir.join("scenario.toml"));
        let pkg = dir.with_extension("kessel");
        crate::package::pack(&dir.join("scenario.toml"), &pkg, true).expect("packs");
        let (file, theirs) = super::open_in_editor(&pkg).expect("a package opens");
        assert!(file.is_file(), "{}", file.display());
        assert!(
            file.extension().is_some_and(|x| x == "toml"),
            "{}",
            file.display()
        );
        assert!(theirs.is_some(), "the package cache is Kessel's folder");
        let _ = std::fs::remove_dir_all(&dir);
        let _ = std::fs::remove_file(&pkg);
    }
}
