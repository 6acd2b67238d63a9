// The embed page: one chart of the explorer, chosen by `view` in the URL hash, with the same
// settings as the explorer's link (embed.html#<settings>&view=timeline|distribution|herd|storm).
// It fills its frame and redraws when the frame is resized. Its one chart is computed on the
// page itself: a worker would need a file of its own (a saved copy is three files and opens from
// file://, where module workers cannot start) or a blob: worker, which the strict CSP the page
// is served with forbids; the core's work limits bound what a link can ask for.
// embed.html loads it bundled with the wasm by scripts/build-page.sh (see embed-standalone.js).
import init, { StormMemo, computeView, decodeState, drawView, pageConfig } from './pkg/backoff_lab.js';
import { chartOptions, listItems, sizeCanvas } from './ui.js';

const $ = (id) => document.getElementById(id);
const darkQuery = window.matchMedia('(prefers-color-scheme: dark)');

let settings = null;
let computed = null;
let memo = null;
let frame = 0;

function showNotices(notices) {
  const box = $('notice');
  box.hidden = notices.length === 0;
  if (notices.length === 0) {
    box.replaceChildren();
    return;
  }
  const list = document.createElement('ul');
  list.append(...listItems(notices));
  const intro = document.createElement('p');
  intro.textContent = 'Not used from the link:';
  box.replaceChildren(intro, list);
}

function load() {
  const decoded = decodeState(location.hash);
  settings = decoded.settings;
  computed = null;
  showNotices(decoded.notices);
  const title = pageConfig().views.find((v) => v.name === settings.view)?.title ?? 'retry timeline';
  document.title = `backoff-lab: ${title}`;
  // The full explorer with the same settings (relative, so a saved copy links to its neighbour).
  $('open-explorer').setAttribute('href', `./index.html${location.hash}`);
}

function draw() {
  frame = 0;
  const canvas = $('chart');
  const options = chartOptions(darkQuery.matches, sizeCanvas(canvas), settings.log === 'true');
  try {
    computed ??= computeView(settings.view, settings, (memo ??= new StormMemo()));
    const drawn = drawView('chart', settings.view, settings, computed, options);
    const caption = drawn.compared ? `${drawn.caption} ${drawn.compared}` : drawn.caption;
    $('chart-caption').textContent = caption;
    canvas.setAttribute('aria-label', caption);
    document.body.dataset.ready = 'true';
  } catch (error) {
    $('chart-caption').textContent = `This chart could not be drawn: ${error && error.message ? error.message : error}`;
  }
}

function redraw() {
  if (frame === 0) frame = requestAnimationFrame(draw);
}

async function main(wasm) {
  await init({ module_or_path: wasm });
  load();
  draw();
  window.addEventListener('hashchange', () => {
    load();
    redraw();
  });
  darkQuery.addEventListener('change', redraw);
  new ResizeObserver(redraw).observe($('chart-box'));
}

/** Starts the page with the module's bytes (or its URL). */
export function start(wasm) {
  main(wasm).catch((error) => {
    $('chart-caption').textContent = `could not start: ${error && error.message ? error.message : error}`;
  });
}
