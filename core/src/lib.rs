//! # kessel-core
//!
//! The game-agnostic engine of Kessel: hex maps, units and markers, movement fields, path tracing,
//! zones of control, odds and results tables, a sequencer, an append-only event log, seeded dice,
//! and the sandboxed Lua host that runs a ruleset. It knows no particular game: sides, unit types,
//! terrain, tables and the sequence of play all come from the ruleset (Lua) and the scenario (TOML).
//!
//! # Layout
//! - [`hex`], [`numbering`]: axial hexes, directions, canonical hexsides; printed labels (`CCRR`).
//! - [`map`]: terrain per hex, features and links on hexsides, places, areas, tags.
//! - [`state`], [`event`], [`action`]: the ground state, the events that change it, the actions
//!   players take and the rejections the rules give.
//! - [`secrets`]: what is hidden from which side, commitments, and the view a side is shown.
//! - [`algo`]: movement fields, budgeted traces, zones of control (native, dense, deterministic).
//! - [`tables`], [`dice`], [`options`]: odds columns and results tables; seeded dice; options and
//!   profiles.
//! - [`queries`]: declared queries (what a ruleset can be asked) and the checks of their arguments.
//! - [`scenario`]: the TOML file formats → [`map::Map`] and [`scenario::Scenario`], with located errors.
//! - [`script`]: the Lua host: sandbox, limits, module loading, the `kessel.*` API.
//! - [`ruleset`]: what a ruleset declared (sides, unit types, costs, tables, sequence, options).
//! - [`world`]: [`world::World`], what a game is at one moment, shared by the engine and the Lua API;
//!   the stages that gate the API.
//! - [`engine`]: [`engine::Engine`] ties state, rules and log together: validate, act, undo, save,
//!   load, replay.
//! - [`scaffold`]: a map region cut out as map-file text, and a new scenario's skeleton written
//!   and loaded back (`kessel map cut`, `kessel new scenario`, the editor).

pub mod action;
pub mod algo;
pub mod campaign;
pub mod cpu_time;
pub mod dice;
pub mod error;
pub mod event;
pub mod fsio;
pub mod hex;
pub mod map;
pub mod map_toml;
pub mod names;
pub mod numbering;
pub mod options;
pub mod queries;
pub mod scenario;
pub mod secrets;
pub mod state;
pub mod tables;

pub use action::{Action, Reason, Rejection};
pub use event::{Event, LogEntry};
pub use hex::{Hex, HexDir, Hexside};
pub use map::Map;
pub use state::GameState;
pub mod engine;
pub mod ruleset;
pub mod scaffold;
pub mod script;
pub mod world;
