//! What a parameter that must be a number or a name holds, in the core's own words: the JS API
//! hands values over untyped, and serde refuses a value of the wrong type (`multiplier: "3"`)
//! knowing only the type ("must be a number"). The range comes from the validation itself, asked
//! about a value of the right type that no range holds (NaN, or an empty name), so the words are
//! those every other refusal of the field uses and cannot drift from them.

use super::{NumberInput, Params};

/// What `key` (as the JS API spells it) must be, as its refusals say it: `"a number from 1 to
/// 1000"` for `multiplier`, `"one of none, full, …"` for `mode`. `None` for a key whose value
/// is no plain number or name (durations, rates and shares read text too, and say so). `samples`
/// has a range of each function's own: both are named.
pub fn expected_value(key: &str) -> Option<String> {
    if key == "samples" {
        return Some(format!(
            "a whole number from 1 to {} (staleness: to {})",
            crate::give_up::MAX_SAMPLES,
            crate::staleness::MAX_SAMPLES
        ));
    }
    let nan = Some(f64::NAN);
    let empty = Some(String::new());
    let mut params = Params {
        base: Some(super::DurationInput::Seconds(30.0)),
        multiplier: Some(3.0),
        cap: Some(super::DurationInput::Seconds(10_800.0)),
        attempts: Some(14.0),
        ..Params::default()
    };
    let refusal = match key {
        "multiplier" => {
            params.multiplier = nan;
            params.policy().err()
        }
        "attempts" => {
            params.attempts = nan;
            params.policy().err()
        }
        "mode" => {
            params.mode = empty;
            params.jitter().err()
        }
        "factor" => {
            params.mode = Some("proportional".into());
            params.factor = nan;
            params.jitter().err()
        }
        "seed" => {
            params.seed = nan;
            params.seed().err()
        }
        "deliveries" => {
            params.deliveries = nan;
            params.deliveries().err()
        }
        "engine" => {
            params.engine = empty;
            params.engine().err()
        }
        storm => {
            let mut params = Params::default();
            match storm {
                "policy" => params.policy = empty,
                "batch" => params.batch = nan,
                "retryQuota" => params.retry_quota = empty,
                "retryQuotaTokens" => {
                    params.retry_quota = Some("aws".into());
                    params.retry_quota_tokens = nan;
                }
                "retryQuotaRatio" => {
                    params.retry_quota = Some("grpc".into());
                    params.retry_quota_ratio = nan;
                }
                "breakerFailures" => params.breaker_failures = nan,
                "breakerMinAttempts" => {
                    params.breaker_share = Some(NumberInput::Number(50.0));
                    params.breaker_min_attempts = nan;
                }
                "breakerProbes" => {
                    params.breaker_failures = Some(5.0);
                    params.breaker_probes = nan;
                }
                _ => return None,
            }
            params.scenario().err()
        }
    }?;
    let message = refusal.to_string();
    let (_, valid) = message.split_once(" must be ")?;
    Some(valid.rsplit_once(", got ")?.0.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_number_and_name_says_its_range_as_its_refusals_do() {
        for (key, valid) in [
            ("multiplier", "a number from 1 to 1000"),
            ("attempts", "a whole number from 1 to 10000"),
            (
                "mode",
                "one of none, full, equal, decorrelated, proportional",
            ),
            (
                "factor",
                "a number from 0 to 1: 0 for none, else at least 0.000001",
            ),
            ("deliveries", "a whole number from 1 to 10000000"),
            ("engine", "one of auto, arithmetic, discrete, fluid"),
            ("policy", "fixed or exponential"),
            ("batch", "a whole number from 1 to 10000000"),
            ("retryQuota", "aws or grpc"),
            (
                "retryQuotaTokens",
                "a whole number of tokens from 10 to 1000000",
            ),
            ("breakerFailures", "a whole number from 1 to 10000"),
            ("breakerMinAttempts", "a whole number from 1 to 1000000"),
            ("breakerProbes", "a whole number from 1 to 1000"),
            (
                "samples",
                "a whole number from 1 to 10000000 (staleness: to 100000)",
            ),
        ] {
            assert_eq!(expected_value(key).as_deref(), Some(valid), "{key}");
        }
        let seed = expected_value("seed").unwrap();
        assert!(seed.contains("9007199254740991"), "{seed}");
        let ratio = expected_value("retryQuotaRatio").unwrap();
        assert!(ratio.starts_with("a number from 0.000001 to 1"), "{ratio}");
    }

    #[test]
    fn every_plain_number_or_name_of_the_parameters_is_described() {
        // The parameters serde reads as a bare number or string: a new one must be described.
        for key in crate::field_names::of::<Params>() {
            let mut object = serde_json::Map::new();
            object.insert(key.to_string(), serde_json::json!({}));
            let refusal = serde_json::from_value::<Params>(object.into())
                .unwrap_err()
                .to_string();
            let plain = refusal.contains("expected f64") || refusal.contains("expected a string");
            let described = expected_value(key).is_some();
            assert_eq!(plain, described, "{key}: {refusal}");
        }
    }

    #[test]
    fn durations_and_other_keys_are_not_described() {
        for key in ["base", "giveUp", "arrivals", "budget", "pause", "nope"] {
            assert_eq!(expected_value(key), None, "{key}");
        }
    }
}
