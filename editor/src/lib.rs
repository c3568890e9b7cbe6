//! # kessel-editor
//!
//! Kessel's map and scenario editor (egui/eframe). The CLI starts it with [`run`]; tests drive
//! [`EditorApp::ui_root`] headless through `egui_kittest`.
//!
//! **Boundary:** the editor changes a map only through [`command::EditorCommand`]s applied after
//! the frame and recorded for undo; it reads and writes files only through `kessel_core`'s
//! loaders and [`kessel_core::map_toml`].
//!
//! # Layout
//! - [`app`]: [`EditorApp`], the frame loop: menu → status bar → palette → inspector → map, then
//!   apply the frame's commands; headless screenshots.
//! - [`document`]: the open scenario or map, its units, loading and atomic saving.
//! - [`command`]: [`command::EditorCommand`] and the snapshot undo/redo [`command::History`];
//!   the map edits themselves (terrain, hexside features, links).
//! - [`map_view`]: the canvas: hex layout, pan/zoom, hit-testing, drawing with culling.
//! - [`counters`]: unit counters and stacks.
//! - [`panels`]: one struct per side panel (palette, inspector, status bar).

pub mod app;
pub mod command;
pub mod counters;
pub mod document;
pub mod map_view;
pub mod panels;

pub use app::EditorApp;
pub use document::Document;

use anyhow::{anyhow, bail};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

/// How the CLI starts the editor.
#[derive(Clone, Debug)]
pub struct EditorOptions {
    /// Scenario (or map) file to open.
    pub scenario: PathBuf,
    /// Render the window to this PNG after the first frames, then exit.
    pub screenshot: Option<PathBuf>,
}

/// Opens the editor window (blocking until it closes).
pub fn run(opts: EditorOptions) -> anyhow::Result<()> {
    // read the file first, so a broken scenario is reported even where no window can open
    let doc = Document::open(&opts.scenario)?;
    ensure_display()?;
    let title = format!("Kessel editor — {}", doc.name);
    let mut app = EditorApp::new(doc);
    let outcome: app::ScreenshotOutcome = Arc::new(Mutex::new(None));
    if let Some(path) = &opts.screenshot {
        app.take_screenshot(path.clone(), outcome.clone());
    }
    let native = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title(title)
            .with_inner_size([1400.0, 900.0]),
        ..Default::default()
    };
    eframe::run_native(
        "kessel-editor",
        native,
        Box::new(move |_cc| Ok(Box::new(app))),
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
