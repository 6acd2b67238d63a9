
/** A duration as seconds, or as text such as "30s", "4m30s", "4.5min", "3h", "1d". */
export type DurationInput = number | string;

/** A backoff policy. Give exactly one of `attempts` and `giveUp`. */
export interface ScheduleParams {
  base: DurationInput;
  multiplier: number;
  cap: DurationInput;
  /** Attempts in all, the first delivery included (1 to 10000). */
  attempts?: number;
  /** Give up at the first attempt at or past this time since the first failure. */
  giveUp?: DurationInput;
  /** The early window for `attempts_within_window` (default 20 min). */
  window?: DurationInput;
}

export interface ReportRow {
  attempt: number;
  /** null for attempt 1. */
  gap_s: number | null;
  elapsed_s: number;
  capped: boolean;
  /** As the article writes it: "none", "4.5 min", "3 h (capped)". */
  gap_text: string;
  /** As the article writes it: "6.5 min", "24 h 02 min". */
  elapsed_text: string;
}

export interface ScheduleReport {
  rows: ReportRow[];
  attempts: number;
  base_s: number;
  multiplier: number;
  cap_s: number;
  give_up_s: number;
  first_capped_attempt: number | null;
  window_s: number;
  attempts_within_window: number;
  capped_share: number;
  uncapped_last_gap_s: number | null;
  every_gap_exceeds_previous_total: boolean;
  ramp_exceeds_previous_total: boolean;
  facts: string[];
  caption: string;
}

export interface ChartOptions {
  /** Draw for a dark page. */
  dark?: boolean;
  /** Device pixels per CSS pixel, 0.5 to 4. */
  scale?: number;
  /** A logarithmic time axis. */
  logScale?: boolean;
}

/** Jitter mode names. */
export type JitterMode = "none" | "full" | "equal" | "decorrelated" | "proportional";

/** Parameters of the jitter and herd questions: a policy plus the jitter and the draws. */
export interface JitterParams extends ScheduleParams {
  /** Default "none". */
  mode?: JitterMode;
  /** Proportional jitter's factor, 0 to 1 (default 0.2). */
  factor?: number;
  /** 0 to 2^53 - 1; a fresh seed is drawn (and reported) when absent. */
  seed?: number;
  /** Give-up times to sample, 1 to 10,000,000 (default 1,000,000). */
  samples?: number;
  /** Deliveries in a herd, 1 to 10,000,000 (default 1,000). */
  deliveries?: number;
  /** Deadline-safe sizing: the deadline a percentile of give-up times must reach. */
  deadline?: DurationInput;
  /** That percentile, in percent (default 5). */
  percentile?: number;
}

export interface Percentiles { p1: number; p5: number; p50: number; p95: number; p99: number; }

export interface Histogram { start_s: number; bin_s: number; counts: number[]; }

export interface Sampled {
  samples: number;
  seed: number;
  mean_s: number;
  std_error_s: number;
  percentiles: Percentiles;
  histogram: Histogram;
}

export interface DeadlineSafe { deadline_s: number; percentile: number; attempts: number; }

export interface JitterReport {
  mode: JitterMode;
  factor: number | null;
  attempts: number;
  /** false for decorrelated: expected value and percentiles are estimates. */
  exact: boolean;
  expected_give_up_s: number;
  expected_std_error_s: number | null;
  percentiles: Percentiles;
  unjittered_give_up_s: number;
  range_s: [number, number];
  sampled: Sampled;
  deadline_safe: DeadlineSafe | null;
  caption: string;
}

export interface Rates { peak_per_s: number; mean_per_s: number; peak_to_mean: number; window_s: number; }

export interface Herd {
  deliveries: number;
  mode: JitterMode;
  seed: number;
  bin_s: number;
  per_second: number[];
  first_retry_per_second: number[];
  peak_per_s: number;
  mean_per_s: number;
  peak_to_mean: number;
  first_retry: Rates;
}

/** What `drawHerd` returns: the rates without the per-second arrays. */
export interface HerdSummary {
  deliveries: number;
  mode: JitterMode;
  seed: number;
  peak_per_s: number;
  mean_per_s: number;
  peak_to_mean: number;
  first_retry: Rates;
  unjittered_first_retry: Rates;
  caption: string;
}

/** A rate: a number per second, or text such as "600/min", "30/s". A percentage: 10 or "10%". */
export type NumberInput = number | string;

