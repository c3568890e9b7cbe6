//! The scenario variables (`[vars]`) in the Details tab: each value edited as TOML text (a
//! number, `true`, a quoted string, an array), added and removed. A value that is not TOML is
//! shown in red and not sent; whether it has the type the ruleset declares is the checks' job
//! (the problems panel names the line). Below them, the variables the ruleset declares that the
//! scenario leaves out, with their type, default and meaning: *Set* puts one in the new-variable
//! fields with its default, to change and add.

use super::{RulesetNames, ScenarioPanel};
use crate::command::EditorCommand;
use crate::panels::Named as _;
use crate::scenario_file::{ScenarioDef, VarDef};
use egui::{Color32, RichText, Ui};

const BAD: Color32 = Color32::from_rgb(240, 95, 85);

impl ScenarioPanel {
    pub(super) fn vars_ui(
        &mut self,
        ui: &mut Ui,
        def: &ScenarioDef,
        names: &RulesetNames,
        cmds: &mut Vec<EditorCommand>,
    ) {
        ui.separator();
        ui.heading("Scenario variables");
        ui.label(
            RichText::new(
                "Values the rules read, written as TOML: 3, true, \"west\", [\"P1\", \"P2\"].",
            )
            .weak(),
        );
        let mut vars = def.vars.clone();
        let mut changed: Option<String> = None;
        let mut remove = None;
        egui::Grid::new("vars").num_columns(3).show(ui, |ui| {
            for (i, v) in vars.iter_mut().enumerate() {
                ui.label(RichText::new(&v.key).monospace());
                let key = format!("var {}", v.key);
                let text = self
                    .buffers
                    .entry(key.clone())
                    .or_insert_with(|| v.value.clone());
                let r = crate::panels::cell_text(ui, text, 140.0).named(&key);
                let typed = VarDef {
                    key: v.key.clone(),
                    value: text.clone(),
                };
                match typed.parsed() {
                    Ok(_) if r.changed() && typed.value != v.value => {
                        v.value = typed.value;
                        changed = Some(key);
                    }
                    Ok(_) => {}
                    Err(e) => {
                        r.on_hover_text(&e);
                        ui.label(RichText::new("not a TOML value").color(BAD));
                    }
                }
                if ui
                    .small_button("Remove")
                    .named(&format!("remove var {}", v.key))
                    .clicked()
                {
                    remove = Some(i);
                }
                ui.end_row();
            }
        });
        if let Some(i) = remove {
            let gone = vars.remove(i);
            self.buffers.remove(&format!("var {}", gone.key));
            changed = Some("remove var".into());
        }
        ui.horizontal(|ui| {
            let key = self.buffers.entry("new var key".into()).or_default();
            ui.add(
                egui::TextEdit::singleline(key)
                    .desired_width(110.0)
                    .hint_text("id"),
            )
            .named("new var id");
            let key = key.trim().to_string();
            let value = self.buffers.entry("new var value".into()).or_default();
            ui.add(
                egui::TextEdit::singleline(value)
                    .desired_width(110.0)
                    .hint_text("value"),
            )
            .named("new var value");
            let draft = VarDef {
                key: key.clone(),
                value: value.clone(),
            };
            let fresh = !key.is_empty() && !vars.iter().any(|v| v.key == key);
            let ok = fresh && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
            let why = draft.parsed().err();
            let add = ui
                .add_enabled(ok && why.is_none(), egui::Button::new("Add variable"))
                .on_disabled_hover_text(
                    why.unwrap_or_else(|| "give a new id of letters, digits and _".to_string()),
                );
            if add.clicked() {
                vars.push(draft);
                self.buffers.remove("new var key");
                self.buffers.remove("new var value");
                changed = Some("add var".into());
            }
        });
        self.declared_vars_ui(ui, def, names);
        if let Some(k) = changed {
            cmds.push(EditorCommand::SetVars {
                vars,
                merge: Some(k),
            });
        }
    }

    /// The ruleset's variables the scenario leaves out: id, type and default, the meaning on
    /// hover and in small print; *Set* fills the new-variable fields with the id and default.
    fn declared_vars_ui(&mut self, ui: &mut Ui, def: &ScenarioDef, names: &RulesetNames) {
        let left_out: Vec<_> = (names.vars.iter())
            .filter(|(id, _)| !def.vars.iter().any(|v| &v.key == *id))
            .collect();
        if left_out.is_empty() {
            return;
        }
        ui.add_space(6.0);
        ui.label(
            RichText::new("The ruleset also reads these; left out, each takes its default:")
                .strong(),
        );
        for (id, decl) in left_out {
            // a table default is not one line of TOML: the field starts empty for it
            let default = decl.default.as_ref().filter(|v| !v.is_object());
            let default_text = default.map_or_else(|| "none".to_string(), |v| v.to_string());
            ui.horizontal(|ui| {
                let set = ui
                    .small_button("Set")
                    .on_hover_text("Put it in the fields above with its default, to change and Add")
                    .named(&format!("set var {id}"));
                if set.clicked() {
                    self.buffers.insert("new var key".into(), id.clone());
                    self.buffers.insert(
                        "new var value".into(),
                        default.map(|v| v.to_string()).unwrap_or_default(),
                    );
                }
                ui.label(RichText::new(id).monospace())
                    .on_hover_text(&decl.description);
                ui.label(RichText::new(format!("{}, default {default_text}", decl.kind)).weak());
            });
            if !decl.description.is_empty() {
                ui.indent(id, |ui| {
                    // what the variable means is what a newcomer reads this list for: body
                    // size (it was the small style, about 7 px high on screen), dimmed
                    ui.label(RichText::new(&decl.description).weak());
                });
            }
        }
    }
}
