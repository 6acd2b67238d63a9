//! The default headroom axis fitted to the fluid engine: a map at its defaults is drawn, not
//! refused, for a destination that answers few requests within its limits.
//!
//! The fluid engine runs a cell only when its destination answers at least
//! [`MIN_REQUESTS_WITHIN_LIMITS`] (20) requests within its limits in a second (capacity × the
//! timeout less the latency, or the Retry-After threshold when that is shorter); below that,
//! whole requests decide the outcome. A cell's capacity is its headroom × the arrival rate, so
//! low rows of the default axis `1.05..20` can fall below it: with the README's
//! `--retry-after 60s` (a 1 s threshold) at 10 deliveries a second, every row under 2× does.
//! The default axis (left out, or given as two numbers equal to 1.05 and 20) then starts at
//! [`least_fluid_headroom`] instead of 1.05 and ends at 20, or at four times its start if that
//! is more (at most the axis' 1,000×), and the caption says why. An axis given otherwise is
//! drawn as given, or refused naming the least headroom that runs; so is the default when that
//! least is 1,000× or more, past the axis' range.

use crate::storm::{requests_within_limits, Scenario, Spec, MIN_REQUESTS_WITHIN_LIMITS};
use crate::{Engine, Error};

use super::axes::{headroom_ends, outage_ends, step_counts};
use super::{map_engine, Axes, DEFAULT_TEXT, HEADROOM_RANGE};

/// The least headroom, in whole hundredths as the map writes headroom, at which the fluid
/// engine runs every cell of `yours` (its series share its limits).
pub fn least_fluid_headroom(yours: &Spec) -> Result<f64, Error> {
    let scenario = Scenario::new(*yours)?;
    let at =
        |headroom: f64| requests_within_limits(scenario.units(), yours.arrivals_per_s * headroom);
    let mut least = (MIN_REQUESTS_WITHIN_LIMITS / at(1.0) * 100.0).ceil() / 100.0;
    // Checked as the engine checks a cell's capacity: the division may round a hair low.
    if at(least) < MIN_REQUESTS_WITHIN_LIMITS {
        least += 0.01;
    }
    Ok(least)
}

/// The axes of a map of `yours` on `engine` from the text of its three fields, as
/// [`Axes::from_text`] reads them, except the default headroom axis on the fluid engine (see the
/// module): given as `1.05..20` or left out, it starts no lower than [`least_fluid_headroom`].
pub fn fitted_axes(
    yours: &Spec,
    engine: Engine,
    (outages, headroom, steps): (&str, &str, &str),
) -> Result<Axes, Error> {
    let default = headroom_ends(DEFAULT_TEXT.1)?;
    // Compared as numbers: `1.050..20.0` is the default too.
    if headroom_ends(headroom).is_ok_and(|ends| ends == default)
        && map_engine(engine) == Engine::Fluid
    {
        let least = least_fluid_headroom(yours)?;
        let (default_low, default_high) = default;
        // At 1,000× or more no axis runs: the default stays, refused by its row.
        if least > default_low && least < HEADROOM_RANGE.1 {
            let high = default_high.max(least * 4.0).min(HEADROOM_RANGE.1);
            let mut axes = Axes::new(outage_ends(outages)?, (least, high), step_counts(steps)?)?;
            axes.headroom_fitted = true;
            return Ok(axes);
        }
    }
    Axes::from_text(outages, headroom, steps)
}

