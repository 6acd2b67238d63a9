// The <backoff-lab> element: one chart of backoff-lab in any page, set by attributes named as the
// share link's keys (`view`, `preset`, `base`, `give-up`, `mode`, the storm and staleness keys…),
// `state` (a whole share-link hash), `theme` (auto, light, dark) and `actions` (PNG, SVG and CSV
// downloads). What the attributes mean, which are valid and what each chart says all come from
// the wasm core (elementState, computeView, drawView); this file only wires the DOM.
//
// Light-DOM children (a static <img> of the chart, made by `backoff-lab figure`) stay shown until
// the chart is drawn, and stay shown for good where WebAssembly cannot run (a CSP without
// 'wasm-unsafe-eval', an old browser), with one console warning naming the cause.
//
// A chart whose computation the core says is costly (sampling, herds, storms, the staleness
// report) is computed in a worker that runs this same module (no third file to install): the
// host page keeps answering while it runs. Where no worker can start (a file:// page, a host
// whose CSP refuses workers) it is computed on the page's thread instead. The survival map's rows
// are computed by the same workers, as many at once as the machine has cores, and drawn as they
// arrive (where no worker starts, a row per task on the page's thread).
import init, {
  StormMemo, computeSurvivalRows, computeView, computesInline, decodeState, drawView, elementState,
  fileStem, pageConfig, previewSettings, survivalJobs, viewCsv, viewSvg,
} from './pkg/backoff_lab.js';
import { Computer } from './compute.js';
import { RowPool } from './row-pool.js';
import { chartOptions, download, fillCaption, fillNumberTable, isDark, sizeCanvas } from './ui.js';
import { serve } from './worker-serve.js';

// Run as a worker, this module only answers the elements' requests (see worker-serve.js).
const inWorker = typeof document === 'undefined';

const STYLE = `
:host { display: block; margin: 1em 0; font: var(--backoff-lab-font, inherit); color: var(--backoff-lab-text, inherit); }
:host([hidden]) { display: none; }
.chart { position: relative; width: 100%; aspect-ratio: var(--backoff-lab-aspect, 2 / 1); min-height: 220px; max-height: 560px; }
.busy { position: absolute; top: 0.5em; right: 0.5em; padding: 0.15em 0.6em; border-radius: 4px; font-size: 0.85em; background: var(--backoff-lab-busy, rgba(127, 127, 127, 0.18)); }
.busy[hidden] { display: none; }
::slotted(img), ::slotted(svg), ::slotted(picture) { max-width: 100%; height: auto; }
.chart[hidden], .fallback[hidden], .error[hidden], details[hidden], .actions[hidden] { display: none; }
/* Printed before it came into view (and so started), an element without fallback children would
   print its held box, empty; it prints nothing instead. */
@media print { .chart.held { display: none; } }
canvas { display: block; width: 100%; height: 100%; }
.caption { margin: 0.4em 0 0; font-size: 0.9em; }
.said { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
.caption-line { display: block; }
.caption-line + .caption-line { margin-top: 0.4em; }
/* The error box has a background of its own: its text reads on any page, whatever the theme. */
.error { margin: 0.4em 0; padding: 0.4em 0.6em; border-left: 3px solid var(--backoff-lab-error, #c62828); color: var(--backoff-lab-error, #c62828); background: var(--backoff-lab-error-background, #fdecea); font-size: 0.9em; }
.error ul { margin: 0; padding-left: 1.2em; }
details { margin-top: 0.4em; font-size: 0.85em; max-width: 100%; }
/* A table wider than a phone's column scrolls sideways in a box the keyboard reaches. */
.table-box { max-width: 100%; overflow-x: auto; }
.table-box:focus-visible { outline: 2px solid var(--backoff-lab-accent, #1565c0); outline-offset: 2px; }
table { border-collapse: collapse; margin-top: 0.3em; font-variant-numeric: tabular-nums; }
th, td { padding: 0.15em 0.6em; border-bottom: 1px solid var(--backoff-lab-rule, rgba(127, 127, 127, 0.35)); text-align: left; }
tbody th { font-weight: inherit; }
/* Every column after the first holds numbers (a duration, a count, a rate): their digits line up. */
:is(th, td):not(:first-child) { text-align: right; }
.actions { display: flex; gap: 0.5em; margin-top: 0.4em; }
button { font: inherit; font-size: 0.85em; padding: 0.2em 0.7em; border-radius: 4px; border: 1px solid var(--backoff-lab-control, #767676); background: transparent; color: inherit; cursor: pointer; }
/* On a touch screen, targets a finger finds. */
@media (pointer: coarse) { button, summary { min-height: 44px; } button { min-width: 44px; } }
/* A ring with a halo of the theme's background inside it: it stands out on any page, whatever the theme. */
button:focus-visible, summary:focus-visible { outline: 2px solid var(--backoff-lab-accent, #1565c0); outline-offset: 2px; box-shadow: 0 0 0 2px var(--backoff-lab-focus-halo, #ffffff); }
/* Dark as the chart is (the theme attribute, state's theme, or the reader's scheme): set by the script. */
.error.dark { border-left-color: var(--backoff-lab-error, #ff8a80); color: var(--backoff-lab-error, #ff8a80); background: var(--backoff-lab-error-background, #3b1715); }
.dark :is(button, summary):focus-visible { outline-color: var(--backoff-lab-accent, #90caf9); box-shadow: 0 0 0 2px var(--backoff-lab-focus-halo, #0d1b2a); }
`;

