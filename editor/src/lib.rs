//! # kessel-editor
//!
//! Kessel's map and scenario editor (egui/eframe), with a play-test mode that plays the scenario
//! through the engine, a rules panel for profiles and options, and hot reload of the ruleset and
//! scenario files. The CLI starts it with [`run`]; tests drive [`EditorApp::ui_root`] headless
//! through `egui_kittest`.
//!
//! **Boundary:** the editor changes a map only through [`command::EditorCommand`]s applied after
//! the frame and recorded for undo; it plays only through `Engine::act` / `Engine::undo`
//! ([`play::PlayCommand`]s, applied after the frame); it reads and writes files only through
//! `kessel_core`'s loaders, [`kessel_core::map_toml`] and [`document::write_atomic`]. It knows no
//! game: what it asks a ruleset is in [`play::queries`].
//!
//! # Layout
//! - [`app`]: [`EditorApp`], the frame loop: menu → status bar → palette → inspector → map, then
//!   apply the frame's commands; one file per job (layout, menus, commands, hot reload, scripted
//!   start-up, screenshots, display text).
//! - [`document`]: the open scenario or map, its units, loading and atomic saving.
//! - [`command`]: [`command::EditorCommand`] and the snapshot undo/redo [`command::History`];
//!   the map edits themselves (terrain, hexside features, links).
//! - [`map_view`]: the canvas: camera (pan/zoom, fit), hit-testing, and the layers it paints from
//!   the drawing model (`kessel_draw`: layout, the ruleset's style, stacks) with culling.
//! - [`counters`]: unit counters and stacks.
//! - [`paint`]: the drawing model's points, colours and shared shapes in egui's terms.
//! - [`panels`]: one struct per panel (palette with the mode switch, inspector, play-test, event
//!   log, rules, status bar), each a [`panels::Panel`] drawn with a [`panels::PanelCx`].
//! - [`play`]: [`play::PlaySession`], the play-test game and the views derived from it;
//!   [`play::queries`], the questions the editor asks a ruleset; [`play::campaign`], a campaign
//!   played game after game (opened with [`EditorApp::open_file`]).
//! - [`scenario_file`]: the scenario's editable data and the `toml_edit` writer that saves it
//!   into the author's file in place.
//! - [`validate`]: the checks of `kessel check`, run on the unsaved scenario after edits.
//! - [`lab`]: the balance lab of the rules panel: games of two profiles played with `kessel_lab`
//!   on background threads, polled each frame.
//! - [`save_as`]: *Save as…*, the scenario and its folder written into a folder of the user's.
//! - [`underlay`]: a picture traced under the map, fitted by three points, kept beside it.
//! - [`reload`]: the file watcher (notify, debounced) whose changes the app applies between
//!   frames.

pub mod app;
pub mod command;
pub mod counters;
pub mod document;
pub mod lab;
pub mod map_view;
pub mod paint;
pub mod panels;
pub mod play;
pub mod reload;
pub mod save_as;
pub mod scenario_file;
pub mod underlay;
pub mod validate;
pub mod words;

pub use app::{EditorApp, Startup};
pub use document::Document;
pub use panels::Mode;

use anyhow::{anyhow, bail};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

/// How a path given to *File → Open…* becomes the scenario file to open, and the folder that is
/// Kessel's rather than the user's it lies in (see [`EditorOptions::not_yours`]). The CLI's own
/// reading of a scenario argument, so the dialog takes what `kessel editor PATH` takes: a
/// scenario folder, a `.kessel` package (verified and unpacked), a bundled scenario's path.
pub type Opener = fn(&std::path::Path) -> anyhow::Result<(PathBuf, Option<(PathBuf, PathBuf)>)>;

static OPENER: std::sync::OnceLock<Opener> = std::sync::OnceLock::new();

static SAVES: std::sync::OnceLock<CheckoutSaves> = std::sync::OnceLock::new();

/// Where games of the scenarios in Kessel's own source checkout are saved at first: the
/// checkout's folder and the user's folder for saves.
#[derive(Debug, Clone)]
pub struct CheckoutSaves {
    /// The checkout (canonical path): a game of a scenario below it goes to `folder`.
    pub checkout: PathBuf,
    /// The user's folder (made when first used).
    pub folder: PathBuf,
}

/// Sets where a game of a scenario in Kessel's checkout is saved at first (once per process;
/// [`run`] sets it from [`EditorOptions::saves`]).
pub fn set_checkout_saves(saves: CheckoutSaves) {
    let _ = SAVES.set(saves);
}

/// What [`set_checkout_saves`] set, if anything.
pub(crate) fn checkout_saves() -> Option<&'static CheckoutSaves> {
    SAVES.get()
}

