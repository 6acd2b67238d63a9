// End-to-end test of the backoff-lab page in headless Debian Chromium, driven by playwright-core.
//
// The page must already be built (scripts/build-page.sh writes www/pkg). This file starts
// server.mjs on an ephemeral port, serving www/ with the strict Content-Security-Policy, and for
// every test opens a fresh page that records console errors, uncaught page errors and failed
// requests; each test ends by asserting there were none.
//
//   cd tests/e2e && npm test
//
// Environment: CHROMIUM (browser binary, default /usr/bin/chromium); BACKOFF_LAB_WWW (the directory
// to serve instead of www/, for testing this harness itself).

import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

import { startServer } from './server.mjs';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const wwwRoot = path.resolve(repoRoot, process.env.BACKOFF_LAB_WWW ?? 'www');
const artifactsDir = fileURLToPath(new URL('./artifacts/', import.meta.url));

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

// The article's example, which is the page's default state.
const DEFAULT_ROWS = 14;
const DEFAULT_LAST_ELAPSED = '24 h 02 min';
const FIELDS = ['base', 'multiplier', 'cap', 'attempts', 'give-up'];
const STATUS_PATTERN = /rendered in [\d.,]+\s*ms/;
const WAIT_MS = 15_000;

let server;
let baseUrl;
let browser;

before(async () => {
  const missing = ['index.html', 'pkg/backoff_lab.js', 'pkg/backoff_lab_bg.wasm'].filter(
    (file) => !existsSync(path.join(wwwRoot, file)),
  );
  if (missing.length > 0) {
    throw new Error(
      `the page is not built: missing ${missing.map((f) => path.join(wwwRoot, f)).join(', ')}; ` +
        'run scripts/build-page.sh first (scripts/test.sh does)',
    );
  }
  ({ server, url: baseUrl } = await startServer({ root: wwwRoot, port: 0, host: '127.0.0.1' }));
  const executablePath = process.env.CHROMIUM || '/usr/bin/chromium';
  if (!existsSync(executablePath)) {
    throw new Error(`no Chromium at ${executablePath}: run scripts/ensure-tools.sh or set CHROMIUM`);
  }
  browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
});

after(async () => {
  await browser?.close();
  if (server) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/**
 * Open the page in a fresh context. Returns the page, the navigation response and `problems`,
 * the console errors, page errors and failed requests seen so far. `onPage(page)` runs before
 * the navigation, to add listeners.
 */
async function openPage(contextOptions = {}, onPage = () => {}) {
  const context = await browser.newContext(contextOptions);
  const page = await context.newPage();
  page.setDefaultTimeout(WAIT_MS);
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
    if (!ignorable(request.url())) {
      problems.push(`request failed: ${request.url()}: ${request.failure()?.errorText}`);
    }
  });
  page.on('response', (response) => {
    if (response.status() >= 400 && !ignorable(response.url())) {
      problems.push(`HTTP ${response.status()} for ${response.url()}`);
    }
  });
  // Count every change to #status, so a test can wait for the next render even when the status
  // text happens to read the same as before.
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

  onPage(page);
  // An uncaught error while loading ends the wait for readiness at once.
  const firstPageError = new Promise((_, reject) => page.once('pageerror', reject));
  firstPageError.catch(() => {});
  const response = await page.goto(baseUrl, { waitUntil: 'load' });
  assert.ok(response, 'navigation produced no response');
  assert.equal(response.status(), 200, `GET ${baseUrl}`);
  const ready = page.waitForSelector('body[data-ready="true"]', { state: 'attached', timeout: WAIT_MS });
  ready.catch(() => {}); // when a page error wins the race, the context closes under this wait
  try {
    await Promise.race([ready, firstPageError]);
  } catch (error) {
    const status = await page
      .evaluate(() => document.getElementById('status')?.textContent ?? null)
      .catch(() => null);
    await context.close();
    throw new Error(
      `the page never set body[data-ready="true"] (status: ${JSON.stringify(status)}; ` +
        `problems: ${problems.length ? `\n${summarize(problems)}\n` : 'none'}): ${error.message}`,
    );
  }
  return { context, page, response, problems };
}

