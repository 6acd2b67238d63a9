//! The storm's parameters as the page and the JS API give them (the retry quota's, the circuit
//! breaker's, and the fields only another field's rule reads): each bad value refused naming
//! its field and range, each default as documented.

use super::{DurationInput, NumberInput, Params};
use crate::storm::{Breaker, FailureShare, RetryQuota};

fn refusal(params: Params) -> String {
    match params.scenario() {
        Ok(scenario) => panic!("accepted: {:?}", scenario.bounds),
        Err(error) => error.to_string(),
    }
}

fn quota(name: &str, tokens: Option<f64>, ratio: Option<f64>) -> Params {
    Params {
        retry_quota: Some(name.into()),
        retry_quota_tokens: tokens,
        retry_quota_ratio: ratio,
        ..Params::default()
    }
}

/// A breaker on a failure share only.
fn share(percent: &str, window: Option<DurationInput>, min_attempts: Option<f64>) -> Params {
    Params {
        breaker_share: Some(NumberInput::Text(percent.into())),
        breaker_window: window,
        breaker_min_attempts: min_attempts,
        ..Params::default()
    }
}

fn breaker(failures: f64, cooldown: Option<DurationInput>, probes: Option<f64>) -> Params {
    Params {
        breaker_failures: Some(failures),
        breaker_cooldown: cooldown,
        breaker_probes: probes,
        ..Params::default()
    }
}

#[test]
fn bad_retry_quotas_are_refused_naming_the_field_and_its_range() {
    let cases = [
        (
            quota("azure", None, None),
            "retry-quota must be aws or grpc, got \"azure\"",
        ),
        (
            quota("aws", Some(5.0), None),
            "retry-quota-tokens must be a whole number of tokens from 10 to 1000000, got 5",
        ),
        (
            quota("aws", Some(500.5), None),
            "retry-quota-tokens must be a whole number of tokens from 10 to 1000000",
        ),
        (
            quota("grpc", Some(1001.0), None),
            "retry-quota-tokens must be a whole number of tokens from 1 to 1000, got 1001",
        ),
        (
            quota("grpc", Some(0.0), None),
            "retry-quota-tokens must be a whole number of tokens from 1 to 1000, got 0",
        ),
        (
            quota("grpc", Some(f64::NAN), None),
            "retry-quota-tokens must be a whole number of tokens from 1 to 1000",
        ),
        (
            quota("grpc", None, Some(0.0)),
            "retry-quota-ratio must be a number from 0.000001 to 1",
        ),
        (
            quota("grpc", None, Some(-0.1)),
            "retry-quota-ratio must be a number from 0.000001 to 1",
        ),
        (
            quota("grpc", None, Some(1.5)),
            "retry-quota-ratio must be a number from 0.000001 to 1",
        ),
        (
            quota("grpc", None, Some(f64::INFINITY)),
            "retry-quota-ratio must be a number from 0.000001 to 1",
        ),
        (
            quota("aws", None, Some(0.1)),
            "retry-quota-ratio must be given only with retry-quota grpc",
        ),
        (
            Params {
                retry_quota_tokens: Some(100.0),
                ..Params::default()
            },
            "retry-quota-tokens must be given only with retry-quota aws or grpc",
        ),
        (
            Params {
                retry_quota_ratio: Some(0.5),
                ..Params::default()
            },
            "retry-quota-ratio must be given only with retry-quota grpc",
        ),
    ];
    for (params, expected) in cases {
        let message = refusal(params);
        assert!(message.starts_with(expected), "{message}");
    }
}