/// Sets how *File → Open…* reads a path (once per process; [`run`] sets it from
/// [`EditorOptions::opener`]).
pub fn set_opener(opener: Opener) {
    let _ = OPENER.set(opener);
}

/// How *File → Open…* reads a path, when the CLI said.
pub fn opener() -> Option<Opener> {
    OPENER.get().copied()
}

/// How the CLI starts the editor: the file, an optional screenshot, the window size and a
/// scripted start ([`Startup`]: mode, selection, hover, actions…).
#[derive(Clone, Debug)]
pub struct EditorOptions {
    /// Scenario, map or campaign file to open.
    pub scenario: PathBuf,
    /// Render the window to this PNG after the first frames, then exit.
    pub screenshot: Option<PathBuf>,
    /// Inner window size in points (default 1400×900).
    pub size: Option<[f32; 2]>,
    /// Interface size (egui's zoom factor, 1 = plain); without it the size kept in `settings`.
    pub ui_scale: Option<f32>,
    /// The settings file the interface size is kept in between runs (none: not kept).
    pub settings: Option<PathBuf>,
    /// What to set up before the first frame.
    pub startup: Startup,
    /// When the file lies in a folder that is Kessel's, not the user's (the bundled scenarios
    /// of this version, an opened package's cache): that folder, and the user's folder offered
    /// for new work instead. Saving there is refused with a message saying why.
    pub not_yours: Option<(PathBuf, PathBuf)>,
    /// How *File → Open…* reads a path (see [`Opener`]); without one it opens the file as
    /// given.
    pub opener: Option<Opener>,
    /// Kessel's source checkout and the user's folder where *Save game* offers to save a game of
    /// a scenario that lies in it (the learning scenario's save was offered inside the
    /// repository); without it a game is offered beside its scenario.
    pub saves: Option<CheckoutSaves>,
}

impl EditorOptions {
    /// Options that open `scenario` with nothing else set up.
    pub fn open(scenario: PathBuf) -> EditorOptions {
        EditorOptions {
            scenario,
            screenshot: None,
            size: None,
            ui_scale: None,
            settings: None,
            startup: Startup::default(),
            not_yours: None,
            opener: None,
            saves: None,
        }
    }
}

/// Reads a window size written `WIDTHxHEIGHT` (e.g. `1600x1000`).
pub fn parse_size(text: &str) -> anyhow::Result<[f32; 2]> {
    let (w, h) = text
        .split_once(['x', 'X'])
        .ok_or_else(|| anyhow!("size `{text}` is not WIDTHxHEIGHT (e.g. 1600x1000)"))?;
    let side = |v: &str| -> anyhow::Result<f32> {
        match v.trim().parse::<u32>() {
            Ok(n) if (200..=8000).contains(&n) => Ok(n as f32),
            _ => bail!("size `{text}`: each side is a whole number of pixels from 200 to 8000"),
        }
    };
    Ok([side(w)?, side(h)?])
}

/// Reads an interface size (`1.5`), one of [`app::UI_SCALES`].
pub fn parse_ui_scale(text: &str) -> anyhow::Result<f32> {
    match text.trim().parse::<f32>() {
        Ok(s) if app::UI_SCALES.contains(&s) => Ok(s),
        _ => bail!(
            "interface size `{text}` is not a number from {} to {}",
            app::UI_SCALES.start(),
            app::UI_SCALES.end()
        ),
    }
}

/// Opens the editor window as `opts` says (blocking until it closes).
pub fn run(opts: EditorOptions) -> anyhow::Result<()> {
    if let Some(opener) = opts.opener {
        set_opener(opener);
    }
    if let Some(saves) = &opts.saves {
        set_checkout_saves(saves.clone());
    }
    // read the file first, so a broken scenario is reported even where no window can open
    let mut app = EditorApp::open_file(&opts.scenario, true)?;
    ensure_display()?;
    let title = format!("Kessel editor — {}", app.title());
    app.set_not_yours(opts.not_yours.clone());
    let outcome: app::ScreenshotOutcome = Arc::new(Mutex::new(None));
    if let Some(path) = &opts.screenshot {
        app.take_screenshot(path.clone(), outcome.clone());
    }
    if let Some(settings) = &opts.settings {
        app::set_settings_file(settings.clone());
    }
    let kept = opts.settings.as_deref().and_then(app::saved_ui_scale);
    if let Some(scale) = opts.ui_scale.or(kept) {
        app.set_ui_scale(scale);
    }
    app.startup(opts.startup)?;
    for w in &app.startup_warnings {
        eprintln!("warning: {}", kessel_core::error::terminal_line(w));
    }
    let native = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title(title)
            .with_inner_size(opts.size.unwrap_or([1400.0, 900.0])),
        ..Default::default()
    };
    eframe::run_native(
        "kessel-editor",
        native,
        Box::new(move |cc| {
            install_fallback_font(&cc.egui_ctx);
            Ok(Box::new(app))
        }),
    )
    .map_err(|e| anyhow!("the editor window failed: {e}"))?;
    if opts.screenshot.is_some() {
        let result = outcome
            .lock()
            .map_err(|_| anyhow!("screenshot state poisoned"))?
            .take();
        match result {
            Some(Ok(_)) => {}
            Some(Err(e)) => bail!("screenshot failed: {e}"),
            None => bail!("the window closed before the screenshot was taken"),
        }
    }
    Ok(())
}

