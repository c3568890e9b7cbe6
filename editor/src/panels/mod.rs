//! Side panels, one struct per panel with a `ui` method. Panels read the document or the game
//! and push commands; they never edit the map or the game themselves.

pub mod inspector;
pub mod log;
pub mod palette;
pub mod play;
pub mod rules;
pub mod status;

pub use inspector::Inspector;
pub use log::LogPanel;
pub use palette::{Mode, Palette, Tool};
pub use play::PlayPanel;
pub use rules::RulesPanel;
pub use status::StatusBar;
