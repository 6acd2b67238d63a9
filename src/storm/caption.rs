//! A storm's outcome in words, from its summary alone.

use super::report::{DrainedBy, Summary};
use super::Scenario;
use crate::format_duration;
use crate::report::whole_percent;

/// The caption: the peak, how the backlog ended, then the totals; `held_at_end` is what the
/// bounds still held when the simulation stopped; `goodput_share` the goodput in the hour after
/// the outage ÷ the arrival rate (`None` when no whole minute of it was simulated).
pub(crate) fn caption(
    scenario: &Scenario,
    summary: &Summary,
    held_at_end: f64,
    goodput_share: Option<f64>,
) -> String {
    let peak = match summary.peak_multiple {
        Some(multiple) => format!("{}× normal traffic", multiple_text(multiple)),
        None => format!(
            "{}× the destination's capacity",
            multiple_text(summary.peak_vs_capacity)
        ),
    };
    let mut text = format!(
        "{}: attempts peak at {:.0} in minute {}, {peak}. ",
        scenario_text(scenario),
        summary.peak_attempts_per_min,
        summary.peak_minute,
    );
    let share = |n: f64| n / summary.arrivals.max(1.0) * 100.0;
    let after = |at: u32| format_duration(f64::from(at.saturating_sub(summary.outage_end_s)));
    let exhausted = whole_percent(share(summary.exhausted));
    let mostly_exhausted = summary.exhausted > 0.5 * summary.arrivals;
    let within_a_minute = |at: u32| at <= summary.outage_end_s + 60;
    // The survival map's collapse: no delivery of the backlog within the hour after the outage,
    // and goodput in that hour under half the arrival rate. Said here unless the sentence below
    // says it (most deliveries exhausted).
    let delivered_within_the_hour = summary.drained_by == Some(DrainedBy::Delivery)
        && summary
            .drained_at_s
            .is_some_and(|at| at <= summary.outage_end_s + crate::survival::RECOVERY_WINDOW_S);
    if let Some(share) = goodput_share.filter(|&share| {
        share < crate::survival::COLLAPSE_GOODPUT_SHARE
            && !delivered_within_the_hour
            && !mostly_exhausted
    }) {
        text += &format!(
            "Goodput collapses: in the hour after recovery the destination answers {} of the \
             arrival rate in time. ",
            whole_percent(share * 100.0)
        );
    }
    text += &match (summary.drained_at_s, summary.drained_by) {
        (Some(at), Some(DrainedBy::Exhaustion)) if mostly_exhausted => format!(
            "The storm outlives the outage and never drains by delivery: goodput collapses, and the backlog is gone {} after recovery because deliveries ran out of attempts ({exhausted} of them end exhausted). ",
            after(at),
        ),
        (None, _) if mostly_exhausted => format!(
            "The storm outlives the outage and never drains: goodput collapses and {exhausted} of deliveries end exhausted. ",
        ),
        // Run out during the outage, not after it: what was left at recovery was delivered.
        (Some(_), _) if mostly_exhausted && summary.delivered < 0.5 => {
            "Every delivery runs out of attempts during the outage: nothing is left to deliver at recovery. ".to_string()
        }
        (Some(at), _) if mostly_exhausted => format!(
            "Most deliveries run out of attempts during the outage ({exhausted} end exhausted); what is left at recovery drains {}. ",
            if within_a_minute(at) {
                "within a minute".to_string()
            } else {
                format!("{} after it", after(at))
            }
        ),
        (Some(at), Some(DrainedBy::Delivery)) if within_a_minute(at) => {
            "The backlog drains within a minute of recovery. ".to_string()
        }
        (Some(at), Some(DrainedBy::Delivery)) => format!(
            "The storm outlives the outage: the backlog drains {} after recovery. ",
            after(at)
        ),
        (Some(at), _) => format!(
            "The backlog is gone {} after recovery, but partly because {:.0} deliveries ran out of attempts after it. ",
            after(at),
            summary.exhausted_after_outage
        ),
        (None, _) => format!(
            "The storm outlives the outage: the backlog has not drained {} after recovery. ",
            after(summary.horizon_s)
        ),
    };
    if let (Some(drained), Some(emptied)) = (summary.drained_at_s, summary.emptied_at_s) {
        if emptied > drained + 60 {
            text += &format!(
                "The last stragglers settle {} after recovery. ",
                after(emptied)
            );
        }
    }
    text += &bounds(scenario, summary, held_at_end);
    // Said above when most are.
    if (5.0..=50.0).contains(&share(summary.exhausted)) {
        text += &format!("{exhausted} of deliveries ran out of attempts. ");
    }
    text += &format!(
        "{:.0} of {:.0} deliveries delivered, {:.0} exhausted (kept, replayable), {:.0} pending; {:.0} duplicate side effects",
        summary.delivered, summary.arrivals, summary.exhausted, summary.pending, summary.duplicates,
    );
    text += &match summary.attempts_per_delivered {
        Some(per) => format!("; {per:.2} attempts per delivered event."),
        None => "; nothing delivered.".to_string(),
    };
    text
}

