//! A storm's outcome in words, from its summary alone.

use super::acted::BoundsActed;
use super::report::{Interval, Recovery, Summary};
use super::Drain;
use super::Scenario;
use crate::duration::format_precise;
use crate::format_duration;
use crate::number_text::{format_count, format_expected_count, grouped, without_trailing_zeros};
use crate::report::whole_percent;

/// The caption: the peak, how the backlog ended, then the totals; `at_end` is the last minute's
/// row (what the bounds still held and the destination's queue when the simulation stopped);
/// `recovery` the hour after the outage (`None` when no whole minute of it was simulated). Without an outage nothing recovers: the caption
/// says whether the destination keeps up, from the totals, and times from the start.
pub(crate) fn caption(
    scenario: &Scenario,
    summary: &Summary,
    at_end: &Interval,
    recovery: Option<Recovery>,
    acted: &BoundsActed,
) -> String {
    let peak = match summary.peak_multiple {
        Some(multiple) => format!("{}× normal traffic", crate::number_text::multiple(multiple)),
        None => format!(
            "{}× the destination's capacity",
            crate::number_text::multiple(summary.peak_vs_capacity)
        ),
    };
    let mut text = format!(
        "{}: attempts peak at {} in minute {}, {peak}. ",
        scenario_text(scenario),
        format_expected_count(summary.peak_attempts_per_min),
        format_count(f64::from(summary.peak_minute)),
    );
    let falls_behind = scenario.traffic_s > 0 && scenario.arrivals_per_s > scenario.capacity_per_s;
    // Half a request or more, as the queue's sentence counts it.
    let queue_left = at_end.queue >= 0.5;
    if falls_behind {
        let one = |rate: f64, singular: &'static str, plural: &'static str| {
            if rate == 1.0 {
                singular
            } else {
                plural
            }
        };
        text += &format!(
            "The destination answers at most {} {} per second, fewer than the {} {} arriving \
             each second: it falls behind while the traffic lasts, even without an outage. ",
            rate_text(scenario.capacity_per_s),
            one(scenario.capacity_per_s, "request", "requests"),
            rate_text(scenario.arrivals_per_s),
            one(scenario.arrivals_per_s, "delivery", "deliveries"),
        );
    }
    let no_outage = scenario.outage.1 == 0;
    // Steady traffic's last delivery arrives by the end of the first second `t` whose count
    // `round(A·t)` reaches them all (the module's rule); a batch arrives in its second.
    let steady = scenario.steady_deliveries();
    let steady_end = if steady >= 1.0 {
        let last = super::scenario::Units::seconds_to_reach(
            super::scenario::micro(scenario.arrivals_per_s),
            steady as u64,
        );
        last.min(u64::from(scenario.traffic_s)) as u32
    } else {
        0
    };
    let arrivals_end = steady_end.max(scenario.batch.map_or(0, |(_, at)| at + 1));
    if !no_outage && scenario.outage.0 >= arrivals_end {
        text += &format!(
            "The outage starts at {}, after the last delivery arrived (by {}): it meets only \
             deliveries still queued or retrying then. ",
            // As given: "7 days" for 6 days 23 h 59 min 59 s contradicted the 7-day limit.
            format_precise(f64::from(scenario.outage.0)),
            format_precise(f64::from(arrivals_end)),
        );
    } else if !no_outage && steady >= 1.0 && arrivals_end <= scenario.outage.0 + scenario.outage.1 {
        // A 2 h outage of the article's 2 h traffic: the storm after it is the backlog's
        // alone, which a reader took for the storm of traffic that keeps coming (outside SRE
        // review: it drained in 2 h 10 min where 6 h of traffic collapsed).
        text += &format!(
            "The traffic ends at {}, by the outage's end: no new delivery arrives after \
             recovery, and the backlog is all the destination meets. ",
            format_precise(f64::from(arrivals_end)),
        );
    }
    let share = |n: f64| n / summary.arrivals.max(1.0) * 100.0;
    // `at` a second at whose end the backlog was low; the horizon a time (seconds simulated).
    let after = |at: u32| format_duration(summary.after_recovery_s(at));
    // As simulated, beside the 7-day limit: 7 days less a 10 min outage read "7 days after
    // recovery" (outside SRE review).
    let horizon_after = format_precise(f64::from(
        summary.horizon_s.saturating_sub(summary.outage_end_s),
    ));
    let recovered = if no_outage { "the start" } else { "recovery" };
    let mostly_exhausted = summary.mostly_exhausted();
    // Said as "most" where most are: never "50%".
    let exhausted = if mostly_exhausted {
        crate::report::most_percent(share(summary.exhausted))
    } else {
        whole_percent(share(summary.exhausted))
    };
    let within_a_minute = |after_s: f64| after_s <= 60.0;
    // The survival map's collapse: no delivery of the backlog within the hour after the outage,
    // and goodput in that hour under half the arrival rate. Said here unless the sentence below
    // says it (most deliveries exhausted), and only of steady traffic that brings deliveries:
    // a batch alone has no arrival rate to fall short of (its `--arrivals` changes nothing else).
    let delivered_within_the_hour = crate::survival::drained_within_the_hour(summary);
    if let Some(recovery) = recovery.filter(|recovery| {
        steady >= 1.0
            && recovery.goodput_share < crate::survival::COLLAPSE_GOODPUT_SHARE
            && !delivered_within_the_hour
            && !mostly_exhausted
    }) {
        let hour = if no_outage {
            "the first hour"
        } else {
            "the hour after recovery"
        };
        let share = whole_percent(recovery.goodput_share * 100.0);
        text += &if recovery.destination_failing {
            format!(
                "Goodput collapses: in {hour} the destination answers {share} of the arrival \
                 rate in time. "
            )
        } else {
            format!(
                "Goodput collapses: in {hour} {share} of the arrival rate is delivered, though \
                 the destination answers in time what it is sent: the backlog waits on the \
                 sender ({}). ",
                sender_limits(scenario)
            )
        };
    }
    text += &match Drain::of(summary, scenario.outage.1) {
        Drain::NeverCatchesUp => format!(
            "The destination never catches up: goodput collapses and {exhausted} of deliveries end exhausted. "
        ),
        Drain::NotDrained if no_outage => format!(
            "The backlog has not drained {horizon_after} after the start. ",
        ),
        // Falling behind is said above, and the queue it leaves below; keeping up is said as
        // plainly (outside SRE review: nothing was said), but only of a destination with no
        // queue left at the end (a batch's first attempts all "succeeded" while 970 requests
        // still waited: outside review).
        Drain::NoOutage if falls_behind => String::new(),
        // A rate limit under the arrivals holds first attempts back at the sender: every one
        // succeeds, but late (it read "the destination keeps up" of deliveries 2 h late:
        // outside SRE review).
        Drain::NoOutage if acted.rate_limit => format!(
            "The rate limit holds first attempts back: the backlog at the sender drains {} after \
             the start. ",
            summary.drained_at_s.map_or_else(String::new, after),
        ),
        Drain::NoOutage if summary.attempts <= summary.delivered && !queue_left => {
            "The destination keeps up: every delivery succeeds at its first attempt. ".to_string()
        }
        Drain::NoOutage if summary.attempts <= summary.delivered => {
            "Every delivery succeeds at its first attempt. ".to_string()
        }
        Drain::NoOutage if summary.exhausted < 0.5 && !queue_left => format!(
            "The destination keeps up once its retries are through: the backlog drains {} after \
             the start. ",
            summary.drained_at_s.map_or_else(String::new, after),
        ),
        // Some ran out of attempts: not kept up with (their share is said below).
        Drain::NoOutage => format!(
            "The backlog is gone {} after the start. ",
            summary.drained_at_s.map_or_else(String::new, after),
        ),
        Drain::ByExhaustion(after_s) => format!(
            "The storm outlives the outage and never drains by delivery: goodput collapses, and the backlog is gone {} after recovery because deliveries ran out of attempts ({exhausted} of them end exhausted). ",
            format_duration(after_s),
        ),
        // At the simulation's limit: one that stopped before it, every retry left due past it,
        // may have no retry after recovery to outlive the outage with (below).
        Drain::NotDrained if mostly_exhausted && summary.horizon_s >= super::MAX_HORIZON_S => format!(
            "The storm outlives the outage and never drains: goodput collapses and {exhausted} of deliveries end exhausted. ",
        ),
        // Run out during the outage, not after it: what was left at recovery was delivered.
        Drain::AllExhaustedInOutage => {
            "Every delivery runs out of attempts during the outage: nothing is left to deliver at recovery. ".to_string()
        }
        Drain::MostExhaustedInOutage(after_s) => format!(
            "Most deliveries run out of attempts during the outage ({exhausted} end exhausted); what is left at recovery drains {}. ",
            if within_a_minute(after_s) {
                "within a minute".to_string()
            } else {
                format!("{} after it", format_duration(after_s))
            }
        ),
        Drain::ByDelivery(after_s) if within_a_minute(after_s) => {
            "The backlog drains within a minute of recovery. ".to_string()
        }
        Drain::ByDelivery(after_s) => format!(
            "The storm outlives the outage: the backlog drains {} after recovery. ",
            format_duration(after_s)
        ),
        Drain::PartlyByExhaustion(after_s) => format!(
            "The backlog is gone {} after recovery, partly because {} deliveries ran out of attempts after the outage. ",
            format_duration(after_s),
            format_count(summary.exhausted_after_outage)
        ),
        Drain::NotDrained => {
            // Not drained when the simulation stopped: at its limit, or before it with every
            // retry left due past it (it read "has not drained 0 s after recovery" for a 7-day
            // outage of yearly retries). Not "the storm outlives the outage": there may be
            // no retry at all after recovery (outside review).
            let limit =
                crate::duration::as_adjective(&format_duration(f64::from(super::MAX_HORIZON_S)));
            // An outage ends before the limit, so its recovery is simulated.
            let end = format!("{horizon_after} after recovery");
            if summary.horizon_s >= super::MAX_HORIZON_S {
                format!(
                    "The backlog has not drained by the simulation's {limit} limit ({end}). "
                )
            } else {
                let exhausted = if mostly_exhausted {
                    format!("{exhausted} of deliveries end exhausted. ")
                } else {
                    String::new()
                };
                format!(
                    "The backlog has not drained when the simulation ends {end}: every retry \
                     left is due past its {limit} limit. {exhausted}"
                )
            }
        }
    };
    if let (Some(drained), Some(emptied)) = (summary.drained_at_s, summary.emptied_at_s) {
        if emptied > drained + 60 {
            text += &format!(
                "The last stragglers settle {} after {recovered}. ",
                after(emptied)
            );
        }
    }
    text += &bounds(scenario, summary, at_end.deferred, acted);
    text += &queued_at_end(scenario, at_end.queue);
    // Said above when most are.
    if (5.0..=50.0).contains(&share(summary.exhausted)) {
        text += &format!("{exhausted} of deliveries ran out of attempts. ");
    }
    text += &format!(
        "{} of {} deliveries delivered, {} exhausted (kept, replayable), {} pending; {} duplicate side effects",
        format_count(summary.delivered),
        format_count(summary.arrivals),
        format_count(summary.exhausted),
        format_count(summary.pending),
        format_count(summary.duplicates),
    );
    text += &match summary.attempts_per_delivered {
        // Three significant figures, at least: 1.10, 9.85, 36.4, 116,225.
        Some(per) => {
            let decimals = if per < 10.0 {
                2
            } else {
                usize::from(per < 100.0)
            };
            format!(
                "; {} attempts per delivered event.",
                grouped(&format!("{per:.decimals$}"))
            )
        }
        None => "; nothing delivered.".to_string(),
    };
    text
}

