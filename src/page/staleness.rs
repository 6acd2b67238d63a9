//! The staleness chart's data from the page's settings: your schedule (and a compared preset)
//! along the outage lengths, the outage to read off, and a schedule derived from the tolerance
//! and the allowed recovery lag, which the page can apply.

use super::views::{sampled_deliveries, staleness_params};
use super::{PageError, Settings};
use crate::chart::staleness::{StalenessChart, StalenessCurve};
use crate::staleness::{OutageAnswer, Question, StalenessReport, Suggestion};
use crate::Error;

/// The schedules a compared curve samples under jitter: a tenth of your policy's (2,000 for the
/// page's default 20,000), which draws a curve as smooth as the chart shows, and at least 100.
fn compared_samples(question: &Question) -> usize {
    question
        .samples()
        .map_or(2_000, |n| (n / 10).clamp(100, 2_000))
}

/// The curve of `question` along outages over `span` (the same for every curve of a chart).
fn curve(label: &str, question: &Question, span: (f64, f64)) -> Result<StalenessCurve, Error> {
    let points = question.curve(span)?;
    // The 95th percentile stops where more than 5% of schedules exhaust the first event: it is
    // "never" there, and the lags of the schedules that still deliver it (the longest ones)
    // would draw a line that falls.
    let first_lag_p95_s = points
        .iter()
        .map(|p| {
            p.spread
                .filter(|s| s.first_delivered_share >= 0.95)
                .and_then(|s| s.first_lag)
                .map(|lag| lag.p95_s)
        })
        .collect::<Vec<_>>();
    let sampled = first_lag_p95_s.iter().any(Option::is_some);
    Ok(StalenessCurve {
        label: label.to_string(),
        give_up_s: question.give_up_s(),
        first_lag_p95_s: if sampled { first_lag_p95_s } else { Vec::new() },
        points,
    })
}

/// Everything the staleness chart draws, from the settings. The outage to read off is the
/// core's `outage`, which on the page is the storm's: its errors go next to `read-outage`.
pub fn staleness_chart(settings: &Settings) -> Result<StalenessChart, PageError> {
    let params = read_off_params(settings);
    let compared = crate::presets::preset(settings.get("compare")).ok();
    chart_of(&params, compared.as_ref()).map_err(|error| {
        let mut shown = read_outage_named(error);
        if let (Some("samples"), Some(draws)) = (shown.setting, capped_samples(settings)) {
            shown.message = format!("{} (the staleness chart {draws})", shown.message);
        }
        shown
    })
}

/// The chart's caption, and when the page's sampled deliveries are more than a staleness chart
/// draws, that it drew fewer: the control said 1,000,000 where the caption said 100,000
/// (outside review).
pub fn staleness_caption(chart: &StalenessChart, settings: &Settings) -> String {
    let caption = chart.report.caption();
    match capped_samples(settings) {
        Some(draws) if chart.report.samples.is_some() => {
            format!("{caption} The staleness chart {draws}.")
        }
        _ => caption,
    }
}

/// "draws at most 100,000 schedules of the 1,000,000 sampled deliveries set", when the page's
/// setting is over what a staleness chart draws.
fn capped_samples(settings: &Settings) -> Option<String> {
    let given = sampled_deliveries(settings);
    let most = crate::staleness::MAX_SAMPLES as f64;
    let count = crate::number_text::format_count;
    (given > most).then(|| {
        format!(
            "draws at most {} schedules of the {} sampled deliveries set",
            count(most),
            count(given)
        )
    })
}

/// The staleness view's parameters with the outage it reads off as the core's `outage`.
pub(super) fn read_off_params(settings: &Settings) -> crate::Params {
    crate::Params {
        outage: Some(crate::DurationInput::Text(
            settings.get("read-outage").to_string(),
        )),
        ..staleness_params(settings)
    }
}

/// A refusal of the staleness view's `outage` named as the field it is shown under,
/// `read-outage` (the storm has an "outage" of its own).
fn read_outage_named(error: Error) -> PageError {
    let mut shown = PageError::from(error);
    if shown.setting == Some("outage") {
        shown.setting = Some("read-outage");
        if let Some(rest) = shown.message.strip_prefix("outage ") {
            shown.message = format!("read-outage {rest}");
        }
    }
    shown
}