/// The caption's sentence for a default headroom axis started where the fluid engine's limit
/// is ([`Axes::headroom_fitted`]); `None` otherwise.
pub(super) fn raised_start_sentence(axes: &Axes) -> Option<String> {
    let (default_low, _) = headroom_ends(DEFAULT_TEXT.1).ok()?;
    let least = *axes.headroom.first()?;
    axes.headroom_fitted.then(|| {
        format!(
            "Headroom starts at {least:.2}×, not {default_low}×: below it the destination \
             answers fewer than {MIN_REQUESTS_WITHIN_LIMITS} requests a second within its limits \
             (the timeout less the latency, or the Retry-After threshold if shorter), too few \
             for the fluid engine (the discrete engine maps lower headroom on smaller maps)."
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storm::Bounds;
    use crate::survival::{survival_map, Plan};

    /// The README's Retry-After storm: 10 deliveries a second, a 429 with Retry-After 60 s past a
    /// 1 s queue wait, so 20 requests within its limits need capacity 20/s: headroom 2.00×.
    fn retry_after() -> Spec {
        Spec {
            bounds: Bounds {
                retry_after_s: Some(60.0),
                ..Bounds::default()
            },
            ..Spec::article_fixed()
        }
    }

    fn default_axes(yours: &Spec, engine: Engine) -> Axes {
        fitted_axes(yours, engine, ("10s..24h", DEFAULT_TEXT.1, "6x6")).unwrap()
    }

    /// The least headroom is the boundary: an axis from it runs every cell on the fluid engine,
    /// one from a hundredth below is refused, naming the least.
    #[test]
    fn the_least_headroom_is_where_the_fluid_engine_starts() {
        let yours = retry_after();
        let least = least_fluid_headroom(&yours).unwrap();
        assert_eq!(least, 2.0);
        let check = |low: f64| {
            let axes = Axes::new((10.0, 86_400.0), (low, 20.0), (6, 6)).unwrap();
            Plan::new(&yours, axes, Engine::Fluid)
                .unwrap()
                .check_cells()
        };
        check(least).unwrap();
        let refused = check(least - 0.01).unwrap_err().to_string();
        assert!(refused.contains("at least 2.00× here"), "{refused}");
        // Without Retry-After the limit is the timeout less the latency: 20 / (4.95 s × 10/s).
        assert_eq!(least_fluid_headroom(&Spec::article_fixed()).unwrap(), 0.41);
    }

    /// The default axis of a Retry-After storm starts at the least headroom (it was refused at
    /// its defaults in the CLI, the page and the JS API), and the caption says why; the default
    /// axis stays `1.05..20` where every row runs, and on the discrete engine.
    #[test]
    fn the_default_headroom_axis_starts_where_the_fluid_engine_can() {
        let axes = default_axes(&retry_after(), Engine::Auto);
        assert_eq!(axes.headroom.first(), Some(&2.0));
        assert_eq!(axes.headroom.last(), Some(&20.0));
        let map = survival_map(&retry_after(), &axes, Engine::Fluid).unwrap();
        assert!(
            map.caption.ends_with(
                "Headroom starts at 2.00×, not 1.05×: below it the destination answers fewer \
                 than 20 requests a second within its limits (the timeout less the latency, or \
                 the Retry-After threshold if shorter), too few for the fluid engine (the \
                 discrete engine maps lower headroom on smaller maps)."
            ),
            "{}",
            map.caption
        );

        let plain = default_axes(&Spec::article_fixed(), Engine::Fluid);
        assert_eq!(plain.headroom.first(), Some(&1.05));
        let map = survival_map(&Spec::article_fixed(), &plain, Engine::Fluid).unwrap();
        assert!(!map.caption.contains("Headroom starts"), "{}", map.caption);
        let discrete = default_axes(&retry_after(), Engine::Discrete);
        assert_eq!(discrete.headroom.first(), Some(&1.05));
    }

    /// A limit far up the axis keeps a span of four times its start, up to the axis' 1,000×
    /// (a least of 400× had left the default, refused); one at 1,000× or more leaves the
    /// default, refused by its rows with the least named as past the axis.
    #[test]
    fn a_high_least_keeps_a_span_and_one_past_the_range_is_refused() {
        let slow = |arrivals_per_s: f64| Spec {
            arrivals_per_s,
            ..retry_after()
        };
        let ends = |axes: &Axes| (axes.headroom[0], axes.headroom[axes.headroom.len() - 1]);
        assert_eq!(ends(&default_axes(&slow(1.0), Engine::Fluid)), (20.0, 80.0));
        assert_eq!(
            ends(&default_axes(&slow(0.05), Engine::Fluid)),
            (400.0, 1_000.0)
        );
        let axes = default_axes(&slow(0.01), Engine::Fluid);
        assert_eq!(axes.headroom.first(), Some(&1.05));
        let refused = survival_map(&slow(0.01), &axes, Engine::Fluid)
            .unwrap_err()
            .to_string();
        assert!(
            refused.contains("at least 2000.00× here, past the axis' 1000×"),
            "{refused}"
        );
    }

    /// The default written another way (`1.050..20.0`) is the default; the sentence is the
    /// fitted default's alone, not an axis given to start at the same place.
    #[test]
    fn the_default_is_read_as_numbers_and_only_it_is_explained() {
        let yours = retry_after();
        let written =
            fitted_axes(&yours, Engine::Fluid, ("10s..24h", "1.050..20.0", "6x6")).unwrap();
        assert_eq!(written, default_axes(&yours, Engine::Fluid));
        let given = fitted_axes(&yours, Engine::Fluid, ("10s..24h", "2..20", "6x6")).unwrap();
        assert_eq!(given.headroom, written.headroom);
        let map = survival_map(&yours, &given, Engine::Fluid).unwrap();
        assert!(!map.caption.contains("Headroom starts"), "{}", map.caption);
    }

    /// An axis given otherwise is the user's: drawn as given or refused, never moved.
    #[test]
    fn a_given_axis_is_not_moved() {
        let refused = fitted_axes(
            &retry_after(),
            Engine::Fluid,
            ("10s..24h", "1.5..20", "6x6"),
        )
        .map(|axes| {
            Plan::new(&retry_after(), axes, Engine::Fluid)
                .unwrap()
                .check_cells()
        });
        let refused = refused.unwrap().unwrap_err().to_string();
        assert!(refused.contains("got 1.5..20"), "{refused}");
        let axes =
            fitted_axes(&retry_after(), Engine::Fluid, ("10s..24h", "3..20", "6x6")).unwrap();
        assert_eq!(axes.headroom.first(), Some(&3.0));
    }
}
