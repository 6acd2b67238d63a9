// The page: reads inputs, calls the wasm module, writes the results. No retry arithmetic here.
// Every control is also a setting in the URL hash (keys as in src/state.rs): the hash is written
// on every render and read on load and on hashchange, so a link opens the same page.
import init, {
  chartSvg,
  decodeState,
  encodeState,
  exportSchedule,
  formatDuration,
  newSeed,
  parseDuration,
  stormSvg,
} from './pkg/backoff_lab.js';
import {
  VIEW_SECTION,
  VIEW_TITLE,
  compareText,
  comparedPreset,
  drawChart,
  gapList,
  jitterParams,
  listItems,
  number,
  policyParams,
  presetByName,
  presetList,
  presetValues,
  resolveState,
  sizeCanvas,
  stormSeries,
} from './common.js';

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
const FIELDS = [...SLIDERS, 'gaps', 'mode', 'factor', 'seed', 'samples', 'deliveries', 'deadline',
  'arrivals', 'capacity', 'timeout', 'rate-limit', 'retry-after', 'engine'];
// Parameter names as the wasm API reports them in `error.field`, mapped to inputs.
const FIELD_OF = { giveUp: 'give-up', traffic: 'arrivals', interval: 'base', 'then-every': 'gaps', thenEvery: 'gaps' };

// Settings (the URL hash's keys) and the controls that hold them.
const TEXT_SETTINGS = {
  base: 'base-text', multiplier: 'multiplier-text', cap: 'cap-text', 'then-every': 'then-every-text',
  attempts: 'attempts-text', 'give-up': 'give-up-text', factor: 'factor-text', seed: 'seed-text',
  deliveries: 'deliveries-text', deadline: 'deadline-text', arrivals: 'arrivals-text',
  capacity: 'capacity-text', outage: 'outage-text', timeout: 'timeout-text', budget: 'budget-text',
  'rate-limit': 'rate-limit-text', 'retry-after': 'retry-after-text',
};
const SELECT_SETTINGS = {
  preset: 'preset', stop: 'stop-mode', compare: 'compare', mode: 'mode', samples: 'samples',
  engine: 'engine', view: 'embed-view',
};
const CHECKBOX_SETTINGS = { log: 'log-scale', pause: 'pause', 'storm-compare': 'storm-compare' };
const CHARTS = ['timeline', 'distribution', 'herd', 'storm'];

const $ = (id) => document.getElementById(id);
const darkQuery = window.matchMedia('(prefers-color-scheme: dark)');

function nearestStop(stops, seconds) {
  let best = 0;
  stops.forEach((value, i) => {
    if (Math.abs(Math.log(value / seconds)) < Math.abs(Math.log(stops[best] / seconds))) best = i;
  });
  return best;
}

// Text → slider: follow the text where it parses; the render reports what is wrong otherwise.
function syncSlider(field) {
  const text = $(`${field}-text`).value;
  const slider = $(field);
  const stops = DURATION_STOPS[field];
  try {
    const value = stops ? parseDuration(field, text) : number(text);
    if (Number.isFinite(value) && (stops ? value > 0 : value >= 0)) {
      slider.value = stops ? String(nearestStop(stops, value)) : String(value);
    }
  } catch {
    // Left to render(), which shows the message next to the field.
  }
}

// ---- Settings ⇄ controls

/** Every control's value as settings (text keyed as in the URL hash). */
function readControls() {
  const s = {};
  for (const [key, id] of Object.entries(TEXT_SETTINGS)) s[key] = $(id).value;
  for (const [key, id] of Object.entries(SELECT_SETTINGS)) s[key] = $(id).value;
  for (const [key, id] of Object.entries(CHECKBOX_SETTINGS)) s[key] = String($(id).checked);
  s.gaps = gapList($('gaps-text').value).join(',');
  s.section = VIEW_SECTION[s.view] ?? 'schedule';
  return s;
}

/** Sets the controls named in `values` (the rest keep theirs) and everything that follows them. */
function applyControls(values) {
  for (const [key, id] of Object.entries(TEXT_SETTINGS)) {
    if (key in values) $(id).value = values[key];
  }
  for (const [key, id] of Object.entries(SELECT_SETTINGS)) {
    if (key in values) $(id).value = values[key];
  }
  for (const [key, id] of Object.entries(CHECKBOX_SETTINGS)) {
    if (key in values) $(id).checked = values[key] === 'true';
  }
  if ('gaps' in values) $('gaps-text').value = gapList(values.gaps).join(', ');
  for (const field of SLIDERS) syncSlider(field);
  showPolicyFields();
}