/// Steady arrivals in the unit that writes them as a number a reader says: "600 deliveries per
/// minute", "2.5 deliveries per minute", "1 delivery per hour" (a rate under one a minute read
/// "0 deliveries per minute"); below 100, to a tenth ("22.2 deliveries per minute" for 0.37/s,
/// which read "22", though the caption's multiples are of 22.2).
fn arrival_rate(per_s: f64) -> String {
    let (count, unit) = [(60.0, "minute"), (3_600.0, "hour"), (86_400.0, "day")]
        .into_iter()
        .map(|(seconds, unit)| (per_s * seconds, unit))
        .find(|(count, _)| *count >= 0.999_999)
        .unwrap_or((per_s * 86_400.0, "day"));
    let written = if count >= 100.0 {
        format_count(count)
    } else {
        let text = format!("{count:.1}");
        text.trim_end_matches(".0").to_string()
    };
    let noun = if written == "1" {
        "delivery"
    } else {
        "deliveries"
    };
    format!("{written} {noun} per {unit}")
}

/// "A 10 min outage at 600 deliveries per minute", with its batch when it has one ("… and a
/// batch of 10,000 at 20 min"); "without an outage" and "a batch of 10 deliveries" alone when
/// there is no outage or no steady traffic.
fn scenario_text(scenario: &Scenario) -> String {
    let outage = match scenario.outage.1 {
        0 => "Without an outage".to_string(),
        seconds => {
            let outage = crate::duration::with_article(&format_precise(f64::from(seconds)));
            // Capitalised: it opens the caption.
            format!("A{} outage", &outage[1..])
        }
    };
    let batch = scenario.batch.map(|(deliveries, at)| {
        format!(
            "a batch of {} at {}",
            format_count(f64::from(deliveries)),
            format_precise(f64::from(at))
        )
    });
    let steady = (scenario.traffic_s > 0).then(|| arrival_rate(scenario.arrivals_per_s));
    match (steady, batch) {
        (Some(steady), Some(batch)) => format!("{outage} at {steady} and {batch}"),
        (Some(steady), None) => format!("{outage} at {steady}"),
        (None, Some(batch)) if scenario.outage.1 == 0 => format!("{outage}, {batch}"),
        (None, Some(batch)) => format!("{outage} and {batch}"),
        (None, None) => format!("{outage} and no traffic"),
    }
}

