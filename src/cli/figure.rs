//! `backoff-lab figure`: a chart as SVG, drawn by the same Rust function as the page, for
//! documentation.

use backoff_lab::chart::{self, figure_size, ChartOptions, MAX_SIDE, MIN_HEIGHT, MIN_WIDTH};
use backoff_lab::give_up::{JitterReport, Sampling, HISTOGRAM_BINS};
use backoff_lab::herd::herd;
use backoff_lab::jitter::Jitter;
use backoff_lab::{Error, Params, Purpose};
use clap::{Args, ValueEnum};

use super::args::{count_number, number, MapAxesFlags, StormFlags};

pub(super) const EXAMPLES: &str = "\
Examples:
  backoff-lab figure timeline --base 30s --multiplier 3 --cap 3h --attempts 14 > timeline.svg
  backoff-lab figure timeline --preset svix --log-scale=false > svix-linear.svg
  backoff-lab figure distribution --base 30s --multiplier 3 --cap 3h --attempts 14 --mode full --seed 42 > distribution.svg
  backoff-lab figure herd --mode full --seed 42 > herd.svg
  backoff-lab figure storm --budget 10% --height 420 > storm.svg
  backoff-lab figure staleness --preset article --tolerance 6h --outage 4h --compare svix --height 420 > staleness.svg
  backoff-lab figure survival --policy exponential --mode full --steps 24x16 --height 460 > survival.svg

Each chart reads what its command reads, and refuses a flag it does not read, by name:
  timeline      the policy, as `schedule` (and --log-scale)
  distribution  the policy and its jitter, as `jitter` (and --samples)
  herd          the policy and its jitter, as `herd` (and --deliveries)
  storm         the storm's flags, as `storm`
  staleness     the policy, its jitter and the outage, as `staleness` (and --tolerance, --max-lag,
                --compare, --samples)
  survival      the storm's flags and the map's axes, as `survival`
Every chart takes --width, --height, --dark and --background.";

/// The charts `figure` draws.
#[derive(Clone, Copy, PartialEq, ValueEnum)]
enum FigureKind {
    Timeline,
    Distribution,
    Herd,
    Storm,
    Staleness,
    Survival,
}

impl FigureKind {
    const ALL: [FigureKind; 6] = [
        FigureKind::Timeline,
        FigureKind::Distribution,
        FigureKind::Herd,
        FigureKind::Storm,
        FigureKind::Staleness,
        FigureKind::Survival,
    ];

    /// What the chart reads its parameters for.
    fn purpose(self) -> Purpose {
        match self {
            FigureKind::Timeline => Purpose::Schedule,
            FigureKind::Distribution => Purpose::GiveUp,
            FigureKind::Herd => Purpose::Herd,
            FigureKind::Storm => Purpose::Storm,
            FigureKind::Staleness => Purpose::Staleness,
            FigureKind::Survival => Purpose::SurvivalMap,
        }
    }

    fn name(self) -> &'static str {
        match self {
            FigureKind::Timeline => "timeline",
            FigureKind::Distribution => "distribution",
            FigureKind::Herd => "herd",
            FigureKind::Storm => "storm",
            FigureKind::Staleness => "staleness",
            FigureKind::Survival => "survival",
        }
    }

    /// The chart's title: the page's own for the view.
    fn title(self) -> &'static str {
        use backoff_lab::page::View;
        match self {
            FigureKind::Timeline => View::Timeline,
            FigureKind::Distribution => View::Distribution,
            FigureKind::Herd => View::Herd,
            FigureKind::Storm => View::Storm,
            FigureKind::Staleness => View::Staleness,
            FigureKind::Survival => View::Survival,
        }
        .title()
    }
}

/// "storm", "storm and survival", "herd, storm and survival".
fn listed(kinds: &[FigureKind]) -> String {
    let names: Vec<&str> = kinds.iter().map(|kind| kind.name()).collect();
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => names.concat(),
    }
}

