//! backoff-lab: the arithmetic of retry schedules.
//!
//! A pure core (no I/O, no wasm, no DOM): [`Policy`] and its [`Schedule`], human durations,
//! reports and charts drawn on any plotters backend, the page's state. The CLI (`src/cli/`) and
//! the wasm bindings (`src/wasm/`, wasm32 only) are thin edges over it (see ARCHITECTURE.md).
#![deny(missing_docs)]

#[cfg(all(test, not(target_arch = "wasm32")))]
mod api_types;
mod batches;
pub mod chart;
mod duration;
mod error;
#[cfg(any(test, target_arch = "wasm32"))]
mod field_names;
pub mod give_up;
pub mod herd;
pub mod jitter;
pub mod limits;
mod number_text;
mod numbers;
pub mod page;
mod params;
pub mod policy;
pub mod presets;
pub mod reaches;
mod report;
mod spelling;
pub mod staleness;
pub mod storm;
pub mod survival;

#[cfg(target_arch = "wasm32")]
pub mod wasm;

pub use duration::{format_distinct, format_duration, format_exact, format_limit, parse_duration};
pub use error::{cut_short, Error};
pub use params::{
    parse_percent, refused_by_arithmetic, whole_number, DurationInput, NumberInput, Params,
    Purpose, DEFAULT_WINDOW_S, PARAMETER_KEYS,
};
pub use policy::{Policy, Row, Schedule, Stop};
pub use report::{cap_answer, format_multiplier, without_float_noise, ReportRow, ScheduleReport};
pub use storm::Engine;
