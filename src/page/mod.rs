//! The explorer page's state as a value, and everything the page derives from it. The page's
//! JavaScript only wires the DOM: it reads its controls into [`Settings`], asks this module what
//! to draw, and writes back what it says.
//!
//! - [`Settings`]: every control's value as text, keyed as in the URL hash; [`decode_hash`] and
//!   [`encode_hash`] read and write the hash, never failing on garbage (notices instead).
//! - [`resolve`] completes a short preset link; [`edited`] says what changing a control does to
//!   the others (a preset chosen or left).
//! - [`View`]: the four charts; [`compute`] is each one's costly step (run in a worker),
//!   [`draw`] draws it from the result, on any plotters backend.
//! - [`embed_snippet`]: the `<iframe>` for a chart with the current settings.

mod attributes;
mod compute;
mod file_name;
mod packed;
mod plotted;
mod resolve;
mod settings;
mod slider;
mod staleness;
mod survival;
mod table;
mod views;

pub use attributes::{element_state, AttributeError, ElementState, CLI_ONLY_FLAGS, OWN_ATTRIBUTES};
pub use compute::{
    compute, draw, draw_computed, herds, jitter_report, your_schedule, Computed, Drawn, StormDrawn,
};
pub use file_name::file_stem;
pub use packed::{pack, unpack};
pub use plotted::{check_plotted, MAX_PLOTTED};
pub use resolve::{duration_text, edited, preset_settings, resolve};
pub use settings::{decode_hash, encode_hash, DecodedState, Settings, MAX_HASH_LEN};
pub use slider::{slider_position, slider_position_in, slider_stops, slider_text};
pub use staleness::{
    apply_suggestion, chart_of as staleness_chart_of, staleness_chart, staleness_export,
};
pub use survival::{
    checked_survival_plan, survival_axes_errors, survival_error, survival_plan, survival_rows,
};
pub use table::{view_csv, NumberTable};
pub use views::{
    gap_list, inactive_controls, inactive_fields, inactive_notices, jitter_params, policy_params,
    staleness_params, storm_series, InactiveControl, StormSeries, View,
};

use serde::Serialize;

use crate::Error;

/// The controls the schedule (and its timeline) is made from, as the page names its errors.
const SCHEDULE_SETTINGS: [&str; 7] = [
    "base",
    "multiplier",
    "cap",
    "gaps",
    "stop",
    "attempts",
    "give-up",
];

/// A refusal as the page shows it: next to the control it is about (`setting`, a hash key), or
/// above the form when it is about none.
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PageError {
    /// The control's setting key (`base`, `rate-limit`, ...), if the error is about one.
    pub setting: Option<&'static str>,
    /// The message, naming the field and its valid range.
    pub message: String,
    /// A chart's own limit on a control the schedule reads, whose value the schedule takes
    /// (10,000 attempts, too many for the survival map's work): the page notes it beside the
    /// control without marking the value as one to fix, since every other chart is drawn with
    /// it ([`PageError::of_chart`]).
    #[serde(rename = "chartLimit")]
    pub chart_limit: bool,
}

impl PageError {
    /// An error about no control in particular.
    pub fn general(message: String) -> Self {
        PageError {
            setting: None,
            message,
            chart_limit: false,
        }
    }

    /// This error as a chart's refusal: a [chart limit](PageError::chart_limit) when it is
    /// about a control the schedule reads and the schedule takes `settings` (a schedule that
    /// refuses them is refused by the timeline too, as a value to fix).
    pub fn of_chart(mut self, settings: &Settings) -> Self {
        self.chart_limit = self
            .setting
            .is_some_and(|key| SCHEDULE_SETTINGS.contains(&key))
            && policy_params(settings).policy().is_ok();
        self
    }

    /// The message with what its control holds in place of "NaN": a number field holding words
    /// (`three` for the multiplier) reaches the core as NaN, and "got NaN" would not say what
    /// was typed.
    pub fn quoting(mut self, settings: &Settings) -> Self {
        let Some(key) = self.setting else { return self };
        let typed = settings.get(key).trim();
        if typed.parse::<f64>().is_ok() {
            return self;
        }
        // A percentage's refusal writes its value with its sign: "got NaN%".
        let range = (self.message.strip_suffix(", got NaN"))
            .or_else(|| self.message.strip_suffix(", got NaN%"));
        if let Some(range) = range {
            let typed = crate::error::quoted(typed);
            self.message = format!("{range}, got {typed}");
        }
        self
    }
}

