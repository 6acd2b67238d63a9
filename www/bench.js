// Benchmarks of the wasm module in the browser. Every group times our code next to a baseline
// measured in the same run and reports medians, p95s and ratios: numbers to read, never
// assertions. The results go to <pre id="results"> and window.benchResults as JSON, and
// document.body.dataset.done becomes "true" (or dataset.error holds the message).
//
// Open /bench.html under scripts/serve.sh, or run `cd tests/e2e && npm run bench`.
import init, {
  drawDistribution,
  drawHerd,
  drawStorm,
  drawTimeline,
  jitter,
  sampledMeanGiveUp,
  storm,
} from './pkg/backoff_lab.js';

// The article's policy: 30 s, ×3, capped at 3 h, 14 attempts (13 retries).
const ARTICLE = { base: 30, multiplier: 3, cap: 10800, attempts: 14 };
// Its mean give-up time under full jitter: half the sum of the 13 gaps.
const EXPECTED_MEAN_S = 43_260;
const SAMPLES = 1_000_000;

const $ = (id) => document.getElementById(id);
const pause = () => new Promise((resolve) => setTimeout(resolve, 0));

function status(text) {
  $('status').textContent = text;
}

// --- statistics ---------------------------------------------------------------------------------

/** Nearest-rank percentile (p in 0..100) of the numbers `values`. */
function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1];
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

// A batch's peak has no multiple of normal traffic (null): it stays null.
const round = (x, digits = 4) => (x === null ? null : Number(x.toPrecision(digits)));

/** One row of a group: the median and p95 of `timesMs`. */
function row(name, timesMs) {
  return { name, runs: timesMs.length, medianMs: round(median(timesMs)), p95Ms: round(percentile(timesMs, 95)) };
}

/** A group: its rows, the first being the baseline; each row gets its ratio to the baseline. */
function group(name, description, rows, extra = {}) {
  const baseline = rows[0];
  for (const r of rows) r.ratioVsBaseline = round(r.medianMs / baseline.medianMs, 3);
  return { name, description, baseline: baseline.name, rows, ...extra };
}

function time(fn) {
  const started = performance.now();
  const value = fn();
  return { ms: performance.now() - started, value };
}

/**
 * Warm each of `candidates` ({ name, run(i) }) up `warmups` times, then alternate them for
 * `runs` timed rounds, yielding to the event loop between runs. Returns the times (ms) and the
 * values returned, per candidate.
 */
async function alternate(candidates, { warmups, runs, label }) {
  for (let i = 0; i < warmups; i++) {
    for (const c of candidates) c.run(-1 - i);
    await pause();
  }
  const out = candidates.map(() => ({ times: [], values: [] }));
  for (let i = 0; i < runs; i++) {
    status(`${label}: run ${i + 1} of ${runs}`);
    candidates.forEach((c, k) => {
      const { ms, value } = time(() => c.run(i));
      out[k].times.push(ms);
      out[k].values.push(value);
    });
    await pause();
  }
  return out;
}

// --- a. sampling --------------------------------------------------------------------------------

// The article's TypeScript, transcribed: one give-up time is the sum of the 13 retry delays.
function retryDelaySeconds(retry) {
  const base = 30;
  const multiplier = 3;
  const cap = 3 * 60 * 60;
  const ideal = Math.min(cap, base * multiplier ** (retry - 1));
  return Math.random() * ideal;
}

function articleMeanGiveUp(samples) {
  let total = 0;
  for (let i = 0; i < samples; i++) {
    let giveUp = 0;
    for (let retry = 1; retry <= 13; retry++) {
      giveUp += retryDelaySeconds(retry);
    }
    total += giveUp;
  }
  return total / samples;
}

