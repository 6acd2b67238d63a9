//! The README's two tables of storm bounds, run: each row's storm is simulated and its counts
//! and its drain are compared with what the row says (a rule that moved a drain by a second
//! left four of their cells stale, which the examples' test does not read).
#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::json;
use std::fs;
use std::path::PathBuf;

/// The rows of the README's table whose header starts with `header`: its cells, trimmed.
fn table(header: &str) -> Vec<Vec<String>> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("README.md");
    let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let rows: Vec<Vec<String>> = text
        .lines()
        .skip_while(|line| !line.starts_with(header))
        .skip(2)
        .take_while(|line| line.starts_with('|'))
        .map(|line| {
            line.trim_matches('|')
                .split(" | ")
                .map(|cell| cell.trim().to_string())
                .collect()
        })
        .collect();
    assert!(rows.len() >= 5, "the README's table under {header:?}");
    rows
}

/// The flags a row's first cell names (`--budget 10%`, or none).
fn flags(cell: &str) -> Vec<String> {
    let cell = cell.split(" (").next().unwrap_or(cell);
    match cell {
        "none" => Vec::new(),
        _ => cell
            .replace('`', "")
            .split_whitespace()
            .map(str::to_string)
            .collect(),
    }
}

/// The drain the caption says, "7 h 16 min" in "drains 7 h 16 min after recovery".
fn drain(caption: &str) -> String {
    ["the backlog drains ", "the backlog is gone "]
        .iter()
        .find_map(|lead| caption.split_once(lead))
        .and_then(|(_, rest)| rest.split_once(" after recovery"))
        .map(|(drain, _)| drain.to_string())
        .unwrap_or_else(|| panic!("{caption}"))
}

fn count(value: &serde_json::Value) -> String {
    format!("{}", value.as_f64().unwrap())
}

#[test]
fn the_backoff_policys_bounds_table_is_what_the_storms_print() {
    for row in table("| bound | peak attempts / min |") {
        let mut args = vec!["storm", "--format", "json", "--policy", "exponential"];
        args.extend(["--base", "30s", "--multiplier", "3", "--cap", "3h"]);
        let extra = flags(&row[0]);
        args.extend(extra.iter().map(String::as_str));
        let report = json(&args);
        let s = &report["summary"];
        let seen = [
            count(&s["peak_attempts_per_min"]),
            count(&s["delivered"]),
            count(&s["exhausted"]),
            count(&s["duplicates"]),
            drain(report["caption"].as_str().unwrap()),
        ];
        assert_eq!(row[1..], seen, "{}", row[0]);
    }
}

#[test]
fn the_retry_quota_and_breaker_table_is_what_the_storms_print() {
    for row in table("| bound | delivered | exhausted | peak × normal |") {
        let mut args = vec!["storm", "--format", "json"];
        let extra = flags(&row[0]);
        args.extend(extra.iter().map(String::as_str));
        let report = json(&args);
        let s = &report["summary"];
        assert_eq!(
            [&row[1], &row[2], &row[5]],
            [
                &count(&s["delivered"]),
                &count(&s["exhausted"]),
                &count(&s["duplicates"])
            ],
            "{}",
            row[0]
        );
        let multiple = s["peak_multiple"].as_f64().unwrap();
        let shown: f64 = row[3].parse().unwrap();
        let decimals = row[3].split('.').nth(1).map_or(0, str::len) as i32;
        assert!(
            (multiple - shown).abs() <= 0.5 * 10f64.powi(-decimals) + 1e-9,
            "{}: {multiple} shown as {shown}",
            row[0]
        );
        let caption = report["caption"].as_str().unwrap();
        let drained = row[4].split(" (").next().unwrap();
        assert_eq!(drain(caption), drained, "{}", row[0]);
        if let Some(openings) = s["breaker_openings"].as_u64() {
            assert!(
                row[4].contains(&format!("opened {openings} times")),
                "{}: {openings}",
                row[0]
            );
        }
    }
}
