//! Long loops run in batches, each batch a call of its own.
//!
//! A browser's WebAssembly engine first runs a function as quickly compiled code (V8's Liftoff,
//! several times slower) and compiles an optimized version in the background once it has run a
//! while; only the function's next call runs the optimized code. A loop of seconds inside one
//! call ran to its end on the slow code: the first 200,000 sampled give-up times of a
//! 1,000-attempt schedule took 1.6 s where every later run took 0.22 s. Called once per batch,
//! the loop's body moves to the optimized code after a few batches.

/// Roughly how many elementary steps (random draws, simulated attempts) one batch does: a
/// millisecond or less of optimized code, so that the switch comes early.
pub(crate) const STEPS_PER_BATCH: usize = 1 << 12;

/// Hands `count` items to `run` in batches of `batch` (at least one): `run(n)` does the next
/// `n`, each call made from a function that is never inlined (see the module's documentation).
/// A batch that copies its state into locals first (a generator) keeps it in registers; read
/// through the closure's captures, it is loaded and stored on every step.
pub(crate) fn in_batches(count: usize, batch: usize, mut run: impl FnMut(usize)) {
    let batch = batch.max(1);
    let mut left = count;
    while left > 0 {
        let now = left.min(batch);
        run_batch(now, &mut run);
        left -= now;
    }
}

/// The batch size for items of `steps` elementary steps each.
pub(crate) fn batch_of(steps: usize) -> usize {
    (STEPS_PER_BATCH / steps.max(1)).max(1)
}

#[inline(never)]
fn run_batch<F: FnMut(usize)>(count: usize, run: &mut F) {
    run(count);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_call_is_made_once_in_order() {
        for (count, batch) in [(0, 5), (1, 5), (5, 5), (12, 5), (7, 0), (3, 100)] {
            let mut seen = Vec::new();
            in_batches(count, batch, |n| {
                assert!(n >= 1 && n <= batch.max(1), "a batch of {n}");
                seen.extend(seen.len()..seen.len() + n);
            });
            assert_eq!(
                seen,
                (0..count).collect::<Vec<_>>(),
                "{count} in batches of {batch}"
            );
        }
        assert_eq!(batch_of(1 << 20), 1);
        assert_eq!(batch_of(0), STEPS_PER_BATCH);
        assert_eq!(batch_of(16), STEPS_PER_BATCH / 16);
    }
}
