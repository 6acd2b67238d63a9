// Generated from the Rust types by src/api_types.rs: do not edit by hand.

/** The chart `chartSvg` draws. */
export type ChartKind = "timeline" | "distribution" | "herd";
/** Every page setting as text, keyed as in the URL hash ("base": "30 s", "mode": "full", ...). */
export type Settings = Record<string, string>;
/** What the page's controls need: the duration sliders' stops, each view's section and title;
 * and the `<backoff-lab>` element's attributes that are not settings (`state`, `actions`). */
export interface PageConfig {
  sliderStops: Record<string, number[]>;
  views: { name: View; section: string; title: string }[];
  ownAttributes: string[];
}
/** What `drawHerd` returns: the herd's rates, the unjittered spike's, and the caption; `bin_s`
 * is the width of the whole schedule's bins (each `Rates` has its own). */
export interface HerdSummary {
  deliveries: number; mode: string; seed: number; peak_per_s: number; mean_per_s: number;
  peak_to_mean: number; bin_s: number; first_retry: Rates; unjittered_first_retry: Rates;
  caption: string;
}
/** A chart's computed step, as `drawView`, `viewSvg` and `survivalExport` take it: what
 * `computeView` returns (its result packed as bytes), or a survival map assembled from the rows
 * `computeSurvivalRows` returns (the timeline has no result: `{ view: "timeline" }`). */
export type Computed = Uint8Array | { view: "timeline" } | { view: "survival"; rows: SurvivalRow[] };
/** What the API's functions throw: an Error, with the input (field) it is about; of a compared
 * schedule, `field` is `compare` and `key` its key. */
export interface BackoffError extends Error { field?: string; key?: string; }
/** What the page's functions throw: an Error, with the control (setting) it is about. */
export interface PageSettingError extends Error { setting?: string; chartLimit?: boolean; }
/** A schedule's parameters: base, multiplier and cap (or gaps and thenEvery), attempts or giveUp, and window. */
export type ScheduleParams = Pick<Params, "base" | "multiplier" | "cap" | "attempts" | "giveUp" | "window" | "gaps" | "thenEvery">;
/** A schedule drawn but not reported (chartSvg's timeline, a compared schedule): the policy alone. */
export type DrawnScheduleParams = Pick<Params, "base" | "multiplier" | "cap" | "attempts" | "giveUp" | "gaps" | "thenEvery">;
/** The give-up distribution's: a schedule's with its jitter, samples and the deadline-safe purpose. */
export type GiveUpParams = Pick<Params, "base" | "multiplier" | "cap" | "attempts" | "giveUp" | "gaps" | "thenEvery" | "mode" | "factor" | "seed" | "samples" | "deadline" | "percentile">;
/** sampledMeanGiveUp's: a schedule's with its jitter and samples. */
export type SampledMeanParams = Pick<Params, "base" | "multiplier" | "cap" | "attempts" | "giveUp" | "gaps" | "thenEvery" | "mode" | "factor" | "seed" | "samples">;
/** A herd's: a schedule's with its jitter and deliveries. */
export type HerdParams = Pick<Params, "base" | "multiplier" | "cap" | "attempts" | "giveUp" | "gaps" | "thenEvery" | "mode" | "factor" | "seed" | "deliveries">;
/** A storm scenario's: every field not given takes the article's value. */
export type StormParams = Pick<Params, "base" | "multiplier" | "cap" | "attempts" | "giveUp" | "gaps" | "thenEvery" | "mode" | "factor" | "seed" | "arrivals" | "traffic" | "batch" | "batchAt" | "capacity" | "latency" | "timeout" | "outage" | "outageStart" | "policy" | "interval" | "budget" | "budgetWindow" | "budgetFloor" | "rateLimit" | "pause" | "resumeRate" | "retryAfter" | "retryAfterThreshold" | "abandon" | "retryQuota" | "retryQuotaTokens" | "retryQuotaRatio" | "breakerFailures" | "breakerShare" | "breakerWindow" | "breakerMinAttempts" | "breakerCooldown" | "breakerProbes" | "engine">;
/** The staleness report's: a schedule's with its jitter, samples, outage, tolerance and maxLag. */
export type StalenessParams = Pick<Params, "base" | "multiplier" | "cap" | "attempts" | "giveUp" | "gaps" | "thenEvery" | "mode" | "factor" | "seed" | "samples" | "outage" | "tolerance" | "maxLag">;
/** A survival map's: a storm scenario's but traffic (each cell's lasts through its outage and the hour after it). */
export type SurvivalParams = Pick<Params, "base" | "multiplier" | "cap" | "attempts" | "giveUp" | "gaps" | "thenEvery" | "mode" | "factor" | "seed" | "arrivals" | "batch" | "batchAt" | "capacity" | "latency" | "timeout" | "outage" | "outageStart" | "policy" | "interval" | "budget" | "budgetWindow" | "budgetFloor" | "rateLimit" | "pause" | "resumeRate" | "retryAfter" | "retryAfterThreshold" | "abandon" | "retryQuota" | "retryQuotaTokens" | "retryQuotaRatio" | "breakerFailures" | "breakerShare" | "breakerWindow" | "breakerMinAttempts" | "breakerCooldown" | "breakerProbes" | "engine">;
/** What `arithmeticView` reads: `policy`, `mode` and `engine` only as "fixed", "none" and "arithmetic". */
export type ArithmeticParams = Pick<Params, "arrivals" | "outage" | "interval" | "policy" | "mode" | "engine">;
/** What `chartSvg` reads: the timeline's, the distribution's or the herd's. */
export type ChartParams = DrawnScheduleParams | GiveUpParams | HerdParams;

