//! Integration tests of the `kessel` binary: the CLI contract (design.md) and the bad-input
//! guarantees (sandbox, budgets, located errors). One binary, one module per concern.

mod util;

mod campaign;
mod changes;
mod cli;
mod coverage;
mod editor;
mod hostile;
mod hostile_api;
mod hostile_data;
mod hostile_output;
mod hostile_reentry;
mod lab;
mod located;
mod mutate;
mod package;
mod props;
mod random_legal;
mod replay;
mod rules;
mod sandbox;
mod scenario_tools;
mod surface;
mod third_system;
mod tidy;
mod truncated;
mod variant_example;
mod views;