/// The default count of give-up times sampled for the distribution.
const SAMPLES: usize = 100_000;
/// The default count of deliveries in the herd.
const DELIVERIES: &str = "1000";

/// The formats `figure` writes (one, for now).
#[derive(Clone, Copy, PartialEq, ValueEnum)]
enum FigureFormat {
    Svg,
}

/// The flags of `figure`.
#[derive(Args)]
pub(super) struct FigureArgs {
    /// Which chart.
    #[arg(value_enum)]
    kind: FigureKind,
    #[command(flatten)]
    scenario: StormFlags,
    /// Give-up times sampled for the distribution (by default 100000, or as many as the work
    /// limit allows when that is fewer); jittered schedules drawn for staleness (1 to 100000,
    /// 20000 by default), as `staleness --samples`.
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    samples: Option<String>,
    /// Deliveries in the herd.
    #[arg(
        long,
        value_name = "N",
        default_value = DELIVERIES,
        allow_hyphen_values = true
    )]
    deliveries: String,
    /// Width in pixels (240 to 4000).
    #[arg(
        long,
        value_name = "PIXELS",
        default_value = "900",
        allow_hyphen_values = true
    )]
    width: String,
    /// Height in pixels (160 to 4000).
    #[arg(
        long,
        value_name = "PIXELS",
        default_value = "320",
        allow_hyphen_values = true
    )]
    height: String,
    /// Colours for a dark page.
    #[arg(long)]
    dark: bool,
    /// The page's background behind the chart, for a site whose page is not white (with
    /// --dark, not near-black): #rrggbb, #rgb or rgb(r, g, b).
    #[arg(long, value_name = "COLOUR", allow_hyphen_values = true)]
    background: Option<String>,
    /// A logarithmic time axis (timeline): on unless --log-scale=false, as on the page and in
    /// the <backoff-lab> element.
    // One default, the page's `log` setting's, so that a figure used as the element's fallback
    // looks like the chart that replaces it.
    #[arg(
        long,
        value_name = "BOOL",
        num_args = 0..=1,
        default_missing_value = "true"
    )]
    log_scale: Option<bool>,
    /// Staleness: how long an event stays worth delivering.
    #[arg(long, value_name = "DURATION", allow_hyphen_values = true)]
    tolerance: Option<String>,
    /// Staleness: how late after recovery a delivery may be.
    #[arg(long, value_name = "DURATION", allow_hyphen_values = true)]
    max_lag: Option<String>,
    /// Staleness: a preset drawn beside the policy (see `backoff-lab presets`).
    #[arg(long, value_name = "NAME")]
    compare: Option<String>,
    /// Survival map: its axes.
    #[command(flatten)]
    axes: MapAxesFlags,
    /// Output format: the same Rust chart function as the page, through plotters' SVG backend.
    #[arg(long, value_enum, default_value_t = FigureFormat::Svg)]
    format: FigureFormat,
    /// The page's settings as its share link writes them (`outage=30 min&budget=10`, a whole
    /// link or its hash): the chart the page and the <backoff-lab> element draw for them, with
    /// their defaults (your policy, 30 s × 3, in the storm), for an element's fallback image.
    /// Every other setting goes inside it; --width, --height, --dark and --background stay
    /// flags.
    #[arg(long, value_name = "SETTINGS", allow_hyphen_values = true)]
    state: Option<String>,
}

/// A figure's size in pixels.
type Size = (u32, u32);