export type Params = {
/**
 * Gap before the first retry (required for a formula schedule; a storm takes the
 * article's 30 s).
 */
base?: DurationInput | null,
/**
 * Growth factor between gaps, 1 to 1000 (required for a formula schedule; a storm takes
 * the article's 3).
 */
multiplier?: number | null,
/**
 * Longest gap (required for a formula schedule; a storm takes the article's 3 h).
 */
cap?: DurationInput | null,
/**
 * Total attempts, the first delivery included.
 */
attempts?: number | null,
/**
 * Give-up deadline since the first failure.
 */
giveUp?: DurationInput | null,
/**
 * The early window for `attempts_within_window` (default 20 min).
 */
window?: DurationInput | null,
/**
 * An explicit schedule: the gaps before retries 1, 2, ... (base, multiplier and cap are
 * then left out).
 */
gaps?: Array<DurationInput> | null,
/**
 * An explicit schedule's tail: then one attempt every this long.
 */
thenEvery?: DurationInput | null,
/**
 * Jitter mode: `none`, `full`, `equal`, `decorrelated`, `proportional`. Left out, each
 * function's default: full jitter for `jitter`, `herd` and their charts, as the CLI.
 */
mode?: "none" | "full" | "equal" | "decorrelated" | "proportional" | null,
/**
 * The factor of proportional jitter: 0 (none), or 0.000001 to 1 (default 0.2).
 */
factor?: number | null,
/**
 * The seed of every random draw, 0 to 2^53 − 1.
 */
seed?: number | null,
/**
 * Give-up times to sample (default 1,000,000, or as many as the work limit allows for the
 * schedule when fewer: 200,020 of 10,000 attempts).
 */
samples?: number | null,
/**
 * Deliveries in a herd (default 1,000).
 */
deliveries?: number | null,
/**
 * A deadline for deadline-safe sizing: how many attempts keep a percentile above it.
 */
deadline?: DurationInput | null,
/**
 * The percentile (in percent, from 0.1 to 99.9, default 5) that must reach `deadline`.
 */
percentile?: NumberInput | null,
/**
 * Storm: steady first deliveries (default 600/min).
 */
arrivals?: NumberInput | null,
/**
 * Storm: how long the steady traffic lasts (default 2 h).
 */
traffic?: DurationInput | null,
/**
 * Storm: a one-off batch of deliveries.
 */
batch?: number | null,
/**
 * Storm: when the batch arrives (default at 0; only with `batch`).
 */
batchAt?: DurationInput | null,
/**
 * Storm: the destination's healthy capacity (default 30/s).
 */
capacity?: NumberInput | null,
/**
 * Storm: the destination's healthy latency (default 50 ms).
 */
latency?: DurationInput | null,
/**
 * Storm: the sender's timeout (default 5 s).
 */
timeout?: DurationInput | null,
/**
 * Storm: how long the outage lasts (default 10 min).
 */
outage?: DurationInput | null,
/**
 * Storm: when the outage starts (default at 0).
 */
outageStart?: DurationInput | null,
/**
 * Storm: `fixed` (default) or `exponential` (the base, multiplier and cap above).
 */
policy?: "fixed" | "exponential" | null,
/**
 * Storm: the fixed policy's interval (default 30 s; only with the fixed policy).
 */
interval?: DurationInput | null,
/**
 * Storm: the retry budget, a percentage of first attempts (`10%`).
 */
budget?: NumberInput | null,
/**
 * Storm: the budget's trailing window (default 60 s; only with `budget`).
 */
budgetWindow?: DurationInput | null,
/**
 * Storm: retries per second the budget always allows (default 0.5/s; only with `budget`).
 */
budgetFloor?: NumberInput | null,
/**
 * Storm: a per-endpoint rate limit on all attempts (`50/s`).
 */
rateLimit?: NumberInput | null,
/**
 * Storm: hold deliveries while the endpoint is down.
 */
pause?: boolean | null,
/**
 * Storm: after a pause, attempts per second at most (default: the rate limit, else what
 * the destination answers in time in a second from an empty queue; only with `pause`).
 */
resumeRate?: NumberInput | null,
/**
 * Storm: the destination answers 429 with this `Retry-After` when overloaded.
 */
retryAfter?: DurationInput | null,
/**
 * Storm: the queue wait above which it does (default 1 s; only with `retryAfter`).
 */
retryAfterThreshold?: DurationInput | null,
/**
 * Storm: the destination skips requests whose sender already timed out.
 */
abandon?: boolean | null,
/**
 * Storm: a token bucket on retries, `aws` (the AWS SDKs' standard retry mode) or `grpc`
 * (gRPC's retry throttling).
 */
retryQuota?: "aws" | "grpc" | null,
/**
 * Storm: the retry quota's bucket size, whole tokens (default 500 for `aws`, 10 for `grpc`).
 */
retryQuotaTokens?: number | null,
/**
 * Storm: tokens a success gives back under the `grpc` quota (default 0.1).
 */
retryQuotaRatio?: number | null,
/**
 * Storm: a circuit breaker opening after this many consecutive failures.
 */
breakerFailures?: number | null,
/**
 * Storm: a circuit breaker opening when this share of the attempts over its window failed
 * (a whole percentage, as `50` or `"50%"`).
 */
breakerShare?: NumberInput | null,
/**
 * Storm: the failure share's window (default 30 s).
 */
breakerWindow?: DurationInput | null,
/**
 * Storm: attempts the window must hold before the share counts (default 100).
 */
breakerMinAttempts?: number | null,
/**
 * Storm: how long the breaker stays open before probing (default 30 s).
 */
breakerCooldown?: DurationInput | null,
/**
 * Storm: attempts sent at most while half-open (default 1).
 */
breakerProbes?: number | null,
/**
 * Storm: `discrete` (every delivery, seeded; `storm`'s default), `fluid` (expected values,
 * fast; `survival`'s default) or `auto` (fluid where it represents the scenario, else
 * discrete); `arithmetic` only for `arithmeticView`, whose engine it is.
 */
engine?: "discrete" | "fluid" | "auto" | "arithmetic" | null,
/**
 * Staleness: how long an event stays worth delivering.
 */
tolerance?: DurationInput | null,
/**
 * Staleness: how late after recovery a delivery may arrive (with `tolerance`, a suggested
 * schedule).
 */
maxLag?: DurationInput | null,
};