impl From<Error> for PageError {
    fn from(error: Error) -> Self {
        let field = match &error {
            Error::OutOfRange { field, .. } | Error::BadDuration { field, .. } => Some(*field),
            _ => None,
        };
        // The core's fields the page shows next to another control.
        let setting = field.and_then(|field| match field {
            "horizon" => Some("outage"),
            "interval" => Some("base"),
            "then-every" => Some("gaps"),
            "give-up" => Some("give-up"),
            other => settings::key(other),
        });
        PageError {
            setting,
            message: error.to_string(),
            chart_limit: false,
        }
    }
}

/// The `<iframe>` snippet showing `view` with `settings`, for the embed page at `embed_url`
/// (its address without a hash), followed by the `<script>` of `embed-host.js` beside it, which
/// sizes the iframe to its content (without it the iframe keeps its height; a comment says it
/// is needed once per page, and a second copy adds nothing). It is text for the
/// user to paste elsewhere: the page shows it only as a form field's value.
///
/// # Example
/// ```
/// use backoff_lab::page::{embed_snippet, Settings, View};
/// let mut settings = Settings::default();
/// settings.set("preset", "svix");
/// let snippet = embed_snippet(&settings, View::Storm, "https://docs.example.com/embed.html");
/// assert!(snippet.starts_with(r#"<iframe src="https://docs.example.com/embed.html#preset=svix&amp;view=storm""#));
/// assert!(snippet.ends_with(r#"<script src="https://docs.example.com/embed-host.js" defer></script>"#));
/// assert!(!snippet.contains("style="));
/// assert!(snippet.contains(r#"height="640""#));
/// ```
pub fn embed_snippet(settings: &Settings, view: View, embed_url: &str) -> String {
    // The view goes last and explicitly, so that the link says which chart it shows.
    let mut shared = settings.clone();
    shared.set("view", "timeline");
    shared.set("section", "schedule");
    let state = encode_hash(&shared);
    let separator = if state.is_empty() { "" } else { "&" };
    let src = format!("{embed_url}#{state}{separator}view={}", view.name());
    let folder = embed_url.rsplit_once('/').map_or("", |(folder, _)| folder);
    // No border by an attribute, not an inline style: a host page whose CSP allows styles from
    // its own files only (`style-src 'self'`) refuses `style="border:0"`, and kept the border.
    format!(
        "<iframe src=\"{}\" width=\"100%\" height=\"{}\" frameborder=\"0\" loading=\"lazy\" title=\"{}\"></iframe>\n\
         <!-- once per page, for every backoff-lab iframe on it: sizes each to its chart (without it, each keeps the height above) -->\n\
         <script src=\"{}\" defer></script>",
        crate::chart::escaped(&src),
        view.embed_height(),
        crate::chart::escaped(&format!("backoff-lab: {}", view.title())),
        crate::chart::escaped(&format!("{folder}/embed-host.js")),
    )
}

/// The settings of a quicker first run of `view`, when its full run is large enough to be worth
/// one: 20,000 sampled give-up times instead of more, 100,000 deliveries in a herd instead of
/// more, 250 sampled schedules for staleness under jitter instead of the page's 20,000 or more
/// (a curve as the full run draws it, a little rougher, in a fraction of the time). The page
/// draws it first and the full result when it comes.
pub fn preview(view: View, settings: &Settings) -> Option<Settings> {
    let (key, small) = match view {
        View::Distribution => ("samples", 20_000.0),
        View::Herd => ("deliveries", 100_000.0),
        View::Staleness if settings.get("mode") != "none" => ("samples", STALENESS_PREVIEW_SAMPLES),
        View::Timeline | View::Storm | View::Staleness | View::Survival => return None,
    };
    let full: f64 = settings.get(key).trim().parse().ok()?;
    (full > small && !refused_for_its_work(view, settings)).then(|| {
        let mut smaller = settings.clone();
        smaller.set(key, format!("{small}"));
        smaller
    })
}