/** A storm scenario: every field not given takes the article's value. */
export interface StormParams extends JitterParams {
  arrivals?: NumberInput;
  traffic?: DurationInput;
  batch?: number;
  batchAt?: DurationInput;
  capacity?: NumberInput;
  latency?: DurationInput;
  timeout?: DurationInput;
  outage?: DurationInput;
  outageStart?: DurationInput;
  /** "fixed" (default; `interval`) or "exponential" (base, multiplier, cap). */
  policy?: "fixed" | "exponential";
  interval?: DurationInput;
  /** Percentage of first attempts, e.g. "10%". */
  budget?: NumberInput;
  budgetWindow?: DurationInput;
  budgetFloor?: NumberInput;
  rateLimit?: NumberInput;
  pause?: boolean;
  /** After a pause, attempts per second at most (default: the rate limit, else what the
   * destination answers in time in one second from an empty queue). */
  resumeRate?: NumberInput;
  retryAfter?: DurationInput;
  retryAfterThreshold?: DurationInput;
  abandon?: boolean;
  /** `storm` and the charts take "discrete" (default) or "fluid"; `arithmeticView` needs no engine. */
  engine?: "discrete" | "fluid";
}

export interface StormMinute {
  minute: number;
  attempts: number;
  first_attempts: number;
  retries: number;
  successes: number;
  failures: number;
  rejected_429: number;
  duplicates: number;
  backlog: number;
  queue: number;
  exhausted: number;
  deferred: number;
}

export interface StormSummary {
  arrivals: number;
  delivered: number;
  exhausted: number;
  exhausted_after_outage: number;
  pending: number;
  duplicates: number;
  attempts: number;
  peak_attempts_per_min: number;
  peak_minute: number;
  /** null when the steady traffic lasts less than a minute (a batch alone). */
  peak_multiple: number | null;
  peak_vs_capacity: number;
  outage_end_s: number;
  /** The backlog cleared: at most 0.1% of deliveries pending (null: not within the horizon). */
  drained_at_s: number | null;
  /** Nothing at all pending: the last straggler settled. */
  emptied_at_s: number | null;
  /** Whether deliveries were exhausted after the outage on the way to `drained_at_s`. */
  drained_by: "delivery" | "exhaustion" | null;
  /** null when nothing was delivered. */
  attempts_per_delivered: number | null;
  horizon_s: number;
}

export interface StormReport {
  engine: "discrete" | "fluid";
  minutes: StormMinute[];
  summary: StormSummary;
  caption: string;
}

export interface ArithmeticMinute {
  minute: number; attempts: number; first_attempts: number; retries: number;
  backlog_entering: number; backlog: number; multiple: number;
  successes: null; duplicates: null; exhausted: null;
}

export interface ArithmeticReport {
  engine: "arithmetic";
  minutes: ArithmeticMinute[];
  summary: {
    arrivals: number; peak_attempts_per_min: number; peak_minute: number; peak_multiple: number;
    outage_end_s: number; delivered: null; exhausted: null; duplicates: null; drained_at_s: null;
  };
}

/** One scenario of a storm chart: its legend label and its parameters. */
export interface StormSeries { label: string; params: StormParams; }

/** What `drawStorm` returns: each series' summary and caption. */
export interface StormDrawn { label: string; summary: StormSummary; caption: string; }

/** A provider's published schedule. */
export interface PresetInfo {
  name: string;
  title: string;
  source: string;
  note: string;
  attempts: number;
  give_up_s: number;
  /** Exact, e.g. "27 h 35 min 5 s". */
  give_up_text: string;
  /** Its parameters: base, multiplier, cap, attempts, mode, factor, or gaps and thenEvery. */
  params: ScheduleParams & { gaps?: DurationInput[]; thenEvery?: DurationInput; mode?: JitterMode; factor?: number };
}

/** The explorer's charts. */
export type View = "timeline" | "distribution" | "herd" | "storm";

/** Every page setting as text, keyed as in the URL hash ("base": "30 s", "mode": "full", ...). */
export type Settings = Record<string, string>;

/** A URL hash read back: every setting (defaults where the link had nothing valid) and notices. */
export interface DecodedState { settings: Settings; notices: string[]; }

/** A chart's costly step, as `computeView` returns it and `drawView` takes it. */
export type Computed =
  | { view: "timeline" }
  | { view: "distribution"; report: JitterReport }
  | { view: "herd"; spread: Herd; spike: Herd }
  | { view: "storm"; reports: StormReport[] };

/** What `drawView` drew: the caption, and the timeline's table, comparison and storm summaries. */
export interface Drawn {
  caption: string;
  schedule: ScheduleReport | null;
  compared: string | null;
  storms: StormDrawn[];
}

/** What the page's controls need: the duration sliders' stops, each view's section and title. */
export interface PageConfig {
  sliderStops: Record<string, number[]>;
  views: { name: View; section: string; title: string }[];
}

/** What the page's exports throw: an Error, with the control (setting) it is about. */
export interface PageError extends Error {
  setting?: string;
}

/** The chart `chartSvg` draws. */
export type ChartKind = "timeline" | "distribution" | "herd";

/** What `schedule` and friends throw: an Error, with the input it is about. */
export interface BackoffError extends Error {
  field?: string;
}