async function benchSampling() {
  const runs = 15;
  const [js, wasm] = await alternate(
    [
      { run: () => articleMeanGiveUp(SAMPLES) },
      { run: (i) => sampledMeanGiveUp({ ...ARTICLE, mode: 'full', seed: 1000 + i, samples: SAMPLES }) },
    ],
    { warmups: 2, runs, label: 'sampling' },
  );
  const worst = (means) => Math.max(...means.map((m) => Math.abs(m / EXPECTED_MEAN_S - 1)));
  const jsWorst = worst(js.values);
  const wasmWorst = worst(wasm.values);
  const rows = [row('baseline: article loop in JS (Math.random)', js.times), row('wasm sampledMeanGiveUp', wasm.times)];
  return group(
    'sampling',
    `${SAMPLES.toLocaleString('en')} give-up times of the article's policy, full jitter; ${runs} alternating runs after 2 warm-ups`,
    rows,
    {
      jsMedianOverWasmMedian: round(rows[0].medianMs / rows[1].medianMs, 3),
      means: {
        expectedS: EXPECTED_MEAN_S,
        jsMedianS: round(median(js.values), 7),
        wasmMedianS: round(median(wasm.values), 7),
        jsWorstRelativeError: round(jsWorst, 3),
        wasmWorstRelativeError: round(wasmWorst, 3),
        allWithin1Percent: jsWorst <= 0.01 && wasmWorst <= 0.01,
      },
    },
  );
}

// --- b. exact percentiles -----------------------------------------------------------------------

async function benchExact() {
  const runs = 30;
  const sampled = { ...ARTICLE, mode: 'full', seed: 1, samples: 100_000 };
  const exact = { ...ARTICLE, mode: 'full', seed: 1, samples: 1 };
  const [base, ours] = await alternate(
    [{ run: () => jitter(sampled).percentiles.p5 }, { run: () => jitter(exact).percentiles.p5 }],
    { warmups: 2, runs, label: 'exact percentiles' },
  );
  const exactReport = jitter(exact);
  if (!exactReport.exact) throw new Error('jitter with full jitter did not report exact percentiles');
  return group(
    'exact percentiles',
    `jitter() for the article's policy with full jitter; ${runs} alternating runs after 2 warm-ups`,
    [row('baseline: jitter, 100,000 sampled', base.times), row('jitter exact (samples: 1)', ours.times)],
    { exactPercentilesS: exactReport.percentiles, sampledP5S: round(median(base.values), 7) },
  );
}

// --- c. redraw ----------------------------------------------------------------------------------

const CANVAS_CSS = { width: 900, height: 320 };

function sizeCanvases(scale) {
  for (const id of ['bench-timeline', 'bench-distribution', 'bench-herd', 'bench-storm']) {
    const canvas = $(id);
    canvas.width = Math.round(CANVAS_CSS.width * scale);
    canvas.height = Math.round(CANVAS_CSS.height * scale);
    // CSSOM, not a style attribute: allowed under style-src 'self'.
    canvas.style.width = `${CANVAS_CSS.width}px`;
    canvas.style.height = `${CANVAS_CSS.height}px`;
    canvas.style.display = 'block';
  }
}

async function benchRedraw() {
  const steps = 200;
  const scale = Math.min(4, Math.max(1, window.devicePixelRatio || 1)); // as the page clamps it
  sizeCanvases(scale);
  // The page's default state: log axis, light colours, seed 42, its deadline of 24 h.
  const options = { dark: false, scale, logScale: true };
  const params = (multiplier) => ({
    ...ARTICLE,
    multiplier,
    mode: 'full',
    seed: 42,
    samples: 100_000,
    deliveries: 1000,
    deadline: '24h',
  });
  const redraw = (p) => {
    drawTimeline('bench-timeline', p, options);
    drawDistribution('bench-distribution', p, options);
    drawHerd('bench-herd', p, options);
  };
  for (let i = 0; i < 3; i++) redraw(params(3)); // warm-up
  await pause();

  const timelineTimes = [];
  const redrawTimes = [];
  const multipliers = [];
  for (let i = 0; i < steps; i++) {
    const multiplier = Math.round((1.5 + i * 0.015) * 1000) / 1000;
    multipliers.push(multiplier);
    const p = params(multiplier);
    timelineTimes.push(time(() => drawTimeline('bench-timeline', p, options)).ms);
    redrawTimes.push(time(() => redraw(p)).ms);
    if (i % 10 === 9) status(`redraw: step ${i + 1} of ${steps}`);
    await pause();
  }
  return group(
    'redraw',
    `${steps} steps, multiplier ${multipliers[0]} to ${multipliers.at(-1)} by 0.015; canvases ` +
      `${CANVAS_CSS.width}x${CANVAS_CSS.height} CSS px at scale ${scale}; samples 100,000, deliveries 1,000`,
    [row('baseline: drawTimeline alone', timelineTimes), row('drawTimeline + drawDistribution + drawHerd', redrawTimes)],
    { scale, canvasPx: [$('bench-timeline').width, $('bench-timeline').height] },
  );
}