pub(super) fn run(args: &FigureArgs) -> Result<String, Error> {
    let pixels = |field, text: &str, min| {
        number(
            field,
            text,
            &format!("a whole number of pixels from {min} to {MAX_SIDE}"),
        )
    };
    let size = figure_size(
        pixels("width", &args.width, MIN_WIDTH)?,
        pixels("height", &args.height, MIN_HEIGHT)?,
    )?;
    let background = args
        .background
        .as_deref()
        .map(backoff_lab::chart::CssColour::parse)
        .transpose()?;
    args.refuse_unread()?;
    if let Some(state) = &args.state {
        return figure_of_state(args.kind, state, size, (args.dark, background));
    }
    let params = args.params()?;
    let page = backoff_lab::page::Settings::default();
    let options = ChartOptions {
        dark: args.dark,
        scale: 1.0,
        log_scale: args.log_scale.unwrap_or(page.get("log") == "true"),
        background,
    };
    let (svg, caption) = match args.kind {
        FigureKind::Timeline => timeline(&params, size, &options),
        FigureKind::Distribution => distribution(&params, size, &options),
        FigureKind::Herd => herd_figure(&params, size, &options),
        FigureKind::Storm => storm(&params, size, &options),
        FigureKind::Staleness => {
            let compared = args
                .compare
                .as_deref()
                .map(|name| backoff_lab::presets::preset(name).map_err(|e| e.for_field("compare")))
                .transpose()?;
            let chart = backoff_lab::page::staleness_chart_of(&params, compared.as_ref())?;
            let svg = chart::to_svg(size, |area| chart::staleness::draw(area, &chart, &options))?;
            Ok((svg, chart.report.caption()))
        }
        FigureKind::Survival => {
            let params = args.scenario.params_with_engine("fluid")?;
            args.axes.check()?;
            let (scenario, engine) = (params.map_scenario()?, params.engine()?);
            let axes = args.axes.axes(scenario.spec(), engine)?;
            let map = super::survival::map_on_every_core(scenario.spec(), &axes, engine, true)?;
            let svg = chart::to_svg(size, |area| chart::survival::draw(area, &map, &options))?;
            Ok((svg, map.caption.clone()))
        }
    }?;
    Ok(chart::described(&svg, args.kind.title(), &caption))
}

/// The chart `kind` as the page and the element draw it for the settings of `state` (a share
/// link, or its hash), titled and described as every figure is. A setting of the link the page
/// would ignore is refused, as is one it cannot draw, with the page's own message.
fn figure_of_state(
    kind: FigureKind,
    state: &str,
    size: Size,
    (dark, background): (bool, Option<backoff_lab::chart::CssColour>),
) -> Result<String, Error> {
    use backoff_lab::page;
    // The page's notices say what it does instead ("was ignored …; using \"3\""): a figure draws
    // nothing instead.
    let refused = |message: String| {
        let message = message.split("; using ").next().unwrap_or_default();
        // A link too long to read: the page uses its defaults, a figure draws nothing.
        let message = message
            .strip_suffix(": all defaults are used")
            .map_or(message.to_string(), |long| format!("{long}: refused"));
        Error::Unreachable(format!(
            "--state: {}",
            message.replacen(" was ignored", " is refused", 1).replacen(
                " were ignored",
                " are refused",
                1
            )
        ))
    };
    let hash = state.split_once('#').map_or(state, |(_, hash)| hash);
    // The element's own attributes (`actions`: its download buttons, not its chart) are left
    // out: the element's attributes joined by `&` are a state, as the README says (`actions`
    // was refused as an unknown setting).
    let hash = hash
        .split('&')
        .filter(|pair| !page::OWN_ATTRIBUTES.contains(&pair.split('=').next().unwrap_or_default()))
        .collect::<Vec<_>>()
        .join("&");
    // A `view` in the link is left out, as the README says: the figure's kind is its view (a
    // **Copy link** address carries the view the explorer's Embed box was set to).
    let decoded = page::decode_hash(&hash);
    // A storm field the page keeps but does not use (`budget-window` without `budget`) is kept
    // as the page's own links keep it, and drawn without, as the page and the element draw it.
    // What completing the link ignores (a base beside Svix's gaps) is refused as the rest.
    let resolved = page::resolve(decoded);
    // Its notices are the link's, and what completing it ignored.
    if let Some(notice) = resolved.notices.first() {
        return Err(refused(notice.clone()));
    }
    let mut settings = resolved.settings;
    settings.set("view", kind.name());
    let view = page::View::from_name(kind.name())?;
    // The link's theme, as the element's and the embed page's: `--dark` or `theme=dark`; the
    // two contradicting each other is refused rather than one silently winning.
    if dark && settings.get("theme") == "light" {
        return Err(Error::out_of_range(
            "dark",
            "beside theme=light in --state",
            "left out where the --state link says theme=light (give one of them)",
        ));
    }
    let options = ChartOptions {
        dark: dark || settings.get("theme") == "dark",
        scale: 1.0,
        log_scale: settings.get("log") == "true",
        background,
    };
    let computed = page::compute(view, &settings, &mut backoff_lab::storm::Memo::default())
        .map_err(|error| refused(error.message))?;
    let mut caption = String::new();
    let svg = chart::to_svg(size, |area| {
        page::draw(area, view, &settings, &computed, &options)
            .map(|drawn| caption = drawn.full_caption())
            .map_err(|error| refused(error.message))
    })?;
    Ok(chart::described(&svg, kind.title(), &caption))
}

