//! Each view in two steps: what costs (sampling, herds, storms), which the page runs in a Web
//! Worker, and the drawing from its result, which the page does on its canvas (or as SVG).

use plotters::coord::Shift;
use plotters::prelude::{DrawingArea, DrawingBackend};
use serde::{Deserialize, Serialize};

use super::views::{jitter_params, policy_params, storm_series, View, UNTICK_COMPARE};
use super::{PageError, Settings};
use crate::chart::{self, ChartOptions};
use crate::give_up::{JitterReport, HISTOGRAM_BINS};
use crate::herd::Herd;
use crate::jitter::Jitter;
use crate::storm::{Memo, Scenario, StormReport, Summary};
use crate::{Error, Params, Policy, Schedule, ScheduleReport, DEFAULT_WINDOW_S};

/// The most minutes of a storm the page's chart is given.
const CHART_MINUTES: usize = 1_500;

/// What a view's costly step found: nothing for the timeline (it is cheap, drawn from the
/// settings), the report for the distribution, both herds, each storm series' report. It
/// crosses into JavaScript packed ([`super::pack`]); as an object (this shape) only in the CLI's
/// and the tests' JSON, and as the survival map the page assembles from its rows.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "view", rename_all = "lowercase")]
pub enum Computed {
    /// Drawn from the settings alone.
    Timeline,
    /// One jittered delivery's give-up time.
    Distribution {
        /// Exact and sampled figures.
        report: Box<JitterReport>,
    },
    /// The herd under the chosen jitter and without.
    Herd {
        /// With the chosen jitter.
        spread: Box<Herd>,
        /// Without jitter.
        spike: Box<Herd>,
    },
    /// Every storm series, in order.
    Storm {
        /// One report per series.
        reports: Vec<StormReport>,
    },
    /// The staleness chart's curves and report.
    Staleness {
        /// What the chart draws.
        chart: Box<crate::chart::staleness::StalenessChart>,
    },
    /// The survival map's rows computed so far (see [`crate::survival::Plan::map`]).
    Survival {
        /// In any order.
        rows: Vec<crate::survival::Row>,
    },
}

/// A storm series as drawn: its label, summary and caption.
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StormDrawn {
    /// The legend entry.
    pub label: String,
    /// Its numbers.
    pub summary: Summary,
    /// Its outcome in words.
    pub caption: String,
    /// Its outage's length, seconds (0: a storm without an outage has nothing to drain).
    pub outage_s: u32,
}

/// What a drawn view says: its caption, and the timeline's table and comparison.
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Drawn {
    /// The chart in words (the storm's: one line per series).
    pub caption: String,
    /// The timeline's schedule report (its table and facts), with at most its first 399 rows
    /// and its last (see [`super::table::SHOWN_ROWS`]).
    pub schedule: Option<ScheduleReport>,
    /// How many of the schedule's rows are left out of [`Drawn::schedule`] (between its last
    /// two), 0 when none.
    pub schedule_rows_left_out: usize,
    /// The page's row for them, between the last two: "… 9,600 more attempts (every one is in
    /// the CSV and JSON downloads)"; `None` when none is left out.
    pub schedule_left_out_note: Option<String>,
    /// "Your policy gives up after X; Svix after Y", when a preset is compared.
    pub compared: Option<String>,
    /// Each storm series.
    pub storms: Vec<StormDrawn>,
    /// The schedule the staleness tolerance and allowed lag suggest (the page's Apply).
    pub suggestion: Option<crate::staleness::Suggestion>,
    /// What the suggestion box lists: the suggestion's findings, or why there is none; empty
    /// hides the box.
    pub suggestion_findings: Vec<String>,
    /// The chart's numbers as a table (for readers who cannot see the chart).
    pub table: super::NumberTable,
}

impl Drawn {
    /// The caption with the comparison's sentence, as the element and the page show it (a
    /// figure's `<desc>` and the element's SVG download had left the comparison out).
    pub fn full_caption(&self) -> String {
        match &self.compared {
            Some(compared) => format!("{} {compared}", self.caption),
            None => self.caption.clone(),
        }
    }
}

fn policy(params: &Params) -> Result<Policy, Error> {
    params.policy()
}

/// The distribution's report for `params` (seed, samples and deadline as given), as the
/// command line's `jitter` answers: a deadline no count of attempts reaches is refused (the JS
/// API answered it in a caption's sentence where the CLI refused it: outside review).
pub fn jitter_report(params: &Params) -> Result<JitterReport, Error> {
    jitter_report_by(params, JitterReport::new)
}