/// The staleness chart of a policy's parameters (`outage`: the one to read off; `tolerance`,
/// `maxLag`), with a compared preset if given.
pub fn chart_of(
    params: &crate::Params,
    compared: Option<&crate::presets::Preset>,
) -> Result<StalenessChart, Error> {
    let question = params.staleness_question()?;
    let report = params.staleness_report()?;
    let read: Option<OutageAnswer> = params.outage.as_ref().and(report.outages.first().cloned());
    let theirs = match compared {
        Some(preset) => {
            let seed = question.seed().unwrap_or(0);
            let theirs = Question::new(&preset.policy, preset.jitter, seed)?
                .with_samples(compared_samples(&question))?;
            Some((preset.title, theirs))
        }
        None => None,
    };
    // Every curve over the outages of all of them and the one read off: a curve that stopped
    // where another went on (or short of the read-off) looked as if nothing were delivered past
    // its end (outside product review: a band ending at 48 h on an axis to 365 days).
    let (mut start, mut end) = crate::staleness::curve_span(&question);
    if let Some((_, theirs)) = &theirs {
        let (their_start, their_end) = crate::staleness::curve_span(theirs);
        (start, end) = (start.min(their_start), end.max(their_end));
    }
    // The outage read off is on the axis, however short: one under the curves' first minute
    // was marked at 1 min (outside review).
    if let Some(read) = read.as_ref().filter(|read| read.outage_s > 0.0) {
        (start, end) = (start.min(read.outage_s), end.max(read.outage_s));
    }
    let span = (start, end);
    let compared = match &theirs {
        Some((title, theirs)) => Some(curve(title, theirs, span)?),
        None => None,
    };
    Ok(StalenessChart {
        mine: curve("your policy", &question, span)?,
        compared,
        read,
        report,
    })
}

/// The staleness report the page exports (CSV, JSON, Markdown): the schedule's ladder of
/// outages with the one read off among them, so that the exports answer the outage the caption
/// on screen is about (they had the ladder alone: a caption about a 6 h outage beside a table
/// without one).
pub fn staleness_export(settings: &Settings) -> Result<StalenessReport, PageError> {
    read_off_params(settings)
        .staleness_report_with(|read, give_up_s| {
            let mut outages = crate::staleness::ladder(give_up_s);
            outages.extend(read);
            outages.sort_by(f64::total_cmp);
            outages.dedup();
            outages
        })
        .map_err(read_outage_named)
}

