//! `figure`: SVG from the same chart functions as the page, and the flags each chart reads.

use crate::common::{refused, run, stderr, stdout};

/// A flag a chart does not read is refused, naming the charts that do (`figure storm --compare
/// svix` drew no comparison, silently).
#[test]
fn a_figure_refuses_the_flags_its_chart_does_not_read() {
    for (args, expected) in [
        (
            &["figure", "storm", "--compare", "svix"][..],
            "error: --compare must be left out of figure storm (only figure staleness reads it), got svix",
        ),
        (
            &["figure", "timeline", "--capacity", "5/s"],
            "error: --capacity must be left out of figure timeline (only figure storm and survival read \
             it), got 5/s",
        ),
        (
            &["figure", "timeline", "--mode", "full"],
            "error: --mode must be left out of figure timeline (only figure distribution, herd, storm, \
             staleness and survival read it), got full",
        ),
        (
            &["figure", "distribution", "--log-scale"],
            "error: --log-scale must be left out of figure distribution (only figure timeline reads \
             it), got --log-scale",
        ),
        (
            &["figure", "herd", "--outage", "1h"],
            "error: --outage must be left out of figure herd (only figure storm, staleness and survival \
             read it), got 1h",
        ),
        // A seed or samples where nothing is drawn, as `staleness` and `jitter` refuse them.
        (
            &["figure", "staleness", "--seed", "3"],
            "error: --seed must be left out without jitter (the answers are exact: nothing is \
             drawn), got 3",
        ),
        (
            &["figure", "distribution", "--mode", "none", "--samples", "10"],
            "error: --samples must be left out without jitter",
        ),
        (
            &["figure", "storm", "--steps", "4x4"],
            "error: --steps must be left out of figure storm (only figure survival reads it), got 4x4",
        ),
    ] {
        refused(args, expected);
    }
}