// How long a computation runs before the element says it is computing, ms.
const BUSY_AFTER_MS = 100;

let wasmSource;
let ready = null;
let memo = null;
let warned = false;

/**
 * HTML has no self-closing custom elements: after `<backoff-lab … />` the rest of the section
 * becomes the element's fallback content, hidden once the chart is drawn (a docs author's next
 * paragraphs and headings disappeared without a word). A heading or another element among its
 * own children is taken as that slip, and so are three or more blocks of text (paragraphs,
 * lists, code, tables: a fallback is an image, a figure or a line or two); the console says so
 * once per element.
 */
function warnIfUnclosed(element) {
  // Its own children only: a fallback <figure> may hold a heading of its own.
  const sections = element.querySelector(':scope > :is(h1, h2, h3, h4, h5, h6, backoff-lab)');
  const blocks = element.querySelectorAll(':scope > :is(p, ul, ol, dl, pre, table, blockquote, div, section, article)');
  if (!sections && blocks.length < 3) return;
  const view = element.getAttribute('view');
  console.warn(`A backoff-lab element${view === null ? '' : ` (view "${view}")`} holds ${sections ? 'headings or another backoff-lab element' : `${blocks.length} paragraphs or other blocks`} as its fallback content, hidden once the chart is drawn: was it written self-closing, as <backoff-lab … />? HTML does not close it there: write <backoff-lab …></backoff-lab>.`);
}
// The chart options the host sets as CSS properties, not attributes, by the core's name for them:
// an error names the property the host wrote (it had named the field `background`).
const CSS_PROPERTIES = { background: '--backoff-lab-background' };

// What every element on the page computes with: workers shared by all, each element's requests
// under a key of its own (a newer one supersedes only that element's older one).
let computer = null;
let nextKey = 1;
// The survival maps' busy workers, over all the page's elements: about one per core in all.
const rowWorkers = { count: 0, limit: globalThis.navigator?.hardwareConcurrency || 2 };

// The wasm module, compiled once on the page and handed to each worker (not fetched again).
let wasmModule = null;
// Where the wasm is by default, from this module: next to it once bundled (the package's
// build defines __BACKOFF_LAB_WASM__), in pkg/ as www/ serves it.
const WASM_FILE = typeof __BACKOFF_LAB_WASM__ === 'string' ? __BACKOFF_LAB_WASM__ : './pkg/backoff_lab_bg.wasm';