// --- d. storm -----------------------------------------------------------------------------------

// 600/min for 24 h with a 2-hour outage, the article's policy with full jitter: the same scenario
// as benches/core.rs's storm_24h group (the fluid engine ignores the seed).
const STORM_24H = {
  policy: 'exponential',
  base: 30,
  multiplier: 3,
  cap: 10800,
  attempts: 14,
  mode: 'full',
  seed: 1,
  traffic: '24h',
  outage: '2h',
  engine: 'fluid',
};

// One batch of 1,000,000 deliveries at second 0 (next to no steady traffic) and a 10-minute
// outage, same policy: benches/core.rs's storm_batch_1M group.
const STORM_BATCH_1M = {
  ...STORM_24H,
  arrivals: '0.000001/s',
  traffic: '1s',
  batch: 1_000_000,
  outage: '10min',
};

// The article's fixed 30 s storm: every storm field takes the article's value, and the policy is
// the fixed interval (30 s for 2 h) as no backoff field is given.
const ARTICLE_STORM = { engine: 'fluid' };

async function benchStorm() {
  const runs = 10;
  const [article, day, batch] = await alternate(
    [
      { run: () => storm(ARTICLE_STORM) },
      { run: () => storm(STORM_24H) },
      { run: () => storm(STORM_BATCH_1M) },
    ],
    { warmups: 1, runs, label: 'storm' },
  );
  const summary = (report) => {
    const s = report.summary;
    return {
      minutes: report.minutes.length,
      arrivals: s.arrivals,
      attempts: Math.round(report.minutes.reduce((sum, m) => sum + m.attempts, 0)),
      peakMultiple: round(s.peak_multiple, 4),
      peakVsCapacity: round(s.peak_vs_capacity, 4),
      exhausted: Math.round(s.exhausted),
      drainedAfterOutageS: s.drained_at_s === null ? null : s.drained_at_s - s.outage_end_s,
    };
  };
  return group(
    'storm',
    `storm() on the fluid engine; ${runs} alternating runs after 1 warm-up`,
    [
      row("baseline: the article's fixed 30 s storm (2 h of 600/min, 10 min outage)", article.times),
      row('24 h of 600/min, 2 h outage, 30 s ×3 capped at 3 h, full jitter', day.times),
      row('a batch of 1,000,000, 10 min outage, same policy', batch.times),
    ],
    {
      articleFixed: summary(article.values[0]),
      storm24h: summary(day.values[0]),
      stormBatch1M: summary(batch.values[0]),
    },
  );
}

// The page's storm chart in its default state, as app.js's stormSeries() builds it: your policy,
// a fixed 30 s interval for 2 h, and your policy with a 10% retry budget; `multiplier` as the
// slider sets it.
function defaultStormSeries(multiplier = 3) {
  const mine = {
    base: '30 s',
    multiplier,
    cap: '3 h',
    attempts: 14,
    mode: 'full',
    factor: 0.2,
    seed: 42,
    policy: 'exponential',
    arrivals: '600/min',
    capacity: '30/s',
    outage: '10 min',
    timeout: '5s',
    pause: false,
    engine: 'fluid',
  };
  const { pause, ...bare } = mine;
  // As app.js: the article's storm-maker, without jitter.
  const fixed = { ...bare, policy: 'fixed', interval: '30s', giveUp: '2h', mode: 'none', engine: 'fluid' };
  // The fixed interval takes no backoff fields (they are refused with it, not ignored).
  for (const key of ['attempts', 'base', 'multiplier', 'cap']) delete fixed[key];
  return [
    { label: 'your policy', params: bare },
    { label: 'fixed 30 s', params: fixed },
    { label: 'your policy + 10% budget', params: { ...mine, budget: 10 } },
  ];
}

