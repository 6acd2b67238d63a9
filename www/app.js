// The page: reads inputs, calls the wasm module, writes the results. No retry arithmetic here.
import init, {
  drawDistribution,
  drawHerd,
  drawStorm,
  drawTimeline,
  formatDuration,
  newSeed,
  parseDuration,
} from './pkg/backoff_lab.js';

// Slider stops for durations, in seconds: nice values a person would pick.
const DURATION_STOPS = {
  base: [0.1, 0.25, 0.5, 1, 2, 5, 10, 15, 20, 30, 45, 60, 90, 120, 180, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400],
  cap: [1, 5, 10, 20, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400, 172800, 604800],
  'give-up': [60, 300, 600, 1800, 3600, 7200, 10800, 21600, 43200, 86400, 172800, 259200, 604800, 1209600, 2592000],
  outage: [60, 120, 300, 600, 900, 1200, 1800, 3600, 7200, 10800, 21600],
};
// Inputs that have a slider paired with a text field.
const SLIDERS = ['base', 'multiplier', 'cap', 'attempts', 'give-up', 'outage', 'budget'];
// Every input whose errors show next to it (the error element is `${name}-error`).
const FIELDS = [...SLIDERS, 'mode', 'factor', 'seed', 'samples', 'deliveries', 'deadline',
  'arrivals', 'capacity', 'timeout', 'rate-limit', 'retry-after', 'engine'];
// Parameter names as the wasm API reports them in `error.field`, mapped to inputs.
const FIELD_OF = { giveUp: 'give-up', traffic: 'arrivals', interval: 'base' };

const $ = (id) => document.getElementById(id);
const darkQuery = window.matchMedia('(prefers-color-scheme: dark)');

function nearestStop(stops, seconds) {
  let best = 0;
  stops.forEach((value, i) => {
    if (Math.abs(Math.log(value / seconds)) < Math.abs(Math.log(stops[best] / seconds))) best = i;
  });
  return best;
}

// Slider → text: the slider moved, so the text follows it.
function sliderMoved(field) {
  const slider = $(field);
  const stops = DURATION_STOPS[field];
  $(`${field}-text`).value = stops ? formatDuration(stops[Number(slider.value)]) : slider.value;
  render();
}

// Text → slider: follow the text where it parses; the render reports what is wrong otherwise.
function textTyped(field) {
  const text = $(`${field}-text`).value;
  const slider = $(field);
  const stops = DURATION_STOPS[field];
  try {
    const value = stops ? parseDuration(field, text) : Number(text);
    if (Number.isFinite(value) && value > 0) {
      slider.value = stops ? String(nearestStop(stops, value)) : String(value);
    }
  } catch {
    // Left to render(), which shows the message next to the field.
  }
  render();
}

const number = (text) => (text.trim() === '' ? NaN : Number(text));

function policyParams() {
  const p = {
    base: $('base-text').value,
    multiplier: number($('multiplier-text').value),
    cap: $('cap-text').value,
  };
  if ($('stop-mode').value === 'attempts') p.attempts = number($('attempts-text').value);
  else p.giveUp = $('give-up-text').value;
  return p;
}

function jitterParams() {
  const p = {
    ...policyParams(),
    mode: $('mode').value,
    factor: number($('factor-text').value),
    seed: number($('seed-text').value),
    samples: Number($('samples').value),
    deliveries: number($('deliveries-text').value),
  };
  const deadline = $('deadline-text').value.trim();
  if (deadline !== '') p.deadline = deadline;
  return p;
}

function showErrors(errors) {
  const byField = new Map();
  const general = [];
  for (const error of errors) {
    const field = FIELD_OF[error.field] || error.field;
    if (FIELDS.includes(field)) byField.set(field, error.message);
    else general.push(error.message);
  }
  for (const name of FIELDS) {
    const message = byField.get(name) || '';
    $(`${name}-error`).textContent = message;
    const input = $(`${name}-text`) || $(name);
    if (message) input.setAttribute('aria-invalid', 'true');
    else input.removeAttribute('aria-invalid');
  }
  $('form-error').textContent = [...new Set(general)].join(' ');
}

function fillTable(report) {
  const rows = report.rows.map((row) => {
    const tr = document.createElement('tr');
    if (row.capped) tr.className = 'capped';
    for (const text of [String(row.attempt), row.gap_text, row.elapsed_text]) {
      const td = document.createElement('td');
      td.textContent = text;
      tr.append(td);
    }
    return tr;
  });
  $('schedule-table').tBodies[0].replaceChildren(...rows);
}

function listItems(texts) {
  return texts.map((text) => {
    const li = document.createElement('li');
    li.textContent = text;
    return li;
  });
}