// Bundled into a host's app, this module's URL is the app's chunk, whose own code would run in
// the worker: workers only from the package's own files (or www/'s element.js).
const OWN_MODULE = /\/(backoff-lab(\.inline)?|element)\.js$/.test(new URL(import.meta.url).pathname);

function elementWorker() {
  if (!OWN_MODULE) throw new Error('no worker from a bundled copy of the element');
  const worker = new Worker(new URL(import.meta.url), { type: 'module' });
  worker.postMessage({ module: wasmModule });
  return worker;
}

function sharedComputer() {
  computer ??= new Computer(
    elementWorker,
    (view, settings) => computeView(view, settings, memo),
    previewSettings,
    computesInline,
    // Idle workers go back to a pool the page's elements share, at most one per core.
    { pool: navigator.hardwareConcurrency || 2 },
  );
  return computer;
}

/** The one wasm instance every element on the page shares, started by the first that needs it:
 * compiled here once, so that the workers get the module rather than fetch it again. */
function wasm() {
  ready ??= (async () => {
    const source = wasmSource ?? new URL(WASM_FILE, import.meta.url);
    if (source instanceof URL) {
      const response = await fetch(source);
      if (!response.ok) throw new Error(`failed to fetch ${source}: ${response.status} ${response.statusText}`);
      // A server that does not say application/wasm: compiled from the bytes instead.
      wasmModule = await WebAssembly.compileStreaming(response.clone())
        .catch(async () => WebAssembly.compile(await response.arrayBuffer()));
    } else {
      wasmModule = source instanceof WebAssembly.Module ? source : await WebAssembly.compile(source);
    }
    await init({ module_or_path: wasmModule });
    memo = new StormMemo();
    defineProperties();
  })();
  return ready;
}

/** What `view` shows, in words, as the core titles it ("retry storm after an outage"). */
let titles = null;
function titleOf(view) {
  titles ??= new Map(pageConfig().views.map((v) => [v.name, v.title]));
  return titles.get(view) ?? 'chart';
}

/** The element's properties: one per setting (`theme` among them), named in camelCase (`giveUp`
 * for `give-up`), and its own attributes (`state`, `actions`), each with the attribute it
 * reflects. The names come from the core, so the accessors exist only once the wasm has
 * loaded. */
function propertyNames() {
  return [...Object.keys(decodeState('').settings), ...pageConfig().ownAttributes]
    .map((attribute) => [attribute.replace(/-([a-z])/g, (_, c) => c.toUpperCase()), attribute]);
}

/** Whether the download buttons show: `actions` present, unless it says `false` (React 18 and
 * other templates write `actions={false}` as the text "false", as the settings' booleans read
 * it: `pause="false"` is off). */
const actionsOn = (element) => element.hasAttribute('actions')
  && element.getAttribute('actions').trim().toLowerCase() !== 'false';

/** Accessors that read and set the attributes: `null` or `undefined` removes one. `actions` is
 * a boolean attribute (present or not), so its property is a boolean: `false` (or "false")
 * removes it. */
function defineProperties() {
  for (const [property, attribute] of propertyNames()) {
    if (property in BackoffLab.prototype) continue;
    const flag = attribute === 'actions';
    Object.defineProperty(BackoffLab.prototype, property, {
      get() { return flag ? actionsOn(this) : this.getAttribute(attribute); },
      set(value) {
        const off = flag && (value === false || String(value).trim().toLowerCase() === 'false');
        if (value === null || value === undefined || off) this.removeAttribute(attribute);
        else this.setAttribute(attribute, flag && value === true ? '' : String(value));
      },
      configurable: true,
    });
  }
}

/** Properties a host set before the accessors existed (before the wasm loaded, or before the
 * element was defined, as React, Vue and Lit set them) are own properties of the element that
 * would shadow the accessors for good: each is taken over by its accessor, which sets the
 * attribute. */
function upgradeProperties(element) {
  for (const [property] of propertyNames()) {
    if (Object.hasOwn(element, property)) {
      const value = element[property];
      delete element[property];
      element[property] = value;
    }
  }
}