impl FigureArgs {
    /// Refuses a flag the chart does not read (it would be ignored), naming the charts that do.
    fn refuse_unread(&self) -> Result<(), Error> {
        use FigureKind::*;
        let scenario = &self.scenario;
        let mut given: Vec<(&'static str, String, Vec<FigureKind>)> = Vec::new();
        // The scenario's and the jitter's keys are read as the JS API's functions read them.
        let shared = (scenario.storm_only_given().into_iter())
            .chain(scenario.outage_given())
            .chain(scenario.jitter_given());
        for (name, value) in shared {
            let readers = FigureKind::ALL
                .into_iter()
                .filter(|kind| kind.purpose().reads(name))
                .collect();
            given.push((name, value, readers));
        }
        for (name, value) in self.axes.given() {
            given.push((name, value, vec![Survival]));
        }
        let own: [(&'static str, Option<String>, &[FigureKind]); 6] = [
            ("samples", self.samples.clone(), &[Distribution, Staleness]),
            (
                "deliveries",
                (self.deliveries != DELIVERIES).then(|| self.deliveries.clone()),
                &[Herd],
            ),
            (
                "log-scale",
                self.log_scale.map(|on| {
                    if on {
                        "--log-scale"
                    } else {
                        "--log-scale=false"
                    }
                    .to_string()
                }),
                &[Timeline],
            ),
            ("tolerance", self.tolerance.clone(), &[Staleness]),
            ("max-lag", self.max_lag.clone(), &[Staleness]),
            ("compare", self.compare.clone(), &[Staleness]),
        ];
        for (name, value, readers) in own {
            given.extend(value.map(|value| (name, value, readers.to_vec())));
        }
        if self.state.is_some() {
            // Every chart reads the policy's flags, so they are in no list above.
            let mut every = (scenario.policy_given().into_iter())
                .chain(given.into_iter().map(|(name, value, _)| (name, value)));
            if let Some((name, value)) = every.next() {
                return Err(Error::out_of_range(
                    name,
                    value,
                    "left out beside --state, which holds every setting of the figure (write \
                     it there, as the share link does)",
                ));
            }
            return Ok(());
        }
        match given
            .into_iter()
            .find(|(_, _, readers)| !readers.contains(&self.kind))
        {
            None => Ok(()),
            Some((name, value, readers)) => Err(Error::out_of_range(
                name,
                value,
                format!(
                    "left out of figure {} (only figure {} {} it)",
                    self.kind.name(),
                    listed(&readers),
                    if readers.len() == 1 { "reads" } else { "read" }
                ),
            )),
        }
    }

    /// The scenario's parameters with the figures' own: a schedule of 14 attempts unless told
    /// otherwise (the storm's policy has its own default), the samples, the deliveries and the
    /// seed ([`DEFAULT_SEED`](backoff_lab::jitter::DEFAULT_SEED) unless given).
    fn params(&self) -> Result<Params, Error> {
        let mut params = self.scenario.params()?;
        if params.attempts.is_none() && params.give_up.is_none() && self.kind != FigureKind::Storm {
            params.attempts = Some(14.0);
        }
        // The jitter and herd commands' default: a distribution without jitter is one spike.
        if matches!(self.kind, FigureKind::Distribution | FigureKind::Herd) && params.mode.is_none()
        {
            params.mode = Some("full".into());
        }
        let samples = (self.samples.as_deref())
            .map(|samples| count_number("samples", samples))
            .transpose()?;
        // The values as given, before the figure's own defaults: a seed or samples where nothing
        // is drawn is refused, as `jitter`, `staleness` and the JS API refuse them.
        let given = Params {
            samples,
            ..params.clone()
        };
        given.refuse_keys_without_their_rule(self.kind.purpose())?;
        // A figure is for documentation: drawn again, it must be the same figure.
        params.seed = params
            .seed
            .or(Some(backoff_lab::jitter::DEFAULT_SEED as f64));
        params.samples = samples;
        params.deliveries = Some(count_number("deliveries", &self.deliveries)?);
        if self.kind == FigureKind::Staleness {
            let duration =
                |text: &Option<String>| text.clone().map(backoff_lab::DurationInput::Text);
            params.tolerance = duration(&self.tolerance);
            params.max_lag = duration(&self.max_lag);
            // Read off at the page's and the element's outage unless told (as `--help` says):
            // without it the caption told the worst outage's first event, "after a 12 h
            // outage" under full jitter beside an element reading off 4 h.
            params.outage = params.outage.or_else(|| {
                let page = backoff_lab::page::Settings::default();
                Some(backoff_lab::DurationInput::Text(
                    page.get("read-outage").to_string(),
                ))
            });
        }
        Ok(params)
    }
}

/// An SVG and its caption.
type Figure = (String, String);

fn timeline(params: &Params, size: Size, options: &ChartOptions) -> Result<Figure, Error> {
    let schedule = params.policy()?.schedule();
    let caption =
        backoff_lab::ScheduleReport::new(&schedule, backoff_lab::DEFAULT_WINDOW_S).caption;
    let svg = chart::to_svg(size, |area| chart::timeline::draw(area, &schedule, options))?;
    Ok((svg, caption))
}

fn distribution(params: &Params, size: Size, options: &ChartOptions) -> Result<Figure, Error> {
    let seed = params.seed()?.unwrap_or(backoff_lab::jitter::DEFAULT_SEED);
    let (policy, jitter) = (params.policy()?, params.jitter()?);
    let report = JitterReport::new(
        &policy,
        jitter,
        Sampling {
            samples: params.samples_for(&policy, jitter, SAMPLES)?,
            seed,
            bins: HISTOGRAM_BINS,
        },
        None,
    )?;
    let svg = chart::to_svg(size, |area| {
        chart::distribution::draw(area, &report, options)
    })?;
    Ok((svg, report.caption))
}

/// The herd, spread by its jitter, over the same deliveries' unjittered spike.
fn herd_figure(params: &Params, size: Size, options: &ChartOptions) -> Result<Figure, Error> {
    let seed = params.seed()?.unwrap_or(backoff_lab::jitter::DEFAULT_SEED);
    let policy = params.policy()?;
    let spread = herd(&policy, params.jitter()?, params.deliveries()?, seed)?;
    let spike = herd(&policy, Jitter::None, params.deliveries()?, seed)?;
    let svg = chart::to_svg(size, |area| {
        chart::herd::draw(area, &spread, Some(&spike), options)
    })?;
    Ok((svg, spread.caption(Some(&spike))))
}

fn storm(params: &Params, size: Size, options: &ChartOptions) -> Result<Figure, Error> {
    let scenario = params.scenario()?;
    let report = params.simulate(false)?;
    let label = if params.policy.as_deref() == Some("fixed") {
        "fixed interval"
    } else {
        "backoff"
    };
    let series = [chart::storm::Series {
        label: label.into(),
        scenario: &scenario,
        report: &report,
    }];
    let svg = chart::to_svg(size, |area| chart::storm::draw(area, &series, options))?;
    Ok((svg, report.caption.clone()))
}
