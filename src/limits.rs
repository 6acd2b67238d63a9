//! What one computation may cost, estimated and checked before it starts. The command line, the
//! JS API and the page share these limits (each is a refusal naming the input and the limit),
//! so that no input can take minutes or exhaust memory. Each is set to about ten seconds of
//! work in a browser's worker on a two-core machine (natively it is a few times faster).

use crate::Error;

/// Jittered gaps drawn for one report: samples (or deliveries) × retries per delivery. About
/// 2 ns a draw in wasm.
pub const MAX_DRAWS: f64 = 2e9;

/// Checks that `count` deliveries of `attempts` attempts each stay within [`MAX_DRAWS`]; `field`
/// names the count (`samples`, `deliveries`).
///
/// # Example
/// ```
/// use backoff_lab::limits::check_draws;
/// assert!(check_draws("samples", 1_000_000, 14).is_ok());
/// let refused = check_draws("samples", 1_000_000, 10_000).unwrap_err().to_string();
/// assert_eq!(
///     refused,
///     "samples must be at most 200020 for a schedule of 10000 attempts (samples × retries at most 2000000000 drawn gaps), got 1000000"
/// );
/// ```
pub fn check_draws(field: &'static str, count: usize, attempts: u32) -> Result<(), Error> {
    let retries = f64::from(attempts.saturating_sub(1).max(1));
    if count as f64 * retries <= MAX_DRAWS {
        return Ok(());
    }
    Err(Error::out_of_range(
        field,
        count,
        format!(
            "at most {} for a schedule of {attempts} attempts ({field} × retries at most {MAX_DRAWS} drawn gaps)",
            (MAX_DRAWS / retries).floor()
        ),
    ))
}