/// A rate to three significant digits, without trailing zeros: 3, 17.5, 278.
fn rate_text(per_s: f64) -> String {
    without_trailing_zeros(&crate::herd::format_rate(per_s)).to_string()
}

/// What holds a backlog back on the sender's side: its gaps, and each bound the scenario has.
fn sender_limits(scenario: &Scenario) -> String {
    let bounds = &scenario.bounds;
    let named = [
        (bounds.budget.is_some(), "its retry budget"),
        (bounds.rate_limit_per_s.is_some(), "its rate limit"),
        (bounds.pause, "its pause"),
        (bounds.retry_quota.is_some(), "its retry quota"),
        (bounds.breaker.is_some(), "its circuit breaker"),
    ];
    let mut limits = vec!["its backoff gaps"];
    limits.extend(named.iter().filter(|(set, _)| *set).map(|(_, name)| *name));
    match limits.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => limits.join(""),
    }
}

/// The destination's queue when the simulation stopped, where it is a second's work or more at
/// the capacity: "the backlog is gone" and the duplicates counted read as a finished incident
/// while the destination may still have days of timed-out requests to process (outside SRE
/// review). Every outcome is decided in the second of its attempt, so these are counted already.
fn queued_at_end(scenario: &Scenario, queue: f64) -> String {
    let work_s = queue / scenario.capacity_per_s;
    if queue < 0.5 || work_s < 1.0 {
        return String::new();
    }
    format!(
        "When the simulation stops the destination's queue still holds {} {} ({} of work at \
         its capacity): it processes them after the end, and their outcomes and the duplicates \
         among them are counted already. ",
        format_count(queue),
        if format_count(queue) == "1" {
            "request"
        } else {
            "requests"
        },
        format_duration(work_s),
    )
}

/// The sender's bounds and `Retry-After`, when the scenario has them: what they are, whether
/// they held anything back (`acted`: a bound set but never reached is said to be, not credited
/// with the outcome), how often the breaker opened, and what they still held at the end.
fn bounds(scenario: &Scenario, summary: &Summary, held_at_end: f64, acted: &BoundsActed) -> String {
    let mut text = String::new();
    // Why the bounds that can hold retries for good still held deliveries at the end of a
    // storm that did not drain: said once, with every such bound (a budget's and a quota's
    // sentences each counted the same deliveries as their own: outside review).
    let mut holding: Vec<&str> = Vec::new();
    // Every bound is named, so that a quoted caption tells a bounded storm from a free one (a
    // rate limit, a pause and Retry-After went unsaid while the budget, quota and breaker were).
    let attempts = |count: f64| {
        let text = format_expected_count(count);
        format!(
            "{text} {}",
            if text == "1" { "attempt" } else { "attempts" }
        )
    };
    let per_second = |rate: f64| {
        let text = rate_text(rate);
        format!(
            "{text} {} a second",
            if text == "1" { "attempt" } else { "attempts" }
        )
    };
    if let Some(limit) = scenario.bounds.rate_limit_per_s {
        text += &if acted.rate_limit {
            format!("A rate limit held the sender to {}. ", per_second(limit))
        } else {
            format!(
                "A rate limit of {} never held an attempt back. ",
                per_second(limit)
            )
        };
    }
    if scenario.bounds.pause {
        let pace = per_second(scenario.resume_pace_per_s());
        // The pace holds the sender from the outage's end whether or not the pause held
        // anything (outside review: with nothing due during the outage, a pace that throttled
        // every delivery after it went unsaid).
        text += &match (scenario.outage.1 > 0, acted.pause, acted.pace) {
            (true, true, _) => format!(
                "The endpoint was paused during the outage, its deliveries held, then sent at most {pace} from recovery. "
            ),
            (true, false, true) => format!(
                "Nothing was due while the endpoint was paused during the outage; from recovery it was sent at most {pace}. "
            ),
            (true, false, false) => {
                "The endpoint was to be paused during the outage; nothing was due while it lasted. "
                    .to_string()
            }
            (false, _, true) => format!(
                "Without an outage nothing was paused, but the pace after a pause held the sender to {pace} from the start. "
            ),
            (false, _, false) => "Without an outage the pause never applied. ".to_string(),
        };
    }
    if let Some(wait) = scenario.bounds.retry_after_s {
        let (wait, threshold) = (
            format_duration(wait),
            format_duration(scenario.bounds.retry_after_threshold_s),
        );
        text += &if acted.answered_429 >= 0.5 {
            format!(
                "The destination answered {} 429 with Retry-After {wait} once its queue waited over {threshold}, and each retry after a 429 waited at least that long (after a timeout or a loss, its own gap). ",
                attempts(acted.answered_429)
            )
        } else {
            format!(
                "The destination would have answered 429 with Retry-After {wait} once its queue waited over {threshold}; it never did. "
            )
        };
    }
    // The budget as read: `--budget 0.1` is a tenth of a percent, which the caption never said
    // (outside SRE review).
    if let Some(budget) = scenario.bounds.budget {
        let floor = scenario.bounds.budget_floor_per_s;
        let budget_text = format!(
            "budget of {} of the first attempts over {}",
            crate::report::percent_as_given(budget * 100.0),
            format_duration(f64::from(scenario.bounds.budget_window_s)),
        );
        let floor_text = if floor > 0.0 {
            let retries = if floor == 1.0 { "retry" } else { "retries" };
            format!(", plus {} {retries} a second", rate_text(floor))
        } else {
            String::new()
        };
        // A held retry keeps its attempts: a 72 h outage under a budget read "0 exhausted"
        // beside a schedule that gives up at 24 h, unexplained (outside product review).
        text += &if acted.budget {
            format!(
                "Retries were held to a {budget_text}{floor_text} (a held retry waits without \
                 spending an attempt). "
            )
        } else {
            let comma = if floor > 0.0 { "," } else { "" };
            format!("A retry {budget_text}{floor_text}{comma} never held a retry back. ")
        };
        // Once the traffic is over a budget without its floor allows no retry: it holds its
        // retries to the end, which the totals alone do not explain (outside SRE review: a
        // healthy destination read as one that never recovers). A budget of 0% never does.
        if floor == 0.0 && acted.budget {
            holding.push(if budget == 0.0 {
                "a budget of 0% without a floor lets no retry through"
            } else {
                "once first attempts stop, a budget without a floor lets no retry through"
            });
        }
    }
    if let Some(quota) = &scenario.bounds.retry_quota {
        text += &if acted.quota {
            format!("Retries drew on {}. ", quota.describe())
        } else {
            format!(
                "{} never held a retry back. ",
                capitalised(&quota.describe())
            )
        };
        // Once the traffic is over only successes refill the bucket: a bucket too low for one
        // more retry then holds its retries to the end. Said only of a bound that held
        // retries back (a full bucket was blamed beside a budget that held them all).
        if acted.quota {
            holding.push(
                "once no success refills the bucket, a quota too low for one more retry holds its \
                 retries for good",
            );
        }
    }
    // Also of a backlog drained by the rule (under 0.1% of the deliveries since the outage
    // began): 3,000 held for good under a week of traffic read "drains 83 h after recovery"
    // with nothing said of them (outside SRE review).
    if !holding.is_empty() && held_at_end >= 0.5 {
        let drained = if summary.drained_at_s.is_some() {
            " (the backlog counts as drained once under 0.1% of the deliveries since the outage \
             began)"
        } else {
            ""
        };
        text += &format!(
            "{} deliveries were still held when the simulation stopped{drained}: {}. ",
            format_count(held_at_end),
            holding.join("; and ")
        );
    }
    if let (Some(breaker), Some(openings)) = (&scenario.bounds.breaker, summary.breaker_openings) {
        let times = match openings {
            0 => "never opened".to_string(),
            1 => "opened once".to_string(),
            n => format!("opened {} times", format_count(f64::from(n))),
        };
        text += &format!("{} {times}. ", capitalised(&breaker.describe()));
    }
    text
}

