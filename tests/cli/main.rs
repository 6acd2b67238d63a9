//! The command line as a user runs it: output formats, the JSON contract, and refusals, one
//! module per command or concern.
#![cfg(not(target_arch = "wasm32"))]

#[path = "../common/mod.rs"]
mod common;

mod figures;
mod jitter;
mod limits;
mod presets;
mod schedule;
mod storm;