#[test]
fn bad_breakers_are_refused_naming_the_field_and_its_range() {
    let seconds = |s: f64| Some(DurationInput::Seconds(s));
    let cases = [
        (
            breaker(0.0, None, None),
            "breaker-failures must be a whole number from 1 to 10000, got 0",
        ),
        (
            breaker(10_001.0, None, None),
            "breaker-failures must be a whole number from 1 to 10000",
        ),
        (
            breaker(2.5, None, None),
            "breaker-failures must be a whole number from 1 to 10000",
        ),
        (
            breaker(f64::NAN, None, None),
            "breaker-failures must be a whole number from 1 to 10000",
        ),
        (
            breaker(5.0, seconds(0.0), None),
            "breaker-cooldown must be a whole number of seconds from 1 s to 1 h",
        ),
        (
            breaker(5.0, seconds(1.5), None),
            "breaker-cooldown must be a whole number of seconds from 1 s to 1 h",
        ),
        (
            breaker(5.0, Some(DurationInput::Text("2h".into())), None),
            "breaker-cooldown must be a whole number of seconds from 1 s to 1 h, got 2 h",
        ),
        (
            breaker(5.0, Some(DurationInput::Text("soon".into())), None),
            "breaker-cooldown must be a whole number of seconds from 1 s to 1 h, such as 30s",
        ),
        (
            breaker(5.0, None, Some(0.0)),
            "breaker-probes must be a whole number from 1 to 1000, got 0",
        ),
        (
            breaker(5.0, None, Some(1_001.0)),
            "breaker-probes must be a whole number from 1 to 1000",
        ),
        (
            Params {
                breaker_cooldown: seconds(10.0),
                ..Params::default()
            },
            "breaker-cooldown must be given only with breaker-failures or breaker-share",
        ),
        (
            Params {
                breaker_probes: Some(3.0),
                ..Params::default()
            },
            "breaker-probes must be given only with breaker-failures or breaker-share",
        ),
        (
            share("0%", None, None),
            "breaker-share must be a whole percentage from 1% to 100%, got 0%",
        ),
        (
            share("101", None, None),
            "breaker-share must be a whole percentage from 1% to 100%, got 101%",
        ),
        (
            share("33.3%", None, None),
            "breaker-share must be a whole percentage from 1% to 100%, got 33.3%",
        ),
        (
            share("half", None, None),
            "breaker-share must be a whole percentage from 1% to 100%, such as 50%",
        ),
        (
            share("NaN", None, None),
            "breaker-share must be a whole percentage from 1% to 100%, got NaN%",
        ),
        (
            share("50%", seconds(0.0), None),
            "breaker-window must be a whole number of seconds from 1 s to 1 h",
        ),
        (
            share("50%", seconds(7_200.0), None),
            "breaker-window must be a whole number of seconds from 1 s to 1 h, got 2 h",
        ),
        (
            share("50%", None, Some(0.0)),
            "breaker-min-attempts must be a whole number from 1 to 1000000, got 0",
        ),
        (
            share("50%", None, Some(1e7)),
            "breaker-min-attempts must be a whole number from 1 to 1000000",
        ),
        (
            Params {
                breaker_window: seconds(10.0),
                breaker_failures: Some(5.0),
                ..Params::default()
            },
            "breaker-window must be given only with breaker-share",
        ),
        (
            Params {
                breaker_min_attempts: Some(10.0),
                ..Params::default()
            },
            "breaker-min-attempts must be given only with breaker-share",
        ),
    ];
    for (params, expected) in cases {
        let message = refusal(params);
        assert!(message.starts_with(expected), "{message}");
    }
}

#[test]
fn the_defaults_are_the_documented_ones() {
    let bounds = |params: Params| params.scenario().unwrap().bounds;
    assert_eq!(
        bounds(quota("aws", None, None)).retry_quota,
        Some(RetryQuota::Aws { tokens: 500 })
    );
    assert_eq!(
        bounds(quota("grpc", None, None)).retry_quota,
        Some(RetryQuota::Grpc {
            max_tokens: 10,
            token_ratio: 0.1
        })
    );
    assert_eq!(
        bounds(breaker(5.0, None, None)).breaker,
        Some(Breaker {
            failures: Some(5),
            share: None,
            cooldown_s: 30,
            probes: 1
        })
    );
    assert_eq!(
        bounds(share("50%", None, None)).breaker,
        Some(Breaker {
            failures: None,
            share: Some(FailureShare {
                percent: 50,
                window_s: 30,
                min_attempts: 100
            }),
            cooldown_s: 30,
            probes: 1
        })
    );
    // Both rules at once.
    let both = Params {
        breaker_failures: Some(5.0),
        ..share("20", Some(DurationInput::Text("10s".into())), Some(40.0))
    };
    assert_eq!(
        bounds(both).breaker.map(|b| (b.failures, b.share)),
        Some((
            Some(5),
            Some(FailureShare {
                percent: 20,
                window_s: 10,
                min_attempts: 40
            })
        ))
    );
    // Without them, neither bound.
    let plain = bounds(Params::default());
    assert_eq!((plain.retry_quota, plain.breaker), (None, None));
}

