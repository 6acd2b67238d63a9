//! A chart's computed step as bytes, for the hop from the page's worker to its main thread.
//!
//! Read back as a JavaScript object, a result costs one call across the wasm boundary per field
//! and per number (a staleness chart's curves: a third of its 30-40 ms drawing on the page), and
//! the browser copies the object between threads. As bytes it is one copy into wasm memory, and
//! the buffer moves between threads without one. The encoding is postcard's (serde's data model:
//! f64s as their 8 bytes, so nothing is rounded) after a [`STAMP`] naming the crate's version and
//! the format's: it carries no field names, so only the same version reads it (a page left open
//! across an upgrade could otherwise read a newer worker's bytes as other numbers). [`unpack`]
//! refuses bytes without the stamp, bytes it cannot read and bytes left over, and the page checks
//! every number it draws.

use serde::{Deserialize, Serialize};

use super::Computed;
use crate::chart::staleness::StalenessChart;
use crate::give_up::JitterReport;
use crate::herd::Herd;
use crate::storm::StormReport;
use crate::survival::Row;
use crate::Error;

/// [`Computed`] tagged by position (postcard reads no field names, so no internal tag).
#[derive(Serialize, Deserialize)]
enum Packed {
    Timeline,
    Distribution(Box<JitterReport>),
    Herd(Box<Herd>, Box<Herd>),
    Storm(Vec<StormReport>),
    Staleness(Box<StalenessChart>),
    Survival(Vec<Row>),
}

/// What packed bytes start with: the crate's version, and the format's (raised when a type
/// under [`Computed`] changes shape within a version).
pub const STAMP: &str = concat!("backoff-lab ", env!("CARGO_PKG_VERSION"), " packed 2\n");

/// `computed` as bytes for [`unpack`].
pub fn pack(computed: Computed) -> Result<Vec<u8>, Error> {
    let packed = match computed {
        Computed::Timeline => Packed::Timeline,
        Computed::Distribution { report } => Packed::Distribution(report),
        Computed::Herd { spread, spike } => Packed::Herd(spread, spike),
        Computed::Storm { reports } => Packed::Storm(reports),
        Computed::Staleness { chart } => Packed::Staleness(chart),
        Computed::Survival { rows } => Packed::Survival(rows),
    };
    // Fails only for a type written in a shape of unknown length (`flatten`): a test packs
    // every view.
    postcard::to_extend(&packed, STAMP.as_bytes().to_vec())
        .map_err(|e| Error::Unreachable(format!("the result could not be packed: {e}")))
}

/// What [`pack`] packed; refused when `bytes` are not a packed result.
pub fn unpack(bytes: &[u8]) -> Result<Computed, Error> {
    let refused = |why: String| {
        Error::out_of_range(
            "computed",
            format!("{} bytes {why}", bytes.len()),
            format!("what computeView returned (packed by {})", STAMP.trim_end()),
        )
    };
    let body = bytes
        .strip_prefix(STAMP.as_bytes())
        .ok_or_else(|| refused("without this version's stamp".into()))?;
    let (packed, rest): (Packed, _) =
        postcard::take_from_bytes(body).map_err(|e| refused(format!("that do not read ({e})")))?;
    if !rest.is_empty() {
        return Err(refused(format!("with {} left over", rest.len())));
    }
    Ok(match packed {
        Packed::Timeline => Computed::Timeline,
        Packed::Distribution(report) => Computed::Distribution { report },
        Packed::Herd(spread, spike) => Computed::Herd { spread, spike },
        Packed::Storm(reports) => Computed::Storm { reports },
        Packed::Staleness(chart) => Computed::Staleness { chart },
        Packed::Survival(rows) => Computed::Survival { rows },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::{compute, decode_hash, View};
    use crate::storm::Memo;

    /// Every view's result, on the default page and on a small survival map, reads back from
    /// its bytes as it was: every field the JavaScript object carries, to the bit (postcard needs
    /// the same fields written as read: a field written in another shape, or skipped, would
    /// shift every byte after it).
    #[test]
    fn every_views_result_reads_back_from_its_bytes() {
        let default = decode_hash("").settings;
        let small_map = decode_hash("#steps=4x3&outages=1m..1h").settings;
        for view in View::ALL {
            let settings = if view == View::Survival {
                &small_map
            } else {
                &default
            };
            let computed = compute(view, settings, &mut Memo::default()).unwrap();
            let unpacked = unpack(&pack(computed.clone()).unwrap()).unwrap();
            assert_eq!(
                serde_json::to_value(&unpacked).unwrap(),
                serde_json::to_value(&computed).unwrap(),
                "{}",
                view.name()
            );
        }
    }

    #[test]
    fn bytes_that_are_not_a_packed_result_are_refused_by_name() {
        let bytes = pack(Computed::Timeline).unwrap();
        let mut other_version = bytes.clone();
        other_version[STAMP.find(' ').unwrap() + 1] ^= 1;
        let mut left_over = bytes.clone();
        left_over.push(0);
        let mut unknown_view = bytes.clone();
        *unknown_view.last_mut().unwrap() = 200;
        for garbage in [
            &[][..],
            &[200, 1, 2][..],
            &bytes[..STAMP.len() - 1],
            &other_version,
            &left_over,
            &unknown_view,
        ] {
            let message = unpack(garbage).unwrap_err().to_string();
            assert!(
                message.starts_with("computed must be what computeView returned"),
                "{message}"
            );
        }
    }
}