/// Whether the full run of `view` is refused before its first draw, for its samples or
/// deliveries (their range, or their work past [`crate::limits::MAX_DRAWS`]): a quicker first
/// run would draw a chart of inputs the page cannot draw, captioned with its smaller count
/// (outside review: a link of 1,000,000 samples of 10,000 attempts showed 20,000 draws, with a
/// note calling them the last inputs drawn).
fn refused_for_its_work(view: View, settings: &Settings) -> bool {
    use crate::limits::{check_draws, Draws};
    if view == View::Staleness {
        // As the page's run asks it: one outage read off (`read-outage`), not the ladder.
        return staleness::read_off_params(settings)
            .check_staleness_work()
            .is_err();
    }
    let params = jitter_params(settings);
    let (Ok(policy), Ok(jitter)) = (params.policy(), params.jitter()) else {
        return false;
    };
    match view {
        View::Distribution => params
            .samples_for(&policy, jitter, crate::give_up::DEFAULT_SAMPLES)
            .is_err(),
        View::Herd => params.deliveries().map_or(true, |deliveries| {
            check_draws(
                "deliveries",
                deliveries,
                policy.attempts(),
                jitter,
                Draws::Herd,
            )
            .is_err()
        }),
        View::Timeline | View::Staleness | View::Storm | View::Survival => false,
    }
}

/// The sampled schedules of the staleness chart's quicker first run.
const STALENESS_PREVIEW_SAMPLES: f64 = 250.0;

/// The most work a first run drawn on the page itself may cost, in units of
/// [`crate::limits::MAX_DRAWS`]: under a millisecond in wasm.
const INSTANT_DRAWS: f64 = 3e5;

/// The fewest sampled schedules worth drawing at once: fewer draw a curve too rough to show.
const INSTANT_FEWEST: usize = 40;

/// The settings of a first run of `view` cheap enough to compute and draw on the page itself,
/// within the input's frame (a worker's round trip costs more than the run): the staleness
/// chart under jitter, with as many sampled schedules as [`INSTANT_DRAWS`] of work allows, at
/// most the quicker first run's 250. `None` for the other charts, and when fewer than 40 would
/// fit (a long schedule): then the worker's quicker first run comes first.
pub fn instant(view: View, settings: &Settings) -> Option<Settings> {
    let preview = preview(view, settings).filter(|_| view == View::Staleness)?;
    let question = views::staleness_params(settings)
        .staleness_question()
        .ok()?;
    let outages =
        crate::staleness::curve_outages(&question, crate::staleness::curve_span(&question)).len();
    let samples = crate::limits::affordable_samples(
        question.policy().attempts(),
        question.jitter(),
        crate::limits::Draws::Staleness { outages },
        INSTANT_DRAWS / crate::limits::MAX_DRAWS,
        (0, STALENESS_PREVIEW_SAMPLES as usize),
    );
    (samples >= INSTANT_FEWEST).then(|| {
        let mut instant = preview;
        instant.set("samples", samples.to_string());
        // Without the derived schedule: under jitter it is sized on the give-up time's exact
        // distribution, tens of milliseconds (outside code review); the worker's runs bring it,
        // and the page keeps the one it shows until then.
        instant.set("max-lag", "");
        instant
    })
}

/// The most random draws (in [`crate::limits::delivery_cost`] units, about 2 ns each in wasm)
/// a chart computed on the page's own thread may take: about 2-4 ms with the rest of its work.
const INLINE_DRAWS: f64 = 1e6;

/// The longest schedule cheap enough for the page's own thread: the exact give-up distribution's
/// convolution grows with the attempts (12 ms at 200 in wasm), and so does a herd's unjittered
/// schedule and the span its histograms cover (up to 100,000 bins each).
const INLINE_ATTEMPTS: u32 = 64;

/// Whether `view`'s costly step is cheap enough to run on the page's own thread: then the page
/// computes it there, at once, instead of paying a worker's round trip (and, on a cold load, a
/// worker's start: about 100 ms). The distribution (without decorrelated jitter, whose estimate
/// samples on its own) and the herd of a schedule of at most 64 attempts, when their draws cost
/// at most [`INLINE_DRAWS`]; the timeline, which computes nothing (its schedule is drawn from
/// the settings); invalid settings are left to the worker, which reports them as always. A
/// deadline's sizing (a few coarse convolutions) stays within 8 ms in wasm for every deadline up to
/// a year, refusals included.
///
/// # Example
/// ```
/// use backoff_lab::page::{computes_inline, decode_hash, View};
/// let default = decode_hash("").settings;
/// assert!(computes_inline(View::Distribution, &default));
/// assert!(!computes_inline(View::Storm, &default));
/// assert!(!computes_inline(View::Distribution, &decode_hash("#samples=1000000").settings));
/// // The element asks for every chart: a timeline starts no worker.
/// assert!(computes_inline(View::Timeline, &decode_hash("#attempts=10000").settings));
/// ```
pub fn computes_inline(view: View, settings: &Settings) -> bool {
    use crate::limits::{delivery_cost, Draws};
    if view == View::Timeline {
        return true;
    }
    let params = jitter_params(settings);
    let (Ok(policy), Ok(jitter)) = (params.policy(), params.jitter()) else {
        return false;
    };
    let attempts = policy.attempts();
    if attempts > INLINE_ATTEMPTS {
        return false;
    }
    let (count, draws) = match view {
        View::Distribution if matches!(jitter, crate::jitter::Jitter::Decorrelated) => {
            return false
        }
        View::Distribution => (
            params.samples_for(&policy, jitter, crate::give_up::DEFAULT_SAMPLES),
            Draws::GiveUpTimes,
        ),
        View::Herd => (params.deliveries(), Draws::Herd),
        View::Storm | View::Staleness | View::Survival | View::Timeline => return false,
    };
    count.is_ok_and(|count| count as f64 * delivery_cost(attempts, jitter, draws) <= INLINE_DRAWS)
}

