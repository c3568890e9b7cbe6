//! The underlay section of map editing: load a picture, set its opacity, fit it to the grid by
//! three points (click a printed hex centre on the picture, then give its hex number), and keep
//! all that beside the map ([`crate::underlay`]).

use super::EditorApp;
use crate::map_view::UnderlayView;
use crate::panels::Named as _;
use crate::underlay::{FitPoint, Underlay};
use egui::{Pos2, RichText, Ui};
use std::path::PathBuf;

/// The underlay and the state of its section.
#[derive(Debug, Default)]
pub struct Tracing {
    /// The picture under the map, if one is loaded.
    pub underlay: Option<Underlay>,
    /// The picture path being typed.
    pub path_text: String,
    /// Clicks on the map pick a fit point's spot on the picture.
    pub picking: bool,
    /// The picked spot (picture pixels), waiting for its hex number.
    pub pending: Option<[f32; 2]>,
    /// The hex number being typed for the pending spot.
    pub hex_text: String,
}

impl EditorApp {
    /// Loads a picture under the map (replacing any other) and keeps it beside the map.
    pub fn load_underlay(&mut self, path: PathBuf) -> anyhow::Result<()> {
        let u = Underlay::open(&path)?;
        u.save_beside(&self.doc.map_path)?;
        self.tracing.underlay = Some(u);
        self.tracing.points_changed();
        Ok(())
    }

    /// Adds a fit point (a spot on the picture and the hex whose centre it is) and keeps it.
    pub fn add_fit_point(&mut self, pixel: [f32; 2], hex: &str) -> Result<(), String> {
        if self.doc.map.parse(hex.trim()).is_none() {
            return Err(format!("`{hex}` is not a hex of this map"));
        }
        let Some(u) = &mut self.tracing.underlay else {
            return Err("load a picture first".into());
        };
        u.points.push(FitPoint {
            pixel,
            hex: hex.trim().to_string(),
        });
        if u.points.len() > 3 {
            u.points.remove(0); // the three latest fix the fit
        }
        u.save_beside(&self.doc.map_path)
            .map_err(|e| format!("{e:#}"))
    }

    /// A click on the map while picking: the spot on the picture under it.
    pub(super) fn pick_fit_spot(&mut self, world: Pos2) {
        let Some(u) = &self.tracing.underlay else {
            return;
        };
        self.tracing.pending = u.transform(&self.doc.map).invert(world);
    }

    /// What the canvas draws of the underlay this frame.
    pub(super) fn underlay_view(&mut self, ctx: &egui::Context) -> Option<UnderlayView> {
        let u = self.tracing.underlay.as_mut()?;
        Some(UnderlayView {
            texture: u.texture(ctx),
            corners: u.world_corners(&self.doc.map),
            opacity: u.opacity,
        })
    }

    pub(super) fn underlay_ui(&mut self, ui: &mut Ui) {
        egui::CollapsingHeader::new("Underlay: trace a picture")
            .id_salt("underlay")
            .show(ui, |ui| {
                ui.horizontal(|ui| {
                    ui.add(
                        egui::TextEdit::singleline(&mut self.tracing.path_text)
                            .desired_width(180.0)
                            .hint_text("scan.png"),
                    )
                    .named("underlay file");
                    if ui.button("Load picture").clicked() {
                        let path = PathBuf::from(self.tracing.path_text.trim());
                        match self.load_underlay(path) {
                            Ok(()) => self.status.info("picture loaded under the map"),
                            Err(e) => self.status.error(format!("{e:#}")),
                        }
                    }
                });
                let map = &self.doc.map;
                let Some(u) = &mut self.tracing.underlay else {
                    return;
                };
                let mut changed = ui
                    .add(egui::Slider::new(&mut u.opacity, 0.0..=1.0).text("opacity"))
                    .named("underlay opacity")
                    .drag_stopped();
                let fitted = u.fitted(map).is_some();
                ui.label(if fitted {
                    RichText::new(format!("Fitted through {} points", u.points.len()))
                } else {
                    RichText::new(format!(
                        "Not fitted: {} of 3 points (click a printed hex centre, then give its number)",
                        u.points.len()
                    ))
                });
                ui.checkbox(&mut self.tracing.picking, "Pick points on the map");
                if let Some(px) = self.tracing.pending {
                    ui.horizontal(|ui| {
                        ui.label(format!("spot {:.0}, {:.0} is hex", px[0], px[1]));
                        ui.add(
                            egui::TextEdit::singleline(&mut self.tracing.hex_text)
                                .desired_width(60.0),
                        )
                        .named("fit hex");
                    });
                }
                let add = ui.add_enabled(self.tracing.pending.is_some(), egui::Button::new("Add point"));
                if add.clicked() {
                    let hex = self.tracing.hex_text.clone();
                    if let Some(px) = self.tracing.pending.take() {
                        match self.add_fit_point(px, &hex) {
                            Ok(()) => self.tracing.hex_text.clear(),
                            Err(e) => self.status.error(e),
                        }
                    }
                    changed = false;
                }
                if changed {
                    if let Some(u) = &self.tracing.underlay {
                        if let Err(e) = u.save_beside(&self.doc.map_path) {
                            self.status.error(format!("{e:#}"));
                        }
                    }
                }
            });
    }
}

impl Tracing {
    fn points_changed(&mut self) {
        self.pending = None;
        self.hex_text.clear();
    }
}