function sizeCanvas(canvas) {
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

function chartOptions(canvasId) {
  return { dark: darkQuery.matches, scale: sizeCanvas($(canvasId)), logScale: $('log-scale').checked };
}

function stormParams() {
  const text = (id) => $(id).value.trim();
  const p = {
    ...jitterParams(),
    policy: 'exponential',
    arrivals: text('arrivals-text'),
    capacity: text('capacity-text'),
    outage: text('outage-text'),
    timeout: text('timeout-text'),
    pause: $('pause').checked,
    engine: $('mode').value === 'decorrelated' ? 'discrete' : $('engine').value,
  };
  delete p.deadline;
  delete p.samples;
  delete p.deliveries;
  const budget = number($('budget-text').value);
  if (budget !== 0) p.budget = budget;
  if (text('rate-limit-text') !== '') p.rateLimit = text('rate-limit-text');
  if (text('retry-after-text') !== '') p.retryAfter = text('retry-after-text');
  return p;
}

function stormSeries() {
  const mine = stormParams();
  if (!$('compare').checked) return [{ label: 'your policy', params: mine }];
  const { budget, rateLimit, retryAfter, pause, ...bare } = mine;
  // The article's storm-maker: no jitter, so the fast engine serves whatever mode is chosen.
  const fixed = { ...bare, policy: 'fixed', interval: '30s', giveUp: '2h', mode: 'none', engine: 'fluid' };
  delete fixed.attempts;
  return [
    { label: 'your policy', params: bare },
    { label: 'fixed 30 s', params: fixed },
    { label: `your policy + ${budget || 10}% budget`, params: { ...mine, budget: budget || 10 } },
  ];
}

// Each view draws its chart and writes its text; a failing view keeps its last good picture.
const VIEWS = [
  () => {
    const report = drawTimeline('timeline', policyParams(), chartOptions('timeline'));
    fillTable(report);
    $('caption').textContent = report.caption;
    $('timeline').setAttribute('aria-label', report.caption);
    $('facts').replaceChildren(...listItems(report.facts));
  },
  () => {
    const report = drawDistribution('distribution', jitterParams(), chartOptions('distribution'));
    $('distribution-caption').textContent = report.caption;
    $('distribution').setAttribute('aria-label', report.caption);
  },
  () => {
    const summary = drawHerd('herd', jitterParams(), chartOptions('herd'));
    $('herd-caption').textContent = summary.caption;
    $('herd').setAttribute('aria-label', summary.caption);
  },
];

// The storm simulates hours of traffic: it redraws in the next animation frame, once for any
// number of inputs in between, so that typing and dragging never wait for it.
function drawStormView() {
  const drawn = drawStorm('storm', stormSeries(), chartOptions('storm'));
  const caption = drawn.map((d) => (drawn.length > 1 ? `${d.label}: ${d.caption}` : d.caption)).join('\n');
  $('storm-caption').textContent = caption;
  $('storm').setAttribute('aria-label', caption);
}

function runViews(views) {
  const errors = [];
  for (const view of views) {
    try {
      view();
    } catch (error) {
      errors.push(error instanceof Error ? error : new Error(String(error)));
    }
  }
  return errors;
}

let stormFrame = 0;
let fastErrors = [];
let fastMs = 0;

function render() {
  const started = performance.now();
  fastErrors = runViews(VIEWS);
  fastMs = performance.now() - started;
  showErrors(fastErrors);
  $('status').textContent = 'drawing the storm…';
  cancelAnimationFrame(stormFrame);
  stormFrame = requestAnimationFrame(() => {
    const stormStarted = performance.now();
    const errors = [...fastErrors, ...runViews([drawStormView])];
    const stormMs = (performance.now() - stormStarted).toFixed(1);
    showErrors(errors);
    $('status').textContent = errors.length === 0
      ? `rendered in ${fastMs.toFixed(1)} ms (storm ${stormMs} ms)`
      : `not everything was redrawn: fix the highlighted input (${fastMs.toFixed(1)} ms)`;
    if (errors.length === 0) document.body.dataset.ready = 'true';
  });
}

function setStopMode() {
  const byDeadline = $('stop-mode').value === 'give-up';
  $('attempts-field').hidden = byDeadline;
  $('give-up-field').hidden = !byDeadline;
  render();
}

function setMode() {
  $('factor-field').hidden = $('mode').value !== 'proportional';
  render();
}

async function main() {
  await init();
  for (const [field, stops] of Object.entries(DURATION_STOPS)) {
    const slider = $(field);
    slider.max = String(stops.length - 1);
    slider.value = String(nearestStop(stops, parseDuration(field, $(`${field}-text`).value)));
  }
  for (const field of SLIDERS) {
    $(field).addEventListener('input', () => sliderMoved(field));
    $(`${field}-text`).addEventListener('input', () => textTyped(field));
  }
  for (const id of ['factor-text', 'seed-text', 'deliveries-text', 'deadline-text', 'arrivals-text',
    'capacity-text', 'timeout-text', 'rate-limit-text', 'retry-after-text']) {
    $(id).addEventListener('input', render);
  }
  for (const id of ['log-scale', 'samples', 'pause', 'compare', 'engine']) {
    $(id).addEventListener('change', render);
  }
  $('stop-mode').addEventListener('change', setStopMode);
  $('mode').addEventListener('change', setMode);
  $('new-seed').addEventListener('click', () => {
    $('seed-text').value = String(newSeed());
    render();
  });
  $('controls').addEventListener('submit', (event) => event.preventDefault());
  darkQuery.addEventListener('change', render);
  const resized = new ResizeObserver(() => render());
  for (const id of ['timeline', 'distribution', 'herd', 'storm']) resized.observe($(id));
  render();
}

main().catch((error) => {
  $('status').textContent = `could not start: ${error && error.message ? error.message : error}`;
});
