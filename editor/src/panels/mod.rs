//! Side panels, one struct per panel with a `ui` method. Panels read the document or the game
//! and push commands; they never edit the map or the game themselves.

pub mod inspector;
pub mod log;
pub mod map_data;
pub mod palette;
pub mod play;
pub mod rules;
pub mod scenario;
pub mod status;

pub use inspector::Inspector;
pub use log::LogPanel;
pub use map_data::MapDataPanel;
pub use palette::{Mode, Palette, Tool};
pub use play::PlayPanel;
pub use rules::RulesPanel;
pub use scenario::ScenarioPanel;
pub use status::StatusBar;

/// Gives a widget an accessible name (text fields in grids have their label in another cell).
pub trait Named {
    /// Sets the name screen readers and `egui_kittest` queries see.
    fn named(self, name: &str) -> Self;
}

impl Named for egui::Response {
    fn named(self, name: &str) -> Self {
        self.ctx
            .accesskit_node_builder(self.id, |n| n.set_label(name));
        self
    }
}