export type DurationInput = number | string;

export type NumberInput = number | string;

export type ChartOptions = {
/**
 * Draw for a dark page (default false).
 */
dark?: boolean,
/**
 * Device pixels per CSS pixel (0.5 to 4, default 1); sizes of text, marks and lines scale
 * with it.
 */
scale?: number,
/**
 * A logarithmic time axis (`ln(1 + t / base)`), for long tails (default false).
 */
logScale?: boolean,
/**
 * The host page's background (`#faf8f5`, `#fff`, `rgb(250, 248, 245)`), filled behind the
 * chart and under its lines' halos in place of the theme's own white or near-black, for a
 * site whose page is off-white (default: the theme's). Text and lines keep the theme's
 * colours: give a light background with the light theme, a dark one with the dark.
 */
background?: string,
};

export type ReportRow = {
/**
 * 1 for the first delivery.
 */
attempt: number,
/**
 * The wait before this attempt; `null` for attempt 1.
 */
gap_s: number | null,
/**
 * Seconds since the first failure.
 */
elapsed_s: number,
/**
 * Whether the gap sits at the cap.
 */
capped: boolean,
/**
 * The gap as the article writes it: `none`, `4.5 min`, `3 h (capped)`.
 */
gap_text: string,
/**
 * The elapsed time as the article writes it: `6.5 min`, `24 h 02 min`.
 */
elapsed_text: string,
};

export type ScheduleReport = {
/**
 * One row per attempt (the page's drawn schedule: the rows it shows, see
 * `page::table::shown`; every other field is the whole schedule's).
 */
rows: Array<ReportRow>,
/**
 * Attempts in all.
 */
attempts: number,
/**
 * The policy's base, seconds.
 */
base_s: number,
/**
 * The policy's multiplier.
 */
multiplier: number,
/**
 * The policy's cap, seconds.
 */
cap_s: number,
/**
 * Seconds from the first failure to the last attempt.
 */
give_up_s: number,
/**
 * The first attempt whose gap sits at the cap, or `null`.
 */
first_capped_attempt: number | null,
/**
 * The early window, seconds (20 min unless chosen).
 */
window_s: number,
/**
 * Attempts within the early window, the first delivery included.
 */
attempts_within_window: number,
/**
 * Share (0 to 1) of the give-up time spent in capped gaps.
 */
capped_share: number,
/**
 * The last gap without a cap, or `null` (one attempt, or beyond f64).
 */
uncapped_last_gap_s: number | null,
/**
 * Whether every gap is longer than all previous gaps combined.
 */
every_gap_exceeds_previous_total: boolean,
/**
 * Whether every gap below the cap is longer than all previous gaps combined.
 */
ramp_exceeds_previous_total: boolean,
/**
 * The derived facts, one plain sentence each.
 */
facts: Array<string>,
/**
 * A paragraph describing the timeline figure; also its text alternative.
 */
caption: string,
};

export type Percentiles = {
/**
 * 1st percentile.
 */
p1: number,
/**
 * 5th percentile.
 */
p5: number,
/**
 * Median.
 */
p50: number,
/**
 * 95th percentile.
 */
p95: number,
/**
 * 99th percentile.
 */
p99: number,
};

export type GiveUpSummary = {
/**
 * `true` when computed exactly; `false` for the decorrelated mode, estimated by sampling.
 */
exact: boolean,
/**
 * The expected give-up time, seconds.
 */
expected_give_up_s: number,
/**
 * The standard error of `expected_give_up_s` when it is an estimate.
 */
expected_std_error_s: number | null,
/**
 * Percentiles of the give-up time (exact unless `exact` is false).
 */
percentiles: Percentiles,
/**
 * The give-up time without jitter.
 */
unjittered_give_up_s: number,
/**
 * The earliest and latest possible give-up times.
 */
range_s: [number, number],
};

export type Histogram = {
/**
 * The left edge of the first bin, seconds.
 */
start_s: number,
/**
 * The width of every bin, seconds.
 */
bin_s: number,
/**
 * How many values fell in each bin.
 */
counts: Array<number>,
};

export type Sampled = {
/**
 * How many give-up times were drawn.
 */
samples: number,
/**
 * The seed they were drawn with.
 */
seed: number,
/**
 * Their mean, seconds.
 */
mean_s: number,
/**
 * The standard error of the mean.
 */
std_error_s: number,
/**
 * Their percentiles.
 */
percentiles: Percentiles,
/**
 * A histogram of them, for the chart.
 */
histogram: Histogram,
};

