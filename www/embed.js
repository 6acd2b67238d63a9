// The embed page: one chart of the explorer, chosen by `view` in the URL hash, with the same
// settings as the explorer's link (embed.html#<settings>&view=timeline|distribution|herd|storm|
// staleness|survival).
// It fills its frame and redraws when the frame is resized; inside another page it also posts
// the height it would like to its parent (see postHeight), which embed-host.js, added once to the
// host page, applies to the iframe. A chart the core says is costly is computed in the page's
// worker (worker.js, next to this page, handed the compiled wasm), so that the frame, and the
// page around it, keep answering. A saved copy opened from file://, where no worker can start
// from a file, starts its workers from the copy of worker.js the bundle carries, as a blob: URL;
// where no worker can start at all (a CSP's worker-src), the chart is computed on the page
// itself. The survival map, which takes seconds, is computed by workers too, as many as the
// machine has cores (or a row per task on the page where none can start), and drawn as its
// rows arrive.
// embed.html loads it bundled with the wasm by scripts/build-page.sh (see embed-standalone.js).
import init, {
  StormMemo, computeSurvivalRows, computeView, computesInline, decodeState, drawView, pageConfig,
  previewSettings, survivalJobs,
} from './pkg/backoff_lab.js';
import { Computer } from './compute.js';
import { RowPool } from './row-pool.js';
import { chartOptions, fillCaption, isDark, listItems, notDrawnCaption, sizeCanvas } from './ui.js';

const $ = (id) => document.getElementById(id);
const darkQuery = window.matchMedia('(prefers-color-scheme: dark)');

let settings = null;
let computed = null;
let partial = false;
let failure = null;
let memo = null;
let frame = 0;
let postedHeight = 0;
// The compiled wasm, handed to the workers; the worker's computation under way, if any.
let wasmModule = null;
let job = null;
// The blob: URL of the workers' script the bundle carries, made once, on file:// pages.
let workerBlobUrl = null;
function startWorker() {
  // A classic script bundled for file:// has no module URL of its own: the page's is used.
  // The bundled worker has no URL to fetch the wasm from: it only starts with the module to hand
  // it (otherwise the module worker is tried, which a file:// page refuses: computed here).
  const worker = workerBlobUrl && wasmModule
    ? new Worker(workerBlobUrl)
    : new Worker(new URL('./worker.js', location.href), { type: 'module' });
  if (wasmModule) worker.postMessage({ module: wasmModule });
  return worker;
}
// The survival map's rows, over as many workers as the machine has cores (see above), drawn as
// they arrive; `partial` while some are missing.
const rows = new RowPool({
  jobsOf: survivalJobs,
  rowsOf: computeSurvivalRows,
  makeWorker: startWorker,
  size: navigator.hardwareConcurrency || 2,
});
const computer = new Computer(
  startWorker,
  (view, settings) => computeView(view, settings, (memo ??= new StormMemo())),
  previewSettings,
  computesInline,
);

// The chart's natural height for a frame `width` px wide: half the width, between 240 and 520 px.
const naturalChartHeight = (width) => Math.min(520, Math.max(240, Math.round(width * 0.5)));
// A shrink smaller than this is not posted (see postHeight).
const SHRINK_SLACK = 16;

/** `element`'s height with its margins. */
function outerHeight(element) {
  const style = getComputedStyle(element);
  return element.getBoundingClientRect().height + parseFloat(style.marginTop) + parseFloat(style.marginBottom);
}

/**
 * The height (integer px) the page wants: the notice, the chart at its natural height and the
 * whole caption (whose max-height in style.css leaves the chart min(240px, 62vh), so it never
 * binds in a frame this tall).
 *
 * The layout still fills whatever height the frame has (so a fixed-height iframe without
 * embed-host.js looks as before: chart above, caption below, nothing scrolls off), and this
 * height is computed, not read off that layout: the chart's part comes from the frame's width
 * alone, and the caption's and notice's from their text wrapped at that width (scrollHeight is
 * the content's full height whatever the box's max-height). So nothing in it depends on the
 * frame's height: when the host applies it, the frame gets taller or shorter, the ResizeObserver
 * redraws, the same height comes out and nothing is posted. It cannot loop. (The one way a height
 * change feeds back is through the width: the caption's scrollbar while it overflows a frame too
 * small, which takes one more step to settle since the new height fits the caption; or a host
 * page that gains a scrollbar when the frame grows, narrowing its column: the shrink that follows
 * is half the scrollbar's width, under SHRINK_SLACK, so it is not posted and the frame, a few px
 * taller than needed, gives them to the chart.)
 */
function wantedHeight() {
  const width = document.documentElement.clientWidth;
  const notice = $('notice');
  const noticeHeight = notice.hidden ? 0 : outerHeight(notice);
  // +1: scrollHeight is rounded, and a caption a fraction of a pixel short would scroll. A
  // refusal's box in the chart's place does not scroll, and has a margin and a border, which
  // scrollHeight leaves out.
  const box = document.querySelector('.embed-caption');
  const caption = box.classList.contains('refused') ? outerHeight(box) + 1 : box.scrollHeight + 1;
  const chart = $('chart-box').hidden ? 0 : naturalChartHeight(width);
  return Math.ceil(noticeHeight + chart + caption);
}