/// The most attempts whose render the page does in the input's own task. A longer schedule's
/// render (its rows, its table and its timeline's thousands of marks: 30 to 110 ms on a busy
/// two-core machine for 10,000 attempts) runs after the browser has painted the input itself
/// (the slider's thumb and its field), so that the input is answered at once.
pub const RENDERED_IN_THE_INPUTS_TASK: u32 = 1_000;

/// Whether an input that leads to `settings` is painted before the page renders them: a
/// schedule of more than [`RENDERED_IN_THE_INPUTS_TASK`] attempts. Invalid settings render at
/// once (their refusals are quick).
///
/// # Example
/// ```
/// use backoff_lab::page::{decode_hash, renders_after_paint};
/// assert!(!renders_after_paint(&decode_hash("").settings));
/// assert!(!renders_after_paint(&decode_hash("#attempts=1000").settings));
/// assert!(renders_after_paint(&decode_hash("#attempts=1001").settings));
/// // A deadline that makes many attempts: 1 s apart for 2 hours.
/// assert!(renders_after_paint(&decode_hash("#base=1s&multiplier=1&cap=1s&stop=give-up&give-up=2h").settings));
/// ```
pub fn renders_after_paint(settings: &Settings) -> bool {
    jitter_params(settings)
        .policy()
        .is_ok_and(|policy| policy.attempts() > RENDERED_IN_THE_INPUTS_TASK)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with(pairs: &[(&str, &str)]) -> Settings {
        Settings::with(pairs)
    }

    /// A quicker first run is offered only where the full run is not refused for its work:
    /// otherwise it would draw a chart of inputs the page cannot draw.
    #[test]
    fn no_quicker_first_run_of_a_run_refused_for_its_work() {
        type Case<'a> = (View, &'a [(&'a str, &'a str)], bool);
        let cases: [Case; 10] = [
            (View::Distribution, &[("samples", "1000000")], true),
            (
                View::Distribution,
                &[("samples", "1000000"), ("attempts", "10000")],
                false,
            ),
            (
                View::Distribution,
                &[("samples", "200020"), ("attempts", "10000")],
                true,
            ),
            (View::Herd, &[("deliveries", "1000000")], true),
            (
                View::Herd,
                &[("deliveries", "1000000"), ("attempts", "2001")],
                false,
            ),
            (View::Herd, &[("deliveries", "20000000")], false),
            (View::Staleness, &[("samples", "100000")], true),
            // Its report reads off one outage (`read-outage`), not the ladder: within the work.
            (
                View::Staleness,
                &[("samples", "100000"), ("attempts", "4900")],
                true,
            ),
            (
                View::Staleness,
                &[("samples", "100000"), ("attempts", "10000")],
                false,
            ),
            // The page draws at most 100,000 schedules of a million: within the work.
            (View::Staleness, &[("samples", "1000000")], true),
        ];
        for (view, pairs, offered) in cases {
            let settings = with(pairs);
            assert_eq!(
                preview(view, &settings).is_some(),
                offered,
                "{view:?} {pairs:?}"
            );
            if !offered {
                let refused = compute(view, &settings, &mut crate::storm::Memo::default());
                assert!(
                    refused.is_err(),
                    "{view:?} {pairs:?}: the full run is refused"
                );
            }
        }
    }

    /// A thousand attempts reach the page as the first 399 rows, a note of the 600 left out
    /// and the give-up's row; the CSV download still has every one.
    #[test]
    fn a_long_schedule_carries_its_first_rows_and_its_last_to_the_page() {
        let settings = with(&[("attempts", "1000")]);
        let mut drawn = None;
        crate::chart::to_svg((800, 400), |area| {
            let options = crate::chart::ChartOptions::default();
            let result = draw(
                area,
                View::Timeline,
                &settings,
                &Computed::Timeline,
                &options,
            );
            drawn = Some(result.expect("the default timeline with 1000 attempts"));
            Ok(())
        })
        .expect("drawn");
        let drawn = drawn.expect("drawn");
        let schedule = drawn.schedule.expect("the timeline's schedule");
        let attempts: Vec<u32> = schedule.rows.iter().map(|row| row.attempt).collect();
        assert_eq!(attempts.len(), 400);
        assert_eq!((attempts[398], attempts[399]), (399, 1000));
        assert_eq!(drawn.schedule_rows_left_out, 600);
        assert_eq!(
            drawn.schedule_left_out_note.as_deref(),
            Some("… 600 more attempts (every one is in the CSV and JSON downloads)")
        );
        assert_eq!(
            schedule.attempts, 1000,
            "the report's own numbers are the whole schedule's"
        );
        let table = &drawn.table;
        assert_eq!(table.rows.len(), 401);
        assert_eq!(table.rows[399][0], "… 600 more attempts");
        assert_eq!(super::table::left_out_note(9_600), "… 9,600 more attempts");
        assert_eq!(table.rows[400][0], "1000");
        let csv = view_csv(View::Timeline, &settings, &Computed::Timeline, table)
            .expect("the schedule's CSV");
        assert_eq!(csv.lines().count(), 1 + 1000, "a header and every attempt");
        assert!(csv.lines().nth(500).unwrap().starts_with("500,"), "{csv}");
        // A short schedule comes whole.
        let short = with(&[("attempts", "400")]);
        crate::chart::to_svg((800, 400), |area| {
            let options = crate::chart::ChartOptions::default();
            let drawn = draw(area, View::Timeline, &short, &Computed::Timeline, &options).unwrap();
            assert_eq!(drawn.schedule.unwrap().rows.len(), 400);
            assert_eq!(
                (drawn.schedule_rows_left_out, drawn.table.rows.len()),
                (0, 400)
            );
            // Its CSV is the whole schedule's, made again: the shown rows carry no numbers for
            // a spreadsheet of their own across to the page.
            assert!(drawn.table.data.is_none());
            let csv = view_csv(View::Timeline, &short, &Computed::Timeline, &drawn.table).unwrap();
            assert_eq!(csv.lines().nth(2), Some("2,30,30"), "{csv}");
            assert_eq!(csv.lines().count(), 1 + 400);
            Ok(())
        })
        .expect("drawn");
    }

    /// The staleness chart under jitter gets a first run drawn on the page, of at most the
    /// preview's 250 schedules and within its work; nothing else does, nor a long schedule.
    #[test]
    fn only_a_cheap_jittered_staleness_chart_is_drawn_at_once() {
        let jittered = with(&[("mode", "full")]);
        let instant = instant(View::Staleness, &jittered).expect("the default policy, jittered");
        let samples: usize = instant.get("samples").parse().unwrap();
        assert!((INSTANT_FEWEST..=250).contains(&samples), "{samples}");
        let question = views::staleness_params(&instant)
            .staleness_question()
            .unwrap();
        let outages =
            crate::staleness::curve_outages(&question, crate::staleness::curve_span(&question))
                .len();
        let cost = crate::limits::delivery_cost(
            question.policy().attempts(),
            question.jitter(),
            crate::limits::Draws::Staleness { outages },
        );
        assert!(samples as f64 * cost <= INSTANT_DRAWS, "{samples} × {cost}");
        assert_eq!(instant.get("mode"), "full", "the rest of the settings kept");
        // No derived schedule on the page's thread: under jitter it takes tens of milliseconds.
        assert_eq!(instant.get("max-lag"), "");
        assert!(views::staleness_params(&instant).max_lag.is_none());

        for view in [
            View::Timeline,
            View::Distribution,
            View::Herd,
            View::Storm,
            View::Survival,
        ] {
            assert!(instant_is_none(view, &jittered), "{view:?}");
        }
        assert!(instant_is_none(View::Staleness, &with(&[("mode", "none")])));
        assert!(instant_is_none(
            View::Staleness,
            &with(&[
                ("mode", "full"),
                ("attempts", "10000"),
                ("stop", "attempts")
            ])
        ));
    }

    fn instant_is_none(view: View, settings: &Settings) -> bool {
        instant(view, settings).is_none()
    }
}
