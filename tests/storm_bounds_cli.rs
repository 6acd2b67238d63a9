//! `backoff-lab storm` with a retry quota or a circuit breaker as a user runs it: what each
//! bad value is refused with, and what the caption says about the bound.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::{json, refused};

#[test]
fn bad_quota_and_breaker_flags_are_refused_naming_the_flag_and_its_range() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["--retry-quota", "azure"],
            "error: --retry-quota must be aws or grpc, got \"azure\"",
        ),
        (
            &["--retry-quota", "aws", "--retry-quota-tokens", "5"],
            "error: --retry-quota-tokens must be a whole number of tokens from 10 to 1000000, got 5",
        ),
        (
            &["--retry-quota", "grpc", "--retry-quota-tokens", "2000"],
            "error: --retry-quota-tokens must be a whole number of tokens from 1 to 1000, got 2000",
        ),
        (
            &["--retry-quota", "grpc", "--retry-quota-ratio", "NaN"],
            "error: --retry-quota-ratio must be a number from 0.000001 to 1",
        ),
        (
            &["--retry-quota", "grpc", "--retry-quota-ratio", "0"],
            "error: --retry-quota-ratio must be a number from 0.000001 to 1",
        ),
        (
            &["--retry-quota", "grpc", "--retry-quota-ratio", "lots"],
            "error: --retry-quota-ratio must be a number from 0.000001 to 1, got \"lots\"",
        ),
        (
            &["--retry-quota", "aws", "--retry-quota-ratio", "0.5"],
            "error: --retry-quota-ratio must be given only with --retry-quota grpc",
        ),
        (
            &["--retry-quota-tokens", "100"],
            "error: --retry-quota-tokens must be given only with --retry-quota aws or grpc",
        ),
        (
            &["--breaker-failures", "0"],
            "error: --breaker-failures must be a whole number from 1 to 10000, got 0",
        ),
        (
            &["--breaker-failures", "many"],
            "error: --breaker-failures must be a whole number from 1 to 10000, got \"many\"",
        ),
        (
            &["--breaker-failures", "5", "--breaker-cooldown", "2h"],
            "error: --breaker-cooldown must be a whole number of seconds from 1 s to 1 h, got 2 h",
        ),
        (
            &["--breaker-failures", "5", "--breaker-probes", "0"],
            "error: --breaker-probes must be a whole number from 1 to 1000, got 0",
        ),
        (
            &["--breaker-probes", "2"],
            "error: --breaker-probes must be given only with --breaker-failures",
        ),
        (
            &["--breaker-share", "0%"],
            "error: --breaker-share must be a whole percentage from 1% to 100%, got 0%",
        ),
        (
            &["--breaker-share", "12.5"],
            "error: --breaker-share must be a whole percentage from 1% to 100%, got 12.5%",
        ),
        (
            &["--breaker-share", "most"],
            "error: --breaker-share must be a whole percentage from 1% to 100%, such as 50%, got \"most\"",
        ),
        (
            &["--breaker-share", "50%", "--breaker-window", "0s"],
            "error: --breaker-window must be a whole number of seconds from 1 s to 1 h",
        ),
        (
            &["--breaker-share", "50%", "--breaker-min-attempts", "0"],
            "error: --breaker-min-attempts must be a whole number from 1 to 1000000, got 0",
        ),
        (
            &["--breaker-failures", "5", "--breaker-window", "10s"],
            "error: --breaker-window must be given only with --breaker-share",
        ),
        (
            &["--engine", "arithmetic", "--breaker-share", "50%"],
            "error: --breaker-share must be left out",
        ),
        (
            &["--engine", "arithmetic", "--retry-quota", "aws"],
            "error: --retry-quota must be left out",
        ),
        (
            &["--engine", "arithmetic", "--breaker-failures", "3"],
            "error: --breaker-failures must be left out",
        ),
    ];
    for (args, expected) in cases {
        let mut all = vec!["storm"];
        all.extend_from_slice(args);
        refused(&all, expected);
    }
}

#[test]
fn the_caption_and_summary_report_the_bound() {
    let storm = |args: &[&str]| {
        let mut all = vec!["storm", "--format", "json", "--traffic", "20m"];
        all.extend_from_slice(args);
        json(&all)
    };
    let quota = storm(&["--retry-quota", "aws"]);
    let caption = quota["caption"].as_str().unwrap();
    assert!(
        caption.contains("Retries drew on the AWS SDKs' retry quota (500 tokens, 10 a retry"),
        "{caption}"
    );
    assert!(quota["summary"]["breaker_openings"].is_null());
    let breaker = storm(&["--breaker-failures", "5", "--rate-limit", "25/s"]);
    let caption = breaker["caption"].as_str().unwrap();
    let openings = breaker["summary"]["breaker_openings"].as_u64().unwrap();
    assert!(openings > 0);
    assert!(
        caption.contains(&format!(
            "A circuit breaker (opens after 5 consecutive failures, 30 s cool-down, 1 probe) opened {openings} times."
        )),
        "{caption}"
    );
    let share = storm(&[
        "--breaker-share",
        "50%",
        "--breaker-failures",
        "20",
        "--breaker-window",
        "10s",
    ]);
    let caption = share["caption"].as_str().unwrap();
    let openings = share["summary"]["breaker_openings"].as_u64().unwrap();
    assert!(openings > 0);
    assert!(
        caption.contains(&format!(
            "A circuit breaker (opens after 20 consecutive failures or when 50% of at least 100 attempts in 10 s fail, 30 s cool-down, 1 probe) opened {openings} times."
        )),
        "{caption}"
    );
}