/// Fonts that cover the symbols rules text uses and egui's bundled font lacks (arrows, ≤, ⚠),
/// tried in order; the first one found is added as the last fallback. Without one those
/// characters show as boxes, nothing worse.
const FALLBACK_FONTS: [&str; 3] = [
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/TTF/DejaVuSans.ttf",
    "/Library/Fonts/Arial Unicode.ttf",
];

/// Adds the first [`FALLBACK_FONTS`] entry that exists as a fallback of both font families.
pub fn install_fallback_font(ctx: &egui::Context) {
    use egui::epaint::text::{FontInsert, FontPriority, InsertFontFamily};
    let Some(bytes) = FALLBACK_FONTS.iter().find_map(|p| std::fs::read(p).ok()) else {
        return;
    };
    let families = [egui::FontFamily::Proportional, egui::FontFamily::Monospace]
        .into_iter()
        .map(|family| InsertFontFamily {
            family,
            priority: FontPriority::Lowest,
        })
        .collect();
    ctx.add_font(FontInsert::new(
        "symbols-fallback",
        egui::FontData::from_owned(bytes),
        families,
    ));
}

/// Fails early with advice when there is no display to open a window on, instead of winit's
/// opaque "failed to initialize any backend".
fn ensure_display() -> anyhow::Result<()> {
    if cfg!(all(unix, not(target_os = "macos"))) {
        let set = |v: &str| std::env::var_os(v).is_some_and(|s| !s.is_empty());
        if !set("DISPLAY") && !set("WAYLAND_DISPLAY") {
            bail!(
                "no display: neither DISPLAY nor WAYLAND_DISPLAY is set, so the editor window \
                 cannot open. On a headless machine run it under a virtual X server, e.g. \
                 `xvfb-run -a kessel editor SCENARIO --screenshot out.png`"
            );
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_are_read_and_bad_ones_refused() {
        assert_eq!(parse_size("1600x1000").ok(), Some([1600.0, 1000.0]));
        assert_eq!(parse_size("800X600").ok(), Some([800.0, 600.0]));
        for bad in ["1600", "ax600", "10x10", "1600x", "99999x600"] {
            assert!(parse_size(bad).is_err(), "{bad} accepted");
        }
        assert_eq!(parse_ui_scale("1.5").ok(), Some(1.5));
        for bad in ["0.1", "4", "big", ""] {
            assert!(parse_ui_scale(bad).is_err(), "{bad} accepted");
        }
    }

    #[test]
    fn modes_are_named_as_on_the_command_line() {
        assert_eq!(Mode::from_arg("map"), Some(Mode::Edit));
        assert_eq!(Mode::from_arg("edit"), Some(Mode::Edit));
        assert_eq!(Mode::from_arg("play"), Some(Mode::Play));
        assert_eq!(Mode::from_arg("scenario"), Some(Mode::Scenario));
        assert_eq!(Mode::from_arg("rules"), Some(Mode::Rules));
        assert_eq!(Mode::from_arg("test"), None);
    }
}

#[cfg(test)]
mod tidy {
    use std::path::{Path, PathBuf};

    /// A file past this many lines does more than one job: split it by job (see `app/`).
    const MAX_LINES: usize = 600;

    fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).expect("read editor/src") {
            let p = entry.expect("entry").path();
            if p.is_dir() {
                rust_files(&p, out);
            } else if p.extension().is_some_and(|e| e == "rs") {
                out.push(p);
            }
        }
    }

    #[test]
    fn no_source_file_is_over_600_lines() {
        let mut files = Vec::new();
        rust_files(
            &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
            &mut files,
        );
        assert!(files.len() >= 20, "only {} files found", files.len());
        for f in files {
            let lines = std::fs::read_to_string(&f).expect("read").lines().count();
            assert!(
                lines <= MAX_LINES,
                "{} has {lines} lines (at most {MAX_LINES}): split it by job",
                f.display()
            );
        }
    }
}