/// The page's: its deadline has a default, so one no count reaches is told in the caption
/// ([`JitterReport::with_deadline_told`]).
fn page_jitter_report(params: &Params) -> Result<JitterReport, Error> {
    jitter_report_by(params, JitterReport::with_deadline_told)
}

type JitterReportFn = fn(
    &Policy,
    Jitter,
    crate::give_up::Sampling,
    Option<(f64, f64)>,
) -> Result<JitterReport, Error>;

fn jitter_report_by(params: &Params, report: JitterReportFn) -> Result<JitterReport, Error> {
    let seed = params.seed()?.unwrap_or_default();
    let (policy, jitter) = (policy(params)?, params.jitter()?);
    report(
        &policy,
        jitter,
        crate::give_up::Sampling {
            samples: params.samples_for(&policy, jitter, crate::give_up::DEFAULT_SAMPLES)?,
            seed,
            bins: HISTOGRAM_BINS,
        },
        params.deadline()?,
    )
}

/// The herd under the chosen jitter and, for comparison, without.
pub fn herds(params: &Params) -> Result<(Herd, Herd), Error> {
    let policy = policy(params)?;
    let seed = params.seed()?.unwrap_or_default();
    let deliveries = params.deliveries()?;
    let spread = crate::herd::herd(&policy, params.jitter()?, deliveries, seed)?;
    let spike = crate::herd::herd(&policy, Jitter::None, deliveries, seed)?;
    Ok((spread, spike))
}

/// The storm chart's series' labels, in the order of its reports.
pub(super) fn storm_labels(settings: &Settings) -> Result<Vec<String>, Error> {
    Ok(storm_scenarios(settings)?
        .into_iter()
        .map(|(label, _, _)| label)
        .collect())
}

/// Every storm series' scenario, checked, with its label and engine.
fn storm_scenarios(settings: &Settings) -> Result<Vec<(String, Scenario, crate::Engine)>, Error> {
    check_arrivals(settings)?;
    storm_series(settings)
        .into_iter()
        .map(|series| {
            let scenario = series.params.scenario()?;
            Ok((series.label, scenario, series.params.engine()?))
        })
        .collect()
}

/// The scenario's limit on deliveries (arrivals × traffic) as a limit on `arrivals`, the rate
/// the reader typed, for the settings' traffic (checked first, and refused as itself: a
/// traffic refused later is refused for its work, see [`storm_error`]). The scenario refuses it in the same words ([`crate::storm::arrivals_range`]) but
/// quotes the rate in per second; here the refusal quotes the rate as it was typed
/// (`1000000/min`).
fn check_arrivals(settings: &Settings) -> Result<(), Error> {
    let text = settings.get("arrivals");
    let traffic_s = crate::Params::traffic_of_text(settings.get("traffic"))?;
    let per_s = crate::NumberInput::Text(text.to_string()).per_second("arrivals")?;
    // A rate that is no number is refused as the scenario refuses it, with its range.
    if per_s.is_finite()
        && per_s > 0.0
        && crate::storm::steady_count(per_s, traffic_s) > crate::storm::MAX_DELIVERIES
    {
        return Err(Error::out_of_range(
            "arrivals",
            text,
            crate::storm::arrivals_range(f64::from(traffic_s), 0.0),
        ));
    }
    Ok(())
}

/// A storm refused for its traffic's work (the discrete engine's limits: deliveries × attempts)
/// is shown next to `arrivals`: the message starts with the rate and the traffic's length as
/// typed, then gives the core's limit.
fn storm_error(error: Error, settings: &Settings) -> PageError {
    match &error {
        Error::OutOfRange { field: "traffic", .. } => PageError {
            chart_limit: false,
            setting: Some("arrivals"),
            message: format!(
                "arrivals {:?} over the storm's {} of traffic is more work than the core does: {error}",
                settings.get("arrivals"),
                settings.get("traffic"),
            ),
        },
        _ => error.into(),
    }
}

/// A compared storm refused where yours ran (for its work: the fixed 30 s interval's retries
/// outnumber a decorrelated schedule's): named as the comparison, with the switch that leaves
/// it out (a compared preset's own, or the fixed interval's and the budget's). It read as a
/// refusal of your arrivals, which your storm had just simulated.
fn compared_storm_error(error: &Error, label: &str, settings: &Settings) -> PageError {
    let switch = match crate::presets::preset(settings.get("compare")) {
        Ok(preset) if preset.title == label => {
            "choose \"no comparison\" in \"Compare the timeline with\" (compare=)".to_string()
        }
        _ => format!("{UNTICK_COMPARE} (storm-compare=false)"),
    };
    PageError::general(format!(
        "the compared storm \"{label}\" could not be simulated: {error}; or {switch} to leave \
         it out"
    ))
}

