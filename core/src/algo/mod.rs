//! Native algorithms over the map: movement fields, path tracing, zones of control.

pub mod movement;
pub mod trace;
pub mod zoc;