#[test]
fn figures_are_svg_from_the_same_chart_functions() {
    for (kind, expected) in [
        ("timeline", "gives up at 24 h 02 min"),
        ("distribution", "unjittered 24 h 02 min"),
        ("herd", "without jitter: 1,000 in one second"),
        ("storm", "capacity 30/s = 1,800/min"),
    ] {
        let policy = [
            "figure",
            kind,
            "--base",
            "30s",
            "--multiplier",
            "3",
            "--cap",
            "3h",
        ];
        // Each chart takes only the flags it reads.
        let own: &[&str] = match kind {
            "timeline" => &[],
            "distribution" => &["--mode", "full", "--seed", "1", "--samples", "20000"],
            _ => &["--mode", "full", "--seed", "1"],
        };
        let output = run(&[&policy[..], own].concat());
        assert!(output.status.success(), "{kind}: {}", stderr(&output));
        let svg = stdout(&output);
        assert!(
            svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"),
            "{kind}"
        );
        assert!(svg.contains(r#"width="900""#) && svg.contains(r#"height="320""#));
        assert!(svg.contains(expected), "{kind} lacks {expected:?}");
    }
    // Any text a size flag is given is refused with the range, never clap's parse error.
    for (flag, value, got, min) in [
        ("--width", "5", "5", 240),
        ("--width", "239", "239", 240),
        ("--width", "NaN", "NaN", 240),
        ("--height", "-320", "-320", 160),
        ("--height", "159", "159", 160),
        ("--height", "320.5", "320.5", 160),
        ("--width", "wide", "\"wide\"", 240),
    ] {
        let output = run(&[
            "figure",
            "timeline",
            "--base",
            "30s",
            "--multiplier",
            "3",
            "--cap",
            "3h",
            flag,
            value,
        ]);
        assert_eq!(output.status.code(), Some(2));
        assert_eq!(
            stderr(&output),
            format!(
                "error: {flag} must be a whole number of pixels from {min} to 4000, got {got}\n"
            )
        );
    }
}

/// The element draws its timeline on a log axis by default; a `figure timeline` made as its
/// fallback does too, so that the chart that replaces it looks the same. Every figure carries
/// its title and the page's caption, for screen readers and `alt` text.
#[test]
fn figures_default_to_the_elements_log_axis_and_carry_their_caption() {
    let figure = |extra: &[&str]| {
        let output = run(&[&["figure", "timeline", "--preset", "svix"][..], extra].concat());
        assert!(output.status.success(), "{extra:?}: {}", stderr(&output));
        stdout(&output)
    };
    let default = figure(&[]);
    assert_eq!(
        default,
        figure(&["--log-scale"]),
        "the default is the log axis"
    );
    assert_eq!(default, figure(&["--log-scale=true"]));
    assert_ne!(
        default,
        figure(&["--log-scale=false"]),
        "a linear axis on request"
    );
    // As other flags take their values (it was "unexpected argument 'false' found").
    assert_eq!(
        figure(&["--log-scale", "false"]),
        figure(&["--log-scale=false"])
    );
    let head: Vec<&str> = default.lines().take(3).collect();
    assert!(head[0].starts_with("<svg "), "{head:?}");
    assert_eq!(head[1], "<title>backoff-lab: retry timeline</title>");
    assert!(
        head[2].starts_with("<desc>A retry timeline of listed gaps: attempts land at 0 s, 5 s,")
            && head[2].ends_with("where the schedule gives up.</desc>"),
        "{}",
        head[2]
    );
    for (kind, title) in [
        ("distribution", "give-up time of one jittered delivery"),
        ("storm", "retry storm after an outage"),
        (
            "survival",
            "which outages a destination survives (survival map)",
        ),
    ] {
        let extra: &[&str] = if kind == "survival" {
            &["--steps", "2x2", "--outages", "1m..10m"]
        } else {
            &[]
        };
        let output = run(&[&["figure", kind][..], extra].concat());
        assert!(output.status.success(), "{kind}: {}", stderr(&output));
        let svg = stdout(&output);
        assert!(
            svg.contains(&format!("<title>backoff-lab: {title}</title>")),
            "{kind}"
        );
        assert!(
            svg.contains("<desc>") && !svg.contains("<desc></desc>"),
            "{kind}"
        );
    }
}

/// `figure --help` says the seed is 42 unless given, as the page's and the storm's is: a
/// jittered figure made without `--seed` is the one made with `--seed 42`, and says so (the
/// distribution, herd and staleness figures drew with seed 0).
#[test]
fn a_figure_without_a_seed_draws_with_the_documented_default() {
    let help = stdout(&run(&["figure", "--help"]));
    assert!(help.contains("(default 42)"), "{help}");
    // The staleness figure reads off a 4 h outage unless given (the help said only "10m").
    let help: String = help.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        help.contains(
            "for `figure staleness`, the outage read off the chart, exactly, from 1 µs to 365 \
             days (default 4h)"
        ),
        "{help}"
    );
    for (kind, extra) in [
        ("distribution", &["--samples", "2000"][..]),
        ("herd", &[][..]),
        ("staleness", &["--preset", "article", "--mode", "full"][..]),
    ] {
        let figure = |seed: &[&str]| {
            let output = run(&[&["figure", kind][..], extra, seed].concat());
            assert!(output.status.success(), "{kind}: {}", stderr(&output));
            stdout(&output)
        };
        let default = figure(&[]);
        assert_eq!(default, figure(&["--seed", "42"]), "{kind}");
        assert_ne!(default, figure(&["--seed", "7"]), "{kind}: the seed draws");
        assert!(default.contains("seed 42)"), "{kind}: {default}");
    }
    for (kind, extra) in [
        ("timeline", &[][..]),
        ("storm", &["--policy", "fixed"][..]),
        ("staleness", &["--mode", "none"][..]),
    ] {
        let output = run(&[&["figure", kind][..], extra].concat());
        assert!(
            output.status.success(),
            "{kind} {extra:?}: {}",
            stderr(&output)
        );
    }
}

/// `--state` draws what the page and the element draw for a share link's settings, with their
/// defaults (a storm fallback made "with the same flags" drew the CLI's fixed-interval storm,
/// peaking at 123,251 a minute, where the element drew your 30 s × 3 policy at 690): the same
/// SVG as the page's own drawing of those settings, and every other chart flag is refused
/// beside it.
#[test]
fn a_figure_of_a_state_is_the_pages_chart() {
    use backoff_lab::page;
    let state = "outage=30 min&budget=10";
    let output = run(&["figure", "storm", "--state", state, "--width", "700"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let svg = stdout(&output);

    let mut settings = page::resolve(page::decode_hash(state)).settings;
    settings.set("view", "storm");
    let computed = page::compute(
        page::View::Storm,
        &settings,
        &mut backoff_lab::storm::Memo::default(),
    )
    .unwrap();
    let options = backoff_lab::chart::ChartOptions {
        dark: false,
        scale: 1.0,
        log_scale: true,
        background: None,
    };
    let mut caption = String::new();
    let drawn = backoff_lab::chart::to_svg((700, 320), |area| {
        page::draw(area, page::View::Storm, &settings, &computed, &options)
            .map(|d| caption = d.caption)
            .map_err(|e| backoff_lab::Error::Unreachable(e.message))
    })
    .unwrap();
    assert_eq!(
        svg.trim_end(),
        backoff_lab::chart::described(&drawn, page::View::Storm.title(), &caption).trim_end()
    );
    // Your policy first, with its budget, peaking at 690 a minute as the element's does.
    assert!(
        caption.starts_with(
            "your policy: A 30 min outage at 600 deliveries per minute: attempts peak at 690"
        ),
        "{caption}"
    );
    assert!(caption.contains("a budget of 10%"), "{caption}");

    refused(
        &["figure", "storm", "--state", state, "--budget", "10"],
        "error: --budget must be left out beside --state, which holds every setting of the figure",
    );
    refused(
        &["figure", "storm", "--state", "outage=abc"],
        "error: --state: outage \"abc\" is refused (0 s or from 0.5 s to 6 days 23 h 59 min 59 s",
    );
    // A state too long to read is refused: the page's notice of it said "all defaults are
    // used" of a figure that drew nothing (outside review).
    let long = "a".repeat(5_000);
    refused(
        &["figure", "storm", "--state", &long],
        "error: --state: the link's settings are 5000 characters long, more than 4096: refused",
    );
    // A slip of a key's name is told the key it means.
    refused(
        &["figure", "timeline", "--state", "attemps=3"],
        "error: --state: unknown setting \"attemps\" is refused: did you mean attempts?",
    );
    // The policy's flags too (they were drawn over silently), and a setting the page would
    // keep but not use.
    for flag in [
        &["--base", "1m"][..],
        &["--preset", "svix"],
        &["--attempts", "5"],
    ] {
        let args = [&["figure", "storm", "--state", state][..], flag].concat();
        refused(
            &args,
            &format!("error: {} must be left out beside --state", flag[0]),
        );
    }
    // What completing the link ignores is refused too: it drew Svix's gaps without a word.
    refused(
        &["figure", "timeline", "--state", "preset=svix&base=10s"],
        "error: --state: base is refused: preset svix is a list of gaps",
    );
    // A storm field the page keeps but does not use is kept, as the page's links keep it: the
    // figure is the storm without it, as the element draws it.
    let kept = stdout(&run(&["figure", "storm", "--state", "resume-rate=5/s"]));
    assert_eq!(kept, stdout(&run(&["figure", "storm", "--state", ""])));
    // A compared preset's sentence is in the description, as in the element's caption.
    let compared = stdout(&run(&["figure", "timeline", "--state", "compare=svix"]));
    assert!(
        compared.contains("; Svix after 27 h 35 min"),
        "{compared:.600}"
    );
    // The link's theme is the figure's, as `--dark` is.
    let dark = stdout(&run(&["figure", "timeline", "--state", "theme=dark"]));
    let flagged = stdout(&run(&["figure", "timeline", "--state", "", "--dark"]));
    let light = stdout(&run(&["figure", "timeline", "--state", ""]));
    assert_eq!(dark, flagged);
    assert_ne!(dark, light);
    // The element's attributes joined as the README says, `actions` among them: its buttons
    // are no part of the figure.
    let with_actions = stdout(&run(&[
        "figure",
        "timeline",
        "--state",
        "preset=svix&actions",
    ]));
    assert_eq!(
        with_actions,
        stdout(&run(&["figure", "timeline", "--state", "preset=svix"]))
    );
    // The figure's kind is its view, whatever view a copied link was set to embed.
    let timeline = stdout(&run(&["figure", "timeline", "--state", "preset=svix"]));
    assert_eq!(
        stdout(&run(&[
            "figure",
            "timeline",
            "--state",
            "view=storm&preset=svix"
        ])),
        timeline
    );
    // `--dark` against the link's `theme=light` had drawn dark without a word.
    let args = ["figure", "timeline", "--state", "theme=light", "--dark"];
    refused(
        &args,
        "error: --dark must be left out where the --state link says theme=light (give one of \
         them), got beside theme=light in --state",
    );
}

/// `--background` fills behind the chart, with or without `--state`, where the theme's white
/// was; a colour it cannot read is refused naming the notations.
#[test]
fn a_figures_background_is_the_one_given() {
    for state in [&[][..], &["--state", "view=storm"][..]] {
        let args = |extra: &[&'static str]| {
            let mut args = vec!["figure", "storm"];
            args.extend_from_slice(state);
            args.extend_from_slice(extra);
            args
        };
        let white = stdout(&run(&args(&[])));
        let off_white = stdout(&run(&args(&["--background", "rgb(250 248 245)"])));
        assert!(white.contains("fill=\"#FFFFFF\""), "{white:.400}");
        assert!(!off_white.contains("fill=\"#FFFFFF\""), "{off_white:.400}");
        // The fill and the halos under the lines.
        assert!(off_white.matches("#FAF8F5").count() > 2, "{off_white:.400}");
    }
    refused(
        &["figure", "timeline", "--background", "ivory"],
        "error: --background must be an opaque colour written #rrggbb, #rgb or rgb(r, g, b), each \
         channel 0 to 255, got \"ivory\"",
    );
}

/// `figure staleness` reads off the page's 4 h outage unless `--outage` says otherwise, as its
/// help says and the element does: under full jitter it read off "a 12 h outage" (the worst
/// first event of its ladder) beside an element reading off 4 h.
#[test]
fn a_staleness_figure_reads_off_four_hours_by_default() {
    for args in [
        &["figure", "staleness", "--mode", "full"][..],
        &[
            "figure",
            "staleness",
            "--base",
            "1m",
            "--multiplier",
            "2",
            "--mode",
            "full",
        ],
        &["figure", "staleness"],
    ] {
        let svg = stdout(&run(args));
        assert!(
            svg.contains("<desc>After a 4 h outage "),
            "{args:?}: {svg:.300}"
        );
    }
    let svg = stdout(&run(&[
        "figure",
        "staleness",
        "--mode",
        "full",
        "--outage",
        "2h",
    ]));
    assert!(svg.contains("<desc>After a 2 h outage "), "{svg:.300}");
}