export type DeadlineSafe = {
/**
 * The deadline, seconds.
 */
deadline_s: number,
/**
 * The percentile as a share (0.05 for p5).
 */
percentile: number,
/**
 * The smallest attempt count whose percentile give-up time reaches the deadline.
 */
attempts: number,
};

export type JitterReport = {
/**
 * The jitter mode's name.
 */
mode: string,
/**
 * The proportional factor, when the mode is proportional.
 */
factor: number | null,
/**
 * Attempts in all.
 */
attempts: number,
/**
 * The seeded sample.
 */
sampled: Sampled,
/**
 * The deadline-safe attempt count, when a deadline was given.
 */
deadline_safe: DeadlineSafe | null,
/**
 * The numbers in words.
 */
caption: string,
/**
 * `true` when computed exactly; `false` for the decorrelated mode, estimated by sampling.
 */
exact: boolean,
/**
 * The expected give-up time, seconds.
 */
expected_give_up_s: number,
/**
 * The standard error of `expected_give_up_s` when it is an estimate.
 */
expected_std_error_s: number | null,
/**
 * Percentiles of the give-up time (exact unless `exact` is false).
 */
percentiles: Percentiles,
/**
 * The give-up time without jitter.
 */
unjittered_give_up_s: number,
/**
 * The earliest and latest possible give-up times.
 */
range_s: [number, number],
};

export type Rates = {
/**
 * The most arrivals in any one bin, divided by its width: the busiest second's arrivals
 * with 1 s bins, the busiest bin's average rate with wider ones.
 */
peak_per_s: number,
/**
 * Arrivals divided by the window they belong to: for the first retry the first gap's reach
 * (the upper end of its jitter window: the gap itself without jitter, 1.2 × it with
 * proportional 0.2, 3 × base, capped, with decorrelated jitter); for the whole schedule its
 * reach likewise, the sum of every gap's upper end (the unjittered give-up time without
 * jitter or with full or equal jitter), so that a peak is not below the mean the way a
 * herd spread past the unjittered give-up time made it (0.6× under ±100% proportional
 * jitter). At least one bin's width and a second: the deliveries fail across their second,
 * so even retries of one instant after it land in two bins (a 1 s first gap under full
 * jitter peaked at 0.501× a mean over 1 s: outside review). Below 1× only by sampling
 * noise.
 */
mean_per_s: number,
/**
 * `peak_per_s / mean_per_s`: 1 is perfectly even; the unjittered first retry gives the gap
 * in seconds (all in one second).
 */
peak_to_mean: number,
/**
 * The window, seconds.
 */
window_s: number,
/**
 * The width of the bins the peak was counted in, seconds: 1, or a round width (2 s, 5 s,
 * ..., 1 min, ..., 1 h, ..., days) when the arrivals span too long for one-second bins.
 */
bin_s: number,
};

export type Herd = {
/**
 * How many deliveries failed together.
 */
deliveries: number,
/**
 * The jitter mode's name.
 */
mode: string,
/**
 * The seed of the draws.
 */
seed: number,
/**
 * Width of each bin of `per_second`, seconds: 1 unless the schedule spans 999,999 s or
 * more, then the narrowest round width (2 s, 5 s, ..., 1 min, ..., 1 h, ..., days) that
 * keeps within 1,000,000 bins.
 */
bin_s: number,
/**
 * Retries (every attempt after the first) arriving in each bin of `bin_s` seconds, over
 * the whole schedule: bin `i` starts `i × bin_s` after the failure's second began.
 */
per_second: Array<number>,
/**
 * First retries arriving in each bin of `first_retry.bin_s` seconds: 1 unless they spread
 * over 99,999 s or more, then the narrowest round width that keeps within 100,000 bins.
 */
first_retry_per_second: Array<number>,
/**
 * Peak over the whole schedule, per second: the busiest bin of `per_second` divided by
 * `bin_s`.
 */
peak_per_s: number,
/**
 * Mean over the whole schedule, per second.
 */
mean_per_s: number,
/**
 * `peak_per_s / mean_per_s` over the whole schedule.
 */
peak_to_mean: number,
/**
 * The same rates for the first retry alone.
 */
first_retry: Rates,
};

export type Interval = {
/**
 * 1-based minute (0-based second in per-second rows).
 */
minute: number,
/**
 * Attempts made (first attempts plus retries).
 */
attempts: number,
/**
 * First attempts.
 */
first_attempts: number,
/**
 * Retries.
 */
retries: number,
/**
 * Attempts that succeeded within the timeout (goodput).
 */
successes: number,
/**
 * Attempts that failed (timeouts, outage).
 */
failures: number,
/**
 * Attempts answered 429 with `Retry-After`.
 */
rejected_429: number,
/**
 * Duplicate side effects: processings of a delivery the destination had already processed.
 */
duplicates: number,
/**
 * Deliveries neither delivered nor exhausted, at the end.
 */
backlog: number,
/**
 * Requests waiting in the destination's queue, at the end.
 */
queue: number,
/**
 * Deliveries exhausted so far.
 */
exhausted: number,
/**
 * Deliveries held by a bound (pause, rate limit, budget, retry quota, circuit breaker), at
 * the end.
 */
deferred: number,
};

export type DrainedBy = "delivery" | "exhaustion";

