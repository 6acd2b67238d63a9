// What the end-to-end tests and the benchmarks share: where the page is, the browser, the test
// server, the page's problems (console errors, page errors, failed requests), waiting for
// renders, and reading canvases and the schedule table.

import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

import { startServer } from './server.mjs';

export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
export const wwwRoot = path.resolve(repoRoot, process.env.BACKOFF_LAB_WWW ?? 'www');
export const artifactsDir = fileURLToPath(new URL('./artifacts/', import.meta.url));

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const WAIT_MS = 15_000;

// The final status of a clean render. A render draws the charts on screen first (the status
// reads "drawing the storm…" while the storm waits for the next animation frame), then those off
// screen ("drawing the charts off screen…"), and ends with "rendered in X ms (storm Y ms)", or
// "not everything was redrawn: …" when a view failed; the wait helpers wait for the final one.
export const STATUS_PATTERN = /^rendered in [\d.,]+\s*ms \(storm [\d.,]+\s*ms\)$/;

/** Headless Debian Chromium (CHROMIUM overrides where it is). */
export async function launchBrowser() {
  const executablePath = process.env.CHROMIUM || '/usr/bin/chromium';
  if (!existsSync(executablePath)) {
    throw new Error(`no Chromium at ${executablePath}: run scripts/ensure-tools.sh or set CHROMIUM`);
  }
  return chromium.launch({ executablePath, args: CHROMIUM_ARGS });
}

/** The built page (`files` must exist under www/) served on loopback: `{ server, url }`. */
export async function servePage(files = ['index.html', 'pkg/backoff_lab.js', 'pkg/backoff_lab_bg.wasm']) {
  const missing = files.filter((file) => !existsSync(path.join(wwwRoot, file)));
  if (missing.length > 0) {
    throw new Error(
      `the page is not built: missing ${missing.map((f) => path.join(wwwRoot, f)).join(', ')}; ` +
        'run scripts/build-page.sh first (scripts/test.sh does)',
    );
  }
  return startServer({ root: wwwRoot, port: 0, host: '127.0.0.1' });
}

export async function closeServer(server) {
  if (!server) return;
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}

/** Counts, in `window.__rowJobs`, the survival map's pieces of rows `page` hands to workers. */
export function countRowJobs(page) {
  return page.addInitScript(() => {
    window.__rowJobs = 0;
    const PageWorker = window.Worker;
    window.Worker = class extends PageWorker {
      postMessage(message, transfer) {
        if (message?.rows) window.__rowJobs += 1;
        return super.postMessage(message, transfer);
      }
    };
  });
}

