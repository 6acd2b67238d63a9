// The explorer page's DOM wiring: it reads the controls into settings (text keyed as in the URL
// hash), asks the wasm module what to draw, and writes back what it says. Every number, default,
// preset and caption comes from Rust (src/page/); the costly steps run in workers (compute.js).
import init, {
  StormMemo,
  computeView,
  computesInline,
  decodeState,
  drawInstant,
  drawView,
  embedSnippet,
  encodeState,
  fileStem,
  inactiveControls,
  newSeed,
  pageConfig,
  pageSchedule,
  pageStaleness,
  presets,
  previewSettings,
  rendersAfterPaint,
  settingEdited,
  sliderPosition,
  sliderText,
  computeSurvivalRows,
  survivalExport,
  survivalAxesErrors,
  survivalJobs,
} from './pkg/backoff_lab.js';
import { Computer, plainError } from './compute.js';
import { RowPool } from './row-pool.js';
import { copyReportMarkdown, exportChartCsv, exportPng, exportReport, exportSvg, say as sayExport } from './exports.js';
import { fillScheduleTable } from './schedule-table.js';
import {
  Progress, chartOptions, copyText, fillCaption, fillNumberTable, isDark, listItems, notDrawnCaption, outOfDateNote, sizeCanvas,
} from './ui.js';

// Inputs that have a slider paired with a text field.
const SLIDERS = ['base', 'multiplier', 'cap', 'attempts', 'give-up', 'outage', 'budget'];
// Settings whose errors show next to their input (the error element is `${name}-error`).
const FIELDS = [...SLIDERS, 'gaps', 'mode', 'factor', 'seed', 'samples', 'deliveries', 'deadline',
  'arrivals', 'capacity', 'traffic', 'timeout', 'budget-window', 'budget-floor', 'resume-rate', 'rate-limit', 'retry-after', 'engine', 'tolerance', 'max-lag',
  'read-outage', 'outages', 'headroom', 'steps', 'retry-quota', 'retry-quota-tokens', 'retry-quota-ratio',
  'breaker-failures', 'breaker-share', 'breaker-window', 'breaker-min-attempts', 'breaker-cooldown',
  'breaker-probes'];
// Settings and the controls that hold them.
const TEXT_SETTINGS = {
  base: 'base-text', multiplier: 'multiplier-text', cap: 'cap-text', 'then-every': 'then-every-text',
  attempts: 'attempts-text', 'give-up': 'give-up-text', factor: 'factor-text', seed: 'seed-text',
  deliveries: 'deliveries-text', deadline: 'deadline-text', arrivals: 'arrivals-text',
  capacity: 'capacity-text', outage: 'outage-text', traffic: 'traffic-text', timeout: 'timeout-text',
  budget: 'budget-text',
  'budget-window': 'budget-window-text', 'budget-floor': 'budget-floor-text', 'resume-rate': 'resume-rate-text',
  'rate-limit': 'rate-limit-text', 'retry-after': 'retry-after-text', tolerance: 'tolerance-text',
  'max-lag': 'max-lag-text', 'read-outage': 'read-outage-text', outages: 'outages-text',
  headroom: 'headroom-text', steps: 'steps-text', 'retry-quota-tokens': 'retry-quota-tokens-text',
  'retry-quota-ratio': 'retry-quota-ratio-text', 'breaker-failures': 'breaker-failures-text',
  'breaker-share': 'breaker-share-text', 'breaker-window': 'breaker-window-text',
  'breaker-min-attempts': 'breaker-min-attempts-text', 'breaker-cooldown': 'breaker-cooldown-text',
  'breaker-probes': 'breaker-probes-text',
};
const SELECT_SETTINGS = {
  preset: 'preset', stop: 'stop-mode', compare: 'compare', mode: 'mode', samples: 'samples',
  engine: 'engine', view: 'embed-view', 'retry-quota': 'retry-quota', theme: 'theme',
};
const CHECKBOX_SETTINGS = { log: 'log-scale', pause: 'pause', 'storm-compare': 'storm-compare' };
// Controls whose change may change other settings (a preset chosen or left).
const POLICY_CONTROLS = ['base', 'multiplier', 'cap', 'attempts', 'give-up'];

const $ = (id) => document.getElementById(id);
const darkQuery = window.matchMedia('(prefers-color-scheme: dark)');
let config;
let presetList = [];

// Text → slider: follow the text where it reads as the field's value (the core says where the
// thumb stands); the render reports what is wrong otherwise.
function syncSlider(field) {
  const slider = $(field);
  const text = $(`${field}-text`).value;
  // A screen reader says the field's value ("3 h"), not the thumb's position among the stops.
  slider.setAttribute('aria-valuetext', text.trim() || 'none');
  const position = sliderPosition(field, readControls());
  if (position === undefined) return;
  if (!config.sliderStops[field]) {
    // A number past the slider's end (a link's 41 attempts on a slider up to 40) stretches the
    // slider to it, so that its thumb stands at the number and ArrowLeft gives the next one
    // down (40), not one past the end's neighbour (39); back within range, it is the page's
    // slider again.
    slider.dataset.max ??= slider.max;
    slider.max = String(Math.max(Number(slider.dataset.max), position));
  }
  slider.value = String(position);
}

// ---- Settings ⇄ controls

/** The page's own colours follow its Theme control, as its charts' do. */
function showTheme() {
  document.documentElement.dataset.theme = $('theme').value;
}

/** Every control's value as settings. */
function readControls() {
  const s = {};
  for (const [key, id] of Object.entries(TEXT_SETTINGS)) s[key] = $(id).value;
  for (const [key, id] of Object.entries(SELECT_SETTINGS)) s[key] = $(id).value;
  for (const [key, id] of Object.entries(CHECKBOX_SETTINGS)) s[key] = String($(id).checked);
  s.gaps = $('gaps-text').value;
  return s;
}

