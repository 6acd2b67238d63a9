// Shared by the explorer (app.js) and the embed page (embed.js): the page's settings, as the URL
// hash holds them, turned into the wasm API's parameters, and one chart drawn from them.
// No retry arithmetic here: every number is computed by the wasm module.
//
// Settings are a plain object of text values keyed as in the URL hash (src/state.rs SETTINGS):
// { base: '30 s', multiplier: '3', stop: 'attempts', log: 'true', ... }.
import {
  decodeState,
  drawDistribution,
  drawHerd,
  drawStorm,
  drawTimeline,
  formatDuration,
  parseDuration,
  presets,
} from './pkg/backoff_lab.js';

/** The chart each view draws, and the page section it belongs to. */
export const VIEW_SECTION = { timeline: 'schedule', distribution: 'jitter', herd: 'jitter', storm: 'storm' };
const SECTION_VIEW = { schedule: 'timeline', jitter: 'distribution', storm: 'storm' };
export const VIEW_TITLE = {
  timeline: 'retry timeline',
  distribution: 'give-up time of one jittered delivery',
  herd: 'a herd of deliveries retrying together',
  storm: 'retry storm after an outage',
};

/** The schedule a preset defines: while these match, the preset stays chosen. */
const SCHEDULE_KEYS = ['base', 'multiplier', 'cap', 'gaps', 'then-every', 'stop', 'attempts'];

export const number = (text) => (String(text ?? '').trim() === '' ? NaN : Number(text));

/** "5 s,5 min" (as the hash keeps it) or "5 s, 5 min" (as the page shows it) → ['5 s', '5 min']. */
export function gapList(text) {
  return String(text ?? '')
    .split(',')
    .map((gap) => gap.trim())
    .filter((gap) => gap !== '');
}

/** Seconds as the article writes them, when that reads back exactly; plain seconds otherwise. */
export function durationText(seconds) {
  if (typeof seconds === 'string') return seconds;
  const text = formatDuration(seconds);
  try {
    if (parseDuration('duration', text) === seconds) return text;
  } catch {
    // Fall through to plain seconds.
  }
  return `${seconds} s`;
}

let presetCache;
/** Every preset (PresetInfo[]), read once from wasm. */
export function presetList() {
  presetCache ??= presets();
  return presetCache;
}

export function presetByName(name) {
  return name ? presetList().find((preset) => preset.name === name) : undefined;
}

/** The settings a preset sets: its schedule, and its jitter. */
export function presetValues(preset) {
  const p = preset.params;
  const values = {
    base: durationText(p.base),
    multiplier: String(p.multiplier),
    cap: durationText(p.cap),
    gaps: Array.isArray(p.gaps) ? p.gaps.map(durationText).join(',') : '',
    'then-every': p.thenEvery === undefined || p.thenEvery === null ? '' : durationText(p.thenEvery),
    stop: 'attempts',
    attempts: String(p.attempts),
    // A provider's schedule has its own end: the optional deadline sizing starts empty (it would
    // size a few-second SDK schedule to thousands of attempts for a 24 h deadline).
    deadline: '',
  };
  if (p.mode) values.mode = p.mode;
  if (typeof p.factor === 'number') values.factor = String(p.factor);
  return values;
}

function matchesSchedule(values, preset) {
  const wanted = presetValues(preset);
  return SCHEDULE_KEYS.every((key) => values[key] === wanted[key]);
}

/**
 * A decoded hash (decodeState's { settings, notices }) as settings for the page. A link the page
 * wrote already holds the preset's schedule and is used as it is; a short link such as
 * `#preset=svix&seed=7` gets the preset's schedule and jitter, then every setting it names.
 */
export function resolveState(decoded) {
  const values = Object.fromEntries(decoded.settings.map(({ key, value }) => [key, value]));
  const preset = presetByName(values.preset);
  if (preset && !matchesSchedule(values, preset)) {
    const defaults = Object.fromEntries(decodeState('').settings.map(({ key, value }) => [key, value]));
    const given = Object.keys(values).filter((key) => key !== 'preset' && values[key] !== defaults[key]);
    const linked = { ...values };
    Object.assign(values, presetValues(preset));
    for (const key of given) values[key] = linked[key];
    if (!matchesSchedule(values, preset)) {
      // The link changes the preset's schedule: it is the reader's own policy now, and a new
      // base, multiplier or cap means the formula rather than the preset's listed gaps.
      values.preset = '';
      if (['base', 'multiplier', 'cap'].some((key) => given.includes(key)) && !given.includes('gaps')) {
        values.gaps = '';
        values['then-every'] = '';
      }
    }
  }
  if (values.view === 'timeline' && values.section && values.section !== 'schedule') {
    values.view = SECTION_VIEW[values.section] ?? 'timeline';
  }
  values.section = VIEW_SECTION[values.view] ?? 'schedule';
  return { values, notices: decoded.notices };
}

/** ScheduleParams: the formula, or the listed gaps when there are any. */
export function policyParams(s) {
  const p = { base: s.base, multiplier: number(s.multiplier), cap: s.cap };
  const gaps = gapList(s.gaps);
  if (gaps.length > 0) {
    p.gaps = gaps;
    const tail = String(s['then-every'] ?? '').trim();
    if (tail !== '') p.thenEvery = tail;
  }
  if (s.stop === 'give-up') p.giveUp = s['give-up'];
  else p.attempts = number(s.attempts);
  return p;
}

