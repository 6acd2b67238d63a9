//! Work beyond the limits refused before it starts, with the JS API's messages; the survival
//! map's limits in `--help` and refusals.

use crate::common::{refused, run, stderr, stdout};

#[test]
fn work_beyond_the_limits_is_refused_before_it_starts_with_the_js_apis_messages() {
    // The same texts as the JS API's and the page's (tests/browser.rs, the e2e tests).
    let cases: [(&[&str], &str); 3] = [
        (
            &["jitter", "--samples", "1000000", "--attempts", "10000"],
            "error: --samples must be at most 200020 for a schedule of 10000 attempts (samples × retries at most 2000000000 drawn gaps), got 1000000",
        ),
        (
            &["herd", "--deliveries", "10000000", "--attempts", "10000"],
            "error: --deliveries must be at most 50005 for a schedule of 10000 attempts (deliveries × 39996 at most 2000000000 draws: a herd's delivery with full jitter costs 39996), got 10000000",
        ),
        (
            &["storm", "--arrivals", "1000/s", "--traffic", "2h"],
            "error: --traffic must be at most 1000000000 attempts at worst for the discrete engine",
        ),
    ];
    for (args, expected) in cases {
        let mut all = args.to_vec();
        if all[0] != "storm" {
            all.extend_from_slice(&[
                "--base",
                "1s",
                "--multiplier",
                "1",
                "--cap",
                "1s",
                "--mode",
                "full",
                "--seed",
                "1",
            ]);
        }
        let output = run(&all);
        assert_eq!(output.status.code(), Some(2), "{all:?}");
        assert!(
            stderr(&output).starts_with(expected),
            "{all:?}: {}",
            stderr(&output)
        );
    }
}

/// A survival map sets each cell's traffic (through its outage and the hour after it), so a rate
/// too high for its cells is refused by naming `--arrivals` and the rate the map allows, not a
/// `--traffic` the map refuses.
#[test]
fn a_map_too_large_in_deliveries_names_the_arrival_rate() {
    for (args, allowed) in [
        (
            &["--arrivals", "1e6/s", "--steps", "2x2"][..],
            "at most 111 per second",
        ),
        (
            &[
                "--arrivals",
                "2000/s",
                "--steps",
                "2x2",
                "--outages",
                "10m..1h",
            ][..],
            "at most 1388 per second",
        ),
    ] {
        let output = run(&[&["survival"][..], args].concat());
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let said = stderr(&output);
        assert!(said.starts_with("error: --arrivals must be "), "{said}");
        assert!(said.contains(allowed), "{said}");
        assert!(!said.contains("--traffic"), "{said}");
    }
    // A rate given per hour is quoted per second to six significant digits, not to the float's
    // last digit.
    let output = run(&["survival", "--arrivals", "500000/h", "--capacity", "420/s"]);
    let said = stderr(&output);
    assert!(said.trim_end().ends_with("got 138.889/s"), "{said}");
}

/// The map's 1024-cell limit was documented nowhere: `survival --steps 33x32` said only "at most
/// 1024 cells", and `--help` gave no range. Both now state both rules.
#[test]
fn survival_steps_state_both_limits_in_help_and_refusals() {
    let both = "from 2 to 64 steps on each axis and at most 1024 cells in all (outages × \
                headroom, such as 32x32 or 64x16)";
    for steps in ["33x32", "65x2", "1x4"] {
        refused(
            &["survival", "--steps", steps],
            &format!("error: --steps must be {both}, got {steps}"),
        );
    }
    let help = stdout(&run(&["survival", "--help"]));
    let help: String = help.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        help.contains("2 to 64 on each and at most 1024 cells in all"),
        "{help}"
    );
}

/// `survival --help` leaves out the storm flags a map refuses (it sets each cell's traffic, and
/// has no batch); giving one is still refused by name, not as an unknown flag. `--outage` is
/// your scenario's, marked on the map.
#[test]
fn survival_help_leaves_out_the_flags_a_map_refuses() {
    let help = stdout(&run(&["survival", "--help"]));
    assert!(help.contains("--arrivals"), "{help}");
    for flag in ["--traffic ", "--batch ", "--batch-at "] {
        assert!(!help.contains(flag), "{flag} in {help}");
    }
    assert!(
        help.contains("--outage ") && help.contains("--outages "),
        "{help}"
    );
    assert!(stdout(&run(&["storm", "--help"])).contains("--batch-at"));
    for (flag, value, expected) in [
        (
            "--traffic",
            "1h",
            "--traffic must be left out of a survival map (",
        ),
        (
            "--batch",
            "1000",
            "--batch must be empty for a survival map (",
        ),
    ] {
        let refused = run(&["survival", flag, value]);
        assert_eq!(refused.status.code(), Some(2));
        assert!(
            stderr(&refused).starts_with(&format!("error: {expected}")),
            "{}",
            stderr(&refused)
        );
    }
}