export class BackoffLab extends (globalThis.HTMLElement ?? class {}) {
  constructor() {
    super();
    this.key = `element ${nextKey++}`;
    const root = this.attachShadow({ mode: 'open' });
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(STYLE);
    root.adoptedStyleSheets = [sheet];
    const make = (tag, className, parent = root) => {
      const el = document.createElement(tag);
      if (className) el.className = className;
      parent.append(el);
      return el;
    };
    // Parts a site may style or hide from outside (`backoff-lab::part(caption) { display:
    // none }` where the page carries its own caption).
    this.parts = {};
    // The errors first, above the chart or the fallback content alike (under a fallback image
    // an error was easy to miss).
    this.parts.error = make('div', 'error');
    this.parts.error.setAttribute('part', 'error');
    this.parts.error.hidden = true;
    this.parts.fallback = make('div', 'fallback');
    this.parts.slot = make('slot', '', this.parts.fallback);
    // Children may be added after the element is connected (while the page is parsed, or by a
    // framework): whether the empty chart box is held for them is decided again each time.
    this.parts.slot.addEventListener('slotchange', () => this.reserveChartBox());
    // The errors are said by a polite region that is always there (a region that joins the page
    // with its text is not announced by every screen reader; an alert interrupted at each
    // attribute a host wrote per keystroke).
    this.parts.said = make('div', 'said');
    this.parts.said.setAttribute('role', 'status');
    this.parts.chart = make('div', 'chart held');
    this.parts.chart.setAttribute('part', 'chart');
    this.parts.chart.hidden = true;
    this.parts.canvas = make('canvas', '', this.parts.chart);
    // Said in the chart's place once a computation has taken longer than a moment.
    this.parts.busy = make('span', 'busy', this.parts.chart);
    this.parts.busy.setAttribute('role', 'status');
    this.parts.busy.textContent = 'computing…';
    this.parts.busy.hidden = true;
    this.parts.canvas.setAttribute('role', 'img');
    // Hidden from assistive technology until it shows a chart and carries its caption: the box
    // held before the element starts is an image with no name.
    this.parts.canvas.setAttribute('aria-hidden', 'true');
    this.parts.caption = make('p', 'caption');
    this.parts.caption.setAttribute('part', 'caption');
    this.parts.caption.hidden = true;
    this.parts.details = make('details');
    this.parts.details.setAttribute('part', 'numbers');
    this.parts.details.hidden = true;
    make('summary', '', this.parts.details).textContent = 'The numbers';
    this.parts.tableBox = make('div', 'table-box', this.parts.details);
    this.parts.tableBox.tabIndex = 0;
    this.parts.tableBox.setAttribute('role', 'region');
    this.parts.table = make('table', '', this.parts.tableBox);
    this.parts.actions = make('div', 'actions');
    this.parts.actions.setAttribute('part', 'actions');
    this.parts.actions.hidden = true;
    for (const [format, label] of [['png', 'PNG'], ['svg', 'SVG'], ['csv', 'CSV']]) {
      const button = make('button', '', this.parts.actions);
      button.type = 'button';
      button.textContent = label;
      button.addEventListener('click', () => this.export(format));
    }
    this.current = null;
    this.unused = [];
    // The attribute errors the element shows (announced when they first showed).
    this.shownUnused = [];
    this.freshErrors = [];
    this.failure = null;
    // The computed result drawn, and the settings it is for (the previous chart stays drawn
    // while a worker computes the next one).
    this.computed = null;
    this.computedFor = null;
    // The computation under way in a worker, if any, and whether its failure is still to be
    // announced.
    this.job = null;
    this.waiting = false;
    this.failureArrived = false;
    this.drawn = null;
    this.frame = 0;
    // Whether the attributes are to be read again, and whether the settings they give differ
    // from the chart's (then it is computed again and announced; otherwise, as after `theme`,
    // `actions` or an attribute set to the value it had, only drawn again).
    this.attributesChanged = true;
    this.stale = false;
    this.started = false;
    // The survival map's rows, computed by workers of the pool the elements share (see above).
    this.rows = new RowPool({
      jobsOf: survivalJobs,
      rowsOf: computeSurvivalRows,
      // None once any element (its charts or its map) found that workers cannot start here.
      makeWorker: () => (sharedComputer().tryWorkers ? elementWorker() : null),
      size: navigator.hardwareConcurrency || 2,
      idle: { take: () => sharedComputer().take(), give: (worker) => sharedComputer().give(worker) },
      busy: rowWorkers,
      onRefused: () => sharedComputer().refused(),
    });
    // Whether the computed result is a survival map still filling in (no rendered event yet).
    this.partial = false;
    // The failure last announced by a `backoff-lab:error` event (as JSON), so that each is
    // announced once, also one that arrives after the render that asked for it (the survival
    // map's) or first appears on a redraw.
    this.announcedFailure = null;
    // Whether the current result was announced by a `backoff-lab:rendered` event: once per
    // result (at load, after an attribute or property changes), not again when it is only drawn
    // again (a new width, the first size the ResizeObserver reports, a new colour scheme).
    this.reported = false;
    // Whether a chart (or its error) has taken the element's place: from then on render() says
    // what is shown.
    this.settled = false;
  }