/// "A 10 min outage at 600 deliveries per minute", with its batch when it has one ("… and a
/// batch of 10000 at 20 min"); "without an outage" and "a batch of 10 deliveries" alone when
/// there is no outage or no steady traffic.
fn scenario_text(scenario: &Scenario) -> String {
    let outage = match scenario.outage.1 {
        0 => "Without an outage".to_string(),
        seconds => format!("A {} outage", format_duration(f64::from(seconds))),
    };
    let batch = scenario.batch.map(|(deliveries, at)| {
        format!(
            "a batch of {deliveries} at {}",
            format_duration(f64::from(at))
        )
    });
    let steady = (scenario.traffic_s > 0).then(|| {
        format!(
            "{:.0} deliveries per minute",
            scenario.arrivals_per_s * 60.0
        )
    });
    match (steady, batch) {
        (Some(steady), Some(batch)) => format!("{outage} at {steady} and {batch}"),
        (Some(steady), None) => format!("{outage} at {steady}"),
        (None, Some(batch)) if scenario.outage.1 == 0 => format!("{outage}, {batch}"),
        (None, Some(batch)) => format!("{outage} and {batch}"),
        (None, None) => format!("{outage} and no traffic"),
    }
}

/// A multiple as the caption writes it: one decimal from 10 on (205.4), two below (1.15: one
/// rounded a 15% overload to 1.1), three below 0.1 (0.004, not 0.0).
fn multiple_text(multiple: f64) -> String {
    let decimals = match multiple {
        m if m >= 10.0 => 1,
        m if m >= 0.1 => 2,
        _ => 3,
    };
    let text = format!("{multiple:.decimals$}");
    if decimals > 1 && text.contains('.') {
        let trimmed = text.trim_end_matches('0').trim_end_matches('.');
        if trimmed == "0" && multiple > 0.0 {
            return "under 0.001".to_string();
        }
        return trimmed.to_string();
    }
    text
}

/// The retry quota and the circuit breaker, when the scenario has them: what they are, how
/// often the breaker opened, and what a quota still held at the end.
fn bounds(scenario: &Scenario, summary: &Summary, held_at_end: f64) -> String {
    let mut text = String::new();
    if let Some(quota) = &scenario.bounds.retry_quota {
        text += &format!("Retries drew on {}. ", quota.describe());
        // Once the traffic is over only successes refill the bucket: a bucket too low for one
        // more retry then holds its retries to the end, which the totals alone do not explain.
        if summary.drained_at_s.is_none() && held_at_end >= 0.5 {
            text += &format!(
                "{held_at_end:.0} deliveries were still held when the simulation stopped: once no success refills the bucket, a quota too low for one more retry holds its retries for good. "
            );
        }
    }
    if let (Some(breaker), Some(openings)) = (&scenario.bounds.breaker, summary.breaker_openings) {
        let times = match openings {
            0 => "never opened".to_string(),
            1 => "opened once".to_string(),
            n => format!("opened {n} times"),
        };
        let described = breaker.describe();
        let mut described = described.chars();
        let first = described.next().map(|c| c.to_ascii_uppercase());
        text += &format!(
            "{}{} {times}. ",
            first.unwrap_or_default(),
            described.as_str()
        );
    }
    text
}

