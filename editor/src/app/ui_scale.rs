//! The interface size: egui's zoom factor, which scales text, panels and the map's labels alike.
//! It is set from View → Interface size, from egui's own keys (Ctrl + / Ctrl − / Ctrl 0) and by
//! `kessel editor --ui-scale`, and kept between runs in a small settings file when
//! [`crate::run`] names one (tests name none, so they never write the user's settings).

use super::EditorApp;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The sizes offered: below half the text is unreadable, above three the panels leave no map.
pub const UI_SCALES: std::ops::RangeInclusive<f32> = 0.5..=3.0;

static SETTINGS: OnceLock<PathBuf> = OnceLock::new();

/// Sets the settings file the interface size is kept in (once per process).
pub fn set_settings_file(path: PathBuf) {
    let _ = SETTINGS.set(path);
}

/// The settings file of this user: `$XDG_CONFIG_HOME/kessel/editor.toml`, else
/// `~/.config/kessel/editor.toml`; none when neither variable is set.
pub fn default_settings_file() -> Option<PathBuf> {
    let set = |v: &str| {
        std::env::var_os(v)
            .filter(|s| !s.is_empty())
            .map(PathBuf::from)
    };
    set("XDG_CONFIG_HOME")
        .or_else(|| set("HOME").map(|h| h.join(".config")))
        .map(|c| c.join("kessel").join("editor.toml"))
}

/// The interface size a settings file keeps, if it holds a usable one. A file that is missing,
/// unreadable or holds something else gives none: the editor then opens at its plain size
/// rather than refusing to start over a preference.
pub fn saved_ui_scale(path: &Path) -> Option<f32> {
    let text = kessel_core::fsio::read_bounded(path, 64 * 1024).ok()?;
    let table: toml::Table = toml::from_str(std::str::from_utf8(&text).ok()?).ok()?;
    let scale = table.get("ui_scale")?.as_float()? as f32;
    UI_SCALES.contains(&scale).then_some(scale)
}

/// Writes `scale` into the settings file, keeping any other key it holds.
pub fn save_ui_scale(path: &Path, scale: f32) -> anyhow::Result<()> {
    let mut table: toml::Table = kessel_core::fsio::read_bounded(path, 64 * 1024)
        .ok()
        .and_then(|b| String::from_utf8(b).ok())
        .and_then(|t| toml::from_str(&t).ok())
        .unwrap_or_default();
    // two decimals: 1.1 stays 1.1 in the file, not 1.100000023841858
    let rounded = (f64::from(scale) * 100.0).round() / 100.0;
    table.insert("ui_scale".into(), toml::Value::Float(rounded));
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    crate::document::write_atomic(path, toml::to_string(&table)?.as_bytes())
}

/// The interface size the app asked for and the one it last saw.
#[derive(Debug, Default)]
pub struct UiScale {
    /// A size to set on the next frame (`--ui-scale`, the saved one).
    pending: Option<f32>,
    /// The zoom factor of the last frame: a change from it is the user's, and is kept.
    seen: Option<f32>,
}

impl EditorApp {
    /// Sets the interface size from the next frame on (clamped to [`UI_SCALES`]).
    pub fn set_ui_scale(&mut self, scale: f32) {
        self.ui_scale.pending = Some(scale.clamp(*UI_SCALES.start(), *UI_SCALES.end()));
    }

    /// Applies a pending size, and keeps a size the user changed in the settings file.
    pub(super) fn track_ui_scale(&mut self, ctx: &egui::Context) {
        if let Some(scale) = self.ui_scale.pending.take() {
            ctx.set_zoom_factor(scale);
            self.ui_scale.seen = Some(scale);
            return;
        }
        let now = ctx.zoom_factor();
        let changed = self.ui_scale.seen.is_some_and(|seen| seen != now);
        self.ui_scale.seen = Some(now);
        if !changed {
            return;
        }
        if let Some(path) = SETTINGS.get() {
            if let Err(e) = save_ui_scale(path, now) {
                self.status.error(format!(
                    "the interface size is not kept for next time: {}: {e:#}",
                    path.display()
                ));
            }
        }
    }

    /// View → Interface size: smaller, the size in percent, larger, and back to 100%. (Set on
    /// the context, not as pending: the change then shows as the user's and is kept.)
    pub(super) fn ui_scale_menu(ui: &mut egui::Ui) {
        let ctx = ui.ctx().clone();
        let now = ctx.zoom_factor();
        ui.horizontal(|ui| {
            ui.label("Interface size");
            let step = |scale: f32, by: f32| ((scale + by) * 10.0).round().clamp(5.0, 30.0) / 10.0;
            let smaller = ui
                .add_enabled(now > *UI_SCALES.start(), egui::Button::new("−"))
                .on_hover_text("Smaller (Ctrl −)");
            if smaller.clicked() {
                ctx.set_zoom_factor(step(now, -0.1));
            }
            ui.label(format!("{:.0}%", now * 100.0));
            let larger = ui
                .add_enabled(now < *UI_SCALES.end(), egui::Button::new("+"))
                .on_hover_text("Larger (Ctrl +)");
            if larger.clicked() {
                ctx.set_zoom_factor(step(now, 0.1));
            }
            if ui
                .add_enabled(now != 1.0, egui::Button::new("Reset"))
                .on_hover_text("Back to 100% (Ctrl 0)")
                .clicked()
            {
                ctx.set_zoom_factor(1.0);
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kept_size_is_read_back_and_other_keys_are_kept() {
        let dir = std::env::temp_dir().join(format!("kessel-ui-scale-{}", std::process::id()));
        let path = dir.join("editor.toml");
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(saved_ui_scale(&path), None, "no file, no size");
        std::fs::create_dir_all(&dir).expect("folder");
        std::fs::write(&path, "other = \"kept\"\n").expect("write");
        save_ui_scale(&path, 1.5).expect("saves");
        assert_eq!(saved_ui_scale(&path), Some(1.5));
        let text = std::fs::read_to_string(&path).expect("read");
        assert!(text.contains("other = \"kept\""), "{text}");
        save_ui_scale(&path, 1.1).expect("saves");
        assert!(
            std::fs::read_to_string(&path)
                .expect("read")
                .contains("ui_scale = 1.1\n"),
            "rounded"
        );
        // a size out of range or of the wrong type is ignored, not an error
        for bad in ["ui_scale = 40.0", "ui_scale = \"big\"", "ui_scale = ["] {
            std::fs::write(&path, bad).expect("write");
            assert_eq!(saved_ui_scale(&path), None, "{bad}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