/// The costly step of `view`. `memo` keeps recent storms: a policy slider re-simulates your
/// policy but not the fixed-interval comparison.
pub fn compute(view: View, settings: &Settings, memo: &mut Memo) -> Result<Computed, PageError> {
    computed(view, settings, memo).map_err(|error| error.quoting(settings).of_chart(settings))
}

fn computed(view: View, settings: &Settings, memo: &mut Memo) -> Result<Computed, PageError> {
    let computed = match view {
        View::Timeline => Computed::Timeline,
        View::Distribution => Computed::Distribution {
            report: Box::new(page_jitter_report(&jitter_params(settings))?),
        },
        View::Herd => {
            let (mut spread, mut spike) = herds(&jitter_params(settings))?;
            // The chart draws the first retries; the whole schedule's bins (up to a million each)
            // would only cost the copy to the page.
            spread.per_second = Vec::new();
            spike.per_second = Vec::new();
            Computed::Herd {
                spread: Box::new(spread),
                spike: Box::new(spike),
            }
        }
        // A chart's worth of minutes: a week of them would only cost the copy to the page.
        View::Storm => Computed::Storm {
            // A traffic that does not read is refused as itself, before its work is.
            reports: crate::Params::traffic_of_text(settings.get("traffic"))
                .map_err(PageError::from)
                .and_then(|_| storm_scenarios(settings).map_err(|e| storm_error(e, settings)))
                .and_then(|scenarios| {
                    scenarios
                        .iter()
                        .enumerate()
                        .map(|(i, (label, scenario, engine))| {
                            memo.simulate(scenario, *engine)
                                .map(|report| report.for_chart(CHART_MINUTES))
                                .map_err(|error| match i {
                                    0 => storm_error(error, settings),
                                    _ => compared_storm_error(&error, label, settings),
                                })
                        })
                        .collect::<Result<_, _>>()
                })?,
        },
        View::Staleness => Computed::Staleness {
            chart: Box::new(super::staleness_chart(settings)?),
        },
        View::Survival => Computed::Survival {
            rows: super::survival_rows(settings)
                .map_err(|error| super::survival_error(error, settings))?,
        },
    };
    Ok(computed)
}

/// Draws `view` from `settings` and what its costly step found, filling `area`; a result
/// holding a number no chart can draw is refused ([`super::check_plotted`]).
pub fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    view: View,
    settings: &Settings,
    computed: &Computed,
    options: &ChartOptions,
) -> Result<Drawn, PageError> {
    // The result may come from outside (the JS API): nothing a chart cannot draw.
    super::check_plotted(computed)?;
    draw_computed(area, view, settings, computed, options)
}

/// [`draw`] for what [`compute`] has just returned, whose numbers are drawable by construction:
/// without the check, which walks the whole result (a sixth of a small chart's drawing).
pub fn draw_computed<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    view: View,
    settings: &Settings,
    computed: &Computed,
    options: &ChartOptions,
) -> Result<Drawn, PageError> {
    drawn(area, view, settings, computed, options).map_err(|error| error.quoting(settings))
}

fn drawn<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    view: View,
    settings: &Settings,
    computed: &Computed,
    options: &ChartOptions,
) -> Result<Drawn, PageError> {
    let drawn = |caption: String| Drawn {
        caption,
        schedule: None,
        schedule_rows_left_out: 0,
        schedule_left_out_note: None,
        compared: None,
        storms: Vec::new(),
        suggestion: None,
        suggestion_findings: Vec::new(),
        table: super::table::computed_table(computed),
    };
    match (view, computed) {
        (View::Timeline, Computed::Timeline) => draw_timeline(area, settings, options),
        (View::Distribution, Computed::Distribution { report }) => {
            chart::distribution::draw(area, report, options)?;
            Ok(drawn(report.caption.clone()))
        }
        (View::Herd, Computed::Herd { spread, spike }) => {
            chart::herd::draw(area, spread, Some(spike), options)?;
            Ok(drawn(spread.caption(Some(spike))))
        }
        (View::Storm, Computed::Storm { reports }) => draw_storm(area, settings, reports, options),
        (View::Staleness, Computed::Staleness { chart }) => {
            chart::staleness::draw(area, chart, options)?;
            Ok(Drawn {
                // Nothing to apply when it is the schedule drawn: the button goes.
                suggestion: chart.report.suggestion.clone().filter(|s| !s.is_current),
                suggestion_findings: chart.report.suggestion_findings(),
                ..drawn(super::staleness::staleness_caption(chart, settings))
            })
        }
        (View::Survival, Computed::Survival { rows }) => {
            super::survival::draw_survival(area, settings, rows, options)
        }
        _ => Err(PageError::general(format!(
            "the {} chart was given another chart's results",
            view.name()
        ))),
    }
}

