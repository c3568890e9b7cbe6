//! The rules panel (right side in rules mode): pick a profile, see every option with its
//! description and rule reference, flip options for the game in progress, save the options in
//! force as a new profile, and compare two profiles side by side.
//!
//! The *Balance lab* ([`super::lab`]) plays games of the profile in force against another.
//!
//! Profiles are the ruleset's `profiles/*.toml` (and, for Kessel's own copy of the rules, the
//! user's folder: [`super::profile_files`]); a new one is written in the same format
//! ([`super::profile_files::profile_toml`]) and only lists options that differ from the
//! defaults, like the shipped ones.

use super::lab::{LabCx, LabPanel};
use super::profile_files::{check_profile_name, profile_folder};
use crate::lab::LabProfile;
use crate::play::PlayCommand;
use egui::{Color32, RichText, Ui};
use kessel_core::engine::Engine;
use kessel_core::options::{OptionDecl, OptionType, Options, Profile};
use kessel_core::state::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The "profile" that stands for the options in force, in the compare lists.
const CURRENT: &str = "(options in force)";
/// Highlight of a differing row.
const DIFFERS: Color32 = Color32::from_rgb(250, 200, 60);

/// Beside *Save profile* while no name is typed.
pub const NAME_FIRST: &str = "Type a name first (letters, digits, _ and -)";

/// The rules panel's state.
#[derive(Debug, Default)]

pub struct RulesPanel {
    /// Profile names found in the ruleset's `profiles/` folder, sorted.
    pub profiles: Vec<String>,
    /// Only options whose id, description or rule contains this.
    pub filter: String,
    /// Name typed for "Save as new profile".
    pub new_name: String,
    /// Description typed for the new profile.
    pub new_description: String,
    /// Left side of the comparison.
    pub compare_a: String,
    /// Right side of the comparison.
    pub compare_b: String,
    /// Show only the options that differ.
    pub only_differences: bool,
    /// Show the comparison.
    pub comparing: bool,
    /// Show the balance lab.
    pub lab_open: bool,
    /// The balance lab: its settings and its run.
    pub lab: LabPanel,
    dir: Option<PathBuf>,
}

/// What the rules panel knows of the document, for the lab.
pub struct DocInfo<'a> {
    /// The scenario file (none for a bare map).
    pub scenario: Option<&'a Path>,
    /// The map or scenario has unsaved edits.
    pub dirty: bool,
    /// The sides playing the game, for the lab's players.
    pub sides: Vec<String>,
    /// The levels of the ruleset's computer player, the default first.
    pub ai_levels: Vec<String>,
}

/// A value as a person reads it.
pub fn value_text(v: Option<&Value>) -> String {
    match v {
        None => "—".into(),
        Some(Value::Bool(true)) => "on".into(),
        Some(Value::Bool(false)) => "off".into(),
        Some(Value::String(s)) => s.clone(),
        Some(other) => other.to_string(),
    }
}

impl RulesPanel {
    /// Reads the profile list of a ruleset folder (again).
    pub fn refresh(&mut self, ruleset_dir: &Path) {
        self.profiles = Engine::profile_names(ruleset_dir);
        self.dir = Some(ruleset_dir.to_path_buf());
        if self.compare_a.is_empty() {
            self.compare_a = CURRENT.to_string();
        }
        if self.compare_b.is_empty() {
            self.compare_b = self.profiles.first().cloned().unwrap_or_default();
        }
    }