/** What follows the controls without a render: hidden fields and the preset's description. */
function showPolicyFields() {
  const byDeadline = $('stop-mode').value === 'give-up';
  $('attempts-field').hidden = byDeadline;
  $('give-up-field').hidden = !byDeadline;
  $('factor-field').hidden = $('mode').value !== 'proportional';
  const listed = gapList($('gaps-text').value).length > 0;
  $('gaps-field').hidden = !listed;
  $('then-every-row').hidden = !listed || $('then-every-text').value.trim() === '';
  $('deadline-note').hidden = !listed;

  const preset = presetByName($('preset').value);
  $('preset-info').hidden = !preset;
  if (preset) {
    $('preset-give-up').textContent = preset.give_up_text;
    $('preset-attempts').textContent = String(preset.attempts);
    $('preset-note').textContent = preset.note;
    const source = $('preset-source');
    source.setAttribute('href', preset.source);
    let host = preset.source;
    try {
      host = new URL(preset.source).host;
    } catch {
      // Show the address as it is.
    }
    source.textContent = `Published schedule (${host})`;
  }
}

/** The policy moved away from the chosen preset; `dropGaps` when the formula takes over again. */
function leavePreset(dropGaps) {
  if ($('preset').value !== '') $('preset').value = '';
  if (dropGaps) {
    $('gaps-text').value = '';
    $('then-every-text').value = '';
  }
  showPolicyFields();
}

function choosePreset() {
  const preset = presetByName($('preset').value);
  if (preset) applyControls(presetValues(preset));
  else showPolicyFields();
  render();
}

function showNotices(notices) {
  const box = $('notice');
  if (notices.length === 0) {
    box.hidden = true;
    box.replaceChildren();
    return;
  }
  const intro = document.createElement('p');
  intro.textContent = notices.length === 1
    ? 'One setting in the link was not used:'
    : `${notices.length} settings in the link were not used:`;
  const list = document.createElement('ul');
  list.append(...listItems(notices));
  box.replaceChildren(intro, list);
  box.hidden = false;
}

/** Reads the URL hash into the controls (garbage falls back to defaults, with notices). */
function loadFromHash() {
  const { values, notices } = resolveState(decodeState(location.hash));
  applyControls(values);
  showNotices(notices);
}

function settingsList(s) {
  return Object.entries(s).map(([key, value]) => ({ key, value: String(value) }));
}