export type Summary = {
/**
 * Deliveries created.
 */
arrivals: number,
/**
 * Delivered.
 */
delivered: number,
/**
 * Exhausted (out of attempts): visible, replayable, never silently dropped.
 */
exhausted: number,
/**
 * Exhausted at or after the outage's end.
 */
exhausted_after_outage: number,
/**
 * Neither, when the simulation stopped.
 */
pending: number,
/**
 * Duplicate side effects.
 */
duplicates: number,
/**
 * Attempts made in all.
 */
attempts: number,
/**
 * The most attempts in any minute.
 */
peak_attempts_per_min: number,
/**
 * The minute it happened (1-based).
 */
peak_minute: number,
/**
 * That peak as a multiple of a minute of steady arrivals; `None` when the steady traffic
 * lasts less than a minute (a batch alone has no normal traffic to compare with) or brings
 * less than one delivery a minute.
 */
peak_multiple: number | null,
/**
 * That peak as a multiple of a minute of the destination's capacity.
 */
peak_vs_capacity: number,
/**
 * When the outage ended, seconds.
 */
outage_end_s: number,
/**
 * The first second at or after the outage's end at whose end the backlog is cleared: at
 * most 0.1% of the deliveries created since the outage began are pending, and under half a
 * delivery when that is less (a few stragglers may still wait out long gaps); `None` if
 * that does not happen within the horizon.
 */
drained_at_s: number | null,
/**
 * The first second at or after the outage's end at whose end nothing at all is pending
 * (under half a delivery on expected values): when the last straggler is settled.
 */
emptied_at_s: number | null,
/**
 * How the backlog ended by then (`None` when it did not drain).
 */
drained_by: DrainedBy | null,
/**
 * Attempts per delivered delivery (`None` under half a delivery delivered, which the
 * totals write as 0).
 */
attempts_per_delivered: number | null,
/**
 * Seconds simulated.
 */
horizon_s: number,
/**
 * How many times the circuit breaker opened (from closed or from half-open); `None`
 * without a breaker.
 */
breaker_openings: number | null,
};

export type StormReport = {
/**
 * Which engine produced it: `discrete` or `fluid`.
 */
engine: string,
/**
 * One row per minute; minute 1 is the first.
 */
minutes: Array<Interval>,
/**
 * The summary.
 */
summary: Summary,
/**
 * The outcome in words.
 */
caption: string,
};

export type FailureShare = {
/**
 * The share of failed attempts that opens the breaker, whole percent (1 to 100).
 */
percent: number,
/**
 * The window, whole seconds (1 s to 1 h; 30 s by default).
 */
window_s: number,
/**
 * Attempts the window must hold before the share counts (1 to 1,000,000; 100 by default).
 */
min_attempts: number,
};

export type Breaker = {
/**
 * Consecutive failed attempts that open it (1 to 10,000), if that rule is on.
 */
failures: number | null,
/**
 * The share of failed attempts over a window that opens it, if that rule is on.
 */
share: FailureShare | null,
/**
 * Whole seconds it stays open before probing (1 s to 1 h; 30 s by default).
 */
cooldown_s: number,
/**
 * Attempts sent at most in a half-open second (1 to 1000; 1 by default).
 */
probes: number,
};

export type RetryQuota = { "kind": "aws",
/**
 * The bucket's size, whole tokens (10 to 1,000,000).
 */
tokens: number, } | { "kind": "grpc",
/**
 * The bucket's size, whole tokens (1 to 1000, as gRPC's service config allows).
 */
max_tokens: number,
/**
 * Tokens a success gives back (more than 0, at most 1).
 */
token_ratio: number,
};

export type SimulatedBatch = {
/**
 * How many deliveries the batch brings.
 */
deliveries: number,
/**
 * The second the batch arrives in.
 */
at_s: number,
};

export type SimulatedScenario = {
/**
 * Deliveries arriving per second while the steady traffic lasts.
 */
arrivals_per_s: number,
/**
 * How long the steady traffic lasts.
 */
traffic_s: number,
/**
 * A one-off batch of deliveries, if any.
 */
batch: SimulatedBatch | null,
/**
 * Requests per second the healthy destination serves.
 */
capacity_per_s: number,
/**
 * The healthy destination's latency, seconds (less than the timeout).
 */
latency_s: number,
/**
 * When the outage starts, whole seconds.
 */
outage_start_s: number,
/**
 * How long the outage lasts, whole seconds (0: no outage).
 */
outage_s: number,
/**
 * The sender's timeout, seconds.
 */
timeout_s: number,
/**
 * Attempts per delivery, the first included.
 */
attempts: number,
/**
 * The gaps before retries 1, 2, ... without jitter.
 */
gaps_s: Array<number>,
/**
 * `none`, `full`, `equal`, `decorrelated` or `proportional`.
 */
jitter: string,
/**
 * Proportional jitter's factor.
 */
jitter_factor: number | null,
/**
 * The seed of the jittered gaps and of the order retries are served in (discrete
 * engine).
 */
seed: number,
/**
 * Whether the destination skips requests whose sender has already timed out.
 */
abandon: boolean,
/**
 * The retry budget: retries over its window at most this percent of the first attempts
 * over it.
 */
budget_percent: number | null,
/**
 * The budget's trailing window, seconds, with a budget.
 */
budget_window_s: number | null,
/**
 * Retries per second the budget always allows on top of its share, with a budget.
 */
budget_floor_per_s: number | null,
/**
 * Attempts per second at most, first attempts and retries combined.
 */
rate_limit_per_s: number | null,
/**
 * Whether every delivery is held while the endpoint is down.
 */
pause: boolean,
/**
 * Attempts per second at most from recovery on, with a pause (its default filled in).
 */
resume_rate_per_s: number | null,
/**
 * The `Retry-After` (seconds) of the destination's 429 answers.
 */
retry_after_s: number | null,
/**
 * The queue wait above which the destination answers 429, with a `Retry-After`.
 */
retry_after_threshold_s: number | null,
/**
 * The sender's token bucket on retries.
 */
retry_quota: RetryQuota | null,
/**
 * The sender's circuit breaker.
 */
breaker: Breaker | null,
};