/// `text` with its first letter upper-case, to start a sentence.
fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => format!("{}{}", first.to_ascii_uppercase(), chars.as_str()),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::{caption, Interval, Summary};
    use crate::jitter::Jitter;
    use crate::report::whole_percent;
    use crate::storm::{simulate_fluid, Scenario, Spec};
    use crate::survival::{cell, Outcome};
    use crate::{Engine, Policy, Stop};

    /// A storm that leaves the destination's queue long says so, with the last row's queue and
    /// the work it is at the capacity; one whose destination abandons timed-out requests, or
    /// that recovers, has nothing queued to say.
    #[test]
    fn a_queue_left_at_the_end_is_said_with_its_work() {
        let said = |spec: Spec, engine: Engine| {
            let report = crate::storm::simulate(&Scenario::new(spec).unwrap(), engine, false);
            let report = report.unwrap();
            let queue = report.minutes.last().unwrap().queue;
            (report.caption, queue)
        };
        for engine in [Engine::Fluid, Engine::Discrete] {
            let (caption, queue) = said(Spec::article_fixed(), engine);
            let work = crate::format_duration(queue / 30.0);
            assert!(queue > 1e6, "{engine:?}: {queue}");
            let sentence = format!(
                "When the simulation stops the destination's queue still holds {} requests ({work} \
                 of work at its capacity): it processes them after the end, and their outcomes \
                 and the duplicates among them are counted already. ",
                crate::number_text::format_count(queue)
            );
            assert!(caption.contains(&sentence), "{engine:?}: {caption}");
            let abandoned = Spec {
                abandon: true,
                ..Spec::article_fixed()
            };
            let (caption, queue) = said(abandoned, engine);
            assert!(!caption.contains("queue still holds"), "{queue}: {caption}");
            let short = Spec {
                outage: (0, 30),
                ..Spec::article_fixed()
            };
            let (caption, queue) = said(short, engine);
            assert!(!caption.contains("queue still holds"), "{queue}: {caption}");
        }
    }

    /// An outage after the last arrival meets no delivery the caption's opening counts: the
    /// caption says so, for steady traffic and for a batch; an outage during the traffic, or
    /// in a batch's second, is not remarked on.
    #[test]
    fn an_outage_after_the_last_arrival_is_said_to_be_after_it() {
        let caption = |outage: (u32, u32), batch: Option<(u32, u32)>| {
            let spec = Spec {
                outage,
                batch,
                ..Spec::article_fixed()
            };
            simulate_fluid(&Scenario::new(spec).unwrap(), false)
                .unwrap()
                .caption
        };
        let late = caption((3 * 3_600, 600), None);
        assert!(
            late.contains("The outage starts at 3 h, after the last delivery arrived (by 2 h): it meets only deliveries still queued or retrying then."),
            "{late}"
        );
        // Written as given, not rounded to the 7-day limit it is before.
        let last_second = caption((7 * 86_400 - 2, 1), None);
        assert!(
            last_second.starts_with("A 1 s outage at ")
                && last_second.contains("The outage starts at 6 days 23 h 59 min 58 s, after"),
            "{last_second}"
        );
        let batch_late = caption((4 * 3_600, 600), Some((100, 3 * 3_600)));
        assert!(
            // The batch arrives within its second, 3 h to 3 h 1 s.
            batch_late.contains("after the last delivery arrived (by 3 h 1 s)"),
            "{batch_late}"
        );
        // Steady traffic too slow to bring anyone: the batch at second 0 is every arrival.
        let spec = Spec {
            // 0.36 deliveries over the 2 h, rounded to none.
            arrivals_per_s: 0.00005,
            outage: (3_600, 600),
            batch: Some((100, 0)),
            ..Spec::article_fixed()
        };
        let only_batch = simulate_fluid(&Scenario::new(spec).unwrap(), false)
            .unwrap()
            .caption;
        assert!(
            only_batch.contains("after the last delivery arrived (by 1 s)"),
            "{only_batch}"
        );
        for (outage, batch) in [
            ((0, 600), None),
            ((7_199, 600), None),
            ((3 * 3_600, 600), Some((100, 3 * 3_600))),
        ] {
            let text = caption(outage, batch);
            assert!(
                !text.contains("after the last delivery"),
                "{outage:?} {batch:?}: {text}"
            );
        }
    }

    /// The article's 2 h of traffic under a 2 h outage: nothing arrives after recovery, which
    /// the caption says (outside SRE review: its quick drain read as the storm of traffic that
    /// keeps coming, which collapses). An outage that ends before the traffic does is not
    /// remarked on.
    #[test]
    fn traffic_that_ends_by_the_outages_end_is_said_to() {
        let caption = |outage: (u32, u32)| {
            let spec = Spec {
                outage,
                ..Spec::article_fixed()
            };
            simulate_fluid(&Scenario::new(spec).unwrap(), false)
                .unwrap()
                .caption
        };
        let said = "The traffic ends at 2 h, by the outage's end: no new delivery arrives after \
                    recovery, and the backlog is all the destination meets.";
        for outage in [(0, 7_200), (3_600, 3_600), (7_199, 600)] {
            assert!(
                caption(outage).contains(said),
                "{outage:?}: {}",
                caption(outage)
            );
        }
        for outage in [(0, 600), (3_600, 3_599), (3 * 3_600, 600)] {
            assert!(!caption(outage).contains("The traffic ends"), "{outage:?}");
        }
    }

    /// A batch alone (no steady traffic) has no arrival rate for its goodput to fall short of:
    /// no collapse is called, whatever `arrivals` says (it changes nothing else). The same
    /// batch beside steady traffic that the destination cannot keep up with is called one.
    #[test]
    fn a_batch_alone_is_not_called_a_collapse_of_a_rate_nobody_sends() {
        let caption = |arrivals_per_s: f64, traffic_s: u32| {
            let spec = Spec {
                arrivals_per_s,
                traffic_s,
                batch: Some((100_000, 0)),
                outage: (0, 0),
                capacity_per_s: 20.0,
                bounds: crate::storm::Bounds {
                    rate_limit_per_s: Some(20.0),
                    ..Default::default()
                },
                ..Spec::article_fixed()
            };
            simulate_fluid(&Scenario::new(spec).unwrap(), false)
                .unwrap()
                .caption
        };
        for arrivals in [10.0, 100.0] {
            let text = caption(arrivals, 0);
            assert!(!text.contains("collapses"), "{arrivals}/s: {text}");
        }
        assert!(caption(100.0, 7_200).contains("Goodput collapses"));
    }

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

    /// A storm that stops undrained says why: at its 7-day limit, or before it with every retry
    /// left due past it. A 7-day outage of yearly retries read "the backlog has not drained 0 s
    /// after recovery" (outside tester).
    #[test]
    fn an_undrained_storm_says_where_the_simulation_stopped() {
        let yearly = |outage_s: u32| {
            let spec = Spec {
                outage: (0, outage_s),
                policy: Policy::new(365.0 * 86_400.0, 3.0, 365.0 * 86_400.0, Stop::Attempts(14))
                    .unwrap(),
                ..Spec::article_fixed()
            };
            crate::storm::simulate(&Scenario::new(spec).unwrap(), Engine::Auto, false)
                .unwrap()
                .caption
        };
        // Written as simulated: 7 days less a 10 min outage is not "7 days after recovery".
        let budget_held = {
            let spec = Spec {
                bounds: crate::storm::Bounds {
                    budget: Some(0.0),
                    budget_floor_per_s: 0.0,
                    ..Default::default()
                },
                ..Spec::article_fixed()
            };
            crate::storm::simulate(&Scenario::new(spec).unwrap(), Engine::Fluid, false)
                .unwrap()
                .caption
        };
        assert!(
            budget_held.contains("The backlog has not drained by the simulation's 7-day limit (6 days 23 h 50 min after recovery)."),
            "{budget_held}"
        );
        let week = yearly(7 * 86_400 - 1);
        assert!(
            week.contains(
                "The backlog has not drained by the simulation's 7-day limit (1 s after recovery)."
            ),
            "{week}"
        );
        let day = yearly(86_400);
        assert!(
            day.contains("The backlog has not drained when the simulation ends 1 s after recovery: every retry left is due past its 7-day limit."),
            "{day}"
        );
    }

    /// Mostly exhausted and stopped before the 7-day limit, every retry left due past it: the
    /// storm does not "outlive the outage" (there may be no retry after recovery), and the
    /// share exhausted is said (outside review). At the limit it does.
    #[test]
    fn a_mostly_exhausted_storm_stopped_early_does_not_outlive_the_outage() {
        let spec = |outage_s: u32| Spec {
            outage: (0, outage_s),
            policy: Policy::new(365.0 * 86_400.0, 3.0, 365.0 * 86_400.0, Stop::Attempts(14))
                .unwrap(),
            ..Spec::article_fixed()
        };
        let said = |outage_s: u32| {
            let scenario = Scenario::new(spec(outage_s)).unwrap();
            let report = crate::storm::simulate(&scenario, Engine::Auto, false).unwrap();
            // The yearly storm's tallies, most of its deliveries counted exhausted instead of
            // pending: the outcome this caption is for, which no schedule here reaches alone.
            let summary = Summary {
                exhausted: 0.9 * report.summary.arrivals,
                ..report.summary
            };
            caption(
                &scenario,
                &summary,
                &Interval::default(),
                None,
                &Default::default(),
            )
        };
        let early = said(86_400);
        assert!(!early.contains("outlives"), "{early}");
        assert!(
            early.contains(
                "every retry left is due past its 7-day limit. 90% of deliveries end exhausted."
            ),
            "{early}"
        );
        let at_limit = said(7 * 86_400 - 1);
        assert!(
            at_limit.contains("The storm outlives the outage and never drains: goodput collapses and 90% of deliveries end exhausted."),
            "{at_limit}"
        );
    }

    /// The attempts per delivered event keep three significant figures and no more than two
    /// decimals: the article's fixed 30 s storm makes over a hundred thousand attempts per
    /// delivery, written whole (it read "116224.78"); with a budget about one, two decimals.
    #[test]
    fn attempts_per_delivery_are_written_to_their_precision() {
        let written = |spec: Spec| {
            let report = simulate_fluid(&Scenario::new(spec).unwrap(), false).unwrap();
            let per = report.summary.attempts_per_delivered.unwrap();
            let text = report.caption.split("; ").last().unwrap().to_string();
            let number = text.split(' ').next().unwrap().to_string();
            (per, number)
        };
        let (per, number) = written(Spec::article_fixed());
        assert!(per > 1_000.0, "{per}");
        assert_eq!(number, crate::number_text::format_count(per));
        let budgeted = Spec {
            bounds: crate::storm::Bounds {
                budget: Some(0.1),
                ..Spec::article_fixed().bounds
            },
            ..Spec::article_fixed()
        };
        let (per, number) = written(budgeted);
        assert!(per < 10.0, "{per}");
        assert_eq!(number, format!("{per:.2}"));
    }

    /// At one delivery a minute the peak in a minute is its multiple of normal traffic: the
    /// fluid engine's expected peak had read "peak at 4 in minute …, 4.47× normal traffic".
    #[test]
    fn a_small_peak_reads_as_its_multiple() {
        let spec = Spec {
            arrivals_per_s: 1.0 / 60.0,
            policy: crate::Policy::article(),
            jitter: crate::jitter::Jitter::Full,
            ..Spec::article_fixed()
        };
        let report = simulate_fluid(&Scenario::new(spec).unwrap(), false).unwrap();
        let peak = report.summary.peak_attempts_per_min;
        assert!(peak.fract() != 0.0 && peak < 100.0, "{peak}");
        let caption = &report.caption;
        let count = caption
            .split("peak at ")
            .nth(1)
            .unwrap()
            .split(' ')
            .next()
            .unwrap();
        let multiple = caption
            .split(", ")
            .nth(1)
            .unwrap()
            .split('×')
            .next()
            .unwrap();
        assert_eq!(count, multiple, "{caption}");
    }

    /// Every bound is named in the caption, so that a quoted caption tells a bounded storm from
    /// a free one: a rate limit, a pause and Retry-After went unsaid (outside review).
    #[test]
    fn every_bound_is_named() {
        let caption = |bounds: crate::storm::Bounds| {
            let spec = Spec {
                bounds,
                ..Spec::article_fixed()
            };
            simulate_fluid(&Scenario::new(spec).unwrap(), false)
                .unwrap()
                .caption
        };
        let limited = caption(crate::storm::Bounds {
            rate_limit_per_s: Some(25.0),
            ..Default::default()
        });
        assert!(
            limited.contains("A rate limit held the sender to 25 attempts a second."),
            "{limited}"
        );
        let paused = caption(crate::storm::Bounds {
            pause: true,
            resume_rate_per_s: Some(20.0),
            ..Default::default()
        });
        assert!(
            paused.contains("The endpoint was paused during the outage, its deliveries held, then sent at most 20 attempts a second from recovery."),
            "{paused}"
        );
        let told = caption(crate::storm::Bounds {
            retry_after_s: Some(60.0),
            ..Default::default()
        });
        assert!(
            // After a 429 only: a retry after a timeout or a loss waits its own gap (it said
            // "each retry waited at least that long": outside SRE review).
            told.contains(
                " attempts 429 with Retry-After 60 s once its queue waited over 1 s, and each retry after a 429 waited at least that long (after a timeout or a loss, its own gap)."
            ),
            "{told}"
        );
        let free = caption(crate::storm::Bounds::default());
        assert!(!free.contains("rate limit") && !free.contains("paused") && !free.contains("429"));
    }

    /// A bound set but never reached is said to be, not credited with the outcome: a paused
    /// endpoint sends nothing during the outage, so no retry is ever due and no queue builds
    /// (outside review: "a rate limit held the sender to 25 attempts a second" of a storm that
    /// peaked at 20, "answered 429" with no 429, "held to a budget" without a retry). Both
    /// engines say the same.
    #[test]
    fn a_bound_that_never_acted_is_not_credited() {
        let spec = Spec {
            bounds: crate::storm::Bounds {
                pause: true,
                resume_rate_per_s: Some(20.0),
                rate_limit_per_s: Some(25.0),
                budget: Some(0.05),
                retry_after_s: Some(10.0),
                ..Default::default()
            },
            ..Spec::article_fixed()
        };
        let scenario = Scenario::new(spec).unwrap();
        for report in [
            simulate_fluid(&scenario, false).unwrap(),
            crate::storm::simulate_discrete(&scenario, false).unwrap(),
        ] {
            let text = &report.caption;
            assert_eq!(report.summary.attempts, report.summary.arrivals, "{text}");
            for said in [
                "The endpoint was paused during the outage, its deliveries held",
                "A rate limit of 25 attempts a second never held an attempt back.",
                "The destination would have answered 429 with Retry-After 10 s once its queue waited over 1 s; it never did.",
                "A retry budget of 5% of the first attempts over 60 s, plus 0.5 retries a second, never held a retry back.",
            ] {
                assert!(text.contains(said), "{said}\n{text}");
            }
            for credited in ["held the sender", "attempts 429", "were held to"] {
                assert!(!text.contains(credited), "{credited}\n{text}");
            }
        }
        // The same bounds without the pause: the outage's retries meet the budget, which keeps
        // them under the rate limit and the destination's queue short of Retry-After's 1 s.
        let unpaused = Scenario::new(Spec {
            bounds: crate::storm::Bounds {
                pause: false,
                ..spec.bounds
            },
            ..spec
        })
        .unwrap();
        for report in [
            simulate_fluid(&unpaused, false).unwrap(),
            crate::storm::simulate_discrete(&unpaused, false).unwrap(),
        ] {
            let text = &report.caption;
            assert!(
                text.contains("Retries were held to a budget of 5%"),
                "{text}"
            );
            assert!(
                text.contains("25 attempts a second never held an attempt back"),
                "{text}"
            );
        }
    }

    /// The pace after a pause holds the sender from the outage's end whether or not the pause
    /// held anything, and a bound that held nothing is not blamed for deliveries still held
    /// (outside review: a pace that throttled every delivery went unsaid, and a full bucket was
    /// blamed beside a budget of 0% that held every retry). Both engines say the same.
    #[test]
    fn the_pace_and_the_bounds_still_holding_are_said_as_they_acted() {
        let paced = |outage: (u32, u32), batch: Option<(u32, u32)>, traffic_s: u32| {
            Scenario::new(Spec {
                outage,
                batch,
                traffic_s,
                bounds: crate::storm::Bounds {
                    pause: true,
                    resume_rate_per_s: Some(5.0),
                    ..Default::default()
                },
                ..Spec::article_fixed()
            })
            .unwrap()
        };
        let cases = [
            (
                paced((0, 0), None, 7_200),
                "Without an outage nothing was paused, but the pace after a pause held the sender to 5 attempts a second from the start.",
            ),
            (
                paced((0, 600), Some((10_000, 3_600)), 0),
                "Nothing was due while the endpoint was paused during the outage; from recovery it was sent at most 5 attempts a second.",
            ),
            (
                paced((0, 0), None, 60),
                "Without an outage nothing was paused, but the pace after a pause held the sender to 5 attempts a second from the start.",
            ),
        ];
        for (scenario, said) in &cases {
            for report in [
                simulate_fluid(scenario, false).unwrap(),
                crate::storm::simulate_discrete(scenario, false).unwrap(),
            ] {
                assert!(report.caption.contains(said), "{said}\n{}", report.caption);
            }
        }
        let quiet = paced((0, 0), None, 7_200);
        let unpaced = Scenario::new(Spec {
            arrivals_per_s: 1.0,
            ..*quiet.spec()
        })
        .unwrap();
        let report = simulate_fluid(&unpaced, false).unwrap();
        assert!(
            report
                .caption
                .contains("Without an outage the pause never applied."),
            "{}",
            report.caption
        );
        let budgeted = Scenario::new(Spec {
            bounds: crate::storm::Bounds {
                budget: Some(0.0),
                budget_floor_per_s: 0.0,
                retry_quota: Some(crate::storm::RetryQuota::from_name("aws", None, None).unwrap()),
                ..Default::default()
            },
            ..Spec::article_fixed()
        })
        .unwrap();
        for report in [
            simulate_fluid(&budgeted, false).unwrap(),
            crate::storm::simulate_discrete(&budgeted, false).unwrap(),
        ] {
            let text = &report.caption;
            assert!(text.contains("retry quota (500 tokens"), "{text}");
            assert!(text.contains(") never held a retry back."), "{text}");
            assert!(
                text.contains("still held when the simulation stopped: a budget of 0% without a floor lets no retry through."),
                "{text}"
            );
            assert!(!text.contains("the bucket"), "{text}");
        }
    }

    /// Nothing due while paused (the outage comes after the traffic and its retries are over):
    /// the pause held nothing.
    #[test]
    fn a_pause_with_nothing_due_held_nothing() {
        let spec = Spec {
            outage: (3 * 3_600, 600),
            bounds: crate::storm::Bounds {
                pause: true,
                ..Default::default()
            },
            ..Spec::article_fixed()
        };
        let report = simulate_fluid(&Scenario::new(spec).unwrap(), false).unwrap();
        assert!(
            report.caption.contains(
                "The endpoint was to be paused during the outage; nothing was due while it lasted."
            ),
            "{}",
            report.caption
        );
    }

    /// A rate is written in the unit that makes it a number a reader says, singular for one:
    /// a delivery an hour read "0 deliveries per minute".
    #[test]
    fn arrival_rates_are_written_in_a_unit_that_says_them() {
        for (per_s, text) in [
            (10.0, "600 deliveries per minute"),
            (2.5 / 60.0, "2.5 deliveries per minute"),
            (0.37, "22.2 deliveries per minute"),
            (0.6, "36 deliveries per minute"),
            (1.0 / 60.0, "1 delivery per minute"),
            (59.0 / 3_600.0, "59 deliveries per hour"),
            (1.0 / 3_600.0, "1 delivery per hour"),
            (10.0 / 86_400.0, "10 deliveries per day"),
            (0.5 / 86_400.0, "0.5 deliveries per day"),
        ] {
            assert_eq!(super::arrival_rate(per_s), text, "{per_s}");
        }
    }

    /// Without an outage nothing recovers: a destination slower than the arrivals is said to
    /// fall behind, and nothing is put on an outage or a recovery (it read "Most deliveries run
    /// out of attempts during the outage … drains within a minute").
    #[test]
    fn an_overloaded_destination_without_an_outage_is_said_to_fall_behind() {
        let spec = Spec {
            traffic_s: 600,
            capacity_per_s: 3.0,
            outage: (0, 0),
            policy: Policy::fixed(30.0, Stop::Attempts(5)).unwrap(),
            ..Spec::article_fixed()
        };
        let report = crate::storm::simulate_discrete(&Scenario::new(spec).unwrap(), false).unwrap();
        let caption = &report.caption;
        assert!(
            caption.contains("The destination answers at most 3 requests per second, fewer than the 10 deliveries arriving each second: it falls behind while the traffic lasts, even without an outage."),
            "{caption}"
        );
        assert!(
            caption.contains("The destination never catches up"),
            "{caption}"
        );
        let one_a_second = Spec {
            arrivals_per_s: 1.0,
            capacity_per_s: 0.5,
            ..spec
        };
        let report =
            crate::storm::simulate_discrete(&Scenario::new(one_a_second).unwrap(), false).unwrap();
        assert!(
            report.caption.contains(
                "at most 0.5 requests per second, fewer than the 1 delivery arriving each second"
            ),
            "{}",
            report.caption
        );
        for word in ["during the outage", "recovery", "drains"] {
            assert!(!caption.contains(word), "{word}: {caption}");
        }
        let healthy = Spec {
            capacity_per_s: 30.0,
            ..spec
        };
        let report = simulate_fluid(&Scenario::new(healthy).unwrap(), false).unwrap();
        for word in ["outage:", "recovery", "behind", "collapses"] {
            assert!(!report.caption.contains(word), "{word}: {}", report.caption);
        }
        // Keeping up is said as plainly as falling behind (it went unsaid): at once, or once
        // a batch's retries are through.
        assert!(
            report.caption.contains(
                "The destination keeps up: every delivery succeeds at its first attempt."
            ),
            "{}",
            report.caption
        );
        assert!(!caption.contains("keeps up"), "{caption}");
        let batch = Spec {
            batch: Some((100, 0)),
            timeout_s: 2.0,
            ..healthy
        };
        let report =
            crate::storm::simulate_discrete(&Scenario::new(batch).unwrap(), false).unwrap();
        assert!(report.summary.duplicates > 0.0, "{}", report.caption);
        let drained = report.summary.drained_at_s.unwrap();
        assert!(
            report.caption.contains(&format!(
                "The destination keeps up once its retries are through: the backlog drains {} after the start.",
                crate::format_duration(f64::from(drained + 1))
            )),
            "{}",
            report.caption
        );
        // Where deliveries ran out of attempts it did not keep up.
        let exhausting = Spec {
            timeout_s: 1.0,
            ..batch
        };
        let report =
            crate::storm::simulate_discrete(&Scenario::new(exhausting).unwrap(), false).unwrap();
        assert!(report.summary.exhausted > 0.0, "{}", report.caption);
        assert!(!report.caption.contains("keeps up"), "{}", report.caption);
        assert!(
            report.caption.contains("The backlog is gone"),
            "{}",
            report.caption
        );
    }

    /// A destination with requests still queued at the end is not said to keep up, though
    /// every delivery "succeeded" at its first attempt (a batch of 1,000 with a 60 s timeout
    /// left 970 queued); and deliveries two bounds hold are counted once, with both reasons.
    #[test]
    fn keeping_up_and_holding_are_said_once_and_only_when_true() {
        let batch = Spec {
            traffic_s: 0,
            batch: Some((1_000, 0)),
            outage: (0, 0),
            timeout_s: 60.0,
            ..Spec::article_fixed()
        };
        let report =
            crate::storm::simulate_discrete(&Scenario::new(batch).unwrap(), false).unwrap();
        let caption = &report.caption;
        assert!(!caption.contains("keeps up"), "{caption}");
        assert!(
            caption.contains("Every delivery succeeds at its first attempt. When the simulation stops the destination's queue still holds"),
            "{caption}"
        );
        let both = Spec {
            bounds: crate::storm::Bounds {
                budget: Some(0.0),
                budget_floor_per_s: 0.0,
                retry_quota: Some(crate::storm::RetryQuota::from_name("grpc", None, None).unwrap()),
                ..crate::storm::Bounds::default()
            },
            ..Spec::article_fixed()
        };
        let report = simulate_fluid(&Scenario::new(both).unwrap(), false).unwrap();
        let caption = &report.caption;
        assert_eq!(caption.matches("still held").count(), 1, "{caption}");
        assert!(
            caption.contains("a budget of 0% without a floor lets no retry through; and once no success refills the bucket"),
            "{caption}"
        );
    }

    /// A rate limit under the arrival rate (or a batch's) delivers every event at its first
    /// attempt, but late: "the destination keeps up" was said of deliveries 2 h late (outside
    /// SRE review). The caption says the limit holds first attempts back, and when the backlog
    /// at the sender drains, as the drain is counted; a limit above the arrivals keeps up.
    #[test]
    fn a_rate_limit_under_the_arrivals_holds_first_attempts_back() {
        let limited = |arrivals_per_s: f64, limit: f64| Spec {
            arrivals_per_s,
            capacity_per_s: 50.0,
            outage: (0, 0),
            bounds: crate::storm::Bounds {
                rate_limit_per_s: Some(limit),
                ..crate::storm::Bounds::default()
            },
            ..Spec::article_fixed()
        };
        for spec in [limited(20.0, 10.0), limited(20.0, 30.0)] {
            let scenario = Scenario::new(spec).unwrap();
            for report in [
                crate::storm::simulate_discrete(&scenario, false).unwrap(),
                simulate_fluid(&scenario, false).unwrap(),
            ] {
                let caption = &report.caption;
                let drained = report.summary.drained_at_s.unwrap();
                if spec.bounds.rate_limit_per_s < Some(spec.arrivals_per_s) {
                    // 144,000 deliveries at 10 a second: the last is sent at 4 h.
                    assert!(drained >= 14_000, "{drained}: {caption}");
                    let said = format!(
                        "The rate limit holds first attempts back: the backlog at the sender \
                         drains {} after the start.",
                        crate::format_duration(report.summary.after_recovery_s(drained))
                    );
                    assert!(caption.contains(&said), "{caption}");
                    assert!(!caption.contains("keeps up"), "{caption}");
                } else {
                    assert!(caption.contains("The destination keeps up"), "{caption}");
                }
            }
        }
    }

    /// Deliveries a budget holds for good are said even where the backlog counts as drained
    /// (under 0.1% of a week's deliveries): it read "drains 83 h 15 min after recovery" of
    /// 3,000 deliveries no retry would ever reach (outside SRE review).
    #[test]
    fn deliveries_held_for_good_are_said_beside_a_drain() {
        let spec = Spec {
            arrivals_per_s: 10.0,
            traffic_s: 7 * 86_400 - 1,
            capacity_per_s: 50.0,
            outage: (0, 300),
            bounds: crate::storm::Bounds {
                budget: Some(0.0),
                budget_floor_per_s: 0.0,
                ..crate::storm::Bounds::default()
            },
            ..Spec::article_fixed()
        };
        let report = simulate_fluid(&Scenario::new(spec).unwrap(), false).unwrap();
        assert!(report.summary.drained_at_s.is_some(), "{}", report.caption);
        assert!(
            report.caption.contains(&format!(
                "{} deliveries were still held when the simulation stopped (the backlog counts \
                 as drained once under 0.1% of the deliveries since the outage began): a budget \
                 of 0% without a floor lets no retry through.",
                crate::number_text::format_count(report.summary.pending)
            )),
            "{}",
            report.caption
        );
    }

    /// A budget without its floor lets no retry through once first attempts stop: the
    /// deliveries it holds then stay pending to the simulation's end, and the caption says why
    /// (a healthy destination with 1000× headroom read as one that never recovers).
    #[test]
    fn a_budget_without_a_floor_is_said_to_hold_its_retries_for_good() {
        let spec = Spec {
            arrivals_per_s: 1.0,
            traffic_s: 20,
            capacity_per_s: 1_000.0,
            latency_s: 0.0,
            outage: (0, 10),
            timeout_s: 1.0,
            policy: Policy::fixed(5.0, Stop::Attempts(10)).unwrap(),
            bounds: crate::storm::Bounds {
                budget: Some(0.5),
                budget_window_s: 5,
                budget_floor_per_s: 0.0,
                ..crate::storm::Bounds::default()
            },
            ..Spec::article_fixed()
        };
        let scenario = Scenario::new(spec).unwrap();
        for report in [
            crate::storm::simulate_discrete(&scenario, false).unwrap(),
            simulate_fluid(&scenario, false).unwrap(),
        ] {
            let pending = report.summary.pending;
            assert!(pending >= 1.0, "{}", report.caption);
            assert!(
                report.caption.contains(&format!(
                    "{} deliveries were still held when the simulation stopped: once first attempts stop, a budget without a floor lets no retry through.",
                    crate::number_text::format_count(pending)
                )),
                "{}",
                report.caption
            );
        }
        let floored = Spec {
            bounds: crate::storm::Bounds {
                budget_floor_per_s: 0.5,
                ..spec.bounds
            },
            ..spec
        };
        let report = simulate_fluid(&Scenario::new(floored).unwrap(), false).unwrap();
        assert_eq!(report.summary.pending, 0.0, "{}", report.caption);
        assert!(!report.caption.contains("still held"), "{}", report.caption);
    }

    /// A day's outage exhausts nearly every delivery of the article's policy under full jitter:
    /// the fluid engine's expected 0.002 deliveries read "0 of 72,000 deliveries delivered …
    /// 504,000,000 attempts per delivered event". Under half a delivery is nothing delivered,
    /// as the totals say.
    #[test]
    fn a_storm_delivering_under_half_an_event_delivers_nothing() {
        let spec = Spec {
            outage: (0, 86_400),
            policy: Policy::article(),
            jitter: Jitter::Full,
            ..Spec::article_fixed()
        };
        let report = simulate_fluid(&Scenario::new(spec).unwrap(), false).unwrap();
        let delivered = report.summary.delivered;
        assert!(delivered > 0.0 && delivered < 0.5, "{delivered}");
        assert_eq!(report.summary.attempts_per_delivered, None);
        assert!(
            report.caption.contains("0 of 72,000 deliveries delivered")
                && report.caption.ends_with("; nothing delivered."),
            "{}",
            report.caption
        );
    }

    /// A collapse the destination did not cause (it answers in time what it is sent, and the
    /// backlog waits on the sender's gaps and bounds) is not put on the destination.
    #[test]
    fn a_collapse_paced_by_the_sender_is_put_on_the_sender() {
        // A rate limit under the arrival rate: the destination (30/s) answers all it is sent.
        let spec = Spec {
            policy: Policy::article(),
            jitter: Jitter::Full,
            bounds: crate::storm::Bounds {
                rate_limit_per_s: Some(3.0),
                ..Default::default()
            },
            ..Spec::article_fixed()
        };
        let report = simulate_fluid(&Scenario::new(spec).unwrap(), false).unwrap();
        assert!(
            report.caption.contains("though the destination answers in time what it is sent: the backlog waits on the sender (its backoff gaps and its rate limit)."),
            "{}",
            report.caption
        );
        assert!(
            !report.caption.contains("the destination answers 5%"),
            "{}",
            report.caption
        );
        // Traffic that stops at recovery asks nothing of the hour after it: no arrival rate to
        // fall short of (30 s of traffic read "in the hour after recovery 0% of the arrival
        // rate is delivered").
        let stopped = Spec {
            outage: (0, 7_200),
            bounds: crate::storm::Bounds {
                budget: Some(0.1),
                ..Default::default()
            },
            ..spec
        };
        let report = simulate_fluid(&Scenario::new(stopped).unwrap(), false).unwrap();
        assert!(
            !report.caption.contains("arrival rate"),
            "{}",
            report.caption
        );
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
            "A 10 min outage at 600 deliveries per minute and a batch of 1,000 at 5 min"
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