/// The settings of the schedule the tolerance and the allowed lag suggest (the page's Apply).
pub fn apply_suggestion(settings: &mut Settings, suggestion: &Suggestion) {
    let text = super::duration_text;
    settings.set("preset", "");
    settings.set("stop", "attempts");
    settings.set("attempts", suggestion.attempts.to_string());
    settings.set("base", text(suggestion.base_s));
    settings.set("multiplier", format!("{}", suggestion.multiplier));
    settings.set("cap", text(suggestion.cap_s));
    match &suggestion.gaps_s {
        Some(gaps) => {
            let listed: Vec<String> = gaps.iter().map(|&g| text(g)).collect();
            settings.set("gaps", listed.join(","));
            settings.set(
                "then-every",
                suggestion.then_every_s.map(text).unwrap_or_default(),
            );
        }
        None => {
            settings.set("gaps", "");
            settings.set("then-every", "");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// More sampled deliveries than a staleness chart draws: its caption and its refusal say
    /// so, where they quoted 100,000 beside a control of 1,000,000 (outside review).
    #[test]
    fn sampled_deliveries_past_the_staleness_limit_are_said_to_be_capped() {
        let told = "the staleness chart draws at most 100,000 schedules of the 1,000,000 sampled \
                    deliveries set";
        let settings = Settings::with(&[("samples", "1000000"), ("attempts", "4")]);
        let chart = staleness_chart(&settings).unwrap();
        let caption = staleness_caption(&chart, &settings);
        assert!(
            caption.contains("Sampled from 100,000 jittered schedules"),
            "{caption}"
        );
        assert!(
            caption.ends_with(&format!("The{}.", &told[3..])),
            "{caption}"
        );
        let within = Settings::with(&[("samples", "100000"), ("attempts", "4")]);
        let chart = staleness_chart(&within).unwrap();
        assert!(!staleness_caption(&chart, &within).contains("draws at most"));
        let refused = Settings::with(&[
            ("samples", "1000000"),
            ("attempts", "10000"),
            ("mode", "decorrelated"),
        ]);
        let error = staleness_chart(&refused).unwrap_err();
        assert_eq!(error.setting, Some("samples"));
        assert!(
            error.message.ends_with(&format!("got 100000 ({told})")),
            "{}",
            error.message
        );
    }

    /// An outage read off under the curves' first minute is on the axis, not marked at 1 min.
    #[test]
    fn a_short_outage_read_off_is_on_the_axis() {
        let settings = Settings::with(&[("read-outage", "30s")]);
        let chart = staleness_chart(&settings).unwrap();
        let first = chart.mine.points.first().map(|point| point.outage_s);
        assert_eq!(first, Some(30.0), "{:?}", chart.mine.points.first());
    }

    /// The outage to read off is refused under its own name: "outage" is the storm's field,
    /// with another range.
    #[test]
    fn the_outage_to_read_off_is_refused_by_its_own_name() {
        let mut settings = Settings::default();
        settings.set("read-outage", "400d");
        let error = staleness_chart(&settings).unwrap_err();
        assert_eq!(error.setting, Some("read-outage"));
        assert_eq!(
            error.message,
            "read-outage must be a duration from 1 µs to 365 days, got 400 days"
        );
    }

    /// Every curve runs the whole axis: to the outage read off and to the end of a compared
    /// preset's curve (a band ending at 48 h on an axis to 365 days read as nothing delivered
    /// past 48 h).
    #[test]
    fn every_curve_spans_the_read_off_and_the_compared_curve() {
        let ends = |pairs: &[(&str, &str)]| {
            let mut settings = Settings::default();
            settings.set("mode", "none");
            for (key, value) in pairs {
                settings.set(key, *value);
            }
            let chart = staleness_chart(&settings).unwrap();
            let last = |curve: &StalenessCurve| curve.points.last().unwrap().outage_s;
            let first = |curve: &StalenessCurve| curve.points[0].outage_s;
            let compared = chart.compared.as_ref();
            (
                (first(&chart.mine), last(&chart.mine)),
                compared.map(|c| (first(c), last(c))),
            )
        };
        let year = 365.0 * 86_400.0;
        assert_eq!(ends(&[("read-outage", "365d")]).0 .1, year);
        let (mine, theirs) = ends(&[("compare", "standard-webhooks")]);
        assert_eq!(Some(mine), theirs);
        // Standard Webhooks' example gives up after about 3 days: its curve goes to 6.
        assert!(mine.1 > 5.0 * 86_400.0, "{mine:?}");
        // A schedule giving up within seconds is drawn from under a second, the compared one too.
        let (mine, theirs) = ends(&[("gaps", "1s"), ("attempts", "3"), ("compare", "svix")]);
        assert!(mine.0 < 1.0 && Some(mine) == theirs, "{mine:?} {theirs:?}");
    }

    /// The exports answer the outage the caption on screen is about, among the ladder's (a
    /// caption about a 6 h outage stood beside exports without one: outside product review).
    #[test]
    fn the_exports_hold_the_outage_read_off() {
        let mut settings = Settings::default();
        settings.set("mode", "none");
        settings.set("read-outage", "6h");
        let exported = staleness_export(&settings).unwrap();
        let outages: Vec<f64> = exported.outages.iter().map(|o| o.outage_s).collect();
        assert!(outages.contains(&21_600.0), "{outages:?}");
        let ladder = crate::staleness::ladder(exported.give_up_s);
        assert_eq!(outages.len(), ladder.len() + 1, "{outages:?}");
        assert!(outages.windows(2).all(|w| w[0] < w[1]), "{outages:?}");
        assert!(exported.to_markdown().contains("| 6 h |"));
        // The caption's outage, answered the same in both.
        let shown = staleness_chart(&settings).unwrap().read.unwrap();
        let row = exported.outages.iter().find(|o| o.outage_s == 21_600.0);
        assert_eq!(row, Some(&shown));
        // Its caption is the one on screen, about the 6 h outage (it spoke of the ladder's
        // worst first event, after 4 h: outside diff review).
        let on_screen = staleness_chart(&settings).unwrap().report.caption();
        assert_eq!(exported.caption(), on_screen);
        assert!(on_screen.contains("after a 6 h outage"), "{on_screen}");
        // A read-off outage on the ladder is not doubled.
        settings.set("read-outage", "4h");
        assert_eq!(
            staleness_export(&settings).unwrap().outages.len(),
            ladder.len()
        );
    }

    /// A tolerance cleared leaves the default allowed lag (1 h) without the suggestion it
    /// serves: the chart is drawn, without a suggestion (it was refused with "tolerance must be
    /// given with a max-lag", a lag the reader never set).
    #[test]
    fn no_tolerance_draws_the_chart_without_a_suggestion() {
        let mut settings = Settings::default();
        settings.set("tolerance", "");
        let chart = staleness_chart(&settings).unwrap();
        assert_eq!(chart.report.tolerance_s, None);
        assert!(chart.report.suggestion.is_none());
    }
}
