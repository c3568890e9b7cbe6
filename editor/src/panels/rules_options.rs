//! The rules panel's list of options: each with its rule case and description, flipped for the
//! game in progress one at a time, or staged and applied together.
//!
//! Staging is for settings single flips cannot reach: with table variants declared for three
//! options together (and for no two), each single flip from one of them is refused as a
//! conflict; the staged changes are judged as a whole ([`kessel_core::engine::Engine::set_options`]).
//! A refusal stays on the panel, reason and all, until the next change is taken.

use super::rules::{RulesPanel, DIFFERS};
use crate::panels::play::REFUSAL;
use crate::play::PlayCommand;
use egui::{Color32, RichText, Ui};
use kessel_core::options::{OptionDecl, OptionType, Options, Profile};
use kessel_core::state::Value;

/// The check box that turns staging on.
pub const STAGE: &str = "Stage changes, then apply them together";
/// What staging is for, on the check box.
pub const STAGE_HOVER: &str = "Change several options without playing under each change, then \
     take them at once: a combination of options a table variant is declared for may be refused \
     one flip at a time";
/// Applies the staged changes.
pub const APPLY: &str = "Apply together";
/// Drops the staged changes.
pub const DISCARD: &str = "Discard staged";
/// Outline of a staged option's row.
const STAGED: Color32 = Color32::from_rgb(110, 190, 250);

impl RulesPanel {
    /// The staged changes with their buttons, and the last refusal (under the options list).
    pub(super) fn staging_ui(
        &mut self,
        ui: &mut Ui,
        options: &Options,
        cmds: &mut Vec<PlayCommand>,
    ) {
        if !self.staging && !self.staged.is_empty() {
            // staging turned off: what was staged is not applied behind the GM's back
            self.staged.clear();
        }
        if self.staging {
            let list: Vec<String> = (options.decls.iter())
                .filter_map(|d| {
                    Some(format!(
                        "{} = {}",
                        d.id,
                        value_text(self.staged.get(&d.id)?)
                    ))
                })
                .collect();
            if list.is_empty() {
                ui.label(RichText::new("Nothing staged: change options above").weak());
            } else {
                ui.add(
                    egui::Label::new(
                        RichText::new(format!(
                            "{} staged: {}",
                            crate::words::count(list.len(), "change"),
                            list.join(", ")
                        ))
                        .color(STAGED),
                    )
                    .wrap(),
                );
                ui.horizontal(|ui| {
                    if ui.button(APPLY).clicked() {
                        let changes = (options.decls.iter())
                            .filter_map(|d| Some((d.id.clone(), self.staged.get(&d.id)?.clone())))
                            .collect();
                        cmds.push(PlayCommand::SetOptions(changes));
                    }
                    if ui.button(DISCARD).clicked() {
                        self.staged.clear();
                        self.refusal = None;
                    }
                });
            }
        }
        if let Some(why) = &self.refusal {
            ui.add(
                egui::Label::new(RichText::new(format!("Refused: {why}")).color(REFUSAL)).wrap(),
            );
            if !self.staging && why.contains("variant") {
                ui.label(
                    RichText::new(format!(
                        "A combination may need several options changed at once: tick \"{STAGE}\"."
                    ))
                    .weak(),
                );
            }
        }
    }

    /// Every option (those the filter lets through), the ones changed from the profile
    /// outlined, the staged ones outlined in blue with the value in force beside them.
    pub(super) fn options_ui(
        &mut self,
        ui: &mut Ui,
        options: &Options,
        profile_arg: Option<&str>,
        read: &dyn Fn(&str) -> Result<Profile, String>,
        cmds: &mut Vec<PlayCommand>,
    ) {
        let base = self.resolve(options, profile_arg.unwrap_or("(defaults)"), read);
        let filter = self.filter.to_lowercase();
        for d in &options.decls {
            let hay = format!("{} {} {}", d.id, d.description, d.rule).to_lowercase();
            if !filter.is_empty() && !hay.contains(&filter) {
                continue;
            }
            let in_force = options.values.get(&d.id).unwrap_or(&d.default);
            let staged = self.staged.get(&d.id).cloned();
            let value = staged.as_ref().unwrap_or(in_force);
            let changed = base.get(&d.id) != Some(in_force);
            let frame = egui::Frame::group(ui.style());
            let frame = match (&staged, changed) {
                (Some(_), _) => frame.stroke(egui::Stroke::new(1.5, STAGED)),
                (None, true) => frame.stroke(egui::Stroke::new(1.5, DIFFERS)),
                (None, false) => frame,
            };
            frame.show(ui, |ui| {
                ui.set_width(ui.available_width());
                // wrapped: in a narrow panel a choice's box goes under its long id instead of
                // past the panel's edge (egui then moved the panel over the map's last points)
                ui.horizontal_wrapped(|ui| {
                    if let Some(v) = option_widget(ui, d, value) {
                        if !self.staging {
                            cmds.push(PlayCommand::SetOption(d.id.clone(), v));
                        } else if v == *in_force {
                            self.staged.remove(&d.id);
                        } else {
                            self.staged.insert(d.id.clone(), v);
                        }
                    }
                    ui.label(
                        RichText::new(format!("[{}]", d.rule))
                            .color(Color32::from_rgb(120, 180, 250)),
                    );
                    // on the widget's line: a line of its own moved the options below down
                    if staged.is_some() {
                        ui.label(
                            RichText::new(format!("staged; in force: {}", value_text(in_force)))
                                .color(STAGED),
                        );
                    }
                });
                ui.label(&d.description);
            });
        }
    }
}

/// A value as a person reads it ([`super::rules::value_text`] of one that is there).
fn value_text(v: &Value) -> String {
    super::rules::value_text(Some(v))
}

/// The widget for one option; returns the new value when the user changed it.
fn option_widget(ui: &mut Ui, d: &OptionDecl, value: &Value) -> Option<Value> {
    match &d.kind {
        OptionType::Bool => {
            let mut on = value.as_bool().unwrap_or(false);
            let r = ui.checkbox(&mut on, RichText::new(&d.id).monospace());
            r.changed().then_some(Value::Bool(on))
        }
        OptionType::Int => {
            let mut n = value.as_i64().unwrap_or(0);
            let label = ui.label(RichText::new(&d.id).monospace());
            // within the range the ruleset declares (its check refuses anything else)
            let range = d.min.unwrap_or(i64::MIN)..=d.max.unwrap_or(i64::MAX);
            let r = ui
                .add(egui::DragValue::new(&mut n).range(range))
                .labelled_by(label.id);
            (r.changed() && Some(n) != value.as_i64()).then(|| Value::from(n))
        }
        OptionType::Choice(list) => {
            let mut pick = value.as_str().unwrap_or_default().to_string();
            let before = pick.clone();
            let label = ui.label(RichText::new(&d.id).monospace());
            egui::ComboBox::from_id_salt(("option", &d.id))
                .selected_text(&pick)
                .show_ui(ui, |ui| {
                    for c in list {
                        ui.selectable_value(&mut pick, c.clone(), c);
                    }
                })
                .response
                .labelled_by(label.id);
            (pick != before).then_some(Value::String(pick))
        }
    }
}
