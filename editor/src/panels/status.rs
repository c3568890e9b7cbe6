//! The status bar (bottom panel): the hex under the mouse (and in play-test what it means for the
//! selected stack), the last reload, zoom, the last message, unsaved state.

use super::Named as _;
use crate::document::Document;
use egui::{Color32, RichText, Ui};
use kessel_core::hex::Hex;

/// The status bar's state.
#[derive(Clone, Debug, Default)]
pub struct StatusBar {
    /// Last message (an edit, a save, an error).
    pub message: String,
    /// True if the message reports a failure.
    pub is_error: bool,
    /// What was reloaded last, and when ("rules reloaded 14:02:33 (rules/play.lua)").
    pub reload_note: Option<String>,
    /// True if that reload failed.
    pub reload_failed: bool,
    /// What the hex under the pointer means in play-test mode (its cost, or why not).
    pub hover_note: Option<String>,
}

impl StatusBar {
    /// Shows an informational message.
    pub fn info(&mut self, msg: impl Into<String>) {
        self.message = msg.into();
        self.is_error = false;
    }

    /// Shows an error message.
    pub fn error(&mut self, msg: impl Into<String>) {
        self.message = msg.into();
        self.is_error = true;
    }

    /// Draws the bar.
    fn show(&mut self, ui: &mut Ui, doc: &Document, hovered: Option<Hex>, zoom: f32) {
        ui.horizontal(|ui| {
            let hex_text = match hovered {
                Some(h) => {
                    let terrain = doc.map.terrain_name(h).unwrap_or("?");
                    let units = doc.stack_len(h);
                    let units = if units > 0 {
                        format!(", {units} unit{}", if units == 1 { "" } else { "s" })
                    } else {
                        String::new()
                    };
                    format!("{} {terrain}{units}", doc.map.label(h))
                }
                None => "—".to_string(),
            };
            ui.monospace(format!("{hex_text:<24}"));
            ui.separator();
            if let Some(note) = &self.hover_note {
                ui.label(RichText::new(note).italics());
                ui.separator();
            }
            if let Some(note) = &self.reload_note {
                let color = if self.reload_failed {
                    Color32::from_rgb(240, 90, 80)
                } else {
                    Color32::from_rgb(120, 200, 140)
                };
                ui.label(RichText::new(note).color(color));
                ui.separator();
            }
            ui.label(format!("zoom {zoom:.0} px/hex"));
            ui.separator();
            if doc.is_dirty() {
                ui.label(RichText::new("unsaved changes").color(Color32::from_rgb(230, 160, 40)));
                ui.separator();
            }
            let text = RichText::new(&self.message);
            ui.label(if self.is_error {
                text.color(Color32::from_rgb(240, 90, 80))
            } else {
                text
            });
        });
    }
}

impl super::Panel for StatusBar {
    fn ui(&mut self, ui: &mut Ui, cx: &mut super::PanelCx<'_>) {
        ui.horizontal(|ui| {
            if let Some(s) = cx.session.as_deref_mut() {
                rules_working_ui(ui, s);
            }
            self.show(ui, cx.doc, cx.hovered, cx.view.zoom);
        });
    }
}

/// While a rule call of the play-test game has run for a while: what it is, for how long, and
/// *Stop* (the window keeps drawing meanwhile: the rules run on a thread of their own).
fn rules_working_ui(ui: &mut Ui, s: &mut crate::play::PlaySession) {
    use crate::play::worker::SHOW_WORKING_AFTER;
    let Some(out) = s.rules.out() else {
        return;
    };
    let took = out.since.elapsed();
    if took < SHOW_WORKING_AFTER {
        return;
    }
    let stopping = out.stopping;
    let what = out.job.what();
    ui.spinner();
    ui.label(
        RichText::new(format!(
            "The rules are working ({what})… {:.1} s",
            took.as_secs_f32()
        ))
        .color(Color32::from_rgb(150, 200, 255)),
    );
    let stop = ui
        .add_enabled(!stopping, egui::Button::new("Stop"))
        .on_hover_text("Cut this rule call short; the game stays as it was")
        .named("Stop the rules");
    if stop.clicked() {
        s.stop_rules();
    }
    ui.separator();
}