/** Run `body` with a freshly opened page; assert no console or page errors; always close. */
async function withPage(body, contextOptions = {}, onPage = undefined) {
  const opened = await openPage(contextOptions, onPage);
  try {
    await body(opened);
    assertNoProblems(opened.problems);
  } finally {
    await opened.context.close();
  }
}

function assertNoProblems(problems) {
  if (problems.length === 0) return;
  assert.fail(`${problems.length} console errors, page errors or failed requests:\n${summarize(problems)}`);
}

/**
 * Each distinct problem once, with how often it happened (CSP reports differ only in the hash
 * of the blocked content), at most 10 of them, one a line.
 */
function summarize(problems) {
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

/**
 * Poll `check` (async, returns truthy when done) until it passes or `timeout` ms elapse.
 * `description` is a string, or an async function giving one, used only on timeout.
 */
async function until(check, description, timeout = WAIT_MS) {
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

/** The table body as rows of trimmed cell texts. */
function tableRows(page) {
  return page.$$eval('#schedule-table tbody tr', (rows) =>
    rows.map((row) => Array.from(row.cells, (cell) => cell.textContent.trim())),
  );
}

function tableText(page) {
  return page.$eval('#schedule-table tbody', (tbody) => tbody.textContent.replace(/\s+/g, ' ').trim());
}

function lastElapsed(rows) {
  assert.ok(rows.length > 0, 'the schedule table has no rows');
  const last = rows[rows.length - 1];
  assert.ok(last.length >= 3, `the last row has ${last.length} cells, expected attempt, gap, elapsed`);
  return last[2];
}

function statusChanges(page) {
  return page.evaluate(() => window.__e2e?.statusChanges ?? 0);
}

/** Wait for the render after an action: #status changed since `before` and reads "rendered in". */
async function nextRender(page, before) {
  await until(
    () =>
      page.evaluate(
        ([count, pattern]) =>
          (window.__e2e?.statusChanges ?? 0) > count &&
          new RegExp(pattern).test(document.getElementById('status')?.textContent ?? ''),
        [before, STATUS_PATTERN.source],
      ),
    async () =>
      `#status to change and read "rendered in N ms" (it reads ${JSON.stringify(
        await page.evaluate(() => document.getElementById('status')?.textContent ?? null),
      )})`,
  );
}

function canvasDataUrl(page) {
  return page.$eval('#timeline', (canvas) => canvas.toDataURL('image/png'));
}

/**
 * Pixel statistics of the timeline canvas: size, the number of distinct colours and the
 * number of "ink" pixels, those that differ from the most common (background) colour.
 */
function canvasStats(page) {
  return page.$eval('#timeline', (canvas) => {
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

function assertFigureDrawn(stats) {
  assert.ok(stats.width > 0 && stats.height > 0, `canvas is ${stats.width}x${stats.height}`);
  assert.notEqual(stats.ink, -1, 'the canvas has no 2d context');
  const minimum = Math.max(200, Math.round(stats.width * stats.height * 0.002));
  assert.ok(stats.opaque > 0, 'the canvas is fully transparent');
  assert.ok(
    stats.ink >= minimum && stats.colours >= 3,
    `the timeline looks blank: ${stats.ink} non-background pixels (want >= ${minimum}), ` +
      `${stats.colours} colours, on a ${stats.width}x${stats.height} canvas`,
  );
}

async function fieldError(page, field) {
  const error = page.locator(`#${field}-error`);
  const text = ((await error.textContent()) ?? '').trim();
  const visible = await error.isVisible();
  const invalid = await page.locator(`#${field}-text`).getAttribute('aria-invalid');
  return { text, visible, invalid };
}

function assertFieldValid(state, field) {
  assert.ok(
    state.text === '' || !state.visible,
    `#${field}-error shows ${JSON.stringify(state.text)} for a valid value`,
  );
  assert.notEqual(state.invalid, 'true', `#${field}-text has aria-invalid="true" for a valid value`);
}

test('the default page renders the article example without errors', { timeout: 60_000 }, async () => {
  await withPage(async ({ page }) => {
    const rows = await tableRows(page);
    assert.equal(rows.length, DEFAULT_ROWS, 'schedule table rows');
    assert.equal(lastElapsed(rows), DEFAULT_LAST_ELAPSED, 'elapsed time of the last attempt');
    assert.equal(rows[0][0].replace(/\D/g, ''), '1', 'the first row is attempt 1');

    const caption = (await page.locator('#caption').textContent()) ?? '';
    assert.match(caption, /gives up/, '#caption');
    assert.match((await page.locator('#status').textContent()) ?? '', STATUS_PATTERN, '#status');
    assert.equal(await page.locator('#stop-mode').inputValue(), 'attempts', '#stop-mode');
    assert.equal(await page.locator('#log-scale').getAttribute('type'), 'checkbox', '#log-scale type');

    for (const field of FIELDS) {
      assert.equal(await page.locator(`#${field}`).getAttribute('type'), 'range', `#${field} type`);
      assert.equal(await page.locator(`#${field}-text`).count(), 1, `#${field}-text exists`);
      assertFieldValid(await fieldError(page, field), field);
    }

    assertFigureDrawn(await canvasStats(page));
  });
});

test('moving the multiplier slider with the keyboard redraws the table and figure', { timeout: 60_000 }, async () => {
  await withPage(async ({ page }) => {
    const slider = page.locator('#multiplier');
    const beforeTable = await tableText(page);
    const beforeFigure = await canvasDataUrl(page);
    const beforeText = await page.locator('#multiplier-text').inputValue();
    const beforeValue = await slider.inputValue();
    const beforeRenders = await statusChanges(page);

    await slider.focus();
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
    if ((await slider.inputValue()) === beforeValue) {
      // Already at the maximum: move the other way.
      for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowLeft');
    }
    const afterValue = await slider.inputValue();
    assert.notEqual(afterValue, beforeValue, 'the arrow keys did not move #multiplier');

    await nextRender(page, beforeRenders);
    await until(async () => (await tableText(page)) !== beforeTable, 'the schedule table to change');
    await until(async () => (await canvasDataUrl(page)) !== beforeFigure, 'the timeline figure to change');

    assert.notEqual(await tableText(page), beforeTable, 'schedule table text');
    assert.notEqual(await canvasDataUrl(page), beforeFigure, 'timeline canvas pixels');
    const afterText = await page.locator('#multiplier-text').inputValue();
    assert.notEqual(afterText, beforeText, '#multiplier-text follows the slider');
    assert.ok(
      Math.abs(Number.parseFloat(afterText) - Number(afterValue)) < 1e-6,
      `#multiplier-text reads ${JSON.stringify(afterText)} but the slider is at ${afterValue}`,
    );
    assert.equal((await tableRows(page)).length, DEFAULT_ROWS, 'rows with 14 attempts');
    assertFigureDrawn(await canvasStats(page));
  });
});

test('an invalid base shows an inline error and keeps the last good figure', { timeout: 60_000 }, async () => {
  await withPage(async ({ page }) => {
    const beforeFigure = await canvasDataUrl(page);

    await page.fill('#base-text', 'abc');
    await until(
      async () => (await fieldError(page, 'base')).text.includes('base must be'),
      '#base-error to explain "base must be ..."',
    );
    const invalid = await fieldError(page, 'base');
    assert.match(invalid.text, /base must be/, '#base-error');
    assert.ok(invalid.visible, '#base-error is hidden while it holds an error');
    assert.equal(invalid.invalid, 'true', '#base-text aria-invalid');

    const rows = await tableRows(page);
    assert.equal(rows.length, DEFAULT_ROWS, 'the table keeps the last good schedule');
    assert.equal(lastElapsed(rows), DEFAULT_LAST_ELAPSED, 'the table keeps the last good schedule');
    assert.equal(await canvasDataUrl(page), beforeFigure, 'the figure keeps the last good drawing');

    const beforeRenders = await statusChanges(page);
    await page.fill('#base-text', '45s');
    await nextRender(page, beforeRenders);
    await until(async () => {
      const state = await fieldError(page, 'base');
      return (state.text === '' || !state.visible) && state.invalid !== 'true';
    }, '#base-error to clear after a valid base');
    assertFieldValid(await fieldError(page, 'base'), 'base');
    await until(
      async () => lastElapsed(await tableRows(page)) !== DEFAULT_LAST_ELAPSED,
      'the schedule to follow the 45 s base',
    );
    assert.equal((await tableRows(page)).length, DEFAULT_ROWS, 'rows with 14 attempts');
  });
});

test('the give-up mode stops the schedule at a deadline', { timeout: 60_000 }, async () => {
  await withPage(async ({ page }) => {
    let beforeRenders = await statusChanges(page);
    await page.selectOption('#stop-mode', 'give-up');
    await page.fill('#give-up-text', '24h');
    await nextRender(page, beforeRenders);
    await until(async () => (await tableRows(page)).length === DEFAULT_ROWS, 'a 14-row table for give-up 24h');
    assertFieldValid(await fieldError(page, 'give-up'), 'give-up');
    assert.equal(lastElapsed(await tableRows(page)), DEFAULT_LAST_ELAPSED, 'give-up 24h: last attempt');

    beforeRenders = await statusChanges(page);
    await page.fill('#give-up-text', '1h');
    await nextRender(page, beforeRenders);
    await until(async () => (await tableRows(page)).length < DEFAULT_ROWS, 'fewer rows for give-up 1h');
    const rows = await tableRows(page);
    assert.ok(rows.length >= 1 && rows.length < DEFAULT_ROWS, `give-up 1h gave ${rows.length} rows`);
    assert.match((await page.locator('#caption').textContent()) ?? '', /gives up/, '#caption');
  });
});

test('the page works under the strict Content-Security-Policy', { timeout: 60_000 }, async () => {
  const wasmResponses = [];
  await withPage(async ({ page, response }) => {
    const policy = response.headers()['content-security-policy'] ?? '';
    assert.match(policy, /'wasm-unsafe-eval'/, 'the CSP header allows wasm compilation');
    assert.doesNotMatch(policy, /'unsafe-eval'|'unsafe-inline'/, 'the CSP header stays strict');
    // The page became ready under this policy (openPage waited for it): the wasm module was
    // compiled and ran. It was fetched as application/wasm.
    const wasm = wasmResponses.find((r) => r.url.endsWith('.wasm'));
    assert.ok(wasm, `no .wasm request seen (requests: ${wasmResponses.map((r) => r.url).join(', ')})`);
    assert.equal(wasm.status, 200, wasm.url);
    assert.equal(wasm.type, 'application/wasm', `content type of ${wasm.url}`);
  }, {}, (page) =>
    page.on('response', (r) => wasmResponses.push({ url: r.url(), status: r.status(), type: r.headers()['content-type'] })),
  );
});

test('screenshot of the default page', { timeout: 60_000 }, async () => {
  await withPage(
    async ({ page }) => {
      await mkdir(artifactsDir, { recursive: true });
      const file = path.join(artifactsDir, 'page.png');
      await page.screenshot({ path: file, fullPage: false });
      assert.ok(existsSync(file), `${file} was not written`);
    },
    { viewport: { width: 1200, height: 900 }, deviceScaleFactor: 2 },
  );
});