/** Console errors, page errors, failed requests and HTTP errors of `page`, as they happen. */
export function watchProblems(page) {
  const problems = [];
  // Chromium asks for /favicon.ico on its own; a page without one is not a page error.
  const ignorable = (url) => URL.canParse(url) && new URL(url).pathname === '/favicon.ico';
  page.on('console', (message) => {
    if (message.type() === 'error') {
      const { url, lineNumber } = message.location();
      if (url && ignorable(url)) return;
      problems.push(`console error: ${message.text()}${url ? ` (${url}:${lineNumber})` : ''}`);
    }
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.stack || error.message}`));
  page.on('requestfailed', (request) => {
    // A worker stopped while its script still loads (a newer input superseded its work: the
    // page's cancellation) aborts that request; a script that fails to load is an HTTP error
    // (below) or another failure.
    const cancelledWorker =
      request.failure()?.errorText === 'net::ERR_ABORTED' && /\/worker\.js$/.test(new URL(request.url()).pathname);
    if (!ignorable(request.url()) && !cancelledWorker) {
      problems.push(`request failed: ${request.url()}: ${request.failure()?.errorText}`);
    }
  });
  page.on('response', (response) => {
    if (response.status() >= 400 && !ignorable(response.url())) {
      problems.push(`HTTP ${response.status()} for ${response.url()}`);
    }
  });
  return problems;
}

/**
 * Each distinct problem once, with how often it happened (CSP reports differ only in the hash
 * of the blocked content), at most 10 of them, one a line.
 */
export function summarize(problems) {
  const counts = new Map();
  for (const problem of problems) {
    const key = problem.replace(/'sha256-[A-Za-z0-9+/=]+'/g, "'sha256-...'");
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const lines = Array.from(counts, ([problem, n]) => (n > 1 ? `${problem} (x${n})` : problem));
  const shown = lines.slice(0, 10);
  if (lines.length > shown.length) shown.push(`... and ${lines.length - shown.length} more distinct problems`);
  return shown.join('\n');
}

export function assertNoProblems(problems) {
  if (problems.length === 0) return;
  assert.fail(`${problems.length} console errors, page errors or failed requests:\n${summarize(problems)}`);
}

/**
 * Poll `check` (async, returns truthy when done) until it passes or `timeout` ms elapse.
 * `description` is a string, or an async function giving one, used only on timeout.
 */
export async function until(check, description, timeout = WAIT_MS) {
  const deadline = Date.now() + timeout;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) {
      const what = typeof description === 'function' ? await description() : description;
      assert.fail(`timed out after ${timeout} ms waiting for ${what}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export function textOf(page, selector) {
  return page.$eval(selector, (element) => element.textContent ?? '');
}

/**
 * Opens `url` in a fresh context without waiting for a clean render (a heavy or refused link may
 * not give one), runs `body(page)`, checks that the page had no problems and closes the context.
 * `onPage(page)` runs before the navigation, to add scripts and listeners.
 */
export async function withUnsettledPage(browser, url, body, { viewport = { width: 1200, height: 900 }, onPage = () => {} } = {}) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  page.setDefaultTimeout(WAIT_MS);
  const problems = watchProblems(page);
  try {
    await onPage(page);
    await page.goto(url, { waitUntil: 'load' });
    await body(page);
    assertNoProblems(problems);
  } finally {
    await context.close();
  }
}

/**
 * Open `url` in a fresh context and wait for body[data-ready="true"]. Returns the context, page,
 * navigation response and `problems`. Every change to #status is counted, so that a test can
 * wait for the next render even when the status happens to read the same as before. `onPage`
 * runs before the navigation, to add listeners.
 */
export async function openPage(browser, url, contextOptions = {}, onPage = () => {}) {
  const context = await browser.newContext(contextOptions);
  const page = await context.newPage();
  page.setDefaultTimeout(WAIT_MS);
  const problems = watchProblems(page);
  await page.addInitScript(() => {
    window.__e2e = { statusChanges: 0 };
    const watch = () => {
      const status = document.getElementById('status');
      if (status) {
        new MutationObserver(() => {
          window.__e2e.statusChanges += 1;
        }).observe(status, { childList: true, characterData: true, subtree: true });
      }
    };
    if (document.readyState === 'loading') {
      document.addEventListener('DOMContentLoaded', watch, { once: true });
    } else {
      watch();
    }
  });
  await onPage(page, context);
  // An uncaught error while loading ends the wait for readiness at once.
  const firstPageError = new Promise((_, reject) => page.once('pageerror', reject));
  firstPageError.catch(() => {});
  const response = await page.goto(url, { waitUntil: 'load' });
  assert.ok(response, 'navigation produced no response');
  assert.equal(response.status(), 200, `GET ${url}`);
  const ready = page.waitForSelector('body[data-ready="true"]', { state: 'attached', timeout: WAIT_MS });
  ready.catch(() => {}); // when a page error wins the race, the context closes under this wait
  try {
    await Promise.race([ready, firstPageError]);
  } catch (error) {
    const status = await page
      .evaluate(() => (document.getElementById('status') ?? document.getElementById('chart-caption'))?.textContent ?? null)
      .catch(() => null);
    await context.close();
    throw new Error(
      `${url} never set body[data-ready="true"] (status: ${JSON.stringify(status)}; ` +
        `problems: ${problems.length ? `\n${summarize(problems)}\n` : 'none'}): ${error.message}`,
    );
  }
  return { context, page, response, problems };
}

export function statusChanges(page) {
  return page.evaluate(() => window.__e2e?.statusChanges ?? 0);
}

/**
 * Wait for the render after an action: #status changed since `before` and matches `pattern`
 * (by default the final "rendered in N ms (storm M ms)" of a render without errors).
 */
export async function nextRender(page, before, pattern = STATUS_PATTERN) {
  await until(
    () =>
      page.evaluate(
        ([count, source]) =>
          (window.__e2e?.statusChanges ?? 0) > count &&
          new RegExp(source).test(document.getElementById('status')?.textContent ?? ''),
        [before, pattern.source],
      ),
    async () => `#status to change and match ${pattern} (it reads ${JSON.stringify(await textOf(page, '#status'))})`,
  );
}

/** Run `action` (which changes an input) and wait for the page's next clean render. */
export async function renderAfter(page, action) {
  const before = await statusChanges(page);
  await action();
  await nextRender(page, before);
}

/** The schedule table's body as rows of trimmed cell texts. */
export function tableRows(page) {
  return page.$$eval('#schedule-table tbody tr', (rows) =>
    rows.map((row) => Array.from(row.cells, (cell) => cell.textContent.trim())),
  );
}

/** The elapsed time in the table's last row. */
export function lastElapsed(rows) {
  assert.ok(rows.length > 0, 'the schedule table has no rows');
  const last = rows[rows.length - 1];
  assert.ok(last.length >= 3, `the last row has ${last.length} cells, expected attempt, gap, elapsed`);
  return last[2];
}

/** The picture on the canvas `selector` as a PNG data URL. */
export function canvasDataUrl(page, selector) {
  return page.$eval(selector, (canvas) => canvas.toDataURL('image/png'));
}

/**
 * Pixel statistics of the canvas `selector`: size, the number of distinct colours and the
 * number of "ink" pixels, those that differ from the most common (background) colour.
 */
export function canvasStats(page, selector) {
  return page.$eval(selector, (canvas) => {
    const { width, height } = canvas;
    if (width === 0 || height === 0) return { width, height, ink: 0, opaque: 0, colours: 0 };
    const context = canvas.getContext('2d');
    if (!context) return { width, height, ink: -1, opaque: -1, colours: -1 };
    const data = new Uint32Array(context.getImageData(0, 0, width, height).data.buffer);
    const counts = new Map();
    let opaque = 0;
    for (const pixel of data) {
      counts.set(pixel, (counts.get(pixel) ?? 0) + 1);
      if (pixel >>> 24 !== 0) opaque += 1; // little-endian RGBA: alpha is the top byte
    }
    let background = 0;
    for (const count of counts.values()) background = Math.max(background, count);
    return { width, height, ink: data.length - background, opaque, colours: counts.size };
  });
}

/** The canvas described by `stats` shows a picture, not a blank or transparent box. */
export function assertPainted(stats, what) {
  assert.ok(stats.width > 0 && stats.height > 0, `${what} canvas is ${stats.width}x${stats.height}`);
  assert.notEqual(stats.ink, -1, `${what} has no 2d context`);
  const minimum = Math.max(200, Math.round(stats.width * stats.height * 0.002));
  assert.ok(stats.opaque > 0, `${what} is fully transparent`);
  assert.ok(
    stats.ink >= minimum && stats.colours >= 3,
    `${what} looks blank: ${stats.ink} non-background pixels (want >= ${minimum}), ${stats.colours} colours, ` +
      `on a ${stats.width}x${stats.height} canvas`,
  );
}