/// Under the page's jitter, the give-up time the facts' schedule as written does not say: a
/// reader quoted "gives up after 24 h 02 min" where full jitter gives up after 12 h 01 min on
/// average (outside newcomer review). `None` without jitter, or when the jitter cannot apply.
fn jittered_give_up(settings: &Settings) -> Option<String> {
    let params = super::views::jitter_params(settings);
    let (policy, jitter) = (params.policy().ok()?, params.jitter().ok()?);
    if jitter == crate::jitter::Jitter::None || jitter.check_applies_to(&policy).is_err() {
        return None;
    }
    // Words that read the same in a download as on the page (no "see below").
    let with = format!("With {} jitter", jitter.described());
    let rest = "the other facts are the schedule as written, without jitter.";
    Some(match crate::give_up::expected_give_up_s(&policy, jitter) {
        Some(mean) => format!(
            "{with} a delivery gives up after {} on average; {rest}",
            crate::format_duration(mean)
        ),
        // Decorrelated jitter's mean is an estimate by sampling, too costly for the facts,
        // which follow each slider step on the page's thread: the jitter chart's caption has it.
        None => format!(
            "{with} the give-up time varies from delivery to delivery (the jitter chart's \
             caption estimates its average); {rest}"
        ),
    })
}

/// The cap that makes the formula's attempts give up at the deadline the page holds (under
/// Jitter), as `solve-cap` answers it: a reader asking "what cap keeps 24 h with 14 attempts"
/// found no answer on the page (outside newcomer review). A deadline no cap reaches says why, as
/// `solve-cap` does (the fact was left out in silence: outside SRE review). `None` without a
/// deadline, for a list of gaps or a give-up stop, or when the schedule already gives up at it.
fn cap_for_the_deadline(settings: &Settings) -> Option<String> {
    let deadline = settings.get("deadline").trim();
    let deadline_s = crate::parse_duration("deadline", deadline).ok()?;
    let policy = policy_params(settings).policy().ok()?;
    let formula = policy.explicit_gaps().is_none() && settings.get("stop") == "attempts";
    let give_up = policy.schedule().give_up_s();
    let on_it = crate::reaches::reaches(give_up, deadline_s)
        && crate::reaches::reaches(deadline_s, give_up);
    if !formula || on_it {
        return None;
    }
    let deadline = crate::format_duration(deadline_s);
    Some(
        match crate::cap_answer(&policy, deadline_s, policy.attempts()) {
            Ok(answer) => format!(
                "To give up at a {deadline} deadline instead: {}",
                lower_first(answer.trim_end())
            ),
            // The refusal names the deadline as `give-up`, solve-cap's flag: said here of the
            // deadline, as the range it is held to.
            Err(crate::Error::OutOfRange {
                field: "give-up",
                valid,
                ..
            }) => format!(
                "No cap makes these attempts give up at a {deadline} deadline: the deadline \
                 must be {valid}."
            ),
            Err(_) => return None,
        },
    )
}

/// `text` with its first letter in lowercase, to follow a colon.
fn lower_first(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_ascii_lowercase().to_string() + chars.as_str()
    })
}

/// Your policy's schedule and its report as the page shows it, every row included: the
/// schedule's facts with the page's own (the give-up under the page's jitter, the cap for the
/// deadline). The page's CSV, JSON and Markdown downloads write it (a Markdown export had left
/// out the jittered give-up the page showed above it), and the timeline draws it with only the
/// rows it shows written out.
pub fn your_schedule(settings: &Settings) -> Result<(Schedule, ScheduleReport), Error> {
    schedule_and_report(settings, <[crate::Row]>::to_vec)
}

/// [`your_schedule`] with only the rows `pick` picks of the schedule's written out (a copy of
/// every row costs a fraction of writing out their durations).
fn schedule_and_report(
    settings: &Settings,
    pick: impl FnOnce(&[crate::Row]) -> Vec<crate::Row>,
) -> Result<(Schedule, ScheduleReport), Error> {
    let schedule = policy(&policy_params(settings))?.schedule();
    let mut report = ScheduleReport::with_rows(&schedule, DEFAULT_WINDOW_S, &pick(schedule.rows()));
    if let Some(fact) = jittered_give_up(settings) {
        report.facts.insert(1.min(report.facts.len()), fact);
    }
    report.facts.extend(cap_for_the_deadline(settings));
    Ok((schedule, report))
}