/**
 * Tell the host page the height the page wants, when framed and when it changed; not while the
 * result is partial (a survival map's rows, a sampled chart's first run): its caption ("computing
 * the survival map: 16 of 48 rows…") is not the final one's, and the frame shrank to it, then
 * grew again, moving the host page below it twice (outside review).
 */
function postHeight() {
  if (window.parent === window || (partial && !failure)) return;
  const height = wantedHeight();
  if (height === postedHeight || (height < postedHeight && postedHeight - height < SHRINK_SLACK)) return;
  postedHeight = height;
  // '*': the height is no secret, and the page cannot know who embeds it.
  window.parent.postMessage({ type: 'backoff-lab:height', height }, '*');
}

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
  // The link's theme for the page's own colours too, its notices and messages included.
  document.documentElement.dataset.theme = settings.theme;
  computed = null;
  failure = null;
  partial = false;
  rows.stop();
  job?.cancel();
  job = null;
  if (settings.view !== 'survival') {
    const asked = settings;
    job = computer.request(settings.view, settings, {
      onResult: (result, more) => {
        if (asked !== settings) return;
        computed = result;
        partial = more;
        redraw();
      },
      onError: (error) => {
        if (asked !== settings) return;
        failure = error;
        partial = false;
        redraw();
      },
    });
  } else {
    try {
      survivalJobs(settings, 0);
      computed = { view: 'survival', rows: [] };
      partial = true;
      rows.request('survival', settings, {
        onResult: (result, more) => {
          computed = result;
          partial = more;
          redraw();
        },
        onError: (error) => {
          failure = error;
          partial = false;
          redraw();
        },
      });
    } catch (error) {
      failure = error;
    }
  }
  showNotices(decoded.notices);
  const title = pageConfig().views.find((v) => v.name === settings.view)?.title ?? 'retry timeline';
  document.title = `backoff-lab: ${title}`;
  // The full explorer with the same settings (relative, so a served copy links to its
  // neighbour). Not from file://: the explorer's modules cannot load there, and a copy of the
  // embed page's three files has no explorer beside it (the link led to a missing file).
  const explorer = $('open-explorer');
  explorer.hidden = location.protocol === 'file:';
  explorer.setAttribute('href', `./index.html${location.hash}`);
}

function draw() {
  frame = 0;
  // Still computing: nothing to draw (or a height to post: the caption is still to come)
  // until the result comes.
  if (!failure && computed === null) return;
  const canvas = $('chart');
  // A chart that cannot be drawn gives its place to the message: an empty box stood above it.
  let drawnNow = false;
  try {
    if (failure) throw failure;
    $('chart-box').hidden = false;
    const options = chartOptions(isDark(settings.theme, darkQuery), sizeCanvas(canvas), settings.log === 'true');
    const drawn = drawView('chart', settings.view, settings, computed, options);
    const caption = drawn.compared ? `${drawn.caption} ${drawn.compared}` : drawn.caption;
    // The same caption again (a redraw at a new width or theme) is left alone: the caption is a
    // live region, and was read out again in full at every redraw.
    if ($('chart-caption').textContent !== caption) {
      fillCaption($('chart-caption'), caption, drawn.storms.map((storm) => storm.label));
    }
    canvas.setAttribute('aria-label', caption);
    drawnNow = true;
    if (!partial) document.body.dataset.ready = 'true';
  } catch (error) {
    $('chart-caption').textContent = notDrawnCaption(error);
  }
  $('chart-box').hidden = !drawnNow;
  document.querySelector('.embed-caption').classList.toggle('refused', !drawnNow);
  // After a failed draw too, so that the message shows in full.
  postHeight();
}

function redraw() {
  if (frame === 0) frame = requestAnimationFrame(draw);
}

async function main(wasm) {
  wasmModule = wasm instanceof WebAssembly.Module || wasm instanceof URL || typeof wasm === 'string'
    ? null
    : await WebAssembly.compile(wasm);
  await init({ module_or_path: wasmModule ?? wasm });
  load();
  draw();
  window.addEventListener('hashchange', () => {
    load();
    redraw();
  });
  darkQuery.addEventListener('change', redraw);
  // A change of the frame's width resizes the chart box; a change of its height too, which
  // redraws at the new size but posts nothing (the wanted height does not depend on it).
  new ResizeObserver(redraw).observe($('chart-box'));
  window.addEventListener('resize', postHeight);
}

/**
 * Starts the page with the module's bytes (or its URL), and the source of the workers' script
 * as a classic script, if it comes with the page: used on file:// pages (served, the page starts
 * worker.js from beside it, as a host's CSP allowing workers from its own files expects).
 */
export function start(wasm, workerScript) {
  if (workerScript && location.protocol === 'file:') {
    workerBlobUrl = URL.createObjectURL(new Blob([workerScript], { type: 'text/javascript' }));
  }
  main(wasm).catch((error) => {
    $('chart-caption').textContent = `could not start: ${error && error.message ? error.message : error}`;
  });
}