    /// Draws the panel for the options in force; `profile_arg` is the profile the game uses.
    fn show(
        &mut self,
        ui: &mut Ui,
        options: &Options,
        profile_arg: Option<&str>,
        read: &dyn Fn(&str) -> Result<Profile, String>,
        doc: &DocInfo<'_>,
        cmds: &mut Vec<PlayCommand>,
    ) {
        ui.heading("Rules");
        self.profile_ui(ui, options, profile_arg, read, cmds);
        ui.separator();
        ui.horizontal(|ui| {
            // one view at a time: the options, the comparison or the lab
            if ui
                .checkbox(&mut self.comparing, "Compare profiles")
                .changed()
                && self.comparing
            {
                self.lab_open = false;
            }
            if ui.checkbox(&mut self.lab_open, "Balance lab").changed() && self.lab_open {
                self.comparing = false;
            }
        });
        if self.lab_open {
            let cx = LabCx {
                scenario: doc.scenario,
                profile: profile_arg
                    .map_or(LabProfile::Defaults, |p| LabProfile::Named(p.to_string())),
                profiles: &self.profiles,
                unsaved: self.unsaved_notes(options, profile_arg, read, doc),
                sides: &doc.sides,
                ai_levels: &doc.ai_levels,
            };
            self.lab.ui(ui, &cx);
            return;
        }
        if self.comparing {
            self.compare_ui(ui, options, read);
            return;
        }
        ui.horizontal(|ui| {
            let label = ui.label("Filter");
            ui.add(egui::TextEdit::singleline(&mut self.filter).desired_width(f32::INFINITY))
                .labelled_by(label.id);
        });
        // room below for the save-as section (two lines more when it names the user's folder)
        let save_as = if self.user_folder().is_some() {
            150.0
        } else {
            110.0
        };
        egui::ScrollArea::vertical()
            .auto_shrink([false, false])
            .max_height((ui.available_height() - save_as).max(120.0))
            .show(ui, |ui| {
                self.options_ui(ui, options, profile_arg, read, cmds)
            });
        ui.separator();
        self.save_as_ui(ui, options, cmds);
    }

    fn profile_ui(
        &mut self,
        ui: &mut Ui,
        options: &Options,
        profile_arg: Option<&str>,
        read: &dyn Fn(&str) -> Result<Profile, String>,
        cmds: &mut Vec<PlayCommand>,
    ) {
        let current = profile_arg.unwrap_or("(defaults)").to_string();
        ui.horizontal(|ui| {
            let label = ui.label("Profile");
            egui::ComboBox::from_id_salt("profile")
                .selected_text(&current)
                .show_ui(ui, |ui| {
                    if ui
                        .selectable_label(profile_arg.is_none(), "(defaults)")
                        .clicked()
                    {
                        cmds.push(PlayCommand::ApplyProfile(None));
                    }
                    for p in &self.profiles {
                        if ui
                            .selectable_label(profile_arg == Some(p.as_str()), p)
                            .clicked()
                        {
                            cmds.push(PlayCommand::ApplyProfile(Some(p.clone())));
                        }
                    }
                })
                .response
                .labelled_by(label.id);
        });
        if let Some(p) = profile_arg {
            match read(p) {
                Ok(profile) if !profile.description.is_empty() => {
                    ui.label(RichText::new(profile.description).italics());
                }
                Ok(_) => {}
                Err(e) => {
                    ui.label(RichText::new(e).color(crate::panels::play::REFUSAL));
                }
            }
        }
        let changed = self.changed_from_profile(options, profile_arg, read);
        if changed > 0 {
            ui.label(
                RichText::new(format!(
                    "{} changed by hand (highlighted); a saved game keeps them",
                    crate::words::count(changed, "option")
                ))
                .color(DIFFERS),
            );
        }
    }

    /// What a lab run does not play: unsaved edits, options changed by hand.
    fn unsaved_notes(
        &self,
        options: &Options,
        profile_arg: Option<&str>,
        read: &dyn Fn(&str) -> Result<Profile, String>,
        doc: &DocInfo<'_>,
    ) -> Vec<String> {
        let mut notes = Vec::new();
        if doc.dirty {
            notes.push(
                "Not played: the unsaved edits to the map or scenario (save them first).".into(),
            );
        }
        let base = self.resolve(options, profile_arg.unwrap_or("(defaults)"), read);
        let by_hand: Vec<&str> = options
            .decls
            .iter()
            .filter(|d| base.get(&d.id) != options.values.get(&d.id))
            .map(|d| d.id.as_str())
            .collect();
        if !by_hand.is_empty() {
            notes.push(format!(
                "Not played: the option(s) changed by hand ({}); save them as a new profile to \
                 test them.",
                by_hand.join(", ")
            ));
        }
        notes
    }

    /// Options whose value differs from what the chosen profile gives.
    fn changed_from_profile(
        &self,
        options: &Options,
        profile_arg: Option<&str>,
        read: &dyn Fn(&str) -> Result<Profile, String>,
    ) -> usize {
        let base = self.resolve(options, profile_arg.unwrap_or("(defaults)"), read);
        options
            .decls
            .iter()
            .filter(|d| base.get(&d.id) != options.values.get(&d.id))
            .count()
    }