async function benchRedrawWithStorm() {
  const runs = 20;
  const scale = Math.min(4, Math.max(1, window.devicePixelRatio || 1));
  sizeCanvases(scale);
  const options = { dark: false, scale, logScale: true };
  // The page's defaults (index.html): 20,000 sampled deliveries, a herd of 1,000, deadline 24 h.
  const params = { ...ARTICLE, mode: 'full', seed: 42, samples: 20_000, deliveries: 1000, deadline: '24h' };
  // Each storm redraw is a step of the multiplier slider, as on the page: your policy and its
  // budgeted twin are simulated afresh, the fixed 30 s interval is unchanged and remembered.
  let step = 0;
  const series = () => defaultStormSeries(1.5 + (step++ % 200) * 0.015);
  const fast = () => {
    drawTimeline('bench-timeline', params, options);
    drawDistribution('bench-distribution', params, options);
    drawHerd('bench-herd', params, options);
  };
  const stormOnly = () => drawStorm('bench-storm', series(), options);
  const [base, alone, both] = await alternate(
    [{ run: fast }, { run: stormOnly }, { run: () => { fast(); return stormOnly(); } }],
    { warmups: 2, runs, label: 'redraw with storm' },
  );
  // The default state once more, for its peaks.
  const drawn = drawStorm('bench-storm', defaultStormSeries(), options);
  return group(
    'redraw with storm',
    `the page's default state: 3 charts (samples 20,000), then the storm chart of its 3 default series (fluid), ` +
      'each storm a step of the multiplier slider (the fixed 30 s series unchanged, remembered); canvases ' +
      `${CANVAS_CSS.width}x${CANVAS_CSS.height} CSS px at scale ${scale}; ${runs} alternating runs after 2 warm-ups`,
    [
      row('baseline: drawTimeline + drawDistribution + drawHerd', base.times),
      row('drawStorm (your policy, fixed 30 s, + 10% budget)', alone.times),
      row('all four: the whole redraw', both.times),
    ],
    {
      scale,
      canvasPx: [$('bench-storm').width, $('bench-storm').height],
      peakMultiples: Object.fromEntries(drawn.map((d) => [d.label, round(d.summary.peak_multiple, 4)])),
    },
  );
}

// --- main ---------------------------------------------------------------------------------------

/** The smallest step of performance.now() seen (coarsened when not cross-origin isolated). */
function timerResolutionMs() {
  let smallest = Infinity;
  for (let i = 0; i < 20; i++) {
    const t0 = performance.now();
    let t1 = t0;
    while (t1 === t0) t1 = performance.now();
    smallest = Math.min(smallest, t1 - t0);
  }
  return round(smallest, 3);
}

async function main() {
  status('loading the wasm module…');
  await init();
  const started = performance.now();
  const groups = [];
  for (const bench of [benchSampling, benchExact, benchRedraw, benchStorm, benchRedrawWithStorm]) {
    groups.push(await bench());
  }
  const results = {
    environment: {
      userAgent: navigator.userAgent,
      hardwareConcurrency: navigator.hardwareConcurrency,
      devicePixelRatio: window.devicePixelRatio,
      crossOriginIsolated: window.crossOriginIsolated,
      timerResolutionMs: timerResolutionMs(),
    },
    percentileMethod: 'nearest rank',
    totalMs: Math.round(performance.now() - started),
    groups,
  };
  window.benchResults = results;
  $('results').textContent = JSON.stringify(results, null, 2);
  status(`done in ${(results.totalMs / 1000).toFixed(1)} s`);
  document.body.dataset.done = 'true';
}

main().catch((error) => {
  const message = error && error.message ? error.message : String(error);
  status(`failed: ${message}`);
  $('results').textContent = error && error.stack ? error.stack : message;
  document.body.dataset.error = message;
});