fn draw_timeline<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    settings: &Settings,
    options: &ChartOptions,
) -> Result<Drawn, PageError> {
    let mut rows_left_out = 0;
    let (schedule, report) = schedule_and_report(settings, |all| {
        let (shown, left_out) = super::table::shown(all);
        rows_left_out = left_out;
        shown
    })?;
    let preset = crate::presets::preset(settings.get("compare")).ok();
    match &preset {
        Some(preset) => chart::timeline::draw_compared(
            area,
            (&schedule, "your policy"),
            (&preset.policy.schedule(), preset.title),
            options,
        )?,
        None => chart::timeline::draw(area, &schedule, options)?,
    }
    let compared = preset.map(|preset| {
        let attempts = |n: u32| crate::number_text::count_of(u64::from(n), "attempt");
        // Mid-sentence: "; the article's example after", not "; The article's example".
        let title = match preset.title.strip_prefix("The ") {
            Some(rest) => format!("the {rest}"),
            None => preset.title.to_string(),
        };
        format!(
            "Your policy gives up after {} ({}); {title} after {} ({}).",
            crate::format_duration(report.give_up_s),
            attempts(report.attempts),
            crate::format_duration(preset.policy.schedule().give_up_s()),
            attempts(preset.policy.attempts()),
        )
    });
    Ok(Drawn {
        caption: report.caption.clone(),
        table: super::table::shown_schedule_table(&report, rows_left_out),
        schedule: Some(report),
        schedule_rows_left_out: rows_left_out,
        schedule_left_out_note: (rows_left_out > 0).then(|| {
            let note = super::table::left_out_note(rows_left_out);
            format!("{note} (every one is in the CSV and JSON downloads)")
        }),
        compared,
        storms: Vec::new(),
        suggestion: None,
        suggestion_findings: Vec::new(),
    })
}

