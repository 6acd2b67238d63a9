// The embed page: one chart of the explorer, chosen by `view` in the URL hash, with the same
// settings as the explorer's link (embed.html#<settings>&view=timeline|distribution|herd|storm).
// It fills its frame and redraws when the frame is resized. No retry arithmetic here.
// embed.html loads it bundled with the wasm by scripts/build-page.sh (see embed-standalone.js).
import init, { decodeState } from './pkg/backoff_lab.js';
import { VIEW_TITLE, drawChart, compareText, listItems, resolveState, sizeCanvas } from './common.js';

const $ = (id) => document.getElementById(id);
const darkQuery = window.matchMedia('(prefers-color-scheme: dark)');

let settings = null;
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
  const { values, notices } = resolveState(decodeState(location.hash));
  settings = values;
  showNotices(notices);
  document.title = `backoff-lab: ${VIEW_TITLE[settings.view] ?? VIEW_TITLE.timeline}`;
  // The full explorer with the same settings (relative, so a saved copy links to its neighbour).
  $('open-explorer').setAttribute('href', `./index.html${location.hash}`);
}

function draw() {
  frame = 0;
  const canvas = $('chart');
  const options = { dark: darkQuery.matches, scale: sizeCanvas(canvas), logScale: settings.log === 'true' };
  try {
    const drawn = drawChart(settings.view, 'chart', settings, options);
    const caption = drawn.compared ? `${drawn.caption} ${compareText(drawn.report, drawn.compared)}` : drawn.caption;
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