/** Sets the controls named in `values` (the rest keep theirs) and what follows them. */
function applyControls(values) {
  for (const [key, id] of Object.entries(TEXT_SETTINGS)) {
    if (key in values && $(id).value !== values[key]) $(id).value = values[key];
  }
  for (const [key, id] of Object.entries(SELECT_SETTINGS)) {
    if (key in values) $(id).value = values[key];
  }
  showTheme();
  for (const [key, id] of Object.entries(CHECKBOX_SETTINGS)) {
    if (key in values) $(id).checked = values[key] === 'true';
  }
  if ('gaps' in values) {
    const shown = values.gaps.split(',').map((gap) => gap.trim()).filter(Boolean).join(', ');
    if ($('gaps-text').value.split(',').map((g) => g.trim()).filter(Boolean).join(', ') !== shown) {
      $('gaps-text').value = shown;
    }
  }
  for (const field of SLIDERS) syncSlider(field);
  showPolicyFields();
}

/** A control changed: Rust says what else changes (a preset chosen or left). */
function edited(control) {
  applyControls(settingEdited(readControls(), control));
}

/** What follows the controls without a render: hidden fields and the preset's description. */
function showPolicyFields() {
  const byDeadline = $('stop-mode').value === 'give-up';
  $('attempts-field').hidden = byDeadline;
  $('give-up-field').hidden = !byDeadline;
  $('factor-field').hidden = $('mode').value !== 'proportional';
  const listed = $('gaps-text').value.trim() !== '';
  $('gaps-field').hidden = !listed;
  $('then-every-row').hidden = !listed || $('then-every-text').value.trim() === '';
  $('deadline-note').hidden = !listed;

  const preset = presetList.find((p) => p.name === $('preset').value);
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

/**
 * Marks the fields and options that do nothing as the others stand (the core says which and
 * why): a field's note under it, part of its description but not a live region (read with the
 * field, not announced at every render).
 */
function showInactiveControls(s) {
  const notes = new Map(inactiveControls(s).map(({ control, note }) => [control, note]));
  for (const [key, id] of Object.entries(TEXT_SETTINGS)) {
    const input = $(id);
    const note = notes.get(key) ?? '';
    if (input.classList.contains('inactive') !== (note !== '')) input.classList.toggle('inactive', note !== '');
    let slot = $(`${key}-note`);
    if (!slot && note) {
      slot = document.createElement('p');
      slot.id = `${key}-note`;
      slot.className = 'note';
      input.after(slot);
      input.setAttribute('aria-describedby', `${input.getAttribute('aria-describedby') ?? ''} ${slot.id}`.trim());
    }
    if (slot && slot.textContent !== note) slot.textContent = note;
  }
  for (const [key, id] of Object.entries(SELECT_SETTINGS)) {
    for (const option of $(id).options) {
      const note = notes.get(`${key}=${option.value}`);
      option.disabled = note !== undefined;
      option.title = note ?? '';
    }
  }
}

let announceTimer = 0;
// How long typing pauses before a refusal is said aloud, ms.
const ERRORS_SAID_AFTER_MS = 800;
let errorAnnounceTimer = 0;
// The refusals last said aloud, and still shown.
let saidErrors = new Set();

/**
 * Says a refusal once typing pauses, in one live region: each field's error box, a live region
 * of its own, was read out at every keystroke ("got 1 s", "got 10 s", "got 10 min"). Each box
 * stays its field's description, read with the field.
 */
function announceErrors(messages) {
  clearTimeout(errorAnnounceTimer);
  saidErrors = new Set(messages.filter((message) => saidErrors.has(message)));
  const fresh = messages.filter((message) => !saidErrors.has(message));
  // Cleared at once when everything is fixed (the region is read with the page), and before a
  // new refusal, so that one said before is said again when it comes back.
  if (messages.length === 0 || fresh.length > 0) $('error-announcer').textContent = '';
  if (fresh.length === 0) return;
  errorAnnounceTimer = setTimeout(() => {
    for (const message of fresh) saidErrors.add(message);
    $('error-announcer').textContent = fresh.join(' ');
  }, ERRORS_SAID_AFTER_MS);
}

function showNotices(notices) {
  const box = $('notice');
  const announcer = $('notice-announcer');
  clearTimeout(announceTimer);
  if (notices.length === 0) {
    box.hidden = true;
    box.replaceChildren();
    announcer.textContent = '';
    return;
  }
  const intro = document.createElement('p');
  // Whatever the notices say, from one setting left out to the whole link refused as too long.
  intro.textContent = 'Not all of the link could be used:';
  const list = document.createElement('ul');
  list.append(...listItems(notices));
  box.replaceChildren(intro, list);
  box.hidden = false;
  // Cleared first and set a task later, so that the same notices after a new link are said again.
  announcer.textContent = '';
  announceTimer = setTimeout(() => {
    // One sentence, its notices apart: joined by spaces they ran together when read aloud.
    announcer.textContent = `${intro.textContent} ${notices.join('; ')}.`;
  }, 50);
}

/**
 * Reads the URL hash into the controls (garbage falls back to defaults, with notices), and opens
 * the page at the section the link names (`view` or `section`), below the schedule at the top.
 */
function loadFromHash() {
  hashOwn = location.hash;
  const { settings, notices } = decodeState(location.hash);
  applyControls(settings);
  // The chart's own heading where it has one (the herd shares the jitter's section), else its
  // section's.
  const landing = settings.section === 'schedule'
    ? null
    : document.getElementById(`${settings.view}-heading`) ?? document.getElementById(`${settings.section}-heading`);
  // A link that opens at a chart shows what it could not use there, under the chart's heading,
  // where the reader lands (at the top of the page the list was 2,400 px above the storm).
  const box = $('notice');
  if (landing) {
    landing.after(box);
  } else {
    document.querySelector('main.layout').before(box);
  }
  showNotices(notices);
  landing?.scrollIntoView();
}

/** Writes the settings to the URL hash without a history entry, and the link field. A status
 * about the link ("Link copied.") no longer holds once the link changes, and is cleared. */
function writeHash(s) {
  const hash = encodeState(s);
  if (location.hash.replace(/^#/, '') !== hash) {
    history.replaceState(history.state, '', hash ? `#${hash}` : location.pathname + location.search);
    say('share-status', '');
  }
  hashOwn = location.hash;
  hashWritten = performance.now();
  $('link-text').value = location.href;
  if (!$('embed-box').hidden) $('embed-code').value = embedCode(s);
}

// The link follows the inputs within 250 ms, rewritten at most that often (browsers throttle a
// page that rewrites its URL on every slider step): it waited for every chart, seconds with a
// long schedule, and a reader copying the address bar meanwhile shared the settings before. It
// is written when the page is idle, not in the input's own task: `history.replaceState` took
// 5-20 ms there on a busy two-core machine, before the input's next paint.
const HASH_EVERY_MS = 250;
let hashWaiting = null;
let hashScheduled = false;
let hashWritten = -Infinity;
// The hash as the page last wrote or read it: another one is a navigation, whose `hashchange`
// (dispatched later) loads it; a waiting write must not put the old settings back over it.
let hashOwn = location.hash;
const whenIdle = (run, timeout) => (window.requestIdleCallback
  ? requestIdleCallback(run, { timeout: Math.max(1, timeout) })
  : setTimeout(run, 0));

function writeHashSoon(s) {
  hashWaiting = s;
  if (hashScheduled) return;
  hashScheduled = true;
  // At most every 250 ms, and within 250 ms of the input, idle or not by then.
  const wait = Math.max(0, hashWritten + HASH_EVERY_MS - performance.now());
  setTimeout(() => whenIdle(() => {
    hashScheduled = false;
    const waiting = hashWaiting;
    hashWaiting = null;
    if (waiting && location.hash === hashOwn) writeHash(waiting);
  }, HASH_EVERY_MS - wait), wait);
}

// ---- Rendering

function showErrors(errors) {
  const byField = new Map();
  const general = [];
  // Results arrive in any order: where two charts refuse one field, the first chart's message
  // (in the page's order) is shown, so that the page says the same thing every time. The
  // schedule's own (no view) come first: a value it refuses is one to fix.
  const order = (error) => (error.view ? 1 + COMPUTED.indexOf(error.view) : 0);
  for (const error of [...errors].sort((a, b) => order(a) - order(b))) {
    if (!FIELDS.includes(error.setting)) general.push(error.message);
    else if (!byField.has(error.setting)) byField.set(error.setting, error);
  }
  // Only what changed is written: every write would cost the next layout.
  const setText = (element, text) => {
    if (element.textContent !== text) element.textContent = text;
  };
  for (const name of FIELDS) {
    const error = byField.get(name);
    const message = error?.message ?? '';
    // A chart's own limit on a value the schedule takes (`chartLimit`) is noted, not flagged:
    // every other chart is drawn with it.
    const invalid = Boolean(error) && !error.chartLimit;
    const shown = $(`${name}-error`);
    setText(shown, message);
    if (shown.classList.contains('limit') !== (Boolean(error) && !invalid)) shown.classList.toggle('limit');
    const input = $(`${name}-text`) || $(name);
    // A refused field in a folded group of controls (a narrow screen) is shown with its message,
    // as is a chart's limit noted under one.
    const group = input.closest('details');
    if (error && group && !group.open) group.open = true;
    if (input.hasAttribute('aria-invalid') !== invalid) {
      if (invalid) input.setAttribute('aria-invalid', 'true');
      else input.removeAttribute('aria-invalid');
    }
  }
  setText($('form-error'), [...new Set(general)].join(' '));
  announceErrors([...[...byField.values()].map((error) => error.message), ...new Set(general)]);
  // A chart that was not redrawn keeps its last picture, dimmed so that it reads as out of date;
  // an error of no chart in particular (the schedule's own) leaves every chart out of date.
  const stale = new Set(errors.map((error) => error.view ?? 'all'));
  const sorted = [...errors].sort((a, b) => order(a) - order(b));
  for (const view of ['timeline', ...COMPUTED]) {
    const out = stale.has('all') || stale.has(view);
    const canvas = $(view);
    const why = out ? sorted.find((error) => !error.view || error.view === view) : undefined;
    if (canvas.classList.contains('stale') !== out) {
      canvas.classList.toggle('stale', out);
      // The schedule's facts and table are the timeline's numbers: out of date with it (they
      // stayed at full strength, read as current).
      if (view === 'timeline') for (const id of ['facts', 'schedule-box']) $(id).classList.toggle('stale', out);
    }
    // A chart's own limit highlights no input: it is noted under one.
    const title = !out ? '' : why?.chartLimit ? `out of date: ${LIMIT_NOTED}` : why?.stopped ? 'out of date: stopped before it was redrawn' : why?.setting ? 'out of date: fix the highlighted input to redraw it' : 'out of date: see why in its place';
    if (canvas.title !== title) canvas.title = title;
    // The survival section says why it has no map itself (showSurvivalRefusal), and holds its
    // exports for its own reasons.
    if (view !== 'survival') {
      showNotRedrawn(view, why ? why.message : null);
      // An out-of-date chart's downloads were of the older picture, while the fields show
      // other inputs.
      let held = null;
      if (out) held = why?.stopped ? STOPPED_EXPORTS : why?.chartLimit ? `out of date: ${LIMIT_NOTED}` : STALE_EXPORTS;
      holdExports(view, held);
    }
  }
}

// Each chart's last caption as drawn (`{ caption, labels }`), for the note of a chart that could
// not be redrawn and for its caption back once that note goes.
const drawnCaptions = new Map();
// The note each chart's caption shows in place of (or above) its drawn caption, by view.
const captionNotes = new Map();

/**
 * Says in `view`'s caption why it was not redrawn (`message`; null: it was): a chart never
 * drawn shows the message in its place instead of an empty box, as the embed page's caption
 * does; a chart with an older picture keeps it, dimmed, and its caption says first that it
 * and the picture are of older inputs.
 */
function showNotRedrawn(view, message) {
  const drawn = drawnCaptions.get(view);
  const figure = $(view).closest('figure');
  figure.classList.toggle('refused', message !== null && !drawn);
  let note = null;
  if (message !== null) note = drawn ? outOfDateNote(message) : notDrawnCaption({ message });
  if ((captionNotes.get(view) ?? null) === note) return;
  captionNotes.set(view, note);
  const caption = $(CAPTIONS[view]);
  if (note === null) {
    // Fixed before its redraw arrived: the caption of the picture it shows.
    fillCaption(caption, drawn?.caption ?? '', drawn?.labels);
    $(view).setAttribute('aria-label', drawn?.caption ?? '');
  } else if (drawn) {
    fillCaption(caption, `${note}\n${drawn.caption}`, [undefined, ...drawn.labels]);
    $(view).setAttribute('aria-label', `${note} ${drawn.caption}`);
  } else {
    caption.textContent = note;
    $(view).setAttribute('aria-label', note);
  }
}

const CAPTIONS = {
  timeline: 'caption', distribution: 'distribution-caption', herd: 'herd-caption', storm: 'storm-caption',
  staleness: 'staleness-caption', survival: 'survival-caption',
};
// The views whose costly step runs in a worker (the timeline is drawn at once). The survival map
// runs once its section has come near the screen (see `survivalWanted`): it keeps every core busy
// for a while.
const COMPUTED = ['distribution', 'herd', 'storm', 'staleness', 'survival'];
// Views whose computation does not hold up the end of a render (its status and `charts-drawn`
// events): the survival map shows its own progress, and its errors join the others when they come.
const BACKGROUND = ['survival'];
// How long the inputs must rest, after a render has drawn every other chart, before the survival
// map starts (ms): while a slider moves, its seconds of work would only be stopped again, taking
// the cores from the charts being redrawn.
const SURVIVAL_AFTER_MS = 250;

/** Writes what a drawn view says next to it; `tableDone()` once the timeline's table is full.
 * A first run drawn on the page itself (`instant`) has no derived schedule: the suggestion shown
 * stays until the worker's run brings one. */
function showDrawn(view, drawn, tableDone, instant = false) {
  const labels = drawn.storms.map((storm) => storm.label);
  fillCaption($(CAPTIONS[view]), drawn.caption, labels);
  drawnCaptions.set(view, { caption: drawn.caption, labels });
  captionNotes.delete(view);
  $(view).setAttribute('aria-label', drawn.caption);
  if (view === 'timeline') {
    fillScheduleTable($('schedule-table').tBodies[0], drawn.schedule, drawn.schedule_left_out_note, tableDone);
    $('facts').replaceChildren(...listItems(drawn.schedule.facts));
    $('compare-info').hidden = drawn.compared === null;
    $('compare-info').textContent = drawn.compared ?? '';
  }
  // The numbers of the charts whose only words are their captions, as the element's "The
  // numbers" has them (the schedule and the staleness chart have tables of their own).
  const numbers = $(`${view}-numbers`);
  if (numbers) {
    fillNumberTable(numbers, drawn.table);
    numbers.closest('details').hidden = drawn.table.rows.length === 0;
  }
  if (view === 'staleness' && !instant) {
    $('suggestion').hidden = drawn.suggestion_findings.length === 0;
    $('suggestion-findings').replaceChildren(...listItems(drawn.suggestion_findings));
    $('apply-suggestion').hidden = drawn.suggestion === null;
  }
}

// The wasm module, compiled once: each worker gets it with its first message, instead of fetching
// and compiling the same bytes again.
let wasmModule = null;

function startWorker() {
  const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
  if (wasmModule) worker.postMessage({ module: wasmModule });
  return worker;
}

const computer = new Computer(
  startWorker,
  (() => {
    let memo;
    return (view, settings) => computeView(view, settings, (memo ??= new StormMemo()));
  })(),
  previewSettings,
  computesInline,
);
// The survival map's rows over as many workers as the machine has cores.
const rowPool = new RowPool({
  jobsOf: survivalJobs,
  rowsOf: computeSurvivalRows,
  makeWorker: startWorker,
  size: navigator.hardwareConcurrency || 2,
});
// Whether the survival section has come near the screen: until then its map is not computed.
let survivalWanted = false;
const progress = new Progress((view) => render.stop(view));
// The last result each chart drew, for its SVG export.
const lastComputed = new Map();
// What the survival caption says before its map is asked for (index.html's text, read in `main`).
let survivalWaiting = '';

/**
 * The survival map's refusal of `settings` (its axes, its work or its scenario), or null: the
 * wasm core's check, the one its pieces of rows start with, at no cost (no cell runs). A link's
 * invalid map is reported by the render that loads it, not only once its section is in view.
 */
function survivalRefusal(settings) {
  try {
    survivalJobs(settings, 0);
    return null;
  } catch (error) {
    return plainError(error);
  }
}

/** The map's refusal and every other axis refused on its own: a link with three bad axes was
 * told one at a time. */
function survivalRefusals(settings, refusal) {
  try {
    const others = survivalAxesErrors(settings).filter((error) => error.setting !== refusal.setting);
    return [refusal, ...others];
  } catch {
    // Settings the core cannot read: the map's own refusal says so.
    return [refusal];
  }
}

/** The survival section says why there is no map, in its caption and its canvas' label. */
function showSurvivalRefusal(error) {
  const text = `The survival map cannot be computed: ${error.message}`;
  $('survival-caption').textContent = text;
  $('survival').setAttribute('aria-label', text);
  markSurvivalRefused(true);
}

/** A refused map shows its message in the map's place: no empty box, no exports of nothing. */
function markSurvivalRefused(refused) {
  $('survival').closest('figure').classList.toggle('refused', refused);
  holdExports('survival', refused ? 'the survival map cannot be computed' : null);
}

// Why an out-of-date chart's exports wait: an input refused, or its computation stopped.
const STALE_EXPORTS = 'out of date until the highlighted input is fixed';
// Why a chart past its own limit on a value the schedule takes (`chartLimit`) is out of date.
const LIMIT_NOTED = 'the chart\'s limit is noted under its input';
const STOPPED_EXPORTS = 'stopped before it was redrawn';

// Why the map's exports wait while it fills in.
const WHOLE_MAP_PENDING = 'available once the whole map is computed';

/** `view`'s exports wait, for `why` (or not, when null): a chart out of date, or a survival
 * map still filling in, exported, would pass for the current one. Marked `aria-disabled` rather than
 * disabled, so that a button the keyboard is on keeps the focus (a disabled one dropped it to
 * the page's body); a click on one does nothing (`ignoreHeldExports`). The timeline's are its
 * figure's and the schedule table's. */
function holdExports(view, why) {
  const buttons = [...$(view).closest('figure').querySelectorAll('.exports button')];
  if (view === 'timeline') buttons.push(...$('export-csv').closest('.exports').querySelectorAll('button'));
  for (const button of buttons) {
    // Only what changes is written: every write would cost the next layout.
    if ((button.getAttribute('aria-disabled') === 'true' ? button.title : null) === why) continue;
    if (why === null) {
      button.removeAttribute('aria-disabled');
      button.removeAttribute('title');
    } else {
      button.setAttribute('aria-disabled', 'true');
      button.title = why;
    }
  }
}

/** Clicks on an export held by `holdExports` stop before its handler, and its group's status
 * says why (the title alone is unseen on a touch screen). */
function ignoreHeldExports() {
  document.querySelector('main').addEventListener('click', (event) => {
    const held = event.target.closest?.('.exports button[aria-disabled="true"]');
    if (held) {
      event.stopImmediatePropagation();
      event.preventDefault();
      sayExport(held, `${held.title.charAt(0).toUpperCase()}${held.title.slice(1)}.`);
    }
  }, true);
}

// A render draws the timeline at once and asks the workers for the rest; each chart is drawn when
// its result arrives, if it is still the newest. A newer render supersedes an older one. The
// status ends with "rendered in X ms (storm Y ms)", or says what was not redrawn; `charts-drawn`
// events mark the charts on screen and all of them.
const render = (() => {
  let generation = 0;
  let state;
  let pending = new Map();
  let errors = [];
  let started = 0;
  let stormMs = 0;
  let visibleAnnounced = false;
  let firstAnnounced = false;
  let measuredOnScreen = new Set();
  // The views on screen that have drawn something this render (a quicker first run counts).
  let drawnOnScreen = new Set();
  // What waits for the charts on screen to show something: the requests of those off screen
  // (and the timeline's drawing when it is off screen too).
  let deferred = [];
  // Whether this render has asked for the survival map.
  let survivalStarted = false;
  // This render's refusal of the survival map (its settings are invalid), or null.
  let survivalRefused = null;
  // Whether the survival section shows a refusal (an earlier render's, until this one replaces it).
  let survivalShowsRefusal = false;
  // Whether this render has written its status (an error arriving later writes it again).
  let finished = false;

  function announce(scope) {
    document.dispatchEvent(new CustomEvent('charts-drawn', { detail: { scope } }));
  }

  /** The chart options of `view`'s canvas, sized to its box. */
  function optionsOf(view) {
    const canvas = $(view);
    // Two timelines need the taller canvas: the class is set before the canvas is measured, and
    // then the box the observer last saw is out of date.
    const restyled = view === 'timeline'
      && canvas.classList.contains('compared') !== canvas.classList.toggle('compared', state.compare !== '');
    // A chart that could not be drawn had its box hidden (showNotRedrawn), and the observer last
    // saw it so: shown again for this drawing, it is measured now, and that size recorded so that
    // the observer's next report does not draw it all over again.
    const figure = canvas.closest('figure');
    const revealed = view !== 'survival' && figure.classList.contains('refused');
    if (revealed) {
      figure.classList.remove('refused');
      const { width, height } = canvas.getBoundingClientRect();
      layout.boxes.set(canvas, { width, height });
    }
    return chartOptions(isDark(state.theme, darkQuery), sizeCanvas(canvas, restyled ? undefined : layout.boxes.get(canvas)),
      state.log === 'true');
  }

  /**
   * Draws the survival map computed whole for this render's very settings again, rather than
   * computing it again (a new width, the colour scheme: its rows took every core for a second
   * or more); whether it did.
   */
  function redrawWholeSurvival() {
    const last = lastComputed.get('survival');
    if (!last?.whole || JSON.stringify(last.settings) !== JSON.stringify(state)) return false;
    try {
      draw('survival', last.computed);
      lastComputed.get('survival').whole = true;
      holdExports('survival', null);
    } catch (error) {
      errors.push({ ...plainError(error), view: 'survival' });
    }
    return true;
  }

  function draw(view, computed, tableDone = () => {}) {
    const mark = performance.now();
    const drawn = drawView(view, view, state, computed, optionsOf(view));
    showDrawn(view, drawn, tableDone);
    lastComputed.set(view, { settings: state, computed, table: drawn.table });
    // For the page benchmark (tests/e2e/page-bench.mjs): what each draw cost the main thread.
    performance.measure(`draw ${view}`, { start: mark });
  }

  function settle(view) {
    pending.delete(view);
    progress.hide(view);
    if (view === 'storm') stormMs = performance.now() - started;
    if (BACKGROUND.includes(view)) {
      showErrors(errors);
      // A map refused after the render ended (a worker failed, or Stop was pressed): the status
      // no longer says the render was clean.
      if (finished) showStatus();
      return;
    }
    announceVisible();
    if ([...pending.keys()].every((v) => BACKGROUND.includes(v))) finish();
  }

  /** `charts-drawn` "first" once every chart on screen shows this render's inputs (a quicker
   * first run counts), "visible" once they show their final results. */
  function announceVisible() {
    const waiting = [...pending.keys()].filter((v) => measuredOnScreen.has(v) && !BACKGROUND.includes(v));
    if (!firstAnnounced && waiting.every((v) => drawnOnScreen.has(v))) {
      firstAnnounced = true;
      announce('first');
      // In a task of their own, so that the browser paints what is on screen first (drawing an
      // off-screen timeline in this task would hold those pixels back).
      const later = deferred;
      deferred = [];
      const mine = generation;
      setTimeout(() => {
        if (mine !== generation) return;
        for (const run of later) run();
      }, 0);
    }
    if (!visibleAnnounced && waiting.length === 0) {
      visibleAnnounced = true;
      announce('visible');
    }
  }

  function finish() {
    // The survival map, whose rows take every core for seconds, once the inputs have rested.
    const mine = generation;
    if (pending.has('survival') && !survivalStarted) {
      setTimeout(() => mine === generation && !survivalStarted && request('survival', mine), SURVIVAL_AFTER_MS);
    }
    // The link is current once the render is: a throttled write may still be waiting.
    writeHash(state);
    showErrors(errors);
    finished = true;
    showStatus();
    if (errors.length === 0) document.body.dataset.ready = 'true';
    announce('all');
  }

  /** The status line: how long the render took, or that something was not redrawn. */
  function showStatus() {
    // A render waiting for an input's paint has said "computing…": an older render's late
    // result (the survival map's) does not take that back.
    if (renderWaiting) return;
    const ms = (performance.now() - started).toFixed(1);
    let said = `rendered in ${ms} ms (storm ${stormMs.toFixed(1)} ms)`;
    // An error about no input highlights none (the survival map's engine at one delivery an
    // hour said "fix the highlighted input" with nothing highlighted: outside review).
    if (errors.some((error) => !error.chartLimit && error.setting)) said = `not everything was redrawn: fix the highlighted input (${ms} ms)`;
    else if (errors.some((error) => error.chartLimit)) said = `not everything was redrawn: a chart's limit is noted under its input (${ms} ms)`;
    else if (errors.some((error) => error.stopped)) said = `not everything was redrawn: a chart was stopped (${ms} ms)`;
    else if (errors.length > 0) said = `not everything was redrawn: the chart's place says why (${ms} ms)`;
    $('status').textContent = said;
  }

  function render() {
    // It reads the controls as they are now: a render waiting for an input's paint is not needed.
    renderWaiting = null;
    generation += 1;
    const mine = generation;
    for (const { handle } of pending.values()) handle.cancel();
    pending = new Map();
    state = readControls();
    writeHashSoon(state);
    showInactiveControls(state);
    errors = [];
    stormMs = 0;
    started = performance.now();
    visibleAnnounced = false;
    firstAnnounced = false;
    drawnOnScreen = new Set();
    measuredOnScreen = new Set(config.views.map((v) => v.name).filter(onScreen));
    pending.set('table', { handle: { cancel() {} } });
    // The charts on screen first: those off screen are asked for once these show something, so
    // that their workers do not take the cores from what the reader is looking at; the survival
    // map (whose rows take every core for seconds) once the render has finished and the inputs
    // have rested, unless it is on screen itself.
    deferred = [];
    survivalStarted = false;
    finished = false;
    // An invalid survival map is refused now, wherever its section is: like any other chart's
    // invalid input, it is in this render's status and said where the map would be.
    survivalRefused = survivalRefusal(state);
    if (survivalRefused) {
      for (const refusal of survivalRefusals(state, survivalRefused)) {
        errors.push({ ...refusal, view: 'survival' });
      }
      showSurvivalRefusal(survivalRefused);
      survivalShowsRefusal = true;
    } else if (survivalShowsRefusal) {
      // The refusal no longer holds: the section says what it does next.
      survivalShowsRefusal = false;
      markSurvivalRefused(false);
      // In view, the empty map of the new settings until its rows arrive; off screen, the
      // section waits again.
      if (survivalWanted) {
        draw('survival', { view: 'survival', rows: [] });
        holdExports('survival', WHOLE_MAP_PENDING);
      }
      else $('survival-caption').textContent = survivalWaiting;
    }
    for (const view of COMPUTED) {
      if (view === 'survival' && (survivalRefused || !survivalWanted)) continue;
      if (view === 'survival' && redrawWholeSurvival()) continue;
      if (view !== 'survival' && measuredOnScreen.has(view)) {
        request(view, mine, drawInstantly(view));
      } else {
        // The survival map off screen is asked for once the render has finished (see `finish`).
        // No quicker first run off screen: nobody would see it, and its work delays the full one.
        if (view !== 'survival' || measuredOnScreen.has(view)) deferred.push(() => request(view, mine, true));
        pending.set(view, { handle: { cancel() {} } });
      }
    }
    // The timeline last: its table may settle at once, and the render ends when all have. Off
    // screen, it too waits for the charts in view.
    $('status').textContent = 'computing…';
    const drawTimeline = () => {
      try {
        draw('timeline', { view: 'timeline' }, () => mine === generation && settle('table'));
      } catch (error) {
        errors.push(plainError(error));
        settle('table');
      }
      showErrors(errors);
    };
    if (measuredOnScreen.has('timeline') || onScreen('schedule-table')) drawTimeline();
    else deferred.push(drawTimeline);
    // Only the timeline on screen: what the reader sees is drawn already.
    announceVisible();
  }

  /**
   * Draws `view`'s first run at once, on this thread, when the wasm core says it is cheap enough
   * (`drawInstant`); whether it did. Its errors are left to the worker's run, which reports them.
   */
  function drawInstantly(view) {
    const mark = performance.now();
    let drawn = null;
    try {
      drawn = drawInstant(view, view, state, optionsOf(view));
    } catch {
      return false;
    }
    // For the page benchmark, as `draw` does.
    if (drawn) performance.measure(`instant ${view}`, { start: mark });
    if (!drawn) return false;
    showDrawn(view, drawn, undefined, true);
    drawnOnScreen.add(view);
    return true;
  }

  /**
   * Asks for `view`'s costly step for render `mine`, and draws what comes back (no quicker
   * first run when one is drawn already or the chart is off screen: `previewed`).
   */
  function request(view, mine, previewed = false) {
    if (view === 'survival') survivalStarted = true;
    let done = '';
    const handle = (view === 'survival' ? rowPool : computer).request(view, state, {
      onResult: (computed, partial, counted) => {
        if (mine !== generation) return;
        if (counted) done = ` · ${counted.done} of ${counted.total} rows`;
        try {
          draw(view, computed);
        } catch (error) {
          errors.push({ ...plainError(error), view });
        }
        if (view === 'survival') {
          holdExports('survival', partial ? WHOLE_MAP_PENDING : null);
          const last = lastComputed.get('survival');
          if (!partial && last?.computed === computed) last.whole = true;
        }
        drawnOnScreen.add(view);
        if (partial) announceVisible();
        else settle(view);
      },
      onError: (error) => {
        if (mine !== generation) return;
        errors.push({ ...error, view });
        if (view === 'survival') {
          showSurvivalRefusal(error);
          survivalShowsRefusal = true;
        }
        settle(view);
      },
    }, { previewed });
    pending.set(view, { handle });
    progress.watch(view, () => mine === generation && pending.has(view), () => done);
  }

  /** The survival section came near the screen: its map joins the current render. */
  render.survival = () => {
    if (state && !survivalRefused && !pending.has('survival')) request('survival', generation);
  };

  /** The reader pressed Stop on `view`'s progress: its computation is dropped, its chart kept. */
  render.stop = (view) => {
    const entry = pending.get(view);
    if (!entry) return;
    entry.handle.cancel();
    errors.push({ message: `the ${view} chart was stopped before it was redrawn`, setting: null, view, stopped: true });
    settle(view);
  };
  return render;
})();

/**
 * An input's render: at once, or, where the core says a render of the new settings is long
 * (`rendersAfterPaint`: a schedule of thousands of attempts), after the browser has painted the
 * input itself (the slider's thumb, its field) so that the input is answered at once. Inputs
 * that come before that render runs join it: it reads the controls as they are then.
 */
let renderWaiting = null;
function renderAfterInput() {
  if (renderWaiting) return;
  let afterPaint = false;
  try {
    afterPaint = rendersAfterPaint(readControls());
  } catch {
    // Settings the core cannot read: the render says why, at once.
  }
  if (!afterPaint) {
    render();
    return;
  }
  const waiting = {};
  renderWaiting = waiting;
  // Until then the status does not claim the last render's result for the new input.
  $('status').textContent = 'computing…';
  // The frame's callbacks run before its paint; a task queued from one runs after it. A render
  // that ran meanwhile (a resize, the colour scheme) read the controls as they were: then this
  // one is not needed (see `render`).
  requestAnimationFrame(() => setTimeout(() => {
    if (renderWaiting === waiting) render();
  }, 0));
}

// The layout as the observers last reported it (set up in `main`): reading it from the DOM within
// an input event would make the browser lay the page out there and then, a millisecond each time
// on this page, and again after every caption a chart changes.
const layout = {
  // Element → whether any of it is in the viewport.
  visible: new Map(),
  // Canvas → its CSS box ({ width, height }).
  boxes: new Map(),
};

/** Whether any of the element `id` is in the viewport (a hidden one is not). */
function onScreen(id) {
  const element = $(id);
  if (layout.visible.has(element)) return layout.visible.get(element);
  // Before the observer's first report.
  const r = element.getBoundingClientRect();
  return r.width > 0 && r.bottom > 0 && r.top < window.innerHeight && r.right > 0 && r.left < window.innerWidth;
}

// ---- Sharing: the link, the embed code

function say(id, text) {
  $(id).textContent = text;
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

function embedCode(s) {
  const page = new URL('embed.html', location.href);
  page.hash = '';
  return embedSnippet(s, s.view, page.href);
}

function showEmbed() {
  $('embed-code').value = embedCode(readControls());
  $('embed-box').hidden = false;
  $('embed').setAttribute('aria-expanded', 'true');
  $('embed-code').focus();
  $('embed-code').select();
  // Selecting scrolls a small box to the code's end: its start (`<iframe src=…`) is what to see.
  $('embed-code').scrollTop = 0;
  const title = config.views.find((v) => v.name === $('embed-view').value)?.title ?? 'chart';
  // The titles are phrases ("a herd of …", "which outages …"): no article goes before them.
  say('share-status', `Embed code below: ${title}.`);
}

// ---- Start

function fillPresetOptions() {
  for (const id of ['preset', 'compare']) {
    const options = presetList.map((preset) => {
      const option = document.createElement('option');
      option.value = preset.name;
      option.textContent = preset.title;
      return option;
    });
    $(id).append(...options);
  }
}

async function main() {
  try {
    wasmModule = await WebAssembly.compileStreaming(fetch(new URL('./pkg/backoff_lab_bg.wasm', import.meta.url)));
  } catch {
    // A server that does not say application/wasm: the glue's own loading copes.
  }
  await init(wasmModule ? { module_or_path: wasmModule } : undefined);
  config = pageConfig();
  presetList = presets();
  fillPresetOptions();
  for (const [field, stops] of Object.entries(config.sliderStops)) $(field).max = String(stops.length - 1);
  survivalWaiting = $('survival-caption').textContent;
  loadFromHash();
  ignoreHeldExports();

  for (const field of SLIDERS) {
    $(field).addEventListener('input', () => {
      $(`${field}-text`).value = sliderText(field, Number($(field).value));
      // A slider a link stretched (multiplier 1000 on one up to 5) shrinks back once dragged in.
      syncSlider(field);
      if (POLICY_CONTROLS.includes(field)) edited(field);
      renderAfterInput();
    });
    $(`${field}-text`).addEventListener('input', () => {
      syncSlider(field);
      // Typed, the value is the user's own (Rust keeps a typed cap from moving the base).
      if (POLICY_CONTROLS.includes(field)) edited(`${field} typed`);
      renderAfterInput();
    });
  }
  // Every other text field redraws as it is typed in.
  for (const [setting, id] of Object.entries(TEXT_SETTINGS)) {
    if (!SLIDERS.includes(setting) && setting !== 'then-every') $(id).addEventListener('input', renderAfterInput);
  }
  for (const id of ['log-scale', 'samples', 'pause', 'storm-compare', 'engine', 'compare', 'embed-view',
    'retry-quota']) {
    $(id).addEventListener('change', renderAfterInput);
  }
  $('theme').addEventListener('change', () => {
    showTheme();
    renderAfterInput();
  });
  $('preset').addEventListener('change', () => {
    edited('preset');
    renderAfterInput();
  });
  $('stop-mode').addEventListener('change', () => {
    edited('stop');
    renderAfterInput();
  });
  $('mode').addEventListener('change', () => {
    showPolicyFields();
    renderAfterInput();
  });
  $('drop-gaps').addEventListener('click', () => {
    edited('drop-gaps');
    $('base-text').focus();
    renderAfterInput();
  });
  $('new-seed').addEventListener('click', () => {
    $('seed-text').value = String(newSeed());
    renderAfterInput();
  });
  $('copy-link').addEventListener('click', copyLink);
  $('embed').addEventListener('click', showEmbed);
  $('skip-to-charts').addEventListener('click', () => $('schedule-heading').focus());
  // A download's name says what it shows and the settings it was drawn from (the controls'
  // for what the page draws at once).
  const stemOf = (what, settings = lastComputed.get(what)?.settings) => fileStem(what, settings ?? readControls());
  for (const view of config.views.map((v) => v.name)) {
    const png = $(`export-${view}-png`);
    const svg = $(`export-${view}-svg`);
    png.addEventListener('click', () => exportPng($(view), stemOf(view), png));
    svg.addEventListener('click', () => exportSvg($(view), view, stemOf(view), lastComputed.get(view), isDark($('theme').value, darkQuery), svg));
    // The numbers the chart was drawn from, as the element's CSV download has them (the
    // schedule, staleness and survival charts have reports of their own, below).
    const csv = $(`export-${view}-numbers-csv`);
    csv?.addEventListener('click', () => exportChartCsv(view, stemOf(view), lastComputed.get(view), csv));
  }
  $('apply-suggestion').addEventListener('click', () => {
    edited('apply-suggestion');
    renderAfterInput();
  });
  const reports = {
    schedule: (format) => pageSchedule(readControls(), format),
    staleness: (format) => pageStaleness(readControls(), format),
    // The map as drawn: the rows computed for the settings they were computed for.
    survival: (format) => {
      const last = lastComputed.get('survival');
      if (!last) throw new Error('the survival map is not computed yet');
      return survivalExport(last.settings, last.computed, format);
    },
  };
  // The schedule's and the staleness report's settings are the controls'; the map's, those it
  // was computed for.
  const reportStem = (name) => (name === 'survival' ? stemOf('survival') : stemOf(name, readControls()));
  for (const [name, prefix] of [['schedule', ''], ['staleness', 'staleness-'], ['survival', 'survival-']]) {
    for (const format of ['csv', 'json']) {
      $(`export-${prefix}${format}`).addEventListener('click', (event) => exportReport(reportStem(name), reports[name], format, event.currentTarget));
    }
    $(`copy-${prefix}markdown`)?.addEventListener('click', (event) => copyReportMarkdown(reportStem(name), reports[name], event.currentTarget));
  }
  $('controls').addEventListener('submit', (event) => event.preventDefault());
  window.addEventListener('hashchange', () => {
    loadFromHash();
    renderAfterInput();
  });
  darkQuery.addEventListener('change', render);
  // A chart whose box changed size is drawn again (not on the observer's first report, which
  // gives the size the first render has just drawn at).
  const resized = new ResizeObserver((entries) => {
    let changed = false;
    for (const { target, borderBoxSize: [{ inlineSize: width, blockSize: height }] } of entries) {
      const before = layout.boxes.get(target);
      // A box just hidden (a chart that could not be drawn shows its message instead) has
      // nothing to draw: drawing again would only start over the render that hid it.
      const hidden = width === 0 && height === 0;
      changed ||= before !== undefined && !hidden
        && (Math.round(before.width) !== Math.round(width) || Math.round(before.height) !== Math.round(height));
      layout.boxes.set(target, { width, height });
    }
    if (changed) render();
  });
  const seen = new IntersectionObserver((entries) => {
    for (const { target, isIntersecting } of entries) layout.visible.set(target, isIntersecting);
  });
  for (const view of config.views) {
    resized.observe($(view.name));
    seen.observe($(view.name));
  }
  seen.observe($('schedule-table'));
  new IntersectionObserver((entries, observer) => {
    if (!entries.some((entry) => entry.isIntersecting)) return;
    observer.disconnect();
    survivalWanted = true;
    render.survival();
  }, { rootMargin: '300px' }).observe($('survival'));
  render();
}

// On a narrow screen the groups of controls fold, Policy open and the others closed, so that the
// first chart is not some 45 controls down the page; on a wide screen, where the controls sit
// beside the charts, every group is open. Set again when the screen crosses the width.
const narrowScreen = window.matchMedia('(max-width: 900px)');
function foldControlGroups() {
  for (const group of document.querySelectorAll('#controls details.group')) {
    // A group holding the focus or a refused field stays open: folding it would hide them.
    group.open = !narrowScreen.matches || group.hasAttribute('data-narrow-open')
      || group.contains(document.activeElement) || Boolean(group.querySelector('[aria-invalid]'));
  }
}
foldControlGroups();
narrowScreen.addEventListener('change', foldControlGroups);

main().catch((error) => {
  $('status').textContent = `could not start: ${error && error.message ? error.message : error}`;
});