#[cfg(test)]
mod tests {
    use crate::jitter::Jitter;
    use crate::report::whole_percent;
    use crate::storm::{simulate_fluid, Scenario, Spec};
    use crate::survival::{cell, Outcome};
    use crate::{Engine, Policy, Stop};

    /// A 30 min outage at 2× headroom, the article's policy with full jitter: no success for
    /// hours after recovery. The caption says goodput collapses, as the survival map says of
    /// the same cell (it spoke only of a backlog gone 14 h later and 35% exhausted); with a
    /// 10% budget the storm drains, more than an hour later, without collapsing.
    #[test]
    fn a_collapse_is_called_one_as_the_survival_map_calls_it() {
        let spec = Spec {
            outage: (0, 1_800),
            capacity_per_s: 20.0,
            policy: Policy::new(30.0, 3.0, 10_800.0, Stop::Attempts(14)).unwrap(),
            jitter: Jitter::Full,
            ..Spec::article_fixed()
        };
        let report = simulate_fluid(&Scenario::new(spec).unwrap(), false).unwrap();
        assert!(
            report.caption.contains("Goodput collapses: in the hour after recovery the destination answers 0.4% of the arrival rate in time."),
            "{}",
            report.caption
        );
        let map_cell = cell(&spec, 1_800.0, 2.0, Engine::Fluid).unwrap();
        assert_eq!(map_cell.outcome, Outcome::Collapsed);
        let budgeted = Spec {
            bounds: crate::storm::Bounds {
                budget: Some(0.1),
                ..spec.bounds
            },
            ..spec
        };
        let report = simulate_fluid(&Scenario::new(budgeted).unwrap(), false).unwrap();
        assert!(!report.caption.contains("collapses"), "{}", report.caption);
    }

    /// A 15% overload reads 1.15×, not 1.1×; a tiny ratio is not 0.0×.
    #[test]
    fn multiples_keep_their_meaning() {
        let cases = [
            (205.43, "205.4"),
            (10.0, "10.0"),
            (690.0 / 600.0, "1.15"),
            (7.1, "7.1"),
            (0.25, "0.25"),
            (25.0 / 6_000.0, "0.004"),
            (0.0001, "under 0.001"),
            (0.0, "0"),
        ];
        for (multiple, text) in cases {
            assert_eq!(super::multiple_text(multiple), text, "{multiple}");
        }
    }

    /// A storm without steady traffic or without an outage is not said to run at the default
    /// rate (a batch of 10 alone read "A 0 s outage at 600 deliveries per minute").
    #[test]
    fn the_scenario_is_named_as_it_is() {
        let text = |spec: Spec| super::scenario_text(&Scenario::new(spec).unwrap());
        let article = Spec::article_fixed();
        assert_eq!(
            text(article),
            "A 10 min outage at 600 deliveries per minute"
        );
        let batch_only = Spec {
            traffic_s: 0,
            batch: Some((10, 0)),
            outage: (0, 0),
            ..article
        };
        assert_eq!(text(batch_only), "Without an outage, a batch of 10 at 0 s");
        let both = Spec {
            batch: Some((1_000, 300)),
            ..article
        };
        assert_eq!(
            text(both),
            "A 10 min outage at 600 deliveries per minute and a batch of 1000 at 5 min"
        );
    }

    #[test]
    fn a_share_reads_all_or_nothing_only_when_it_is() {
        let cases = [
            (100.0, "100%"),
            (99.79, "99.8%"),
            (99.96, "99.96%"),
            (42.4, "42%"),
            (0.3, "0.3%"),
            (0.0, "0%"),
            (0.0001, "under 0.001%"),
            (99.9999, "over 99.999%"),
        ];
        for (percent, text) in cases {
            assert_eq!(whole_percent(percent), text, "{percent}");
        }
    }
}