/// A field that only another field's rule reads is refused without that rule (as the JS API's
/// `storm` receives them), and accepted with it.
#[test]
fn fields_without_their_rule_are_refused_by_name() {
    let seconds = |s: f64| Some(DurationInput::Seconds(s));
    let cases = [
        (
            Params {
                budget_window: seconds(10.0),
                ..Params::default()
            },
            Params {
                budget: Some(NumberInput::Number(10.0)),
                budget_window: seconds(10.0),
                ..Params::default()
            },
            "budget-window must be given only with budget, got 10",
        ),
        (
            Params {
                budget_floor: Some(NumberInput::Number(1.0)),
                ..Params::default()
            },
            Params {
                budget: Some(NumberInput::Number(10.0)),
                budget_floor: Some(NumberInput::Number(1.0)),
                ..Params::default()
            },
            "budget-floor must be given only with budget",
        ),
        (
            Params {
                resume_rate: Some(NumberInput::Number(5.0)),
                ..Params::default()
            },
            Params {
                pause: Some(true),
                resume_rate: Some(NumberInput::Number(5.0)),
                ..Params::default()
            },
            "resume-rate must be given only with pause",
        ),
        (
            Params {
                retry_after_threshold: seconds(2.0),
                ..Params::default()
            },
            Params {
                retry_after: seconds(30.0),
                retry_after_threshold: seconds(2.0),
                ..Params::default()
            },
            "retry-after-threshold must be given only with retry-after",
        ),
        (
            Params {
                batch_at: seconds(60.0),
                ..Params::default()
            },
            Params {
                batch: Some(100.0),
                batch_at: seconds(60.0),
                ..Params::default()
            },
            "batch-at must be given only with batch",
        ),
        (
            Params {
                policy: Some("exponential".into()),
                interval: seconds(10.0),
                ..Params::default()
            },
            Params {
                policy: Some("fixed".into()),
                interval: seconds(10.0),
                ..Params::default()
            },
            "interval must be given only with the fixed policy (a base, multiplier, cap or list of gaps makes the policy exponential), got 10",
        ),
    ];
    for (orphan, with_rule, expected) in cases {
        let message = refusal(orphan);
        assert!(message.starts_with(expected), "{message}");
        assert!(with_rule.scenario().is_ok(), "{expected}: with its rule");
    }
}

/// The arithmetic view is a fixed interval retried until the fix: a backoff policy or a stop
/// rule given to it is refused, not replaced by the cap as an interval.
#[test]
fn the_arithmetic_view_refuses_a_backoff_policy_and_a_stop_rule() {
    let arithmetic = |params: Params| match params.arithmetic_scenario() {
        Ok(_) => panic!("accepted"),
        Err(error) => error.to_string(),
    };
    let plain = Params {
        attempts: None,
        ..Params::default()
    };
    assert!(plain.arithmetic_scenario().is_ok());
    for (params, field) in [
        (
            Params {
                policy: Some("exponential".into()),
                ..plain.clone()
            },
            "policy",
        ),
        (
            Params {
                attempts: Some(2.0),
                ..plain.clone()
            },
            "attempts",
        ),
        (
            Params {
                give_up: Some(DurationInput::Seconds(600.0)),
                ..plain.clone()
            },
            "give-up",
        ),
    ] {
        let message = arithmetic(params);
        assert!(
            message.starts_with(&format!("{field} must be left out: the arithmetic view")),
            "{message}"
        );
    }
}

