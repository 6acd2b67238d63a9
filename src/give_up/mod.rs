//! The give-up time of one jittered delivery: its expected value and percentiles, exactly (a
//! numerical convolution of the gaps' uniform distributions) and by seeded sampling.
//!
//! - [`distribution`]: the exact distribution (a [`SumOfUniforms`]), or an estimate for the
//!   decorrelated mode, which has no closed form;
//! - [`sample`]: give-up times drawn with a seed, summarised with a histogram;
//! - [`deadline_safe_attempts`]: how many attempts keep a percentile above a deadline;
//! - [`JitterReport`]: all three for one delivery, as a table, CSV or JSON.

mod deadline;
mod exact;
mod percentiles;
mod report;
mod sampled;

pub use deadline::{deadline_reach, deadline_safe_attempts, DeadlineSafe};
pub(crate) use deadline::{deadline_safe_cap, give_up_percentiles, reached};
pub use exact::{
    distribution, expected_give_up_s, GiveUpDistribution, GiveUpSummary, SumOfUniforms,
};
pub use percentiles::{Percentiles, LEVELS};
pub use report::JitterReport;
pub(crate) use sampled::{check_samples, nearest_rank, nearest_ranks, rank_of, select_ranks};
pub use sampled::{
    give_up_times, sample, Histogram, Sampled, Sampling, DEFAULT_SAMPLES, HISTOGRAM_BINS,
    MAX_SAMPLES,
};