/** Writes the settings to the URL hash without a history entry, and the link field. */
function writeHash(s) {
  const hash = encodeState(settingsList(s));
  if (location.hash.replace(/^#/, '') !== hash) {
    history.replaceState(history.state, '', hash ? `#${hash}` : location.pathname + location.search);
  }
  $('link-text').value = location.href;
  if (!$('embed-box').hidden) $('embed-code').value = embedCode(s);
}

// ---- Rendering

function showErrors(errors) {
  const byField = new Map();
  const general = [];
  for (const error of errors) {
    const field = FIELD_OF[error.field] || error.field;
    if (FIELDS.includes(field)) byField.set(field, error.message);
    else general.push(error.message);
  }
  // Only what changed is written: every write would cost the next layout.
  const setText = (element, text) => {
    if (element.textContent !== text) element.textContent = text;
  };
  for (const name of FIELDS) {
    const message = byField.get(name) || '';
    setText($(`${name}-error`), message);
    const input = $(`${name}-text`) || $(name);
    if (input.hasAttribute('aria-invalid') !== Boolean(message)) {
      if (message) input.setAttribute('aria-invalid', 'true');
      else input.removeAttribute('aria-invalid');
    }
  }
  setText($('form-error'), [...new Set(general)].join(' '));
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

function chartOptions(canvasId, s) {
  return { dark: darkQuery.matches, scale: sizeCanvas($(canvasId)), logScale: s.log === 'true' };
}

function showCaption(canvasId, captionId, caption) {
  $(captionId).textContent = caption;
  $(canvasId).setAttribute('aria-label', caption);
}

// Each chart's view draws it and writes its text; a failing view keeps its last good picture.
const VIEWS = {
  timeline: (s) => {
    const compared = comparedPreset(s);
    // Two timelines need the taller canvas; the class is set before the canvas is measured.
    $('timeline').classList.toggle('compared', Boolean(compared));
    const { caption, report } = drawChart('timeline', 'timeline', s, chartOptions('timeline', s));
    fillTable(report);
    showCaption('timeline', 'caption', caption);
    $('facts').replaceChildren(...listItems(report.facts));
    $('compare-info').hidden = !compared;
    $('compare-info').textContent = compared ? compareText(report, compared) : '';
  },
  distribution: (s) => {
    const { caption } = drawChart('distribution', 'distribution', s, chartOptions('distribution', s));
    showCaption('distribution', 'distribution-caption', caption);
  },
  herd: (s) => {
    const { caption } = drawChart('herd', 'herd', s, chartOptions('herd', s));
    showCaption('herd', 'herd-caption', caption);
  },
  storm: (s) => {
    const { caption } = drawChart('storm', 'storm', s, chartOptions('storm', s));
    showCaption('storm', 'storm-caption', caption);
  },
};

/** Whether any of the chart is in the viewport (a hidden chart is not). */
function onScreen(id) {
  const r = $(id).getBoundingClientRect();
  return r.width > 0 && r.bottom > 0 && r.top < window.innerHeight && r.right > 0 && r.left < window.innerWidth;
}

// A render draws the charts on screen first, at once; the storm (which simulates hours of
// traffic) waits for the next animation frame when its last draw was slow, so that inputs
// arriving in between cost one simulation. Charts off screen follow, one per task, so that an
// input arriving meanwhile is handled first and restarts the render. `charts-drawn` events mark
// both moments.
const render = (() => {
  let state;
  let stale = new Set();
  let errors = [];
  let fastMs = 0;
  let stormMs = 0;
  let frame = 0;
  let task = 0;
  let lastStormMs = Infinity;
  let drawnOnce = false;

  /** Draws `chart` and adds its time to the status's figures. */
  function draw(chart) {
    const started = performance.now();
    try {
      VIEWS[chart](state);
    } catch (error) {
      errors.push(error instanceof Error ? error : new Error(String(error)));
    }
    stale.delete(chart);
    const ms = performance.now() - started;
    if (chart === 'storm') {
      stormMs = ms;
      lastStormMs = ms;
    } else {
      fastMs += ms;
    }
  }

  function announce(scope) {
    document.dispatchEvent(new CustomEvent('charts-drawn', { detail: { scope } }));
  }

  function finish() {
    // The link follows once everything is drawn: history.replaceState is too slow for every
    // step of a slider.
    writeHash(state);
    showErrors(errors);
    $('status').textContent = errors.length === 0
      ? `rendered in ${fastMs.toFixed(1)} ms (storm ${stormMs.toFixed(1)} ms)`
      : `not everything was redrawn: fix the highlighted input (${fastMs.toFixed(1)} ms)`;
    if (errors.length === 0) document.body.dataset.ready = 'true';
    announce('all');
  }

  function drawOffScreen() {
    const next = CHARTS.find((chart) => stale.has(chart));
    if (next === undefined) {
      finish();
      return;
    }
    task = setTimeout(() => {
      draw(next);
      drawOffScreen();
    }, 0);
  }

  return function render() {
    state = readControls();
    cancelAnimationFrame(frame);
    clearTimeout(task);
    stale = new Set(CHARTS);
    errors = [];
    stormMs = 0;
    // Measured before anything is written, so that the page is laid out once; but the first
    // time the schedule's table is still empty, and each chart is measured when its turn comes.
    const measured = drawnOnce ? new Set(CHARTS.filter(onScreen)) : null;
    const onScreenNow = (chart) => (measured ? measured.has(chart) : onScreen(chart));
    fastMs = 0;
    for (const chart of CHARTS) {
      if (chart !== 'storm' && onScreenNow(chart)) draw(chart);
    }
    drawnOnce = true;
    showErrors(errors);
    const drawRest = () => {
      showErrors(errors);
      announce('visible');
      $('status').textContent = 'drawing the charts off screen…';
      drawOffScreen();
    };
    if (!onScreenNow('storm')) {
      drawRest();
      return;
    }
    // A storm that drew inside a frame last time draws now; a slow one waits for the next
    // animation frame, so that inputs arriving in between cost one simulation, not one each.
    if (lastStormMs < 12) {
      draw('storm');
      drawRest();
      return;
    }
    $('status').textContent = 'drawing the storm…';
    frame = requestAnimationFrame(() => {
      draw('storm');
      drawRest();
    });
  };
})();

// ---- Sharing: the link, the embed code

function say(id, text) {
  $(id).textContent = text;
}

async function copyText(text) {
  if (!navigator.clipboard || typeof navigator.clipboard.writeText !== 'function') {
    throw new Error('no clipboard');
  }
  await navigator.clipboard.writeText(text);
}

async function copyLink() {
  writeHash(readControls());
  const href = location.href;
  $('link-text').value = href;
  try {
    await copyText(href);
    say('share-status', 'Link copied.');
  } catch {
    $('link-text').focus();
    $('link-text').select();
    say('share-status', 'This browser did not allow copying: the link is selected above, copy it with Ctrl+C (⌘C on a Mac).');
  }
}

/** Text for an HTML attribute value in double quotes. */
function attribute(text) {
  return String(text).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * The <iframe> snippet for the chosen chart with the current settings. It is text for the user
 * to paste elsewhere: this page only ever shows it as a textarea's value.
 */
function embedCode(s) {
  const view = s.view in VIEW_SECTION ? s.view : 'timeline';
  // The view goes last and explicitly, so that the link says which chart it shows.
  const state = encodeState(settingsList({ ...s, view: 'timeline', section: 'schedule' }));
  const page = new URL('embed.html', location.href);
  page.hash = '';
  const src = `${page.href}#${state ? `${state}&` : ''}view=${view}`;
  const title = `backoff-lab: ${VIEW_TITLE[view]}`;
  return `<iframe src="${attribute(src)}" width="100%" height="360" style="border:0" loading="lazy" title="${attribute(title)}"></iframe>`;
}

function showEmbed() {
  $('embed-code').value = embedCode(readControls());
  $('embed-box').hidden = false;
  $('embed-code').focus();
  $('embed-code').select();
  say('share-status', `Embed code for the ${VIEW_TITLE[$('embed-view').value] ?? 'chart'} below.`);
}

// ---- Exports

function download(blob, filename) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has started from the click; the object URL is freed a while later.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** The status next to a group of export buttons. */
function exportSay(button, text) {
  const status = button.closest('.exports')?.querySelector('.export-status');
  if (status) status.textContent = text;
}

function failure(error) {
  return error && error.message ? error.message : String(error);
}

function exportPng(view, button) {
  $(view).toBlob((blob) => {
    if (blob) {
      download(blob, `backoff-lab-${view}.png`);
      exportSay(button, `Saved backoff-lab-${view}.png.`);
    } else {
      exportSay(button, 'The picture could not be saved.');
    }
  }, 'image/png');
}

function exportSvg(view, button) {
  const s = readControls();
  const canvas = $(view);
  const size = (pixels) => Math.min(4000, Math.max(100, Math.round(pixels)));
  const width = size(canvas.clientWidth);
  const height = size(canvas.clientHeight);
  const options = { dark: darkQuery.matches, scale: 1, logScale: s.log === 'true' };
  try {
    // wasm measures the SVG's text with an offscreen canvas: nothing here touches the CSP.
    const svg = view === 'storm'
      ? stormSvg(stormSeries(s), options, width, height)
      : view === 'timeline'
        ? chartSvg('timeline', policyParams(s), options, width, height, comparedPreset(s)?.params)
        : chartSvg(view, jitterParams(s), options, width, height, undefined);
    download(new Blob([svg], { type: 'image/svg+xml' }), `backoff-lab-${view}.svg`);
    exportSay(button, `Saved backoff-lab-${view}.svg.`);
  } catch (error) {
    exportSay(button, `No SVG: ${failure(error)}`);
  }
}

const TABLE_FORMATS = {
  csv: { type: 'text/csv', extension: 'csv' },
  json: { type: 'application/json', extension: 'json' },
};

function exportTable(format, button) {
  try {
    const text = exportSchedule(policyParams(readControls()), format);
    const { type, extension } = TABLE_FORMATS[format];
    download(new Blob([text], { type }), `backoff-lab-schedule.${extension}`);
    exportSay(button, `Saved backoff-lab-schedule.${extension}.`);
  } catch (error) {
    exportSay(button, `No ${format.toUpperCase()}: ${failure(error)}`);
  }
}

async function copyMarkdown(button) {
  let text;
  try {
    text = exportSchedule(policyParams(readControls()), 'markdown');
  } catch (error) {
    exportSay(button, `No Markdown: ${failure(error)}`);
    return;
  }
  try {
    await copyText(text);
    exportSay(button, 'Markdown table copied.');
  } catch {
    download(new Blob([text], { type: 'text/markdown' }), 'backoff-lab-schedule.md');
    exportSay(button, 'This browser did not allow copying: saved backoff-lab-schedule.md instead.');
  }
}

// ---- Start

function fillPresetOptions() {
  for (const id of ['preset', 'compare']) {
    const select = $(id);
    const options = presetList().map((preset) => {
      const option = document.createElement('option');
      option.value = preset.name;
      option.textContent = preset.title;
      return option;
    });
    select.append(...options);
  }
}

async function main() {
  await init();
  fillPresetOptions();
  for (const [field, stops] of Object.entries(DURATION_STOPS)) $(field).max = String(stops.length - 1);
  loadFromHash();

  // Moving base, multiplier or cap goes back to the formula; a new stop rule leaves the preset
  // but keeps its listed gaps.
  const policyMoved = (field) => {
    if (field === 'base' || field === 'multiplier' || field === 'cap') leavePreset(true);
    else if (field === 'attempts' || field === 'give-up') leavePreset(false);
  };
  for (const field of SLIDERS) {
    $(field).addEventListener('input', () => {
      policyMoved(field);
      const stops = DURATION_STOPS[field];
      $(`${field}-text`).value = stops ? formatDuration(stops[Number($(field).value)]) : $(field).value;
      render();
    });
    $(`${field}-text`).addEventListener('input', () => {
      policyMoved(field);
      syncSlider(field);
      render();
    });
  }
  for (const id of ['factor-text', 'seed-text', 'deliveries-text', 'deadline-text', 'arrivals-text',
    'capacity-text', 'timeout-text', 'rate-limit-text', 'retry-after-text']) {
    $(id).addEventListener('input', render);
  }
  for (const id of ['log-scale', 'samples', 'pause', 'storm-compare', 'engine', 'compare', 'embed-view']) {
    $(id).addEventListener('change', render);
  }
  $('preset').addEventListener('change', choosePreset);
  $('stop-mode').addEventListener('change', () => {
    leavePreset(false);
    render();
  });
  $('mode').addEventListener('change', () => {
    showPolicyFields();
    render();
  });
  $('drop-gaps').addEventListener('click', () => {
    leavePreset(true);
    $('base-text').focus();
    render();
  });
  $('new-seed').addEventListener('click', () => {
    $('seed-text').value = String(newSeed());
    render();
  });
  $('copy-link').addEventListener('click', copyLink);
  $('embed').addEventListener('click', showEmbed);
  for (const view of CHARTS) {
    const png = $(`export-${view}-png`);
    const svg = $(`export-${view}-svg`);
    png.addEventListener('click', () => exportPng(view, png));
    svg.addEventListener('click', () => exportSvg(view, svg));
  }
  $('export-csv').addEventListener('click', (event) => exportTable('csv', event.currentTarget));
  $('export-json').addEventListener('click', (event) => exportTable('json', event.currentTarget));
  $('copy-markdown').addEventListener('click', (event) => copyMarkdown(event.currentTarget));
  $('controls').addEventListener('submit', (event) => event.preventDefault());
  window.addEventListener('hashchange', () => {
    loadFromHash();
    render();
  });
  darkQuery.addEventListener('change', render);
  // A chart whose box changed size is drawn again (not on the observer's first report, which
  // gives the size the first render has just drawn at).
  const drawnSizes = new Map();
  const resized = new ResizeObserver((entries) => {
    let changed = false;
    for (const { target, contentRect } of entries) {
      const size = `${Math.round(contentRect.width)}x${Math.round(contentRect.height)}`;
      changed ||= drawnSizes.has(target) && drawnSizes.get(target) !== size;
      drawnSizes.set(target, size);
    }
    if (changed) render();
  });
  for (const id of CHARTS) resized.observe($(id));
  render();
}

main().catch((error) => {
  $('status').textContent = `could not start: ${error && error.message ? error.message : error}`;
});
