//! The wasm edge: one thin layer that converts JavaScript values, calls the core and converts
//! back. Every refusal throws a real JS `Error` with the core's message and, where it is about
//! one input, a `field` (API) or `setting` (page) property naming it.
//!
//! - [`api`]: the computations (`schedule`, `jitter`, `herd`, `storm`, ...);
//! - [`charts`]: the same, drawn into a canvas or as SVG;
//! - [`page`]: the explorer page's state, its charts' costly steps and their drawing.

pub mod api;
mod canvas;
pub mod charts;
mod convert;
pub mod page;
mod surface;

use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = include_str!("types.d.ts");