export type SimulatedStorm = {
/**
 * What was simulated.
 */
scenario: SimulatedScenario,
/**
 * Which engine produced it: `discrete` or `fluid`.
 */
engine: string,
/**
 * One row per minute; minute 1 is the first.
 */
minutes: Array<Interval>,
/**
 * The summary.
 */
summary: Summary,
/**
 * The outcome in words.
 */
caption: string,
};

export type ArithmeticMinute = {
/**
 * 1-based minute.
 */
minute: number,
/**
 * New deliveries plus the backlog's retries in the minute.
 */
attempts: number,
/**
 * New deliveries in the minute (every one makes its first attempt).
 */
first_attempts: number,
/**
 * Retries in the minute.
 */
retries: number,
/**
 * Deliveries waiting for a retry as the minute starts.
 */
backlog_entering: number,
/**
 * Deliveries waiting as the minute ends (none succeeds while the outage lasts).
 */
backlog: number,
/**
 * `attempts` as a multiple of normal traffic (a minute of arrivals).
 */
multiple: number,
/**
 * Not modelled: `null`.
 */
successes: number | null,
/**
 * Not modelled: `null`.
 */
duplicates: number | null,
/**
 * Not modelled: `null`.
 */
exhausted: number | null,
};

export type ArithmeticSummary = {
/**
 * Deliveries arriving over the minutes shown.
 */
arrivals: number,
/**
 * The most attempts in any minute (the last one: the minute the fix ships).
 */
peak_attempts_per_min: number,
/**
 * That minute.
 */
peak_minute: number,
/**
 * The peak as a multiple of normal traffic.
 */
peak_multiple: number,
/**
 * When the outage ends, seconds.
 */
outage_end_s: number,
/**
 * Not modelled: `null`.
 */
delivered: number | null,
/**
 * Not modelled: `null`.
 */
exhausted: number | null,
/**
 * Not modelled: `null`.
 */
duplicates: number | null,
/**
 * Not modelled: `null`.
 */
drained_at_s: number | null,
};

export type ArithmeticReport = {
/**
 * Always `arithmetic`.
 */
engine: string,
/**
 * The outage's minutes and the minute after the fix.
 */
minutes: Array<ArithmeticMinute>,
/**
 * The totals.
 */
summary: ArithmeticSummary,
};

export type StormSeries = {
/**
 * The legend entry.
 */
label: string,
/**
 * The scenario's parameters.
 */
params: StormParams,
};

export type InactiveControl = {
/**
 * The setting's key (`resume-rate`), or one of its options as `key=value`
 * (`mode=decorrelated`).
 */
control: string,
/**
 * Why, in words: "not used now: it applies only with pause".
 */
note: string,
};

export type StormDrawn = {
/**
 * The legend entry.
 */
label: string,
/**
 * Its numbers.
 */
summary: Summary,
/**
 * Its outcome in words.
 */
caption: string,
/**
 * Its outage's length, seconds (0: a storm without an outage has nothing to drain).
 */
outage_s: number,
};

export type PresetInfo = {
/**
 * Its name.
 */
name: string,
/**
 * For people.
 */
title: string,
/**
 * Where it is published.
 */
source: string,
/**
 * What it assumes.
 */
note: string,
/**
 * Attempts in all.
 */
attempts: number,
/**
 * The unjittered give-up time, seconds.
 */
give_up_s: number,
/**
 * The same, exactly, in words: "27 h 35 min 5 s"; a jittered preset's says it is the
 * schedule as written: "3 s without jitter".
 */
give_up_text: string,
/**
 * Its schedule as written, what `schedule` reads: the gaps it lists (and `thenEvery`),
 * else `base`, `multiplier` and `cap`; with `attempts`.
 */
params: ScheduleParams,
/**
 * Its own jitter, `mode` (and `factor` when proportional), for the functions that draw:
 * `jitter({ ...preset.params, ...preset.jitter })`.
 */
jitter: Pick<Params, "mode" | "factor">,
};

export type View = "timeline" | "distribution" | "herd" | "storm" | "staleness" | "survival";

export type DecodedState = {
/**
 * Every setting.
 */
settings: Settings,
/**
 * One sentence per thing ignored.
 */
notices: Array<string>,
};

export type NumberTable = {
/**
 * The column headings.
 */
headers: Array<string>,
/**
 * One entry per column in each row.
 */
rows: Array<Array<string>>,
/**
 * The same numbers for a spreadsheet, which the CSV download writes: durations in seconds,
 * rates per second, shares from 0 to 1 and counts as plain numbers, each unit in its
 * column's heading (the rows above are written for reading: "8 h 36 min", "20.00×").
 */
data?: NumberTable,
};

