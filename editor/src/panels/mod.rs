//! Side panels, one struct per panel with a `ui` method. Panels read the document and push
//! commands; they never edit the map themselves.

pub mod inspector;
pub mod palette;
pub mod status;

pub use inspector::Inspector;
pub use palette::{Palette, Tool};
pub use status::StatusBar;
