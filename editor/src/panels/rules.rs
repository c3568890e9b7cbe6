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
use kessel_core::options::{Options, Profile};
use kessel_core::state::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The "profile" that stands for the options in force, in the compare lists.
pub(super) const CURRENT: &str = "(options in force)";
/// Highlight of a differing row.
pub(super) const DIFFERS: Color32 = Color32::from_rgb(250, 200, 60);

/// Under the profile while no option differs from it.
pub const AS_THE_PROFILE: &str = "Every option as the profile gives it";

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
    /// Option changes are staged and applied together instead of one flip at a time.
    pub staging: bool,
    /// The staged values, by option id (only those that differ from the value in force).
    pub staged: BTreeMap<String, Value>,
    /// Why the last option change was refused (shown until the next change is taken).
    pub refusal: Option<String>,
    /// The height of what is drawn below the options list, last frame.
    below_height: f32,
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
        let staging = ui
            .checkbox(&mut self.staging, super::rules_options::STAGE)
            .on_hover_text(super::rules_options::STAGE_HOVER);
        if staging.changed() {
            // the refusal was of a single flip: staging is the answer to it
            self.refusal = None;
        }
        // room below for what changes as options are flipped (the staged changes, a refusal)
        // and the save-as section, as tall as they were last frame: above the list, a line that
        // came with the first flip moved every option down under the pointer
        let fallback = if self.user_folder().is_some() {
            150.0
        } else {
            110.0
        };
        let below = if self.below_height > 0.0 {
            self.below_height
        } else {
            fallback
        };
        egui::ScrollArea::vertical()
            .auto_shrink([false, false])
            .max_height((ui.available_height() - below).max(120.0))
            .show(ui, |ui| {
                self.options_ui(ui, options, profile_arg, read, cmds)
            });
        let top = ui.cursor().min.y;
        ui.separator();
        self.staging_ui(ui, options, cmds);
        self.save_as_ui(ui, options, cmds);
        let height = ui.cursor().min.y - top;
        if (height - self.below_height).abs() > 0.5 {
            self.below_height = height;
            ui.ctx().request_repaint();
        }
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
        // a line either way: when it appeared with the first flip, every option below moved
        // down under the pointer, and the GM's next click flipped the option above the one meant
        if changed > 0 {
            ui.label(
                RichText::new(format!(
                    "{} changed by hand (highlighted); a saved game and a new game keep them",
                    crate::words::count(changed, "option")
                ))
                .color(DIFFERS),
            );
        } else {
            ui.label(RichText::new(AS_THE_PROFILE).weak());
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
    pub(super) fn resolve(
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
        if !self.staged.is_empty() {
            ui.label(
                RichText::new("The staged changes are not saved until they are applied").weak(),
            );
        }
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
        // a game under the ruleset's defaults names them `defaults` (as a save must): the
        // panel lists them as "(defaults)"
        let profile_arg = (engine.profile_arg()).filter(|p| *p != kessel_core::options::DEFAULTS);
        self.show(ui, &options, profile_arg, &read, &doc, cx.play);
    }
}