export type AttributeError = {
/**
 * The attribute's name (`state` for a part of the share link in it).
 */
attribute: string,
/**
 * What was ignored and the valid range, in words.
 */
message: string,
};

export type ElementState = {
/**
 * Every setting (defaults where nothing valid was given).
 */
settings: Settings,
/**
 * One per attribute (or part of `state`) that was not used.
 */
errors: Array<AttributeError>,
};

export type Drawn = {
/**
 * The chart in words (the storm's: one line per series).
 */
caption: string,
/**
 * The timeline's schedule report (its table and facts), with at most its first 399 rows
 * and its last (see [`super::table::SHOWN_ROWS`]).
 */
schedule: ScheduleReport | null,
/**
 * How many of the schedule's rows are left out of [`Drawn::schedule`] (between its last
 * two), 0 when none.
 */
schedule_rows_left_out: number,
/**
 * The page's row for them, between the last two: "… 9,600 more attempts (every one is in
 * the CSV and JSON downloads)"; `None` when none is left out.
 */
schedule_left_out_note: string | null,
/**
 * "Your policy gives up after X; Svix after Y", when a preset is compared.
 */
compared: string | null,
/**
 * Each storm series.
 */
storms: Array<StormDrawn>,
/**
 * The schedule the staleness tolerance and allowed lag suggest (the page's Apply).
 */
suggestion: Suggestion | null,
/**
 * What the suggestion box lists: the suggestion's findings, or why there is none; empty
 * hides the box.
 */
suggestion_findings: Array<string>,
/**
 * The chart's numbers as a table (for readers who cannot see the chart).
 */
table: NumberTable,
};

export type PageError = {
/**
 * The control's setting key (`base`, `rate-limit`, ...), if the error is about one.
 */
setting: string | null,
/**
 * The message, naming the field and its valid range.
 */
message: string,
/**
 * A chart's own limit on a control the schedule reads, whose value the schedule takes
 * (10,000 attempts, too many for the survival map's work): the page notes it beside the
 * control without marking the value as one to fix, since every other chart is drawn with
 * it ([`PageError::of_chart`]).
 */
chartLimit: boolean,
};

export type Outcome = "delivered" | "exhausted";

export type FirstEvent = {
/**
 * Delivered or exhausted.
 */
outcome: Outcome,
/**
 * The attempt that delivered it (1 is the first delivery); `None` when exhausted.
 */
attempt: number | null,
/**
 * Seconds from recovery to its delivery; `None` when exhausted.
 */
lag_s: number | null,
/**
 * Seconds from its first attempt to its delivery (at least the outage); `None` when
 * exhausted.
 */
age_s: number | null,
};

export type AllEvents = {
/**
 * The share (0 to 1) delivered by a retry.
 */
delivered_share: number,
/**
 * The share exhausted: kept and replayable, but not delivered by any retry.
 */
exhausted_share: number,
/**
 * With a tolerance: the share delivered at most that old. `None` without one.
 */
fresh_share: number | null,
/**
 * With a tolerance: the share delivered older than that (worth nothing). `None` without
 * one. Fresh, stale and exhausted add up to 1.
 */
stale_share: number | null,
/**
 * With a tolerance: the part of the exhausted share already older than the tolerance at
 * recovery, which even a replay at recovery delivers stale (the rest of the exhausted is
 * young enough for one). `None` without a tolerance.
 */
exhausted_stale_share: number | null,
/**
 * The mean seconds from recovery to delivery, over the events delivered (an exhausted
 * event has no lag; `None` when none is delivered), as are the percentiles below.
 */
lag_mean_s: number | null,
/**
 * The median of those seconds.
 */
lag_p50_s: number | null,
/**
 * Their 95th percentile.
 */
lag_p95_s: number | null,
/**
 * The longest (a supremum: the last event before a retry waits a whole gap, less an
 * instant).
 */
lag_max_s: number | null,
/**
 * The age of the oldest delivered event.
 */
age_max_s: number | null,
};

export type OutageAnswer = {
/**
 * The outage's length, seconds.
 */
outage_s: number,
/**
 * Its first event. Under jitter, the median one: of the sampled schedules, the one whose
 * first event is delivered at the median time (an exhausted event counting as never).
 */
first_event: FirstEvent,
/**
 * All its events.
 */
all_events: AllEvents,
};

export type Method = "exact" | "sampled";

export type Suggestion = {
/**
 * `T`: how long an event stays worth delivering, seconds.
 */
tolerance_s: number,
/**
 * `R`: how late after recovery a delivery may be, seconds.
 */
max_lag_s: number,
/**
 * The proposed base (the current one, or the first listed gap cut to `R`), seconds.
 */
base_s: number,
/**
 * The proposed multiplier (the current one; 1 for a gap list).
 */
multiplier: number,
/**
 * The proposed cap (the longest gap), seconds: at most `R` unless the base is longer.
 */
cap_s: number,
/**
 * The proposed attempt count, derived.
 */
attempts: number,
/**
 * The proposed schedule's give-up time as written: `T`, unless noted in the findings
 * (under jitter, the findings give its median and 95th percentile).
 */
give_up_s: number,
/**
 * For a gap list: the proposed gaps. `None` for a formula schedule.
 */
gaps_s: Array<number> | null,
/**
 * For a gap list of more than 32 gaps: the equal tail gaps that end it on `T`.
 */
then_every_s: number | null,
/**
 * One sentence each: the current schedule against `T` and `R`, then the proposal.
 */
findings: Array<string>,
/**
 * Whether the proposal is the schedule asked about, every attempt within half a
 * millisecond (asked again after applying it): nothing to apply (the page's Apply stayed
 * and did nothing: outside review).
 */
is_current: boolean,
};

