// The page: reads inputs, calls the wasm module, writes the results. No retry arithmetic here.
import init, { drawTimeline, formatDuration, parseDuration } from './pkg/backoff_lab.js';

// Slider stops for durations, in seconds: nice values a person would pick.
const DURATION_STOPS = {
  base: [0.1, 0.25, 0.5, 1, 2, 5, 10, 15, 20, 30, 45, 60, 90, 120, 180, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400],
  cap: [1, 5, 10, 20, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400, 172800, 604800],
  'give-up': [60, 300, 600, 1800, 3600, 7200, 10800, 21600, 43200, 86400, 172800, 259200, 604800, 1209600, 2592000],
};
const FIELDS = ['base', 'multiplier', 'cap', 'attempts', 'give-up'];

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

function params() {
  const stopMode = $('stop-mode').value;
  const number = (text) => (text.trim() === '' ? NaN : Number(text));
  const p = {
    base: $('base-text').value,
    multiplier: number($('multiplier-text').value),
    cap: $('cap-text').value,
  };
  if (stopMode === 'attempts') p.attempts = number($('attempts-text').value);
  else p.giveUp = $('give-up-text').value;
  return p;
}

function showError(field, message) {
  for (const name of FIELDS) {
    const text = $(`${name}-text`);
    const isIt = name === field;
    $(`${name}-error`).textContent = isIt ? message : '';
    if (isIt) text.setAttribute('aria-invalid', 'true');
    else text.removeAttribute('aria-invalid');
  }
  $('form-error').textContent = field && FIELDS.includes(field) ? '' : (message || '');
}

function fillTable(report) {
  const body = $('schedule-table').tBodies[0];
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
  body.replaceChildren(...rows);
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

function render() {
  const started = performance.now();
  const canvas = $('timeline');
  try {
    const scale = sizeCanvas(canvas);
    const report = drawTimeline('timeline', params(), {
      dark: darkQuery.matches,
      scale,
      logScale: $('log-scale').checked,
    });
    showError(null, '');
    fillTable(report);
    $('caption').textContent = report.caption;
    canvas.setAttribute('aria-label', report.caption);
    $('facts').replaceChildren(...report.facts.map((fact) => {
      const li = document.createElement('li');
      li.textContent = fact;
      return li;
    }));
    $('status').textContent = `rendered in ${(performance.now() - started).toFixed(1)} ms`;
    document.body.dataset.ready = 'true';
  } catch (error) {
    // The last good figure, table and caption stay; the message goes next to its field.
    showError(error && error.field, error instanceof Error ? error.message : String(error));
    $('status').textContent = 'not redrawn: fix the highlighted input';
  }
}

function setStopMode() {
  const byDeadline = $('stop-mode').value === 'give-up';
  $('attempts-field').hidden = byDeadline;
  $('give-up-field').hidden = !byDeadline;
  render();
}

async function main() {
  await init();
  for (const [field, stops] of Object.entries(DURATION_STOPS)) {
    const slider = $(field);
    slider.max = String(stops.length - 1);
    slider.value = String(nearestStop(stops, parseDuration(field, $(`${field}-text`).value)));
  }
  for (const field of FIELDS) {
    $(field).addEventListener('input', () => sliderMoved(field));
    $(`${field}-text`).addEventListener('input', () => textTyped(field));
  }
  $('stop-mode').addEventListener('change', setStopMode);
  $('log-scale').addEventListener('change', render);
  $('controls').addEventListener('submit', (event) => event.preventDefault());
  darkQuery.addEventListener('change', render);
  new ResizeObserver(() => render()).observe($('timeline'));
  render();
}

main().catch((error) => {
  $('status').textContent = `could not start: ${error && error.message ? error.message : error}`;
});