  /** A chart (or its error) takes the element's place: its box is no longer held for it. */
  settle() {
    this.settled = true;
    this.parts.chart.classList.remove('held');
  }

  /** Whether light-DOM children give the element something to show without its chart. */
  hasFallback() {
    return this.parts.slot.assignedNodes()
      .some((node) => node.nodeType === Node.ELEMENT_NODE || node.textContent.trim() !== '');
  }

  /**
   * Before the chart is first drawn (it starts only near the viewport), an element without
   * fallback children holds the chart's box, empty, at the size it will be drawn at: otherwise
   * it would be 0 px high until then and push the host page down as the reader scrolls to it.
   * Fallback children are shown in its place instead, as the README documents.
   */
  reserveChartBox() {
    if (this.settled) return;
    const fallback = this.hasFallback();
    this.parts.chart.hidden = fallback;
  }

  connectedCallback() {
    this.reserveChartBox();
    // Attributes set while the element was out of the document were not watched: read again.
    this.attributesChanged = true;
    this.attributeWatch ??= new MutationObserver(() => {
      this.attributesChanged = true;
      this.schedule();
    });
    this.attributeWatch.observe(this, { attributes: true });
    this.sizeWatch ??= new ResizeObserver(() => this.schedule());
    this.sizeWatch.observe(this.parts.chart);
    this.darkQuery ??= window.matchMedia('(prefers-color-scheme: dark)');
    this.onScheme ??= () => this.schedule();
    this.darkQuery.addEventListener('change', this.onScheme);
    // Nothing is loaded until the element comes near the viewport.
    this.viewWatch ??= new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) {
        this.viewWatch.disconnect();
        this.start();
      }
    }, { rootMargin: '200px' });
    if (!this.started) this.viewWatch.observe(this);
    // Drawn again at once (a hidden chart box reports no size to the ResizeObserver).
    this.schedule();
  }

  disconnectedCallback() {
    this.attributeWatch?.disconnect();
    this.sizeWatch?.disconnect();
    this.viewWatch?.disconnect();
    this.darkQuery?.removeEventListener('change', this.onScheme);
    if (this.frame) cancelAnimationFrame(this.frame);
    this.frame = 0;
    this.rows.stop();
    this.job?.cancel();
    this.parts.busy.hidden = true;
    computer?.release(this.key);
    // A survival map stopped half-way, or a chart still computing, is computed again when the
    // element is back.
    if (this.partial || this.waiting) this.current = null;
    this.waiting = false;
  }

  start() {
    this.started = true;
    warnIfUnclosed(this);
    wasm().then(() => {
      upgradeProperties(this);
      this.schedule();
    }, (error) => this.unavailable(error));
  }

  /** WebAssembly cannot run here: the light-DOM fallback stays, or, without one, a message in
   * the chart's place (an element without children shrank to nothing, silently); the console
   * says why once a page, and the host hears it from every element as a `backoff-lab:error`
   * with no field. */
  unavailable(error) {
    this.settle();
    this.parts.fallback.hidden = false;
    this.parts.chart.hidden = true;
    const cause = error?.message ?? String(error);
    // The browser's words for a CSP that blocks WebAssembly name 'unsafe-eval', which would be
    // the wrong fix: the site needs 'wasm-unsafe-eval' (outside docs review).
    const policy = /unsafe-eval|Content.Security.Policy|blocked by CSP/i.test(cause);
    const why = policy
      ? "this page's Content-Security-Policy does not allow WebAssembly: its script-src needs 'wasm-unsafe-eval'"
      : `WebAssembly did not load: ${cause}`;
    const heard = { attribute: null, message: `WebAssembly did not load: ${policy ? why : cause}` };
    const shown = this.hasFallback()
      ? []
      : [{ attribute: null, message: `the chart cannot be drawn here (${why}); the page gives no fallback image` }];
    this.fail(shown, [heard]);
    if (!warned) {
      warned = true;
      console.warn(`<backoff-lab>: the charts cannot be drawn here (${why}${policy ? `; the browser said: ${cause}` : ''}); fallback content stays shown, and an element without any says so`);
    }
  }

  schedule() {
    if (!this.started || memo === null || this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.render();
    });
  }

  /** The host's `--backoff-lab-background` as written (the core reads it), or none. */
  background() {
    return getComputedStyle(this).getPropertyValue('--backoff-lab-background').trim();
  }

  /** Dark colours: the settings' `theme` (the attribute, or `state`'s), else the reader's; the
   * error box and the focus rings around the chart follow. */
  dark() {
    const dark = isDark(this.scheme, this.darkQuery);
    for (const part of [this.parts.error, this.parts.details, this.parts.actions]) part.classList.toggle('dark', dark);
    return dark;
  }

  /** Lists `errors` in the element, and fires one `backoff-lab:error` event for each of
   * `announced` (those not announced before). */
  fail(errors, announced) {
    const list = document.createElement('ul');
    for (const { attribute, message } of errors) {
      const item = document.createElement('li');
      // The core's messages mostly start with the attribute's name already.
      item.textContent = !attribute || message.startsWith(attribute) ? message : `${attribute}: ${message}`;
      list.append(item);
    }
    for (const { attribute, message } of announced) {
      this.dispatchEvent(new CustomEvent('backoff-lab:error', {
        bubbles: true, composed: true, detail: { field: attribute, message },
      }));
    }
    this.parts.error.replaceChildren(list);
    this.parts.error.hidden = errors.length === 0;
    // Cleared, and the new errors set a task later: the same refusal again is said again. What
    // is fixed is no longer there to be read.
    if (announced.length > 0 || errors.length === 0) {
      clearTimeout(this.sayTimer);
      this.parts.said.textContent = '';
    }
    if (announced.length > 0) {
      this.sayTimer = setTimeout(() => {
        this.parts.said.textContent = announced.map(({ message }) => message).join(' ');
      }, 50);
    }
  }

  render() {
    const asError = (error) => {
      const field = error?.setting ?? error?.field ?? null;
      return { attribute: CSS_PROPERTIES[field] ?? field, message: error?.message ?? String(error) };
    };
    // Attributes are read again only when one changed, and the chart computed again only when
    // the settings they give changed; a resize or a new colour scheme only draws again.
    if (this.attributesChanged) {
      this.attributesChanged = false;
      const { settings, errors } = elementState([...this.attributes].map((a) => [a.name, a.value]));
      // Only an error that was not shown already is announced (again for a new value); one not
      // shown yet (the first chart still computing) stays to be announced.
      const shown = new Set(this.shownUnused.map((error) => JSON.stringify(error)));
      this.freshErrors = errors.filter((error) => !shown.has(JSON.stringify(error)));
      this.unused = errors;
      // The theme changes the colours, not the numbers: drawn again, not computed again. The
      // settings stay the same object unless their numbers change: a result is taken only for
      // the settings it was asked for (by identity).
      // Not `this.theme`: that is the property reflecting the attribute (it wrote theme="auto"
      // over the attribute given).
      this.scheme = settings.theme;
      const numbers = (s) => JSON.stringify({ ...s, theme: null });
      if (this.current === null || numbers(settings) !== numbers(this.current)) {
        this.current = settings;
        this.stale = true;
      }
    }
    let recomputed = this.stale;
    if (this.stale) {
      this.stale = false;
      this.failure = null;
      this.partial = false;
      this.job?.cancel();
      this.job = null;
      this.parts.busy.hidden = true;
      if (this.current.view === 'survival') {
        this.reported = false;
        this.computeRows(this.current, asError);
      } else {
        this.rows.stop();
        // Until it answers the last chart stays, announced already (or, a quicker first run or
        // a map half-drawn, never to be): nothing to announce until the new result.
        this.reported = true;
        this.compute(this.current, asError);
        recomputed = false;
      }
    }
    if (this.failureArrived) {
      this.failureArrived = false;
      recomputed = true;
    }
    // The first chart still computing: the box stays held, as before the element started.
    if (this.computed === null && this.waiting) return;
    this.settle();
    let drawn = null;
    let failure = this.failure;
    if (this.computed !== null && failure === null) {
      this.parts.chart.hidden = false;
      try {
        const settings = this.computedFor;
        // The colours of the settings now (a new theme is only drawn), the rest as computed.
        const options = chartOptions(this.dark(), sizeCanvas(this.parts.canvas), settings.log === 'true', this.background());
        drawn = drawView(this.parts.canvas, settings.view, settings, this.computed, options);
      } catch (error) {
        failure = asError(error);
      }
    }
    this.drawn = drawn;
    // A failure is announced when it is not the one announced last: a fresh computation's, a
    // survival map's late one, or a drawing's that first fails on a redraw (a new width).
    const failureText = failure ? JSON.stringify(failure) : null;
    const failureIsNew = failure && (recomputed || failureText !== this.announcedFailure);
    this.announcedFailure = failureText;
    const announced = [...this.freshErrors, ...(failureIsNew ? [failure] : [])];
    this.freshErrors = [];
    this.dark();
    this.fail([...this.unused, ...(failure ? [failure] : [])], announced);
    this.shownUnused = this.unused;
    if (drawn) {
      this.show(drawn);
    } else {
      // Nothing current to show: the fallback content (if any) and the error.
      this.parts.chart.hidden = true;
      this.parts.fallback.hidden = false;
      this.parts.caption.hidden = true;
      this.parts.details.hidden = true;
      this.parts.actions.hidden = true;
    }
  }

  /**
   * Computes the chart of `settings`: on this thread at once where the core says it is cheap,
   * else in a worker; drawn when it answers (a quicker first run first, where there is one), if
   * the settings are still the element's.
   */
  compute(settings, asError) {
    this.waiting = true;
    clearTimeout(this.busyTimer);
    this.busyTimer = setTimeout(() => {
      // Over the held box or the last chart; fallback content, shown instead, stays as it is.
      if (!this.waiting || settings !== this.current || this.parts.chart.hidden) return;
      this.parts.busy.hidden = false;
    }, BUSY_AFTER_MS);
    const answers = this.answers(settings, asError);
    this.job = sharedComputer().request(settings.view, settings, answers, { key: this.key });
  }

  /** What to do with a result (or a part of one: `partial`) or a failure for `settings`, if
   * they are still the element's: drawn at the next frame. */
  answers(settings, asError) {
    return {
      onResult: (computed, partial) => {
        if (settings !== this.current) return;
        this.parts.busy.hidden = !partial;
        this.computed = computed;
        this.computedFor = settings;
        this.partial = partial;
        this.waiting = partial;
        // A new result: announced once drawn whole (not a quicker first run, a map half-drawn).
        this.reported = false;
        this.schedule();
      },
      onError: (error) => {
        if (settings !== this.current) return;
        this.parts.busy.hidden = true;
        this.computed = null;
        this.computedFor = null;
        this.partial = false;
        this.waiting = false;
        this.failure = asError(error);
        this.failureArrived = true;
        this.schedule();
      },
    };
  }

  /** Starts the survival map of `settings`: drawn empty at once, then as its rows arrive. */
  computeRows(settings, asError) {
    this.rows.stop();
    try {
      // An invalid map is refused at once, like any other chart.
      survivalJobs(settings, 0);
    } catch (error) {
      this.computed = null;
      this.computedFor = null;
      this.failure = asError(error);
      return;
    }
    this.computed = { view: 'survival', rows: [] };
    this.computedFor = settings;
    this.partial = true;
    this.rows.request('survival', settings, this.answers(settings, asError));
  }

  show(drawn) {
    const caption = drawn.compared ? `${drawn.caption} ${drawn.compared}` : drawn.caption;
    this.parts.fallback.hidden = true;
    this.parts.canvas.setAttribute('aria-label', caption);
    this.parts.canvas.removeAttribute('aria-hidden');
    fillCaption(this.parts.caption, caption, drawn.storms.map((storm) => storm.label));
    this.parts.caption.hidden = false;
    fillNumberTable(this.parts.table, drawn.table);
    this.parts.details.hidden = drawn.table.rows.length === 0;
    // Named after the element's own title, else its chart, so that a page's elements' buttons
    // and tables tell apart (two storm charts' buttons had one name).
    const title = this.getAttribute('title') || titleOf(this.computedFor.view);
    this.parts.table.setAttribute('aria-label', `The numbers of the chart (${title})`);
    this.parts.tableBox.setAttribute('aria-label', `The numbers of the chart (${title}), scrolls sideways on a narrow screen`);
    for (const button of this.parts.actions.children) {
      button.setAttribute('aria-label', `Download the chart (${title}) as ${button.textContent}`);
    }
    this.parts.actions.hidden = !actionsOn(this);
    // A survival map still filling in, or a quicker first run, exported, would pass for the
    // whole result.
    for (const button of this.parts.actions.children) {
      button.disabled = this.partial;
      if (this.partial) button.title = 'available once the whole chart is computed';
      else button.removeAttribute('title');
    }
    if (this.partial || this.reported) return;
    this.reported = true;
    this.dispatchEvent(new CustomEvent('backoff-lab:rendered', {
      bubbles: true,
      composed: true,
      detail: { view: this.computedFor.view, caption, table: drawn.table, storms: drawn.storms, schedule: drawn.schedule },
    }));
  }

  export(format) {
    const settings = this.computedFor;
    // A failure arrived since the buttons were shown: nothing to export until a chart is.
    if (settings === null || this.drawn === null) return;
    const name = `${fileStem(settings.view, settings)}.${format}`;
    if (format === 'png') {
      this.parts.canvas.toBlob((blob) => blob && download(blob, name), 'image/png');
    } else if (format === 'svg') {
      const { width, height } = this.parts.canvas.getBoundingClientRect();
      const options = chartOptions(this.dark(), 1, settings.log === 'true', this.background());
      const svg = viewSvg(settings.view, settings, this.computed, options, width, height);
      download(new Blob([svg], { type: 'image/svg+xml' }), name);
    } else {
      download(new Blob([viewCsv(settings.view, settings, this.computed, this.drawn.table)], { type: 'text/csv' }), name);
    }
  }
}

/** Defines <backoff-lab>, its wasm loaded from `source` (bytes or a URL; by default the
 * `backoff_lab_bg.wasm` next to the module). */
export function define(source) {
  wasmSource = source;
  if (inWorker) return;
  if (!customElements.get('backoff-lab')) customElements.define('backoff-lab', BackoffLab);
}

if (inWorker) serve(() => (wasmSource === undefined ? undefined : { module_or_path: wasmSource }));
