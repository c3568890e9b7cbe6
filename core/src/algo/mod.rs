//! Native algorithms over the map: movement fields, path tracing, zones of control, areas
//! (connected regions, enclosed hexes).

pub mod areas;
pub mod movement;
pub mod trace;
pub mod zoc;