/// The arithmetic view names the key that was given, not the rule it belongs to
/// (`budgetFloor` was refused as `budget`) nor the policy a formula key makes (`base` given to
/// the JS API was refused as `policy`), and refuses an engine other than its own.
#[test]
fn the_arithmetic_view_names_the_key_given() {
    let refused = |json: &str| {
        let params: Params = serde_json::from_str(json).unwrap();
        params
            .arithmetic_scenario_as_given()
            .map(|_| ())
            .map_err(|error| error.to_string())
    };
    let left_out = "must be left out: the arithmetic view models only arrivals";
    for (json, key) in [
        (r#"{"budgetFloor": 1}"#, "budget-floor"),
        (r#"{"breakerCooldown": "30s"}"#, "breaker-cooldown"),
        (r#"{"base": "30s"}"#, "base"),
        (r#"{"gaps": [5, 60]}"#, "gaps"),
        (r#"{"engine": "fluid"}"#, "engine"),
        (r#"{"mode": "proportional", "factor": 0.5}"#, "mode"),
    ] {
        let refusal = refused(json);
        assert!(
            refusal
                .as_ref()
                .is_err_and(|e| e.starts_with(&format!("{key} {left_out}"))),
            "{json}: {refusal:?}"
        );
    }
    assert_eq!(
        refused(
            r#"{"arrivals": "600/min", "outage": "10m", "interval": 30, "engine": "arithmetic", "policy": "fixed", "mode": "none"}"#
        ),
        Ok(())
    );
}

/// A negative or NaN duration given to the JS API as a number was quoted as its length without
/// the sign, or as 0 s: "a duration from 0 s to 7 days, got 10 min" for -600. It is quoted with
/// its sign, as a duration.
#[test]
fn a_negative_or_nan_duration_is_quoted_as_given() {
    let refusal = |json: &str| {
        let params: Params = serde_json::from_str(json).unwrap();
        params.scenario().map(|_| ()).unwrap_err().to_string()
    };
    for (json, quoted) in [
        (r#"{"attempts": 3, "base": "30s", "multiplier": 2, "cap": "1h", "outage": -600}"#, "outage must be 0 s or from 0.5 s to 6 days 23 h 59 min 59 s (the storm runs in whole seconds, rounding halves up, and simulates the outage's recovery within its 7 days), got -10 min"),
        (r#"{"attempts": 3, "base": "30s", "multiplier": 2, "cap": "1h", "traffic": -3600}"#, "got -1 h"),
        (r#"{"attempts": 3, "base": "30s", "multiplier": 2, "cap": "1h", "latency": -1}"#, "latency must be a duration from 0 s to less than the timeout (5 s) in whole microseconds, as simulated: a destination slower than the timeout never answers in time, got -1 s"),
        (r#"{"attempts": 3, "base": "30s", "multiplier": 2, "cap": "1h", "timeout": -2}"#, "got -2 s"),
        (r#"{"attempts": 3, "base": "30s", "multiplier": 2, "cap": "1h", "budget": 10, "budgetWindow": -5}"#, "got -5 s"),
    ] {
        let message = refusal(json);
        assert!(message.contains(quoted), "{json}: {message}");
    }
}

/// The storm runs in whole seconds: its outage, its start, the traffic and the batch's second
/// are rounded to the nearest second, halves up (outside SRE review: the rule was only in the
/// code). The staleness question reads the same `outage` exactly.
#[test]
fn the_storms_durations_round_to_whole_seconds_halves_up() {
    let scenario = |json: &str| {
        let params: Params = serde_json::from_str(json).unwrap();
        *params.scenario().unwrap().spec()
    };
    let spec = scenario(
        r#"{"outage": "2.5s", "outageStart": "1.49s", "traffic": "10.5s", "batch": 5, "batchAt": "2.7s"}"#,
    );
    assert_eq!(spec.outage, (1, 3));
    assert_eq!(spec.traffic_s, 11);
    assert_eq!(spec.batch, Some((5, 3)));
    assert_eq!(scenario(r#"{"outage": "0.5s"}"#).outage.1, 1);
    assert_eq!(scenario(r#"{"outage": 0}"#).outage.1, 0);
    // Rounded first, then held to 7 days: 7 days 0.4 s is 7 days, as an outage 0.4 s short of
    // them is rounded (it was refused as past 7 days); 7 days 0.5 s rounds past them.
    assert_eq!(Params::traffic_of_text("7d 0.4s"), Ok(604_800));
    assert!(Params::traffic_of_text("7d 0.5s")
        .is_err_and(|e| e.to_string().ends_with("got 7 days 0.5 s")));
}