export type StalenessReport = {
/**
 * The schedule's give-up time as written (`t_n`, unjittered), seconds.
 */
give_up_s: number,
/**
 * The tolerance, seconds, or `null`.
 */
tolerance_s: number | null,
/**
 * With a tolerance: the acceptable delay after recovery (`--max-lag`, the lag the
 * suggestion serves), seconds; `null` without one.
 */
max_lag_s: number | null,
/**
 * The longest outage whose first event is still delivered (under jitter, in 95% of
 * schedules).
 */
longest_delivered_outage_s: number,
/**
 * With a tolerance: the longest outage whose events all arrive fresh (under jitter, in 95%
 * of schedules); `null` without one.
 */
all_fresh_up_to_s: number | null,
/**
 * The largest possible lag after a long outage: the longest gap the schedule can draw.
 */
max_recovery_lag_s: number,
/**
 * `exact` without jitter, `sampled` with it.
 */
method: Method,
/**
 * The schedules drawn; `null` when exact.
 */
samples: number | null,
/**
 * The seed of the draws; `null` when exact.
 */
seed: number | null,
/**
 * One answer per outage, shortest first as given.
 */
outages: Array<OutageAnswer>,
/**
 * A schedule derived from the tolerance and an allowed recovery lag, or `null`.
 */
suggestion: Suggestion | null,
/**
 * With a tolerance and an allowed lag, why no schedule could be derived (it would need
 * more than 10000 attempts), or `null`.
 */
suggestion_refused: string | null,
};

export type StalenessCurve = {
/**
 * Its name in the legend.
 */
label: string,
/**
 * Its give-up time, seconds: outages longer exhaust their first event.
 */
give_up_s: number,
/**
 * The answers along the outage lengths.
 */
points: Array<OutageAnswer>,
/**
 * Under jitter: for each point, the first event's lag at its 95th percentile across the
 * sampled schedules (empty when exact; `None` where more than 5% of them exhaust it).
 */
first_lag_p95_s: Array<number | null>,
};

export type StalenessChart = {
/**
 * Your schedule's report (its derived lengths, its caption).
 */
report: StalenessReport,
/**
 * Your schedule along the outage lengths.
 */
mine: StalenessCurve,
/**
 * A compared schedule, when one is chosen.
 */
compared: StalenessCurve | null,
/**
 * The outage to read off, and your schedule's answer for it.
 */
read: OutageAnswer | null,
};

export type SurvivalOutcome = "recovers" | "slow" | "collapsed";

export type SurvivalCell = {
/**
 * What became of the destination.
 */
outcome: SurvivalOutcome,
/**
 * Seconds from the outage's end until the backlog was delivered (`drained_at_s` − outage
 * end, when it drained by delivery within the recovery window), else `None`.
 */
recovery_s: number | null,
/**
 * Deliveries exhausted by the end of the recovery window, as a share of those created.
 */
exhausted_share: number,
/**
 * The busiest minute's attempts (up to the window's end) as a multiple of a minute of
 * steady arrivals.
 */
peak_multiple: number | null,
/**
 * Attempts answered within the timeout per second in the recovery window, divided by the
 * arrival rate (above 1 while a backlog drains).
 */
goodput_vs_arrivals: number,
};

export type SurvivalRow = {
/**
 * The series' index (in [`series_specs`]' order).
 */
series: number,
/**
 * The headroom's index on the axis.
 */
headroom: number,
/**
 * One cell per outage.
 */
cells: Array<SurvivalCell>,
/**
 * Your scenario's own cell (see the module's rules), carried by your policy's row nearest
 * your headroom; `None` in every other row.
 */
scenario: SurvivalCell | null,
};

export type SurvivalSeries = {
/**
 * The legend entry.
 */
label: string,
/**
 * One row per headroom (in the axis' order), one cell per outage in each.
 */
cells: Array<Array<SurvivalCell>>,
/**
 * Per headroom, the longest outage survived (see the module's rules); `None` also for a
 * row not computed yet.
 */
boundary: Array<number | null>,
};

export type SurvivalMap = {
/**
 * The outage lengths, seconds.
 */
outages_s: Array<number>,
/**
 * Capacity ÷ arrival rate.
 */
headroom: Array<number>,
/**
 * The recovery window, seconds.
 */
recovery_window_s: number,
/**
 * The scenario's own outage and headroom (marked on the chart).
 */
current: [number, number],
/**
 * Your policy's cell at exactly [`SurvivalMap::current`] (see the module's rules); `None`
 * until the row that carries it is computed, and when the outage ends too late for a cell.
 */
scenario: SurvivalCell | null,
/**
 * One per policy.
 */
series: Array<SurvivalSeries>,
/**
 * Rows (series × headroom) not computed yet, left empty: 0 for a whole map.
 */
rows_pending: number,
/**
 * The map in words.
 */
caption: string,
};

export type SurvivalAxes = {
/**
 * Two durations, `10s..24h`.
 */
outages?: string,
/**
 * Two ratios of capacity to arrivals, `1.05..20`.
 */
headroom?: string,
/**
 * Steps on each axis, outages × headroom, `24x16`: 2 to 64 on each axis, at most 1024 cells
 * in all.
 */
steps?: string,
};
