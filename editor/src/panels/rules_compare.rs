//! The rules panel's comparison of two profiles (or the options in force, or the defaults):
//! every option with both values, the differing ones highlighted.

use super::rules::{value_text, RulesPanel, CURRENT, DIFFERS};
use egui::{RichText, Ui};
use kessel_core::options::{Options, Profile};

impl RulesPanel {
    pub(super) fn compare_ui(
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
