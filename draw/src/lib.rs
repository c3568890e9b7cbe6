//! # kessel-draw
//!
//! The one drawing model the editor and `kessel render` share, with no GUI in it: where hexes
//! are on the page, and how the ruleset says each kind looks. The editor paints it with egui, the
//! renderer writes it as SVG; neither keeps a layout, palette or classification of its own.
//!
//! **Boundary:** depends on `kessel-core` only; knows no game. Every colour and name comes from
//! the ruleset's declarations or from a stable fallback of the id.
//!
//! # Layout
//! - [`layout`]: [`HexLayout`], hex ↔ pixel: centres, corners, the edge of a hexside, hit-testing.
//! - [`style`]: [`MapStyle`], built from a [`kessel_core::ruleset::Ruleset`]: terrain, hexside,
//!   place and side styles, unit symbols, with fallbacks.
//! - [`color`]: [`Rgb`], parsing declared colours, the one name hash for fallbacks.
//! - [`pieces`]: stacks and their top unit, counter and label geometry, terrain marks, stars.
//! - [`counter`]: what is printed on a counter (top line, unit symbol, values), as shapes.

pub mod color;
pub mod counter;
pub mod layout;
pub mod pieces;
pub mod style;

pub use color::Rgb;
pub use layout::{HexLayout, Point};
pub use style::MapStyle;