export function jitterParams(s) {
  const p = {
    ...policyParams(s),
    mode: s.mode,
    factor: number(s.factor),
    seed: number(s.seed),
    samples: Number(s.samples),
    deliveries: number(s.deliveries),
  };
  // Deadline-safe sizing adds attempts to base × multiplier; listed gaps leave it out.
  const deadline = String(s.deadline ?? '').trim();
  if (deadline !== '' && !p.gaps) p.deadline = deadline;
  return p;
}

export function stormParams(s) {
  const text = (key) => String(s[key] ?? '').trim();
  const p = {
    ...jitterParams(s),
    policy: 'exponential',
    arrivals: text('arrivals'),
    capacity: text('capacity'),
    outage: text('outage'),
    timeout: text('timeout'),
    pause: s.pause === 'true',
    engine: s.engine,
  };
  delete p.deadline;
  delete p.samples;
  delete p.deliveries;
  const budget = number(s.budget);
  if (budget !== 0) p.budget = budget;
  if (text('rate-limit') !== '') p.rateLimit = text('rate-limit');
  if (text('retry-after') !== '') p.retryAfter = text('retry-after');
  return p;
}

/** The storm's series: your policy alone, or beside a fixed 30 s interval and a retry budget. */
function ownStormSeries(s) {
  const mine = stormParams(s);
  if (s['storm-compare'] !== 'true') return [{ label: 'your policy', params: mine }];
  // Your policy as it is (pausing the endpoint included), without the limits the third series adds.
  const { budget, rateLimit, retryAfter, ...bare } = mine;
  // The article's storm-maker, without jitter.
  const fixed = { ...bare, policy: 'fixed', interval: '30s', giveUp: '2h', mode: 'none', engine: 'auto' };
  delete fixed.pause;
  delete fixed.attempts;
  delete fixed.gaps;
  delete fixed.thenEvery;
  return [
    { label: 'your policy', params: bare },
    { label: 'fixed 30 s', params: fixed },
    { label: `your policy + ${budget || 10}% budget`, params: { ...mine, budget: budget || 10 } },
  ];
}


/**
 * The storm's series, and the compared preset's schedule in the same storm when one is chosen:
 * the same traffic, outage and bounds, the preset's gaps and jitter.
 */
export function stormSeries(s) {
  const series = ownStormSeries(s);
  const compared = comparedPreset(s);
  if (!compared) return series;
  const mine = stormParams(s);
  const { budget, rateLimit, retryAfter, ...scenario } = mine;
  for (const key of ['base', 'multiplier', 'cap', 'attempts', 'giveUp', 'gaps', 'thenEvery', 'mode', 'factor']) {
    delete scenario[key];
  }
  const params = { ...scenario, ...compared.params, policy: 'exponential' };
  return [...series, { label: compared.title, params }];
}

/** The preset the timeline is compared with, if any. */
export function comparedPreset(s) {
  return presetByName(s.compare);
}

/** "your policy gives up after X; Svix after Y", from the drawn report and the preset. */
export function compareText(report, preset) {
  const attempts = (n) => `${n} attempt${n === 1 ? '' : 's'}`;
  return (
    `Your policy gives up after ${formatDuration(report.give_up_s)} (${attempts(report.attempts)}); ` +
    `${preset.title} after ${formatDuration(preset.give_up_s)} (${attempts(preset.attempts)}).`
  );
}

export function stormCaption(drawn) {
  return drawn.map((d) => (drawn.length > 1 ? `${d.label}: ${d.caption}` : d.caption)).join('\n');
}

/**
 * Draws the chart of `view` from settings `s` into the canvas `canvasId`; returns its caption
 * and what wasm returned (the report, the summary or the storm series). Throws wasm's error.
 */
export function drawChart(view, canvasId, s, options) {
  switch (view) {
    case 'distribution': {
      const report = drawDistribution(canvasId, jitterParams(s), options);
      return { caption: report.caption, report };
    }
    case 'herd': {
      const report = drawHerd(canvasId, jitterParams(s), options);
      return { caption: report.caption, report };
    }
    case 'storm': {
      const drawn = drawStorm(canvasId, stormSeries(s), options);
      return { caption: stormCaption(drawn), drawn };
    }
    default: {
      const compared = comparedPreset(s);
      const report = drawTimeline(canvasId, policyParams(s), options, compared?.params);
      return { caption: report.caption, report, compared };
    }
  }
}

/** Device pixels per CSS pixel for a canvas backing store, and the canvas sized to match. */
export function sizeCanvas(canvas) {
  const scale = Math.min(4, Math.max(1, window.devicePixelRatio || 1));
  const { width, height } = canvas.getBoundingClientRect();
  const w = Math.max(1, Math.round(width * scale));
  const h = Math.max(1, Math.round(height * scale));
  if (canvas.width !== w || canvas.height !== h) {
    canvas.width = w;
    canvas.height = h;
  }
  return scale;
}

/** An element's text as a list of <li>, text only. */
export function listItems(texts) {
  return texts.map((text) => {
    const li = document.createElement('li');
    li.textContent = text;
    return li;
  });
}
