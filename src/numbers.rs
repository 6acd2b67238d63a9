//! Arithmetic done in the hot loops (every simulated second, every drawn schedule), written so
//! that WebAssembly runs it inline.
//!
//! `f64::max` and `f64::min` ignore a NaN operand; WebAssembly's own `f64.max` and `f64.min`
//! return it, so Rust makes each a call to a library function there (11% of the 24 h storm's
//! time in wasm). Nothing compared in these loops is NaN (every input is checked), so a plain
//! comparison is the same and one instruction. And WebAssembly has no overflow-checked 64-bit
//! multiplication: `checked_mul` becomes a 128-bit library multiplication.

/// The larger of `a` and `b` (neither NaN).
#[inline(always)]
pub(crate) fn larger(a: f64, b: f64) -> f64 {
    if a > b {
        a
    } else {
        b
    }
}

/// The smaller of `a` and `b` (neither NaN).
#[inline(always)]
pub(crate) fn smaller(a: f64, b: f64) -> f64 {
    if a < b {
        a
    } else {
        b
    }
}

/// `a × b` when it surely fits in 64 bits, judged by the operands' lengths in bits (no
/// multiplication); `None` may also mean a product that fits, so callers fall back to 128 bits.
#[inline(always)]
pub(crate) fn product_in_64_bits(a: u64, b: u64) -> Option<u64> {
    (a.leading_zeros() + b.leading_zeros() >= 64).then(|| a * b)
}

#[cfg(test)]
mod tests {
    use super::{larger, product_in_64_bits, smaller};

    #[test]
    fn plain_comparisons_agree_with_the_standard_ones_on_numbers() {
        for (a, b) in [(1.0, 2.0), (-0.5, 0.0), (3.0, 3.0), (f64::INFINITY, 1e300)] {
            assert_eq!(larger(a, b), f64::max(a, b));
            assert_eq!(larger(b, a), f64::max(a, b));
            assert_eq!(smaller(a, b), f64::min(a, b));
            assert_eq!(smaller(b, a), f64::min(a, b));
        }
    }

    #[test]
    fn a_product_in_64_bits_is_exact_and_never_wraps() {
        assert_eq!(
            product_in_64_bits(10_000_000, 86_400),
            Some(864_000_000_000)
        );
        assert_eq!(
            product_in_64_bits(u64::from(u32::MAX), u64::from(u32::MAX)),
            Some(u64::from(u32::MAX) * u64::from(u32::MAX))
        );
        assert_eq!(product_in_64_bits(1 << 32, 1 << 32), None);
        assert_eq!(product_in_64_bits(u64::MAX, 2), None);
        // It fits, but the lengths (64 + 1 bits) cannot tell: the caller's 128-bit path answers.
        assert_eq!(product_in_64_bits(u64::MAX, 1), None);
        assert_eq!(product_in_64_bits(0, u64::MAX), Some(0));
    }
}
