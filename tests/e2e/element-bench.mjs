// The <backoff-lab> element's weight and speed as a docs page meets it (target/package, built by
// scripts/build-package.sh, served on loopback with no caching): the gzipped bytes a page loads
// for it; on a cold load (a fresh browser context each run), the time from the element scrolling
// into view to its chart drawn (`backoff-lab:rendered`), for a timeline and a storm, against the
// time to the same chart when it is on screen at load (the baseline: what starting lazily adds);
// and ten elements on one page: how many times the wasm is fetched, and the time until all ten
// are drawn. Medians and p95s of RUNS runs. Numbers to read, never a pass/fail threshold.
//
//   node tests/e2e/element-bench.mjs

import { mkdtempSync, readFileSync, rmSync, writeFileSync, cpSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

import { closeServer, launchBrowser, repoRoot } from './harness.mjs';
import { startServer } from './server.mjs';

const RUNS = 15;
const packageDir = path.join(repoRoot, 'target', 'package');

const quantile = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
};
const pair = (values) => `${quantile(values, 0.5).toFixed(0)} / ${quantile(values, 0.95).toFixed(0)}`;

const folder = mkdtempSync(path.join(os.tmpdir(), 'backoff-lab-element-bench-'));
for (const file of ['backoff-lab.js', 'backoff_lab_bg.wasm']) cpSync(path.join(packageDir, file), path.join(folder, file));
const page = (body) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>bench</title>
<link rel="stylesheet" href="./host.css"><script type="module" src="./backoff-lab.js"></script></head>
<body><main>${body}</main></body></html>`;
writeFileSync(path.join(folder, 'host.css'), 'main { width: 760px; margin: 0 auto; } .spacer { height: 3000px; }');
writeFileSync(path.join(folder, 'below.html'), page('<div class="spacer"></div><backoff-lab id="chart"></backoff-lab>'));
writeFileSync(path.join(folder, 'above.html'), page('<backoff-lab id="chart"></backoff-lab><div class="spacer"></div>'));
writeFileSync(path.join(folder, 'ten.html'), page(Array.from({ length: 10 }, (_, i) => `<backoff-lab view="timeline" attempts="${i + 5}"></backoff-lab>`).join('')));

const gz = (file) => gzipSync(readFileSync(path.join(folder, file)), { level: 9 }).length;
const weight = gz('backoff-lab.js') + gz('backoff_lab_bg.wasm');

const { server, url } = await startServer({ root: folder });
const browser = await launchBrowser();

/** One cold load of `file` with the element's `view`: ms from the trigger to the chart drawn. */
async function coldRun(file, view, scroll) {
  const context = await browser.newContext({ viewport: { width: 1000, height: 800 } });
  const tab = await context.newPage();
  await tab.addInitScript(() => {
    window.__drawn = [];
    document.addEventListener('backoff-lab:rendered', () => window.__drawn.push(performance.now()));
  });
  await tab.goto(`${url}/${file}`);
  await tab.evaluate((view) => document.getElementById('chart').setAttribute('view', view), view);
  let start;
  if (scroll) {
    // Let the module load first: the element waits, unstarted, below the fold.
    await tab.waitForFunction(() => customElements.get('backoff-lab') !== undefined);
    start = await tab.evaluate(() => {
      const at = performance.now();
      document.getElementById('chart').scrollIntoView();
      return at;
    });
  } else {
    start = 0; // navigation start
  }
  await tab.waitForFunction(() => window.__drawn.length > 0, null, { timeout: 60_000 });
  const drawn = await tab.evaluate(() => window.__drawn[0]);
  await context.close();
  return drawn - start;
}

try {
  console.log(`<backoff-lab>: backoff-lab.js + backoff_lab_bg.wasm, gzipped (gzip -9): ${(weight / 1024).toFixed(0)} KB (target 250 KB)`);
  console.log(`cold load, ${RUNS} runs each, ms (median / p95)`);
  console.log('chart          scrolled into view → drawn   on screen at load: navigation → drawn (baseline)');
  for (const view of ['timeline', 'storm']) {
    const scrolled = [];
    const atLoad = [];
    for (let i = 0; i < RUNS; i += 1) {
      scrolled.push(await coldRun('below.html', view, true));
      atLoad.push(await coldRun('above.html', view, false));
    }
    console.log(`${view.padEnd(14)} ${pair(scrolled).padStart(27)}   ${pair(atLoad).padStart(30)}`);
  }
  const tens = [];
  let fetches = 0;
  for (let i = 0; i < 5; i += 1) {
    const context = await browser.newContext({ viewport: { width: 1000, height: 8000 } });
    const tab = await context.newPage();
    let wasm = 0;
    tab.on('request', (request) => { if (request.url().endsWith('.wasm')) wasm += 1; });
    await tab.addInitScript(() => {
      window.__drawn = [];
      document.addEventListener('backoff-lab:rendered', () => window.__drawn.push(performance.now()));
    });
    await tab.goto(`${url}/ten.html`);
    await tab.waitForFunction(() => window.__drawn.length >= 10, null, { timeout: 60_000 });
    tens.push(await tab.evaluate(() => window.__drawn[9]));
    fetches = Math.max(fetches, wasm);
    await context.close();
  }
  console.log(`ten elements on one page: the wasm fetched ${fetches} time(s); all ten drawn ${pair(tens)} ms after navigation (median / p95 of 5)`);
} finally {
  await browser.close();
  await closeServer(server);
  rmSync(folder, { recursive: true, force: true });
}