    /// The values a profile gives every option (defaults, the options in force, or a file).
    fn resolve(
        &self,
        options: &Options,
        which: &str,
        read: &dyn Fn(&str) -> Result<Profile, String>,
    ) -> BTreeMap<String, Value> {
        if which == CURRENT {
            return options.values.clone();
        }
        let defaults = Options::defaults(options.decls.clone());
        if which == "(defaults)" {
            return defaults.values;
        }
        match read(which) {
            Ok(p) => Options::with_profile(options.decls.clone(), &p).values,
            Err(_) => defaults.values,
        }
    }

    fn options_ui(
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
            let value = options.values.get(&d.id).unwrap_or(&d.default);
            let changed = base.get(&d.id) != Some(value);
            let frame = egui::Frame::group(ui.style());
            let frame = if changed {
                frame.stroke(egui::Stroke::new(1.5, DIFFERS))
            } else {
                frame
            };
            frame.show(ui, |ui| {
                ui.set_width(ui.available_width());
                // wrapped: in a narrow panel a choice's box goes under its long id instead of
                // past the panel's edge (egui then moved the panel over the map's last points)
                ui.horizontal_wrapped(|ui| {
                    if let Some(v) = option_widget(ui, d, value) {
                        cmds.push(PlayCommand::SetOption(d.id.clone(), v));
                    }
                    ui.label(
                        RichText::new(format!("[{}]", d.rule))
                            .color(Color32::from_rgb(120, 180, 250)),
                    );
                });
                ui.label(&d.description);
            });
        }
    }

    /// The user's folder new profiles go to, when it is not the ruleset's own `profiles/`.
    fn user_folder(&self) -> Option<PathBuf> {
        let dir = self.dir.as_deref()?;
        let folder = profile_folder(dir);
        (folder != dir.join("profiles")).then_some(folder)
    }

    fn save_as_ui(&mut self, ui: &mut Ui, options: &Options, cmds: &mut Vec<PlayCommand>) {
        ui.label(RichText::new("Save as new profile…").strong());
        ui.horizontal(|ui| {
            let label = ui.label("Name");
            ui.add(egui::TextEdit::singleline(&mut self.new_name).desired_width(140.0))
                .labelled_by(label.id);
        });
        ui.horizontal(|ui| {
            let label = ui.label("Description");
            ui.add(
                egui::TextEdit::singleline(&mut self.new_description).desired_width(f32::INFINITY),
            )
            .labelled_by(label.id);
        });
        let check = self
            .dir
            .as_deref()
            .map(|d| check_profile_name(d, self.new_name.trim()))
            .unwrap_or_else(|| Err("no ruleset folder".into()));
        ui.horizontal(|ui| {
            if ui
                .add_enabled(check.is_ok(), egui::Button::new("Save profile"))
                .clicked()
            {
                cmds.push(PlayCommand::SaveProfile {
                    name: self.new_name.trim().to_string(),
                    description: self.new_description.trim().to_string(),
                });
            }
            match &check {
                Err(e) if !self.new_name.is_empty() => {
                    ui.label(RichText::new(e).color(crate::panels::play::REFUSAL));
                }
                // the button was greyed out with nothing said why
                Err(_) if self.dir.is_some() => {
                    ui.label(RichText::new(NAME_FIRST).weak());
                }
                Ok(_) => {
                    let n = options
                        .decls
                        .iter()
                        .filter(|d| options.values.get(&d.id) != Some(&d.default))
                        .count();
                    let differ = if n == 1 { "differs" } else { "differ" };
                    ui.label(format!(
                        "{} {differ} from the defaults",
                        crate::words::count(n, "option")
                    ));
                }
                Err(_) => {}
            }
        });
        // a profile of Kessel's own copy of the rules goes to the user's folder: say where, as it
        // is not the ruleset's profiles/ the GM may look in (on a line of its own: a long path)
        if let Some(folder) = self.user_folder() {
            ui.add(
                egui::Label::new(
                    RichText::new(format!(
                        "saved in {} (these rules are Kessel's own copy, replaced by the next version)",
                        folder.display()
                    ))
                    .weak(),
                )
                .wrap(),
            );
        }
    }

    fn compare_ui(
        &mut self,
        ui: &mut Ui,
        options: &Options,
        read: &dyn Fn(&str) -> Result<Profile, String>,
    ) {
        let mut choices = vec![CURRENT.to_string(), "(defaults)".to_string()];
        choices.extend(self.profiles.iter().cloned());
        ui.horizontal(|ui| {
            for (name, pick) in [
                ("Left", &mut self.compare_a),
                ("right", &mut self.compare_b),
            ] {
                let label = ui.label(name);
                egui::ComboBox::from_id_salt(("compare", name))
                    .selected_text(pick.as_str())
                    .show_ui(ui, |ui| {
                        for c in &choices {
                            ui.selectable_value(pick, c.clone(), c);
                        }
                    })
                    .response
                    .labelled_by(label.id);
            }
            ui.checkbox(&mut self.only_differences, "Only differences");
        });
        let a = self.resolve(options, &self.compare_a, read);
        let b = self.resolve(options, &self.compare_b, read);
        // a profile that does not load (a name given with --compare, a file broken since) is
        // said so: its column falls back to the option defaults
        for pick in [&self.compare_a, &self.compare_b] {
            if pick.as_str() != CURRENT && pick.as_str() != "(defaults)" {
                if let Err(e) = read(pick.as_str()) {
                    ui.colored_label(
                        ui.visuals().error_fg_color,
                        format!("{pick}: {e}; its column shows the option defaults"),
                    );
                }
            }
        }
        let differing = options
            .decls
            .iter()
            .filter(|d| a.get(&d.id) != b.get(&d.id))
            .count();
        ui.label(format!(
            "{differing} of {} options differ",
            options.decls.len()
        ));
        // the three columns share the panel's width, so a long choice word wraps in its column
        // instead of running off the panel's edge
        let gap = ui.spacing().item_spacing.x;
        let width = ui.available_width() - 4.0 * gap;
        // (values are short words: the ids, the longest text, get most of the width)
        let id_width = (width * 0.62).max(120.0);
        let value_width = ((width - id_width) / 2.0).max(56.0);
        egui::ScrollArea::both()
            .auto_shrink([false, false])
            .show(ui, |ui| {
                egui::Grid::new("compare_grid")
                    .striped(true)
                    .num_columns(3)
                    .show(ui, |ui| {
                        ui.label(RichText::new("option [rule]").strong());
                        ui.label(RichText::new(&self.compare_a).strong());
                        ui.label(RichText::new(&self.compare_b).strong());
                        ui.end_row();
                        for d in &options.decls {
                            let (va, vb) = (a.get(&d.id), b.get(&d.id));
                            let differs = va != vb;
                            if self.only_differences && !differs {
                                continue;
                            }
                            let paint = |t: String| {
                                if differs {
                                    RichText::new(t).color(DIFFERS).strong()
                                } else {
                                    RichText::new(t)
                                }
                            };
                            // long ids wrap, so both value columns stay in view; the id in
                            // the options list's type, the rule case smaller beside it
                            ui.vertical(|ui| {
                                ui.set_max_width(id_width);
                                let mut text = egui::text::LayoutJob::default();
                                paint(d.id.clone()).monospace().append_to(
                                    &mut text,
                                    ui.style(),
                                    egui::FontSelection::Default,
                                    egui::Align::Center,
                                );
                                paint(format!(" [{}]", d.rule)).small().append_to(
                                    &mut text,
                                    ui.style(),
                                    egui::FontSelection::Default,
                                    egui::Align::Center,
                                );
                                ui.add(egui::Label::new(text).wrap())
                                    .on_hover_text(&d.description);
                            });
                            for v in [va, vb] {
                                ui.vertical(|ui| {
                                    ui.set_max_width(value_width);
                                    ui.add(egui::Label::new(paint(value_text(v))).wrap());
                                });
                            }
                            ui.end_row();
                        }
                    });
            });
    }
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

impl super::Panel for RulesPanel {
    /// The game's options and profiles (nothing without a game: the app says why there is none).
    fn ui(&mut self, ui: &mut Ui, cx: &mut super::PanelCx<'_>) {
        let Some(s) = cx.session.as_deref() else {
            return;
        };
        let options = s.engine.options();
        let engine = &s.engine;
        let read = |name: &str| engine.read_profile(name).map_err(|e| e.to_string());
        let doc = DocInfo {
            scenario: cx.doc.scenario_path.as_deref(),
            dirty: cx.doc.is_dirty(),
            sides: s.sides_in_play(),
            ai_levels: engine
                .ruleset()
                .ai_levels
                .iter()
                .map(|l| l.id.clone())
                .collect(),
        };
        self.show(ui, &options, engine.profile_arg(), &read, &doc, cx.play);
    }
}
