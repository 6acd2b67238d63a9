//! Storm fields that apply only with another setting (a budget's window only with a budget, a
//! resume rate only with a pause): one table that both refuses such a field given alone (the CLI
//! and the JS API: it would be ignored silently) and tells the page which fields to grey out and
//! leave out as the other settings stand (a resume rate left typed after Pause was unticked
//! refused the storm with "resume-rate must be given only with pause").

use super::Params;
use crate::Error;

/// A field, whether the setting it needs is set (so that it applies), and that setting as a
/// refusal names it (`pause`: "resume-rate must be given only with pause").
struct Dependent {
    field: &'static str,
    applies: bool,
    needs: &'static str,
}

impl Params {
    fn dependents(&self) -> [Dependent; 12] {
        let dependent = |field, applies, needs| Dependent {
            field,
            applies,
            needs,
        };
        let budget = self.budget.is_some();
        let share = self.breaker_share.is_some();
        let breaker = share || self.breaker_failures.is_some();
        [
            dependent("budget-window", budget, "budget"),
            dependent("budget-floor", budget, "budget"),
            dependent("resume-rate", self.pause == Some(true), "pause"),
            dependent(
                "retry-after-threshold",
                self.retry_after.is_some(),
                "retry-after",
            ),
            dependent("batch-at", self.batch.is_some(), "batch"),
            dependent(
                "interval",
                self.policy.as_deref().is_none_or(|p| p == "fixed"),
                "the fixed policy (a base, multiplier, cap or list of gaps makes \
                 the policy exponential)",
            ),
            dependent(
                "retry-quota-tokens",
                self.retry_quota.is_some(),
                "retry-quota aws or grpc",
            ),
            // The ratio is gRPC's alone (it read "aws or grpc", then with aws "grpc only").
            dependent(
                "retry-quota-ratio",
                self.retry_quota.as_deref() == Some("grpc"),
                crate::storm::RATIO_NEEDS,
            ),
            dependent("breaker-window", share, "breaker-share"),
            dependent("breaker-min-attempts", share, "breaker-share"),
            dependent(
                "breaker-cooldown",
                breaker,
                "breaker-failures or breaker-share",
            ),
            dependent(
                "breaker-probes",
                breaker,
                "breaker-failures or breaker-share",
            ),
        ]
    }

    /// The storm fields that do not apply as the other settings stand, given or not, each with
    /// the setting it needs (`("resume-rate", "pause")`): the page greys them out and leaves
    /// them out of the storm.
    pub fn unused_storm_fields(&self) -> Vec<(&'static str, &'static str)> {
        self.dependents()
            .into_iter()
            .filter(|d| !d.applies)
            .map(|d| (d.field, d.needs))
            .collect()
    }

    /// Whether the field `key` (as the CLI and the page name it) is given.
    pub(crate) fn is_given(&self, key: &str) -> bool {
        self.given().any(|(given, _)| given == key)
    }

    /// Refuses the first of `fields` (in the table's order) that is given where it does not
    /// apply.
    pub(super) fn refuse_unused(&self, fields: &[&str]) -> Result<(), Error> {
        match self
            .dependents()
            .into_iter()
            .find(|d| fields.contains(&d.field) && !d.applies && self.is_given(d.field))
        {
            Some(d) => Err(Error::out_of_range(
                d.field,
                self.given_text_of(d.field),
                format!("given only with {}", d.needs),
            )),
            None => Ok(()),
        }
    }
}