fn draw_storm<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    settings: &Settings,
    reports: &[StormReport],
    options: &ChartOptions,
) -> Result<Drawn, PageError> {
    let scenarios = storm_scenarios(settings)?;
    if scenarios.len() != reports.len() {
        return Err(PageError::general(
            "the storm chart was given another set of storms".into(),
        ));
    }
    let series: Vec<chart::storm::Series> = scenarios
        .iter()
        .zip(reports)
        .map(|((label, scenario, _), report)| chart::storm::Series {
            label: label.clone(),
            scenario,
            report,
        })
        .collect();
    chart::storm::draw(area, &series, options)?;
    let storms: Vec<StormDrawn> = series
        .iter()
        .map(|s| StormDrawn {
            label: s.label.clone(),
            summary: s.report.summary,
            caption: s.report.caption.clone(),
            outage_s: s.scenario.spec().outage.1,
        })
        .collect();
    let caption = match storms.as_slice() {
        [one] => one.caption.clone(),
        // A storm the same as one before it (a pause holds every policy's retries alike) is
        // named as that one's, not told again: the chart draws it on top of the other.
        many => many
            .iter()
            .enumerate()
            .map(
                |(i, s)| match many[..i].iter().find(|e| e.summary == s.summary) {
                    Some(earlier) => format!(
                        "{}: the same storm as {}, so its lines lie on {}'s.",
                        s.label, earlier.label, earlier.label
                    ),
                    None => format!("{}: {}", s.label, s.caption),
                },
            )
            .collect::<Vec<_>>()
            .join("\n"),
    };
    Ok(Drawn {
        caption,
        table: super::table::storm_table(&storms),
        schedule: None,
        schedule_rows_left_out: 0,
        schedule_left_out_note: None,
        compared: None,
        storms,
        suggestion: None,
        suggestion_findings: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The default settings with `pairs` set.
    fn settings_with(pairs: &[(&str, &str)]) -> Settings {
        let mut settings = Settings::default();
        for (key, value) in pairs {
            settings.set(key, *value);
        }
        settings
    }

    /// The storm's traffic is a setting (it was the article's 2 h, fixed): its length sets how
    /// many deliveries arrive, a link's is checked as the storm checks it, and the survival map,
    /// whose cells set their own, leaves it out.
    #[test]
    fn the_storms_traffic_is_a_setting() {
        let arrivals = |traffic: &str| {
            let mut settings = Settings::default();
            settings.set("traffic", traffic);
            settings.set("engine", "fluid");
            let computed = compute(View::Storm, &settings, &mut Memo::default()).unwrap();
            match computed {
                Computed::Storm { reports } => reports[0].summary.arrivals,
                _ => unreachable!("a storm"),
            }
        };
        assert_eq!(arrivals("2 h"), 72_000.0);
        assert_eq!(arrivals("6h"), 216_000.0);
        // Past 7 days, or under the half second that rounds to one (it was accepted, then
        // refused as too much work under arrivals).
        for (hash, text) in [
            ("#traffic=8d", "8d"),
            ("#traffic=0", "0"),
            ("#traffic=0.4s", "0.4s"),
        ] {
            let link = crate::page::decode_hash(hash);
            assert_eq!(link.settings.get("traffic"), "2 h");
            assert_eq!(
                link.notices,
                [format!(
                    "traffic {text:?} was ignored (a duration from 1 s to 7 days, rounded to whole \
                     seconds (deliveries arrive for at least a second)); using \"2 h\""
                )],
                "{hash}"
            );
        }
        let mut settings = Settings::default();
        settings.set("traffic", "6h");
        crate::page::survival_plan(&settings).expect("the map sets each cell's traffic");
        // Refused as itself, before its work (a raw setting, as a worker may be handed).
        settings.set("traffic", "600/min");
        let refused = compute(View::Storm, &settings, &mut Memo::default()).unwrap_err();
        assert_eq!(refused.setting, Some("traffic"));
    }

    /// The facts under the timeline read the schedule as written; under the page's jitter (full
    /// by default) the second says when a delivery gives up on average (a reader quoted 24 h
    /// where full jitter gives up after 12 h 01 min).
    #[test]
    fn the_timelines_facts_give_the_jittered_give_up() {
        let facts = |pairs: &[(&str, &str)]| {
            let settings = settings_with(pairs);
            let mut drawn = None;
            crate::chart::to_svg((600, 300), |area| {
                drawn = Some(draw(
                    area,
                    View::Timeline,
                    &settings,
                    &Computed::Timeline,
                    &ChartOptions::default(),
                ));
                Ok(())
            })
            .unwrap();
            drawn.unwrap().unwrap().schedule.unwrap().facts
        };
        let full = facts(&[]);
        assert!(full[0].starts_with("Gives up 24 h 02 min"), "{full:?}");
        assert_eq!(
            full[1],
            "With full jitter a delivery gives up after 12 h 01 min on average; the other facts \
             are the schedule as written, without jitter."
        );
        let none = facts(&[("mode", "none")]);
        assert!(!none.iter().any(|f| f.contains("jitter")), "{none:?}");
        // The deadline under Jitter (24 h by default) gets the cap that reaches it, as
        // `solve-cap` says it; a schedule already on it, or no deadline, gets none.
        assert_eq!(
            full.last().unwrap(),
            "To give up at a 24 h deadline instead: a cap of 2 h 59 min \
             42.858 s (10782.858 s) makes 14 attempts reach 24 h."
        );
        let no_deadline = facts(&[("deadline", "")]);
        assert!(
            !no_deadline.iter().any(|f| f.contains("deadline")),
            "{no_deadline:?}"
        );
        let on_it = facts(&[("deadline", "24 h 02 min")]);
        assert!(
            !on_it.iter().any(|f| f.starts_with("To give up")),
            "{on_it:?}"
        );
        let decorrelated = facts(&[("mode", "decorrelated")]);
        assert!(decorrelated[1].contains("varies from delivery to delivery"));
        // A deadline no cap reaches says why (the fact was left out: outside SRE review).
        let short = facts(&[("multiplier", "2"), ("cap", "1h"), ("attempts", "10")]);
        assert_eq!(
            short.last().unwrap(),
            "No cap makes these attempts give up at a 24 h deadline: the deadline must be at most \
             4 h 15 min 30 s, what 10 attempts reach with a 30 s base and ×2 even uncapped (or more \
             attempts, a larger base or a larger multiplier)."
        );
        // Another field's refusal is not the deadline's: no fact (it read "No cap … at a 24 h
        // deadline: it must be a whole number from 2 to 10000").
        let one = facts(&[("attempts", "1")]);
        assert!(!one.iter().any(|f| f.contains("deadline")), "{one:?}");

        // The Markdown of the report the page's downloads write has the facts it shows (it had
        // left out the jittered give-up and the deadline's cap); the e2e test reads the
        // download itself.
        let markdown = your_schedule(&Settings::default()).unwrap().1.to_markdown();
        for fact in &full {
            assert!(markdown.contains(fact.as_str()), "{fact} in {markdown}");
        }
    }

    /// The compared schedule's sentence read "(8 attempts); The article's example after …".
    #[test]
    fn a_compared_presets_title_is_written_mid_sentence() {
        let compared = |preset: &str| {
            let mut settings = Settings::default();
            settings.set("compare", preset);
            let mut drawn = None;
            crate::chart::to_svg((600, 300), |area| {
                let options = ChartOptions::default();
                drawn = Some(draw(
                    area,
                    View::Timeline,
                    &settings,
                    &Computed::Timeline,
                    &options,
                ));
                Ok(())
            })
            .unwrap();
            drawn.unwrap().unwrap().compared.unwrap()
        };
        assert!(
            compared("article")
                .contains("); the article's example after 24 h 02 min (14 attempts)."),
            "{}",
            compared("article")
        );
        assert!(compared("svix").contains("); Svix after 27 h 35 min"));
    }

    /// `#base=1s&cap=10s` lost its jitter chart to "deadline must be at most 13 h 45 min": the
    /// page's default 24 h deadline, which its reader never set, is out of that schedule's
    /// reach. The chart is drawn and its caption says so; a deadline out of its own range is
    /// still refused.
    #[test]
    fn a_deadline_out_of_reach_is_told_in_the_caption_not_refused() {
        let report = |pairs: &[(&str, &str)]| {
            let settings = settings_with(pairs);
            match compute(View::Distribution, &settings, &mut Memo::default()) {
                Ok(Computed::Distribution { report }) => Ok(report),
                Ok(_) => panic!("not a distribution"),
                Err(error) => Err(error.message),
            }
        };
        let short = report(&[("base", "1s"), ("cap", "10s")]).unwrap();
        assert!(short.deadline_safe.is_none());
        assert!(
            short.caption.ends_with(
                "No count of attempts keeps 95% of deliveries trying until 24 h: even 10,000 \
                 attempts give up by 13 h 45 min at the 5th percentile (a longer cap reaches \
                 further)."
            ),
            "{}",
            short.caption
        );
        let within = report(&[("base", "1s"), ("cap", "10s"), ("deadline", "1h")]).unwrap();
        assert!(within.deadline_safe.is_some_and(|d| d.attempts > 360));
        let refused = report(&[("base", "1s"), ("cap", "10s"), ("deadline", "400d")]);
        assert!(
            refused
                .as_ref()
                .is_err_and(|m| m.starts_with("deadline must be")),
            "{refused:?}"
        );
    }

    fn storm_with(pairs: &[(&str, &str)]) -> PageError {
        let mut settings = Settings::default();
        for (key, value) in pairs {
            settings.set(key, *value);
        }
        match compute(View::Storm, &settings, &mut Memo::default()) {
            Err(error) => error,
            Ok(_) => panic!("{pairs:?} was computed"),
        }
    }

    /// Words in a number field are quoted in the refusal as typed, not as the NaN the core was
    /// given, whether the refusal comes from computing (the distribution, the storm) or from
    /// drawing (the timeline); a typed "NaN" stays NaN.
    #[test]
    fn words_in_a_number_field_are_quoted_as_typed() {
        let mut settings = Settings::default();
        settings.set("multiplier", " three ");
        let mut memo = Memo::default();
        for view in [View::Distribution, View::Storm] {
            let error = compute(view, &settings, &mut memo).unwrap_err();
            assert_eq!(error.setting, Some("multiplier"));
            assert_eq!(
                error.message,
                "multiplier must be a number from 1 to 1000, got \"three\""
            );
        }
        let drawn = crate::chart::to_svg((600, 300), |area| {
            draw(
                area,
                View::Timeline,
                &settings,
                &Computed::Timeline,
                &ChartOptions::default(),
            )
            .map(|_| ())
            .map_err(|e| Error::Unreachable(e.message))
        });
        assert!(
            drawn.unwrap_err().to_string().ends_with("got \"three\""),
            "the timeline"
        );
        settings.set("multiplier", "NaN");
        let error = compute(View::Distribution, &settings, &mut memo).unwrap_err();
        assert!(error.message.ends_with("got NaN"), "{}", error.message);
        // A percentage too (it read "got NaN%").
        let mut settings = Settings::default();
        settings.set("budget", "abc");
        let error = compute(View::Storm, &settings, &mut memo).unwrap_err();
        assert_eq!(error.setting, Some("budget"));
        assert!(error.message.ends_with("got \"abc\""), "{}", error.message);
    }

    /// The storm's traffic lasts 2 h whatever the settings say: too many arrivals are refused
    /// by that name, with the rate the limit allows, and not as `traffic`, which nothing is called.
    #[test]
    fn too_many_arrivals_are_refused_as_arrivals_with_their_range() {
        let error = storm_with(&[("arrivals", "1000000/s")]);
        assert_eq!(error.setting, Some("arrivals"));
        assert_eq!(
            error.message,
            "arrivals must be a rate that brings at most 10000000 deliveries over the storm's 2 h of \
             traffic (up to about 83333/min), got 1000000/s"
        );
        let mut settings = Settings::default();
        settings.set("arrivals", "83333/min");
        settings.set("storm-compare", "false");
        settings.set("engine", "fluid");
        check_arrivals(&settings).expect("the rate the message allows");
        // Counted as the storm counts them, rounded: 1388.889/s over 2 h is 10,000,000.8
        // deliveries, 10,000,001, refused here as typed (a cut count let it through to the
        // scenario, which quotes the rate per second).
        let error = storm_with(&[("arrivals", "1388.889/s")]);
        assert!(
            error.message.ends_with("got 1388.889/s"),
            "{}",
            error.message
        );
    }

    /// A pause holds every policy's retries alike: the compared storms are the same as yours,
    /// and the caption names them as such instead of telling the same storm three times.
    #[test]
    fn compared_storms_the_same_as_yours_are_named_so() {
        let caption_of = |settings: &Settings| {
            let computed = compute(View::Storm, settings, &mut Memo::default()).unwrap();
            let mut caption = String::new();
            crate::chart::to_svg((800, 400), |area| {
                let options = ChartOptions::default();
                caption = draw(area, View::Storm, settings, &computed, &options)
                    .unwrap()
                    .caption;
                Ok(())
            })
            .unwrap();
            caption
        };
        let mut settings = Settings::default();
        settings.set("pause", "true");
        settings.set("storm-compare", "true");
        let caption = caption_of(&settings);
        let lines: Vec<&str> = caption.lines().collect();
        assert_eq!(lines.len(), 3, "{lines:?}");
        assert!(
            lines[0].starts_with("your policy: A 10 min outage"),
            "{lines:?}"
        );
        assert_eq!(
            lines[1],
            "fixed 30 s: the same storm as your policy, so its lines lie on your policy's."
        );
        assert_eq!(
            lines[2],
            "your policy + 10% budget: the same storm as your policy, so its lines lie on your policy's."
        );
        // Without the pause the three differ and each is told.
        settings.set("pause", "false");
        let caption = caption_of(&settings);
        assert!(!caption.contains("the same storm"), "{caption}");
    }

    /// A comparison past the discrete engine's work where your storm runs (decorrelated jitter
    /// retries less than the fixed 30 s interval) was refused as your arrivals: it is named as
    /// the comparison, with the switch that leaves it out.
    #[test]
    fn a_compared_storm_past_the_limit_is_named_as_the_comparison() {
        let error = storm_with(&[
            ("arrivals", "30000/min"),
            ("engine", "discrete"),
            ("mode", "decorrelated"),
            ("outage", "2h"),
        ]);
        assert_eq!(error.setting, None, "{}", error.message);
        assert!(
            error
                .message
                .starts_with("the compared storm \"fixed 30 s\" could not be simulated: ")
                && error
                    .message
                    .ends_with("(storm-compare=false) to leave it out"),
            "{}",
            error.message
        );
        // A compared preset is left out by its own switch.
        let error = storm_with(&[
            ("arrivals", "80000/min"),
            ("engine", "discrete"),
            ("base", "1h"),
            ("multiplier", "1"),
            ("cap", "1h"),
            ("attempts", "2"),
            ("outage", "6h"),
            ("storm-compare", "false"),
            ("compare", "article"),
        ]);
        assert!(
            error.message.starts_with(
                "the compared storm \"The article's example\" could not be simulated: "
            ) && error.message.ends_with(
                "; or choose \"no comparison\" in \"Compare the timeline with\" (compare=) to \
                 leave it out"
            ),
            "{}",
            error.message
        );
    }

    /// The discrete engine's work limit names arrivals first, then the core's limit; where the
    /// schedule is too long for the fluid engine, the attempts, with the most it runs.
    #[test]
    fn the_discrete_engines_limit_is_shown_next_to_arrivals() {
        let error = storm_with(&[
            ("arrivals", "1000/s"),
            ("attempts", "200"),
            ("engine", "discrete"),
        ]);
        assert_eq!(error.setting, Some("arrivals"), "{}", error.message);
        assert!(
            error.message.starts_with(
                "arrivals \"1000/s\" over the storm's 2 h of traffic is more work than the core \
                 does: traffic must be at most 1,000,000,000 attempts at worst for the discrete engine"
            ),
            "{}",
            error.message
        );
        let error = storm_with(&[
            ("arrivals", "1000/s"),
            ("attempts", "10000"),
            ("engine", "discrete"),
        ]);
        assert_eq!(error.setting, Some("attempts"), "{}", error.message);
        assert!(
            error
                .message
                .contains("for this storm on the fluid or auto engine"),
            "{}",
            error.message
        );
    }
}
