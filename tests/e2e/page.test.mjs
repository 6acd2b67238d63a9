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

import {
  STATUS_PATTERN,
  WAIT_MS,
  artifactsDir,
  assertNoProblems,
  assertPainted,
  canvasDataUrl,
  canvasStats,
  closeServer,
  lastElapsed,
  launchBrowser,
  nextRender,
  openPage,
  renderAfter,
  servePage,
  statusChanges,
  tableRows,
  textOf,
  until,
  watchProblems,
  withUnsettledPage,
} from './harness.mjs';

// The article's example, which is the page's default state.
const DEFAULT_ROWS = 14;
const DEFAULT_LAST_ELAPSED = '24 h 02 min';
const FIELDS = ['base', 'multiplier', 'cap', 'attempts', 'give-up'];
const FAILED_PATTERN = /^not everything was redrawn/;

let server;
let baseUrl;
let browser;

before(async () => {
  ({ server, url: baseUrl } = await servePage());
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await closeServer(server);
});

/** Run `body` with the page freshly opened; assert no console or page errors; always close. */
async function withPage(body, contextOptions = {}, onPage = undefined) {
  const opened = await openPage(browser, baseUrl, contextOptions, onPage);
  try {
    await body(opened);
    assertNoProblems(opened.problems);
  } finally {
    await opened.context.close();
  }
}

function tableText(page) {
  return page.$eval('#schedule-table tbody', (tbody) => tbody.textContent.replace(/\s+/g, ' ').trim());
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

    assertPainted(await canvasStats(page, '#timeline'), '#timeline');
  });
});

test('moving the multiplier slider with the keyboard redraws the table and figure', { timeout: 60_000 }, async () => {
  await withPage(async ({ page }) => {
    const slider = page.locator('#multiplier');
    const beforeTable = await tableText(page);
    const beforeFigure = await canvasDataUrl(page, '#timeline');
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
    await until(async () => (await canvasDataUrl(page, '#timeline')) !== beforeFigure, 'the timeline figure to change');

    assert.notEqual(await tableText(page), beforeTable, 'schedule table text');
    assert.notEqual(await canvasDataUrl(page, '#timeline'), beforeFigure, 'timeline canvas pixels');
    const afterText = await page.locator('#multiplier-text').inputValue();
    assert.notEqual(afterText, beforeText, '#multiplier-text follows the slider');
    assert.ok(
      Math.abs(Number.parseFloat(afterText) - Number(afterValue)) < 1e-6,
      `#multiplier-text reads ${JSON.stringify(afterText)} but the slider is at ${afterValue}`,
    );
    assert.equal((await tableRows(page)).length, DEFAULT_ROWS, 'rows with 14 attempts');
    assertPainted(await canvasStats(page, '#timeline'), '#timeline');
  });
});

// A long schedule's redraw takes tens of milliseconds on the page's thread: the input is painted
// first (the slider, its field) and the redraw follows, reading the controls as they are then.
test('a long schedule answers an input before it redraws, and inputs that come first join that redraw', { timeout: 90_000 }, async () => {
  await withPage(async ({ page }) => {
    // Steps `count` multiplier stops right (and with `theme`, chooses that theme in the same
    // task); what was drawn in the inputs' own task.
    const step = (count, theme = null) => page.evaluate(([n, chosen]) => {
      performance.clearMeasures('draw timeline');
      // As `tableText` reads it.
      const table = () => document.querySelector('#schedule-table tbody').textContent.replace(/\s+/g, ' ').trim();
      const field = () => document.getElementById('multiplier-text').value;
      const slider = document.getElementById('multiplier');
      const before = { table: table(), field: field() };
      for (let i = 0; i < n; i++) {
        slider.value = String(Number(slider.value) + 1);
        slider.dispatchEvent(new Event('input', { bubbles: true }));
      }
      if (chosen) {
        const select = document.getElementById('theme');
        select.value = chosen;
        select.dispatchEvent(new Event('change', { bubbles: true }));
      }
      return {
        before,
        draws: performance.getEntriesByName('draw timeline').length,
        tableChanged: table() !== before.table,
        fieldChanged: field() !== before.field,
        status: document.getElementById('status').textContent,
      };
    }, [count, theme]);
    const draws = () => page.evaluate(() => performance.getEntriesByName('draw timeline').length);

    const short = await step(1);
    assert.equal(short.draws, 1, 'the default schedule is redrawn in the input\'s own task');
    assert.ok(short.tableChanged, 'and its table with it');

    await page.fill('#attempts-text', '10000');
    await until(async () => (await tableRows(page)).at(-1)?.[0] === '10000', 'the table to end at attempt 10000');
    await until(async () => (await page.textContent('#status')) !== 'computing…', 'the long schedule\'s render to end');
    await page.waitForTimeout(300);
    const long = await step(2, 'dark');
    assert.ok(long.fieldChanged, 'the multiplier field follows the slider at once');
    assert.equal(long.draws, 0, 'the long schedule is not redrawn in the input\'s task');
    assert.ok(!long.tableChanged, 'its table is not rewritten there either');
    assert.equal(long.status, 'computing…', 'the status does not keep the last render\'s time for the new input');
    await until(async () => (await draws()) > 0, 'the redraw after the input was painted');
    await page.waitForTimeout(500);
    assert.equal(await draws(), 1, 'the two slider steps and the theme joined one redraw');
    const drawn = await tableText(page);
    assert.notEqual(drawn, long.before.table, 'the redraw wrote the new schedule');
    // Drawn again as the controls stand, the table is the same: the redraw read the last input.
    await page.evaluate(() => {
      performance.clearMeasures('draw timeline');
      document.getElementById('multiplier').dispatchEvent(new Event('input', { bubbles: true }));
    });
    await until(async () => (await draws()) > 0, 'the second redraw');
    assert.equal(await tableText(page), drawn, 'the first redraw had the last input\'s schedule');
  });
});

// The table's rows are written over on a redraw, not rebuilt (a slider step on a long schedule
// rebuilt 1,600 elements): a long schedule, then a short one and back, leaves each row whole.
test('the schedule table written over keeps each row whole, long to short and back', { timeout: 60_000 }, async () => {
  await withPage(async ({ page }) => {
    const shortTable = await tableText(page);
    const shape = () => page.$$eval('#schedule-table tbody tr', (rows) => rows.map((tr) => ({
      className: tr.className, cells: [...tr.cells].map((td) => td.textContent), span: tr.cells[0].colSpan,
    })));
    await page.fill('#attempts-text', '1000');
    await until(async () => (await shape()).length === 401, 'the table of 1,000 attempts (400 rows and a note)');
    const long = await shape();
    assert.deepEqual(long[399], { className: 'left-out', cells: ['… 600 more attempts (every one is in the CSV and JSON downloads)'], span: 3 }, 'the note row');
    assert.equal(long[400].cells[0], '1000', 'the last row is the give-up attempt');
    assert.ok(long.every((row, i) => i === 399 || (row.cells.length === 3 && row.cells[0] === String(i === 400 ? 1000 : i + 1))), 'every other row is an attempt, in order');
    await page.fill('#attempts-text', '14');
    await until(async () => (await shape()).length === DEFAULT_ROWS, 'the table of 14 attempts');
    assert.equal(await tableText(page), shortTable, 'the short table reads as before');
    assert.ok((await shape()).every((row) => row.cells.length === 3 && row.className !== 'left-out'), 'no note row is left');
    await page.fill('#attempts-text', '1000');
    await until(async () => (await shape()).length === 401, 'the long table again');
    assert.deepEqual(await shape(), long, 'the long table reads as before');
    // Written over, not rebuilt: the same row elements.
    await page.evaluate(() => { window.keptRow = document.querySelector('#schedule-table tbody tr:nth-child(300)'); });
    // A lower cap caps earlier rows: their class follows their text.
    const cappedRows = async () => (await shape()).filter((row) => row.className === 'capped').length;
    const before = await cappedRows();
    await page.fill('#cap-text', '1h');
    await until(async () => (await cappedRows()) !== before, 'more rows capped');
    for (const row of await shape()) {
      if (row.className === 'left-out') continue;
      assert.equal(row.className === 'capped', row.cells[1].includes('(capped)'), `row ${row.cells[0]}: ${row.className} beside ${row.cells[1]}`);
    }
    assert.ok(await page.evaluate(() => window.keptRow === document.querySelector('#schedule-table tbody tr:nth-child(300)')), 'row 300 is the same element');
    // No frame paints two schedules at once (filled in chunks, the first rows showed the new cap
    // above the old one's: outside code review): at every frame while the cap slider moves, the
    // capped rows read one cap.
    await page.evaluate(() => {
      window.mixedFrames = [];
      window.frames = 0;
      const look = () => {
        window.frames += 1;
        const caps = new Set([...document.querySelectorAll('#schedule-table tbody tr.capped td:nth-child(2)')].map((td) => td.textContent));
        if (caps.size > 1) window.mixedFrames.push([...caps]);
        if (!window.stopLooking) requestAnimationFrame(look);
      };
      requestAnimationFrame(look);
    });
    await page.locator('#cap').focus();
    for (let i = 0; i < 8; i++) {
      await page.keyboard.press('ArrowLeft');
      await page.waitForTimeout(60);
    }
    await page.waitForTimeout(300);
    const { mixed, frames } = await page.evaluate(() => {
      window.stopLooking = true;
      return { mixed: window.mixedFrames, frames: window.frames };
    });
    assert.ok(frames > 10, `frames looked at: ${frames}`);
    assert.deepEqual(mixed, [], 'frames whose capped rows read two caps');
  });
});

test('an invalid base shows an inline error and keeps the last good figure', { timeout: 60_000 }, async () => {
  await withPage(async ({ page }) => {
    const beforeFigure = await canvasDataUrl(page, '#timeline');

    await page.fill('#base-text', 'abc');
    await until(
      async () => (await fieldError(page, 'base')).text.includes('base must be'),
      '#base-error to explain "base must be ..."',
    );
    const invalid = await fieldError(page, 'base');
    assert.match(invalid.text, /base must be/, '#base-error');
    assert.ok(invalid.visible, '#base-error is hidden while it holds an error');
    assert.equal(invalid.invalid, 'true', '#base-text aria-invalid');

    // The caption keeps the numbers of the picture it sits under, and says first that they are
    // not the inputs' now.
    const staleCaption = await textOf(page, '#caption');
    assert.ok(staleCaption.startsWith(`Not redrawn (${invalid.text}): `), `#caption: ${JSON.stringify(staleCaption)}`);
    assert.match(staleCaption, /gives up/, '#caption still has the drawn schedule\'s own caption');

    const rows = await tableRows(page);
    assert.equal(rows.length, DEFAULT_ROWS, 'the table keeps the last good schedule');
    assert.equal(lastElapsed(rows), DEFAULT_LAST_ELAPSED, 'the table keeps the last good schedule');
    assert.equal(await canvasDataUrl(page, '#timeline'), beforeFigure, 'the figure keeps the last good drawing');
    // Every chart depends on the schedule: each keeps its picture, dimmed as out of date.
    const dimmed = () => page.$$eval('canvas.stale', (canvases) => canvases.map((c) => c.id).sort());
    await until(async () => (await dimmed()).length === 6, 'every chart to be marked out of date');
    assert.deepEqual(await dimmed(), ['distribution', 'herd', 'staleness', 'storm', 'survival', 'timeline']);
    // Their downloads wait: they were of the older picture, while the fields show other inputs.
    const held = () => page.$$eval('.exports button[aria-disabled="true"]', (buttons) => buttons.map((b) => b.id).sort());
    await until(async () => (await held()).includes('export-csv'), 'the exports to wait');
    for (const id of ['export-timeline-png', 'export-csv', 'copy-markdown', 'export-herd-svg', 'export-storm-numbers-csv', 'export-staleness-json']) {
      assert.ok((await held()).includes(id), `#${id} waits: ${JSON.stringify(await held())}`);
    }
    assert.equal(await page.locator('#export-timeline-png').getAttribute('title'), 'out of date until the highlighted input is fixed');
    let downloads = 0;
    page.on('download', () => { downloads += 1; });
    for (const id of ['export-timeline-png', 'export-csv']) {
      await page.focus(`#${id}`);
      await page.keyboard.press('Enter');
    }
    await page.waitForTimeout(500);
    assert.equal(downloads, 0, 'a held export downloads nothing');
    // Its group's status says why: the title alone is unseen on a touch screen.
    assert.equal((await textOf(page, '#export-csv ~ .export-status')).trim(), 'Out of date until the highlighted input is fixed.');

    const beforeRenders = await statusChanges(page);
    await page.fill('#base-text', '45s');
    await nextRender(page, beforeRenders);
    await until(async () => (await dimmed()).length === 0, 'the redrawn charts to be current again');
    await until(async () => !(await held()).includes('export-csv'), 'the exports to be back');
    assert.deepEqual((await held()).filter((id) => !id.startsWith('export-survival')), [], 'every chart\'s exports are back');
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
    assert.doesNotMatch(await textOf(page, '#caption'), /^Not redrawn/, '#caption once redrawn');
  });
});

// Samples and deliveries past the work of a 10,000-attempt schedule: no quicker first run is
// drawn of inputs the page cannot draw (outside review: the distribution showed 20,000 draws
// with a note calling them the last inputs drawn, on a page that had drawn nothing before).
test('a link refused for its samples\' work draws no quicker first run of it', { timeout: 90_000 }, async () => {
  await withLink('#attempts=10000&samples=1000000&deliveries=1000000', async (page) => {
    await until(async () => FAILED_PATTERN.test(await textOf(page, '#status')), 'the status to report the refusals', 60_000);
    for (const [view, field] of [['distribution', 'samples'], ['herd', 'deliveries']]) {
      const caption = await textOf(page, `#${CHART_CAPTIONS[view]}`);
      assert.match(caption, new RegExp(`^This chart could not be drawn: ${field} must be at most \\d+ for a schedule of 10000 attempts`), `#${view}`);
      assert.ok(await page.locator(`#${view}`).isHidden(), `#${view}'s box is hidden`);
    }
  });
});

/** Opens `hash` in a fresh page, without waiting for a clean render (its charts may be refused). */
function withLink(hash, body) {
  return withUnsettledPage(browser, `${baseUrl}${hash}`, body);
}

const CHART_CAPTIONS = {
  timeline: 'caption', distribution: 'distribution-caption', herd: 'herd-caption', storm: 'storm-caption',
  staleness: 'staleness-caption',
};

test('a link no chart can be drawn for says why in each chart\'s place, and a fixed input draws them', { timeout: 60_000 }, async () => {
  // Base above cap: nothing can be drawn, and nothing was drawn before.
  await withLink('#base=1d&cap=1s', async (page) => {
    await until(async () => FAILED_PATTERN.test(await textOf(page, '#status')), 'the status to report the invalid cap');
    const message = (await textOf(page, '#cap-error')).trim();
    assert.match(message, /^cap must be /, '#cap-error');
    for (const [view, captionId] of Object.entries(CHART_CAPTIONS)) {
      await until(
        async () => (await textOf(page, `#${captionId}`)) === `This chart could not be drawn: ${message}`,
        async () => `#${captionId} to say why: it reads ${JSON.stringify(await textOf(page, `#${captionId}`))}`,
      );
      // The message stands in the chart's place, not under an empty framed box.
      assert.ok(await page.locator(`#${view}`).isHidden(), `#${view}'s empty box is hidden`);
      assert.ok(await page.locator(`#${captionId}`).isVisible(), `#${captionId} is shown`);
    }

    await page.fill('#cap-text', '2d');
    await until(async () => STATUS_PATTERN.test(await textOf(page, '#status')), 'a clean render after the cap is fixed');
    for (const [view, captionId] of Object.entries(CHART_CAPTIONS)) {
      const caption = await textOf(page, `#${captionId}`);
      assert.ok(caption !== '' && !/could not be drawn|Not redrawn/.test(caption), `#${captionId}: ${JSON.stringify(caption)}`);
      assert.ok(await page.locator(`#${view}`).isVisible(), `#${view} is shown again`);
      // Drawn at its box's size, not at the size it had while hidden.
      const sized = await page.$eval(`#${view}`, (canvas) => canvas.width >= canvas.getBoundingClientRect().width);
      assert.ok(sized, `#${view} is drawn at its box's width`);
      assertPainted(await canvasStats(page, `#${view}`), `#${view}`);
    }
    assert.ok((await tableRows(page)).length > 0, 'the schedule table is filled');
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

// ---- The jitter section: #mode, #seed-text, #new-seed, #factor-text, #deliveries-text and the
// #distribution and #herd charts with their captions.

const JITTER_MODES = ['none', 'full', 'equal', 'decorrelated', 'proportional'];
const DEFAULT_SEED = '42';
const NARROW_WIDTH = 360;

/** The jitter section's two pictures and two captions. */
async function jitterState(page) {
  return {
    distribution: await canvasDataUrl(page, '#distribution'),
    herd: await canvasDataUrl(page, '#herd'),
    distributionCaption: await textOf(page, '#distribution-caption'),
    herdCaption: await textOf(page, '#herd-caption'),
  };
}

test('every jitter mode redraws the distribution and rewrites its caption', { timeout: 60_000 }, async () => {
  await withPage(async ({ page }) => {
    assert.equal(await page.locator('#mode').inputValue(), 'full', 'the default #mode');
    assert.deepEqual(
      await page.$$eval('#mode option', (options) => options.map((option) => option.value)),
      JITTER_MODES,
      '#mode options',
    );

    const seen = new Map([['full', await jitterState(page)]]);
    let previous = seen.get('full');
    // From the default (full) through every other mode and back to full.
    for (const mode of ['none', 'equal', 'decorrelated', 'proportional', 'full']) {
      await renderAfter(page, () => page.selectOption('#mode', mode));
      const state = await jitterState(page);
      assert.notEqual(state.distribution, previous.distribution, `#distribution pixels after switching to ${mode}`);
      assert.notEqual(
        state.distributionCaption,
        previous.distributionCaption,
        `#distribution-caption after switching to ${mode}`,
      );
      if (mode === 'full') {
        // Back to the start: the same seed draws the same picture again.
        assert.equal(state.distribution, seen.get('full').distribution, '#distribution back in full mode');
        assert.equal(state.distributionCaption, seen.get('full').distributionCaption, 'caption back in full mode');
      } else {
        seen.set(mode, state);
      }
      previous = state;
    }

    assert.equal(
      new Set(Array.from(seen.values(), (state) => state.distribution)).size,
      JITTER_MODES.length,
      'each mode draws its own distribution',
    );
    assert.equal(
      new Set(Array.from(seen.values(), (state) => state.distributionCaption)).size,
      JITTER_MODES.length,
      'each mode writes its own caption',
    );
    assert.ok(
      seen.get('none').distributionCaption.includes(
        `Without jitter every delivery gives up at exactly ${DEFAULT_LAST_ELAPSED}`,
      ),
      `none: #distribution-caption reads ${JSON.stringify(seen.get('none').distributionCaption)}`,
    );
    assert.ok(
      seen.get('decorrelated').distributionCaption.includes('(estimated)'),
      `decorrelated: #distribution-caption reads ${JSON.stringify(seen.get('decorrelated').distributionCaption)}`,
    );
    for (const mode of ['full', 'equal', 'proportional']) {
      assert.ok(
        !seen.get(mode).distributionCaption.includes('(estimated)'),
        `${mode}: an exact mean is not "(estimated)": ${JSON.stringify(seen.get(mode).distributionCaption)}`,
      );
    }
    // Proportional jitter is named with its factor (the page's default, ±20%).
    const named = { full: 'full', equal: 'equal', decorrelated: 'decorrelated', proportional: 'proportional (±20%)' };
    for (const [mode, name] of Object.entries(named)) {
      assert.ok(
        seen.get(mode).distributionCaption.startsWith(`With ${name} jitter`),
        `${mode}: #distribution-caption reads ${JSON.stringify(seen.get(mode).distributionCaption)}`,
      );
    }
    assertPainted(await canvasStats(page, '#distribution'), '#distribution');
  });
});

test('the same seed draws the same pictures, within a page and across loads', { timeout: 60_000 }, async () => {
  let first;
  await withPage(async ({ page }) => {
    assert.equal(await page.locator('#seed-text').inputValue(), DEFAULT_SEED, 'the default #seed-text');
    first = await jitterState(page);
    assert.ok(first.distributionCaption.includes(`(seed ${DEFAULT_SEED})`), '#distribution-caption names the seed');
    assertPainted(await canvasStats(page, '#distribution'), '#distribution');
    assertPainted(await canvasStats(page, '#herd'), '#herd');

    await renderAfter(page, () => page.fill('#seed-text', '7'));
    const other = await jitterState(page);
    assert.notEqual(other.distribution, first.distribution, '#distribution with seed 7 vs 42');
    assert.notEqual(other.herd, first.herd, '#herd with seed 7 vs 42');
    assert.ok(other.distributionCaption.includes('(seed 7)'), '#distribution-caption names seed 7');

    await renderAfter(page, () => page.fill('#seed-text', DEFAULT_SEED));
    const again = await jitterState(page);
    assert.equal(again.distribution, first.distribution, '#distribution with seed 42 again');
    assert.equal(again.herd, first.herd, '#herd with seed 42 again');
    assert.equal(again.distributionCaption, first.distributionCaption, '#distribution-caption with seed 42 again');
    assert.equal(again.herdCaption, first.herdCaption, '#herd-caption with seed 42 again');
  });

  // A fresh load (a new browser context, same viewport) draws the default seed's pictures again.
  await withPage(async ({ page }) => {
    const reloaded = await jitterState(page);
    assert.equal(reloaded.distribution, first.distribution, '#distribution on a fresh load');
    assert.equal(reloaded.herd, first.herd, '#herd on a fresh load');
    assert.equal(reloaded.distributionCaption, first.distributionCaption, '#distribution-caption on a fresh load');
    assert.equal(reloaded.herdCaption, first.herdCaption, '#herd-caption on a fresh load');
  });
});

test('the new-seed button draws a fresh whole-number seed and a new picture', { timeout: 60_000 }, async () => {
  await withPage(async ({ page }) => {
    const before = await jitterState(page);
    await renderAfter(page, () => page.click('#new-seed'));
    const seed = await page.locator('#seed-text').inputValue();
    assert.match(seed, /^\d+$/, '#seed-text holds a whole number');
    assert.ok(Number.isSafeInteger(Number(seed)), `#seed-text ${seed} is a safe integer`);
    assert.notEqual(seed, DEFAULT_SEED, '#seed-text changed');
    const after = await jitterState(page);
    assert.notEqual(after.distribution, before.distribution, '#distribution pixels after a new seed');
    assert.ok(
      after.distributionCaption.includes(`(seed ${seed})`),
      `#distribution-caption names the new seed ${seed}: ${JSON.stringify(after.distributionCaption)}`,
    );
    assertPainted(await canvasStats(page, '#distribution'), '#distribution');
  });
});

test('the jitter factor shows only for proportional jitter and rejects 1.5 inline', { timeout: 60_000 }, async () => {
  await withPage(async ({ page, problems }) => {
    const factorField = page.locator('#factor-field');
    assert.ok(await factorField.isHidden(), '#factor-field is hidden with the default (full) mode');
    for (const mode of ['none', 'equal', 'decorrelated', 'proportional', 'full']) {
      await renderAfter(page, () => page.selectOption('#mode', mode));
      assert.equal(
        await factorField.isVisible(),
        mode === 'proportional',
        `#factor-field visible with mode ${mode}`,
      );
    }

    await renderAfter(page, () => page.selectOption('#mode', 'proportional'));
    assert.ok(await page.locator('#factor-text').isVisible(), '#factor-text is visible for proportional');
    assertFieldValid(await fieldError(page, 'factor'), 'factor');

    const before = await statusChanges(page);
    await page.fill('#factor-text', '1.5');
    await nextRender(page, before, FAILED_PATTERN);
    const state = await fieldError(page, 'factor');
    assert.ok(
      state.text.includes('factor must be a number from 0 to 1'),
      `#factor-error reads ${JSON.stringify(state.text)}`,
    );
    assert.ok(state.visible, '#factor-error is hidden while it holds an error');
    assert.equal(state.invalid, 'true', '#factor-text aria-invalid');
    assert.deepEqual(
      problems.filter((problem) => problem.startsWith('page error')),
      [],
      'an invalid factor throws no uncaught page error',
    );
    const rows = await tableRows(page);
    assert.equal(rows.length, DEFAULT_ROWS, 'the timeline table still has every attempt');
    assert.equal(lastElapsed(rows), DEFAULT_LAST_ELAPSED, 'the timeline table is unchanged');

    await renderAfter(page, () => page.fill('#factor-text', '0.5'));
    assertFieldValid(await fieldError(page, 'factor'), 'factor');
  });
});

test('the herd size is checked and names the herd in its caption', { timeout: 60_000 }, async () => {
  await withPage(async ({ page }) => {
    assertFieldValid(await fieldError(page, 'deliveries'), 'deliveries');

    const before = await statusChanges(page);
    await page.fill('#deliveries-text', '0');
    await nextRender(page, before, FAILED_PATTERN);
    const state = await fieldError(page, 'deliveries');
    assert.ok(
      state.text.includes('deliveries must be a whole number from 1 to 10000000'),
      `#deliveries-error reads ${JSON.stringify(state.text)}`,
    );
    assert.ok(state.visible, '#deliveries-error is hidden while it holds an error');
    assert.equal(state.invalid, 'true', '#deliveries-text aria-invalid');

    await renderAfter(page, () => page.fill('#deliveries-text', '5000'));
    assertFieldValid(await fieldError(page, 'deliveries'), 'deliveries');
    const caption = await textOf(page, '#herd-caption');
    assert.ok(
      caption.startsWith('5,000 deliveries fail in the same second'),
      `#herd-caption reads ${JSON.stringify(caption)}`,
    );
  });
});

test('a herd over the work limit is refused with the count asked for, not its quicker run\'s', { timeout: 60_000 }, async () => {
  // The quicker first run draws 100,000 deliveries: its refusal quoted that count.
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
  const page = await context.newPage();
  page.setDefaultTimeout(WAIT_MS);
  const problems = watchProblems(page);
  try {
    await page.goto(`${baseUrl}#deliveries=150000&attempts=10000&mode=decorrelated&steps=2x2&view=herd`, { waitUntil: 'load' });
    await until(async () => FAILED_PATTERN.test(await textOf(page, '#status')), 'the status to report the herd');
    const message = (await textOf(page, '#deliveries-error')).trim();
    assert.match(message, /^deliveries must be at most \d+ .*got 150000$/, '#deliveries-error');
    assertNoProblems(problems);
  } finally {
    await context.close();
  }
});

test('full jitter by default: the captions give the article figures', { timeout: 60_000 }, async () => {
  await withPage(async ({ page }) => {
    assert.equal(await page.locator('#mode').inputValue(), 'full', 'the default #mode');
    const distribution = await textOf(page, '#distribution-caption');
    for (const expected of [
      'gives up after 12 h 01 min on average',
      'To keep 95% of deliveries trying until 24 h, the schedule needs',
    ]) {
      assert.ok(distribution.includes(expected), `#distribution-caption lacks ${JSON.stringify(expected)}: ${JSON.stringify(distribution)}`);
    }
    const herd = await textOf(page, '#herd-caption');
    const expected = 'Without jitter all 1,000 arrive within one second, 30× the mean';
    assert.ok(herd.includes(expected), `#herd-caption lacks ${JSON.stringify(expected)}: ${JSON.stringify(herd)}`);
    assert.equal(
      await page.locator('#distribution').getAttribute('aria-label'),
      distribution,
      '#distribution aria-label follows its caption',
    );
  });
});

test('a 360 px wide viewport has no horizontal overflow and draws all three charts', { timeout: 60_000 }, async () => {
  await withPage(
    async ({ page }) => {
      const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(scrollWidth <= NARROW_WIDTH, `the page is ${scrollWidth} px wide in a ${NARROW_WIDTH} px viewport`);
      for (const id of ['timeline', 'distribution', 'herd']) {
        const box = await page.$eval(`#${id}`, (canvas) => {
          const rect = canvas.getBoundingClientRect();
          return { left: rect.left, right: rect.right, width: rect.width };
        });
        assert.ok(box.width > 0, `#${id} is ${box.width} px wide`);
        assert.ok(
          box.left >= 0 && box.right <= NARROW_WIDTH,
          `#${id} spans ${box.left}..${box.right} px, outside the ${NARROW_WIDTH} px viewport`,
        );
        assertPainted(await canvasStats(page, `#${id}`), `#${id}`);
      }
    },
    { viewport: { width: NARROW_WIDTH, height: 740 } },
  );
});

test('on a phone the groups of controls fold, Policy open, so that the schedule chart is near the policy\'s controls', { timeout: 60_000 }, async () => {
  const groups = (page) => page.$$eval('#controls details.group', (all) => all.map((group) => ({
    name: group.querySelector('summary').textContent.trim(),
    open: group.open,
    summaryShown: group.querySelector('summary').getClientRects().length > 0,
  })));
  const PHONE = { width: 390, height: 844 };
  await withPage(async ({ page }) => {
    assert.deepEqual((await groups(page)).map(({ name, open }) => [name, open]),
      [['Policy', true], ['Jitter', false], ['Storm', false], ['Staleness', false], ['Survival map', false]]);
    // The attempts slider and 200 px of the schedule chart under it fit on one screen.
    const gap = await page.evaluate(() => document.getElementById('timeline').getBoundingClientRect().top
      - document.getElementById('attempts').getBoundingClientRect().top);
    assert.ok(gap > 0 && gap + 200 < PHONE.height, `the timeline starts ${gap} px below the attempts slider`);
    // A folded group opens from its summary, by keyboard too.
    assert.ok(await page.locator('#mode').isHidden(), 'the jitter mode is folded away');
    await page.locator('#controls summary', { hasText: 'Jitter' }).focus();
    await page.keyboard.press('Enter');
    assert.ok(await page.locator('#mode').isVisible(), 'Enter on the Jitter summary shows its controls');
  }, { viewport: PHONE });
  // A refused field in a folded group is shown with its message.
  await withPage(async ({ page }) => {
    await page.goto(`${baseUrl}#samples=1000000&attempts=10000`);
    await until(async () => FAILED_PATTERN.test(await textOf(page, '#status')), 'the status to report the refused samples');
    assert.ok(await page.locator('#samples-error').isVisible(), '#samples-error is shown, its group opened');
  }, { viewport: PHONE });
  // A wide screen: every group open, the summaries hidden (the legends name the groups).
  await withPage(async ({ page }) => {
    assert.ok((await groups(page)).every(({ open, summaryShown }) => open && !summaryShown), JSON.stringify(await groups(page)));
  }, { viewport: { width: 1200, height: 900 } });
});

test('no table cell\'s text runs into the next cell, wide or narrow', { timeout: 60_000 }, async () => {
  // A fixed table layout lets a head wider than its column spill over ("Attempt" ran into "Gap
  // before it"): each cell's content must fit its box.
  for (const viewport of [{ width: 1200, height: 900 }, { width: NARROW_WIDTH, height: 740 }]) {
    await withPage(async ({ page }) => {
      const spilled = await page.evaluate(() => [...document.querySelectorAll('table')]
        .filter((table) => table.getClientRects().length > 0)
        .flatMap((table) => [...table.querySelectorAll('th, td')])
        .filter((cell) => cell.scrollWidth > cell.clientWidth + 1)
        .map((cell) => `${cell.closest('table').id || 'a table'}: ${JSON.stringify(cell.textContent)} needs ${cell.scrollWidth} px in ${cell.clientWidth}`));
      assert.deepEqual(spilled, [], `at ${viewport.width} px wide`);
    }, { viewport });
  }
});

test('the multiplier slider is reached with Tab, shows its focus and moves with the arrows', { timeout: 60_000 }, async () => {
  await withPage(async ({ page }) => {
    await page.focus('#base-text');
    const activeId = () => page.evaluate(() => document.activeElement?.id ?? null);
    let presses = 0;
    while ((await activeId()) !== 'multiplier') {
      assert.ok(presses < 5, `Tab from #base-text never reached #multiplier (focus is on #${await activeId()})`);
      await page.keyboard.press('Tab');
      presses += 1;
    }

    const focus = await page.$eval('#multiplier', (slider) => {
      const style = getComputedStyle(slider);
      return {
        focusVisible: slider.matches(':focus-visible'),
        outlineStyle: style.outlineStyle,
        outlineWidth: style.outlineWidth,
      };
    });
    assert.ok(focus.focusVisible, '#multiplier matches :focus-visible after Tab');
    assert.notEqual(focus.outlineStyle, 'none', '#multiplier has no outline when focused by keyboard');
    assert.notEqual(focus.outlineWidth, '0px', '#multiplier has a zero-width outline when focused by keyboard');

    const beforeText = await page.locator('#multiplier-text').inputValue();
    await renderAfter(page, () => page.keyboard.press('ArrowRight'));
    assert.equal(await activeId(), 'multiplier', 'focus stays on #multiplier');
    const afterText = await page.locator('#multiplier-text').inputValue();
    assert.notEqual(afterText, beforeText, '#multiplier-text follows the keyboard-moved slider');
    assert.ok(
      Number.parseFloat(afterText) > Number.parseFloat(beforeText),
      `ArrowRight moved the multiplier from ${beforeText} to ${afterText}`,
    );
  });
});

test('sliders say their field\'s value, errors are polite, and a chart\'s numbers have row headers', { timeout: 60_000 }, async () => {
  await withPage(async ({ page }) => {
    // A screen reader read the cap slider as "13" (its stop) for 3 h.
    const valueTexts = () => page.evaluate(() => ['base', 'multiplier', 'cap', 'attempts', 'outage', 'budget']
      .map((id) => [document.getElementById(id).getAttribute('aria-valuetext'), document.getElementById(`${id}-text`).value]));
    for (const [said, shown] of await valueTexts()) assert.equal(said, shown.trim() || 'none');
    assert.deepEqual((await valueTexts())[2], ['3 h', '3 h']);
    await page.focus('#cap');
    await renderAfter(page, () => page.keyboard.press('ArrowRight'));
    const [said, shown] = (await valueTexts())[2];
    assert.ok(said === shown && said !== '3 h', `the cap slider says ${said}, its field shows ${shown}`);
    // A field's error is its control's description, not a live region of its own (each was
    // read out at every keystroke: "got 1 s", "got 10 s", "got 10 min"); one polite region says
    // a refusal once typing pauses, and not again while it stays.
    // (`form-error` says what no field is refused for.)
    const errors = await page.$$eval('.controls .error:not(#form-error)', (all) => all.map((e) => {
      const control = document.getElementById(e.id.replace(/-error$/, '-text')) ?? document.getElementById(e.id.replace(/-error$/, ''));
      const described = (control?.getAttribute('aria-describedby') ?? '').split(' ');
      return [e.id, e.getAttribute('role'), e.getAttribute('aria-live'), described.includes(e.id)];
    }));
    assert.ok(errors.length > 30, `${errors.length} field errors`);
    for (const [id, role, live, described] of errors) {
      assert.ok(role === null && live === null && described, `#${id}: role ${role}, aria-live ${live}, describes its control ${described}`);
    }
    const announcer = page.locator('#error-announcer');
    assert.equal(await announcer.getAttribute('role'), 'status');
    const spoken = [];
    await page.exposeFunction('errorSaid', (text) => spoken.push(text));
    await page.evaluate(() => new MutationObserver(() => window.errorSaid(document.getElementById('error-announcer').textContent))
      .observe(document.getElementById('error-announcer'), { childList: true, characterData: true, subtree: true }));
    const voiced = () => spoken.filter((text) => text !== '');
    await page.locator('#cap-text').pressSequentially('0 mi', { delay: 60 });
    await until(async () => voiced().length > 0, 'a refusal said once typing pauses');
    await page.waitForTimeout(1_500);
    assert.equal(voiced().length, 1, `one refusal said for a value typed key by key: ${JSON.stringify(spoken)}`);
    assert.match(voiced()[0], /^cap must be/, JSON.stringify(spoken));
    assert.equal(voiced()[0], await textOf(page, '#cap-error'), 'what is said is what the field shows');
    // Fixed, it is no longer there to be read; the same refusal again is said again.
    const refused = await page.locator('#cap-text').inputValue();
    await renderAfter(page, () => page.fill('#cap-text', '3 h'));
    assert.equal(await announcer.textContent(), '', 'nothing left to say once the field is fixed');
    await page.fill('#cap-text', refused);
    await until(async () => voiced().length === 2, 'the same refusal said again');
    assert.equal(voiced()[1], voiced()[0]);
    // Each row of a chart's numbers is named by its first cell, a row header.
    await page.$eval('#distribution-numbers', (table) => table.closest('details').open = true);
    const cells = await page.$$eval('#distribution-numbers tbody tr', (rows) => rows.map((row) => [row.cells[0].tagName, row.cells[0].scope, row.cells[1].tagName]));
    assert.ok(cells.length > 3, 'the distribution\'s numbers');
    for (const cell of cells) assert.deepEqual(cell, ['TH', 'row', 'TD']);
    // A table that scrolls sideways on a phone is a named region the keyboard reaches.
    const boxes = await page.$$eval('.table-box', (all) => all.map((b) => [b.tabIndex, b.getAttribute('role'), b.getAttribute('aria-label') ?? '']));
    assert.ok(boxes.length >= 4, `${boxes.length} table boxes`);
    for (const [tabIndex, role, label] of boxes) assert.ok(tabIndex === 0 && role === 'region' && label.length > 10, JSON.stringify([tabIndex, role, label]));
  });
});

test('a link past the attempts slider\'s end: ArrowLeft on the slider gives the next number down', { timeout: 60_000 }, async () => {
  await withPage(async ({ page }) => {
    await page.goto(`${baseUrl}#attempts=41`);
    await until(async () => STATUS_PATTERN.test(await textOf(page, '#status')), 'the linked page to render');
    assert.equal(await page.locator('#attempts-text').inputValue(), '41');
    await page.focus('#attempts');
    await renderAfter(page, () => page.keyboard.press('ArrowLeft'));
    assert.equal(await page.locator('#attempts-text').inputValue(), '40', 'one attempt fewer, none skipped');
    await renderAfter(page, () => page.keyboard.press('ArrowLeft'));
    assert.equal(await page.locator('#attempts-text').inputValue(), '39');
  });
});

test('a typed value moves its slider as the core reads it: a percentage with its sign, a duration to its nearest stop', { timeout: 60_000 }, async () => {
  await withPage(async ({ page }) => {
    await renderAfter(page, () => page.fill('#budget-text', '12%'));
    assert.equal(await page.locator('#budget').inputValue(), '12');
    // The cap's stops: 1 s, 5 s, 10 s, 20 s, 30 s, 60 s, 120 s; 45 s is nearer 60 s by ratio
    // (1.33×, against 1.5× from 30 s), though as far from both in seconds.
    await renderAfter(page, () => page.fill('#cap-text', '45s'));
    assert.equal(await page.locator('#cap').inputValue(), '5');
    await renderAfter(page, () => page.fill('#cap-text', '100 s'));
    assert.equal(await page.locator('#cap').inputValue(), '6');
    // Unreadable text leaves the slider where it was (the field says why).
    await page.fill('#cap-text', 'soon');
    await until(async () => ((await textOf(page, '#cap-error')) ?? '') !== '', 'the cap\'s error');
    assert.equal(await page.locator('#cap').inputValue(), '6');
  });
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

// ---- The storm section: #arrivals-text, #capacity-text, #outage, #timeout-text, #budget,
// #pause, #storm-compare, #engine and the #storm chart with its caption. The storm is drawn in the
// animation frame after the other charts, so each check waits for the final status.

const STORM_LABELS = ['your policy:', 'fixed 30 s:', 'your policy + 10% budget:'];
// The page's default storm inputs as StormParams (what app.js builds from the form).
const DEFAULT_STORM = {
  policy: 'exponential',
  base: '30 s',
  multiplier: 3,
  cap: '3 h',
  attempts: 14,
  mode: 'full',
  seed: 42,
  arrivals: '600/min',
  capacity: '30/s',
  outage: '10 min',
  timeout: '5s',
  engine: 'fluid',
};
// The default outage: 10 minutes from the start, so minutes 1 to 10 of a report.
const OUTAGE_MINUTES = 10;

/** The storm caption, one entry per series (the page joins them with newlines). */
async function stormLines(page) {
  return (await textOf(page, '#storm-caption')).split('\n');
}

/** The storm chart's pixels and its caption lines. */
async function stormState(page) {
  return { pixels: await canvasDataUrl(page, '#storm'), lines: await stormLines(page) };
}

/**
 * Wait until the page shows a clean final render whose storm caption lines satisfy `check`
 * (for actions such as several key presses that start more than one render).
 */
async function stormSettles(page, check, description) {
  await until(
    async () =>
      STATUS_PATTERN.test(await textOf(page, '#status')) && check(await stormLines(page)),
    async () =>
      `${description} (status ${JSON.stringify(await textOf(page, '#status'))}, ` +
      `caption ${JSON.stringify(await stormLines(page))})`,
  );
}

/** The "N× normal traffic" peak of one storm caption line. */
function peakMultiple(line) {
  const match = /([\d.,]+)× normal traffic/.exec(line);
  assert.ok(match, `no "N× normal traffic" in ${JSON.stringify(line)}`);
  // Digits grouped by thousands: 1,234.5.
  return Number(match[1].replaceAll(',', ''));
}

function assertStormLabels(lines, labels = STORM_LABELS) {
  assert.equal(lines.length, labels.length, `#storm-caption has ${lines.length} lines: ${JSON.stringify(lines)}`);
  labels.forEach((label, i) => {
    assert.ok(lines[i].startsWith(label), `#storm-caption line ${i + 1} should start with ${JSON.stringify(label)}: ${JSON.stringify(lines[i])}`);
  });
}

/** `report` computed by the page's own wasm module (same origin, so the CSP allows the import). */
function stormReport(page, params) {
  return page.evaluate(async (p) => {
    const wasm = await import('/pkg/backoff_lab.js');
    await wasm.default(); // a no-op when app.js has already initialised this module instance
    const report = wasm.storm(p);
    return { caption: report.caption, attempts: report.minutes.map((m) => m.attempts) };
  }, params);
}

test('the default storm compares your policy, a fixed 30 s interval and a 10% budget', { timeout: 60_000 }, async () => {
  await withPage(async ({ page }) => {
    const lines = await stormLines(page);
    assertStormLabels(lines);
    // One block per series, its label in bold, each series apart from the next.
    const blocks = await page.$$eval('#storm-caption .caption-line', (spans) => spans.map((span) => ({
      bold: span.querySelector('strong')?.textContent ?? null,
      display: getComputedStyle(span).display,
      top: span.getBoundingClientRect().top,
    })));
    assert.deepEqual(blocks.map((b) => `${b.bold}:`), STORM_LABELS, JSON.stringify(blocks));
    assert.ok(blocks.every((b) => b.display === 'block'), JSON.stringify(blocks));
    assert.ok(blocks[0].top < blocks[1].top && blocks[1].top < blocks[2].top, JSON.stringify(blocks));
    assert.ok(lines[1].includes('never drains'), `the fixed 30 s line lacks "never drains": ${JSON.stringify(lines[1])}`);
    assert.ok(
      /\b1\.1\d*× normal traffic/.test(lines[2]),
      `the budget line lacks "1.1× normal traffic": ${JSON.stringify(lines[2])}`,
    );
    assert.ok(!lines[0].includes('never drains'), `your policy (exponential, capped) drains: ${JSON.stringify(lines[0])}`);
    // The article's point: a fixed interval multiplies the load far more than backing off does.
    const [yours, fixed] = lines.slice(0, 2).map(peakMultiple);
    assert.ok(fixed >= 2 * yours, `fixed 30 s peaks at ${fixed}× normal traffic, your policy at ${yours}×`);
    assert.equal(
      await page.locator('#storm').getAttribute('aria-label'),
      lines.join('\n'),
      '#storm aria-label follows its caption',
    );
    assertPainted(await canvasStats(page, '#storm'), '#storm');
  });
});

test('the retry budget, by slider or by text, redraws the storm and names the budget', { timeout: 60_000 }, async () => {
  await withPage(async ({ page }) => {
    const initial = await stormState(page);
    assert.equal(await page.locator('#budget').inputValue(), '0', 'the default #budget slider');

    // Five steps right with the keyboard: 0 → 5 %.
    const slider = page.locator('#budget');
    await slider.focus();
    for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowRight');
    assert.equal(await slider.inputValue(), '5', 'the arrow keys moved #budget to 5');
    assert.equal(await page.locator('#budget-text').inputValue(), '5%', '#budget-text follows the slider, with its unit');
    // "your policy" is now yours with its 5% budget (as in the CLI and the survival map); the
    // comparison shows it without, which is what "your policy" was before.
    const WITHOUT = 'your policy without its budget:';
    await stormSettles(page, (lines) => (lines[2] ?? '').startsWith(WITHOUT), 'the third line to drop your budget');
    const byKeyboard = await stormState(page);
    assertStormLabels(byKeyboard.lines, [...STORM_LABELS.slice(0, 2), WITHOUT]);
    assert.notEqual(byKeyboard.pixels, initial.pixels, '#storm pixels with a 5% budget vs the default');
    assert.notEqual(byKeyboard.lines[0], initial.lines[0], 'your policy carries its budget');
    assert.equal(
      byKeyboard.lines[2].slice(WITHOUT.length),
      initial.lines[0].slice(STORM_LABELS[0].length),
      'without its budget, your policy is the storm of the default settings',
    );
    assert.equal(byKeyboard.lines[1], initial.lines[1], 'the budget leaves "fixed 30 s" alone');

    // Typed: 20 %, then 5 % again, which draws what the slider drew.
    await renderAfter(page, () => page.fill('#budget-text', '20'));
    const twenty = await stormState(page);
    assertStormLabels(twenty.lines, [...STORM_LABELS.slice(0, 2), WITHOUT]);
    assert.notEqual(twenty.lines[0], byKeyboard.lines[0], 'your policy with 20% vs 5%');
    assert.notEqual(twenty.pixels, byKeyboard.pixels, '#storm pixels with a 20% vs a 5% budget');
    assert.equal(await slider.inputValue(), '20', 'the #budget slider follows the text');

    // With its sign, as the captions, the CLI and the JS API write it.
    await renderAfter(page, () => page.fill('#budget-text', '5%'));
    const typed = await stormState(page);
    assert.deepEqual(typed.lines, byKeyboard.lines, 'typing 5% writes the caption the slider wrote');
    assert.equal(typed.pixels, byKeyboard.pixels, 'typing 5% draws the picture the slider drew');
    assertFieldValid(await fieldError(page, 'budget'), 'budget');
    assert.equal(await slider.inputValue(), '5', 'the #budget slider follows 5%');
    assertPainted(await canvasStats(page, '#storm'), '#storm');

    // Empty is no budget, the default storm again; 0 is `--budget 0`, a budget of no share
    // whose floor (0.5 retries a second) still lets retries through, and a floor of 0 holds
    // every retry. The page had read 0 as no budget.
    await renderAfter(page, () => page.fill('#budget-text', ''));
    assert.deepEqual((await stormState(page)).lines, initial.lines, 'an empty budget is none');
    await renderAfter(page, () => page.fill('#budget-text', '0'));
    const zero = await stormState(page);
    assertStormLabels(zero.lines, [...STORM_LABELS.slice(0, 2), WITHOUT]);
    assert.ok(zero.lines[0].includes('a budget of 0% of the first attempts over 60 s, plus 0.5 retries a second'),
      `a 0% budget is a budget: ${JSON.stringify(zero.lines[0])}`);
    await renderAfter(page, () => page.fill('#budget-floor-text', '0'));
    const pure = await stormState(page);
    assertFieldValid(await fieldError(page, 'budget-floor'), 'budget-floor');
    assert.ok(!pure.lines[0].includes('retries a second') && pure.lines[0].includes('pending'),
      `without its floor a 0% budget holds every retry: ${JSON.stringify(pure.lines[0])}`);
    // The slider's left end is no budget (dragged back from 10%, it wrote 0, a budget).
    await renderAfter(page, () => page.fill('#budget-floor-text', ''));
    await renderAfter(page, () => page.fill('#budget-text', '10'));
    await slider.focus();
    await renderAfter(page, () => page.keyboard.press('Home'));
    assert.equal(await page.locator('#budget-text').inputValue(), '', 'the left end empties the field');
    assert.equal(await slider.getAttribute('aria-valuetext'), 'none');
    assert.deepEqual((await stormState(page)).lines, initial.lines, 'the left end is no budget');
  });
});

test('a field that needs an unset setting says so and is left out of the storm', { timeout: 60_000 }, async () => {
  await withPage(async ({ page }) => {
    // A note under the field, read with it (aria-describedby) but not a live region (nine were
    // announced at every render); never disabled, so that the keyboard reaches it and it keeps
    // what is typed.
    const noted = async (field) => {
      const input = page.locator(`#${field}-text`);
      assert.equal(await input.isDisabled(), false, `#${field}-text stays usable`);
      const note = (await page.locator(`#${field}-note`).count()) ? ((await textOf(page, `#${field}-note`)) ?? '') : '';
      if (note) {
        assert.match(await input.getAttribute('aria-describedby'), new RegExp(`\\b${field}-note\\b`));
        assert.equal(await page.locator(`#${field}-note`).getAttribute('aria-live'), null);
        assert.equal(((await textOf(page, `#${field}-error`)) ?? '').trim(), '', 'the error slot holds no note');
      }
      const marked = await input.evaluate((element) => element.classList.contains('inactive'));
      assert.equal(marked, note !== '', `#${field}-text is marked as its note says: ${note}`);
      return note;
    };
    // By default no pause and no budget: their own fields do nothing, and say so.
    assert.equal(await noted('resume-rate'), 'not used now: it applies only with Pause the endpoint');
    assert.equal(await noted('budget-window'), 'not used now: it applies only with a retry budget');
    assert.equal(await noted('budget-floor'), 'not used now: it applies only with a retry budget');
    // Empty, its note is its description but not shown (nine stood under the default fields);
    // focused, it is.
    const shown = (field) => page.locator(`#${field}-note`).isVisible();
    assert.equal(await shown('budget-window'), false, 'an empty field shows no note');
    await page.focus('#budget-window-text');
    assert.equal(await shown('budget-window'), true, 'focused, it does');
    await page.locator('#budget-window-text').blur();
    assert.equal(await noted('rate-limit'), '', 'a field that needs nothing has no note');
    const initial = await stormState(page);

    await renderAfter(page, () => page.check('#pause'));
    assert.equal(await noted('resume-rate'), '', 'paused: the resume rate applies');
    const paused = await stormState(page);
    await renderAfter(page, () => page.fill('#resume-rate-text', '20/s'));
    const resumed = await stormState(page);
    assert.ok(resumed.lines[0].includes('20'), `the resume rate reaches the storm: ${JSON.stringify(resumed.lines[0])}`);
    assert.notDeepEqual(resumed.lines, paused.lines, 'the storm follows the resume rate');
    assert.match(page.url(), /resume-rate=20/);

    // Unticked, the typed rate stays in its field, noted and left out: the storm is the
    // default one again, not "Not redrawn (resume-rate must be given only with pause)".
    await renderAfter(page, () => page.uncheck('#pause'));
    assert.equal(await noted('resume-rate'), 'not used now: it applies only with Pause the endpoint');
    assert.equal(await page.locator('#resume-rate-text').inputValue(), '20/s', 'what was typed is kept');
    assert.equal(await page.locator('#resume-rate-text').getAttribute('aria-invalid'), null, 'a note is no error');
    assert.match(await textOf(page, '#status'), STATUS_PATTERN);
    assert.deepEqual((await stormState(page)).lines, initial.lines, 'the storm without a pause');
    assert.match(page.url(), /resume-rate=20/, 'the link keeps the field as the field does');

    // Reloaded from its link, the field and its note are back, without a notice.
    await page.reload();
    await until(async () => STATUS_PATTERN.test(await textOf(page, '#status')), 'the reloaded page');
    assert.equal(await page.locator('#resume-rate-text').inputValue(), '20/s');
    assert.equal(await noted('resume-rate'), 'not used now: it applies only with Pause the endpoint');
    assert.equal(await page.locator('#notice').isHidden(), true, 'no notice');

    // Ticked again, the kept rate applies again.
    await renderAfter(page, () => page.check('#pause'));
    assert.deepEqual((await stormState(page)).lines, resumed.lines, 'the kept rate applies again');

    // Decorrelated jitter grows from a base: beside a preset's list of gaps it is not offered.
    const decorrelated = () => page.$eval('#mode option[value="decorrelated"]', (option) => option.disabled);
    assert.equal(await decorrelated(), false, 'offered beside the formula');
    await renderAfter(page, () => page.selectOption('#preset', 'svix'));
    assert.equal(await decorrelated(), true, 'not offered beside Svix\'s list');
    // Nor is the preset drawn as it is offered for comparison with itself.
    const comparable = () => page.$$eval('#compare option', (options) => options.filter((o) => !o.disabled).map((o) => o.value));
    assert.ok(!(await comparable()).includes('svix'), 'Svix is not compared with itself');
    assert.ok((await comparable()).includes('article'), 'the other presets are offered');
    await renderAfter(page, () => page.click('#drop-gaps'));
    assert.equal(await decorrelated(), false, 'offered again once the list is dropped');
    assert.ok((await comparable()).includes('svix'), 'Svix is offered once the schedule is no longer it');
  });
});

test('without the comparison the storm has one caption, which follows the budget', { timeout: 60_000 }, async () => {
  await withPage(async ({ page }) => {
    const compared = await stormState(page);
    await renderAfter(page, () => page.uncheck('#storm-compare'));
    const single = await stormState(page);
    assert.equal(single.lines.length, 1, `one caption without the comparison: ${JSON.stringify(single.lines)}`);
    assert.ok(!single.lines[0].includes('fixed 30 s:'), `no fixed 30 s line: ${JSON.stringify(single.lines[0])}`);
    assert.ok(!single.lines[0].startsWith('your policy'), `a single series has no label: ${JSON.stringify(single.lines[0])}`);
    assert.equal(
      single.lines[0],
      compared.lines[0].slice(STORM_LABELS[0].length).trimStart(),
      'the single caption is the "your policy" line of the comparison',
    );
    assert.ok(!/\b1\.1\d*× normal traffic/.test(single.lines[0]), `no budget yet: ${JSON.stringify(single.lines[0])}`);
    assert.notEqual(single.pixels, compared.pixels, '#storm pixels without the comparison');
    assertPainted(await canvasStats(page, '#storm'), '#storm');

    await renderAfter(page, () => page.fill('#budget-text', '10'));
    const budgeted = await stormLines(page);
    assert.equal(budgeted.length, 1, `one caption with a budget: ${JSON.stringify(budgeted)}`);
    assert.ok(/\b1\.1\d*× normal traffic/.test(budgeted[0]), `a 10% budget caps the storm: ${JSON.stringify(budgeted[0])}`);
    assert.ok(!budgeted[0].includes('fixed 30 s:'), `still no fixed 30 s line: ${JSON.stringify(budgeted[0])}`);
  });
});

test('pausing the endpoint holds every attempt during the outage and changes the storm', { timeout: 60_000 }, async () => {
  await withPage(async ({ page }) => {
    // The page's wasm module: pausing makes no attempt at all while the endpoint is down.
    const paused = await stormReport(page, { ...DEFAULT_STORM, pause: true });
    const unpaused = await stormReport(page, DEFAULT_STORM);
    const during = (report) => report.attempts.slice(0, OUTAGE_MINUTES);
    assert.ok(paused.attempts.length > OUTAGE_MINUTES, `the paused report has ${paused.attempts.length} minutes`);
    assert.deepEqual(during(paused), Array(OUTAGE_MINUTES).fill(0), 'attempts per minute during the outage with pause');
    assert.ok(during(unpaused).every((n) => n > 0), `attempts during the outage without pause: ${during(unpaused)}`);
    assert.ok(paused.attempts.slice(OUTAGE_MINUTES).some((n) => n > 0), 'the held deliveries are attempted after the outage');

    const before = await stormLines(page);
    assert.equal(before[0], `${STORM_LABELS[0]} ${unpaused.caption}`, '"your policy" before pausing is the storm() caption');
    await renderAfter(page, () => page.check('#pause'));
    const after = await stormLines(page);
    assertStormLabels(after);
    assert.notEqual(after[0], before[0], 'checking #pause changes the "your policy" line');
    assert.equal(after[0], `${STORM_LABELS[0]} ${paused.caption}`, '"your policy" with pause is the paused storm() caption');
    assert.notEqual(after[2], before[2], 'checking #pause changes the budget line');

    await renderAfter(page, () => page.uncheck('#pause'));
    assert.deepEqual(await stormLines(page), before, 'unchecking #pause restores the captions');
  });
});

test('a retry quota and a circuit breaker, set on the page, bound the storm and travel in the link', { timeout: 90_000 }, async () => {
  await withPage(async ({ page }) => {
    const before = await stormLines(page);
    assert.equal(await page.locator('#retry-quota').inputValue(), '', 'no retry quota by default');
    // Compared, every series carries your bounds (as in the survival map); the third adds a
    // 10% budget.
    const mine = (params) => stormReport(page, { ...DEFAULT_STORM, ...params });
    const bounded = (params) => mine({ budget: 10, ...params });

    // The AWS SDKs' quota: the budget line is what storm() says of that storm.
    await renderAfter(page, () => page.selectOption('#retry-quota', 'aws'));
    const aws = await bounded({ retryQuota: 'aws' });
    const quoted = await stormLines(page);
    assertStormLabels(quoted);
    assert.equal(quoted[0], `your policy: ${(await mine({ retryQuota: 'aws' })).caption}`, 'your policy carries the quota');
    assert.equal(quoted[2], `your policy + 10% budget: ${aws.caption}`, 'the budget line with the aws quota is the storm() caption');
    assert.match(quoted[0], /AWS SDKs' retry quota/, 'the caption names the quota');
    assert.notEqual(quoted[0], before[0], 'the aws quota changes your policy');
    assert.notEqual(quoted[2], before[2], 'the aws quota changes the budget line');
    assert.match(await page.evaluate(() => location.hash), /(^#|&)retry-quota=aws(&|$)/, 'the link names the quota');

    // A breaker on top: five failures in a row open it.
    await renderAfter(page, () => page.fill('#breaker-failures-text', '5'));
    const both = await bounded({ retryQuota: 'aws', breakerFailures: 5 });
    const broken = await stormLines(page);
    assert.equal(broken[0], `your policy: ${(await mine({ retryQuota: 'aws', breakerFailures: 5 })).caption}`, 'your policy with the quota and the breaker');
    assert.equal(broken[2], `your policy + 10% budget: ${both.caption}`, 'the budget line with the quota and the breaker');
    assert.notEqual(broken[2], quoted[2], 'the breaker changes the budget line');
    const link = await page.evaluate(() => location.hash);
    assert.match(link, /(^#|&)breaker-failures=5(&|$)/, 'the link names the breaker');

    // Without the comparison, your policy alone: the same line.
    await renderAfter(page, () => page.uncheck('#storm-compare'));
    const single = await stormLines(page);
    const alone = await stormReport(page, { ...DEFAULT_STORM, retryQuota: 'aws', breakerFailures: 5 });
    assert.deepEqual(single, [alone.caption], 'without the comparison your policy carries the quota and the breaker');
    await renderAfter(page, () => page.check('#storm-compare'));

    // Out of range: an inline error naming the field and its range; the last good storm stays.
    const pixels = await canvasDataUrl(page, '#storm');
    const changes = await statusChanges(page);
    await page.fill('#breaker-failures-text', '0');
    await nextRender(page, changes, FAILED_PATTERN);
    const error = await fieldError(page, 'breaker-failures');
    assert.match(error.text, /breaker-failures must be .*1 to 10,?000/, `#breaker-failures-error reads ${JSON.stringify(error.text)}`);
    assert.ok(error.visible, '#breaker-failures-error is shown');
    // The last good storm's caption, under a first line that says it is not of these inputs.
    const [note, ...kept] = await stormLines(page);
    assert.ok(note.startsWith(`Not redrawn (${error.text}): `), `the storm caption's first line: ${JSON.stringify(note)}`);
    assert.deepEqual(kept, broken, 'the storm caption keeps the last good storm');
    assert.equal(await canvasDataUrl(page, '#storm'), pixels, 'the storm chart keeps the last good picture');

    // The link opened afresh sets the controls and draws the same storm.
    await page.goto(`${baseUrl}${link}`);
    await page.reload();
    await until(async () => STATUS_PATTERN.test(await textOf(page, '#status')), 'the linked page to render');
    assert.equal(await page.locator('#retry-quota').inputValue(), 'aws', '#retry-quota from the link');
    assert.equal(await page.locator('#breaker-failures-text').inputValue(), '5', '#breaker-failures-text from the link');
    assert.deepEqual(await stormLines(page), broken, 'the linked page draws the same storm');

    // The breaker's other rule: a failure share over its window, beside the five in a row.
    await renderAfter(page, () => page.fill('#breaker-share-text', '50%'));
    const shared = await bounded({ retryQuota: 'aws', breakerFailures: 5, breakerShare: '50%' });
    const withShare = await stormLines(page);
    assert.equal(withShare[2], `your policy + 10% budget: ${shared.caption}`, 'the budget line with both breaker rules');
    assert.match(withShare[2], /opens after 5 consecutive failures or when 50% of at least 100 attempts in 30 s fail/, 'the caption names both rules');
    const before12 = await statusChanges(page);
    await page.fill('#breaker-share-text', '12.5');
    await nextRender(page, before12, FAILED_PATTERN);
    const shareError = await fieldError(page, 'breaker-share');
    assert.match(shareError.text, /breaker-share must be a whole percentage from 1% to 100%, got 12.5%/, `#breaker-share-error reads ${JSON.stringify(shareError.text)}`);
  });
});

test('garbage storm inputs show inline errors and keep the rest of the page', { timeout: 60_000 }, async () => {
  await withPage(async ({ page, problems }) => {
    const initial = await stormState(page);
    for (const field of ['arrivals', 'capacity']) assertFieldValid(await fieldError(page, field), field);

    for (const { field, text, message, good } of [
      { field: 'capacity', text: '0', message: 'capacity must be a rate from 0.000001 to 10000000 per second, got 0', good: '30/s' },
      { field: 'arrivals', text: 'lots', message: 'arrivals must be a rate such as 600/min', good: '600/min' },
    ]) {
      const before = await statusChanges(page);
      await page.fill(`#${field}-text`, text);
      await nextRender(page, before, FAILED_PATTERN);
      const state = await fieldError(page, field);
      assert.ok(state.text.includes(message), `#${field}-error for ${JSON.stringify(text)} reads ${JSON.stringify(state.text)}`);
      assert.ok(state.visible, `#${field}-error is hidden while it holds an error`);
      assert.equal(state.invalid, 'true', `#${field}-text aria-invalid for ${JSON.stringify(text)}`);
      assert.deepEqual(
        problems.filter((problem) => problem.startsWith('page error')),
        [],
        `${field} ${JSON.stringify(text)} throws no uncaught page error`,
      );
      const rows = await tableRows(page);
      assert.equal(rows.length, DEFAULT_ROWS, `the schedule table keeps every attempt with ${field} ${JSON.stringify(text)}`);
      assert.equal(lastElapsed(rows), DEFAULT_LAST_ELAPSED, 'the schedule table is unchanged');
      // The last good storm's caption, under a first line that says it is not of these inputs.
      const [note, ...kept] = await stormLines(page);
      assert.ok(note.startsWith(`Not redrawn (${state.text}): `), `the storm caption's first line: ${JSON.stringify(note)}`);
      assert.deepEqual(kept, initial.lines, 'the storm caption keeps the last good storm');
      assert.equal(await canvasDataUrl(page, '#storm'), initial.pixels, 'the storm chart keeps the last good picture');

      await renderAfter(page, () => page.fill(`#${field}-text`, good));
      assertFieldValid(await fieldError(page, field), field);
      assert.deepEqual(await stormLines(page), initial.lines, `the default storm again with ${field} ${good}`);
    }
  });
});

test('the discrete engine renders the storm too, and the budget exhausts nothing on either engine', { timeout: 60_000 }, async () => {
  await withPage(async ({ page }) => {
    assert.equal(await page.locator('#engine').inputValue(), 'auto', 'the default #engine');
    const noneExhausted = /(^|[^\d.,])0 exhausted/;
    const auto = await stormLines(page);
    await renderAfter(page, () => page.selectOption('#engine', 'fluid'));
    const fluid = await stormLines(page);
    assert.deepEqual(auto, fluid, 'auto takes the fluid engine for the default storm');
    assertStormLabels(fluid);
    assert.match(fluid[2], noneExhausted, 'fluid: the budget line');

    // The default 24×16 survival map is more than the discrete engine may simulate: the render
    // says so (status, the steps field, the survival section) wherever that section is, and a
    // smaller map is computed.
    let before = await statusChanges(page);
    await page.selectOption('#engine', 'discrete');
    await nextRender(page, before, /^not everything was redrawn: fix the highlighted input/);
    assert.match(await textOf(page, '#steps-error'), /^steps must be at most 200,000,000 delivery-attempts for the discrete engine/);
    assert.match(await textOf(page, '#survival-caption'), /^The survival map cannot be computed: steps must be at most 200,000,000/);
    before = await statusChanges(page);
    await page.fill('#outages-text', '10s..10m');
    await page.fill('#steps-text', '4x2');
    await nextRender(page, before);
    await until(async () => STATUS_PATTERN.test(await textOf(page, '#status')), 'a clean render with a 4×2 map');
    const discrete = await stormLines(page);
    assertStormLabels(discrete);
    assert.match(discrete[2], noneExhausted, 'discrete: the budget line');
    assert.notEqual(discrete[0], fluid[0], 'the discrete engine counts "your policy" differently from the fluid one');
    assert.equal((await textOf(page, '#engine-error')).trim(), '', '#engine-error for the discrete engine');
    assert.notEqual(await page.locator('#engine').getAttribute('aria-invalid'), 'true', '#engine aria-invalid');
    assertPainted(await canvasStats(page, '#storm'), '#storm');
  });
});

test('auto hands the storm to the discrete engine where expected values do not apply, and says why', { timeout: 60_000 }, async () => {
  await withPage(async ({ page }) => {
    await renderAfter(page, () => page.selectOption('#mode', 'decorrelated'));
    const decorrelated = await stormLines(page);
    assertStormLabels(decorrelated);
    assert.match(decorrelated[0], /Simulated delivery by delivery \(seed \d+\) because the fluid engine needs gaps that depend only on the attempt number/, 'your policy, decorrelated');
    assert.doesNotMatch(decorrelated[1], /delivery by delivery/, 'the fixed 30 s comparison has no jitter: fluid');

    await renderAfter(page, () => page.selectOption('#mode', 'full'));
    await renderAfter(page, () => page.fill('#capacity-text', '3/s'));
    // So small a destination leaves the default survival axis' low rows too small for the
    // fluid engine too: the default axis starts where it can (20 requests within 4.95 s at
    // 2/s need 2.03×) and the caption says why; an axis given lower is the headroom's fault,
    // said beside it (not the engine's), and the storm is drawn all the same.
    await page.fill('#arrivals-text', '2/s');
    const discrete = /because the fluid engine needs capacity × \(timeout − latency/;
    await until(async () => (await stormLines(page)).every((line) => discrete.test(line)), 'the storms on the discrete engine');
    await page.locator('#survival').scrollIntoViewIfNeeded();
    await until(async () => /Headroom starts at 2\.03×, not 1\.05×: below it the destination answers fewer than 20 requests a second within its limits/.test((await textOf(page, '#survival-caption')) ?? ''), 'the default map from 2.03×', 60_000);
    assert.equal(((await textOf(page, '#headroom-error')) ?? '').trim(), '', 'the default axis is not at fault');
    await page.fill('#headroom-text', '1.05..5');
    await until(async () => /^headroom must be a low end at which the fluid engine runs every cell, at least 2\.03× here/.test((await textOf(page, '#headroom-error')) ?? ''), 'the headroom axis told why');
    assert.equal(((await textOf(page, '#engine-error')) ?? '').trim(), '', 'the engine is not at fault');
    assertPainted(await canvasStats(page, '#storm'), '#storm');
  });
});

test('a link that names a chart opens the page at its section', { timeout: 60_000 }, async () => {
  // Within a pixel: scroll positions are whole pixels, layout is not (0.1 px above the top is
  // in view).
  const inView = (page, heading) => page.$eval(`#${heading}`, (element) => {
    const box = element.getBoundingClientRect();
    return box.top >= -1 && box.bottom <= window.innerHeight + 1;
  });
  await withPage(async ({ page }) => {
    for (const [link, heading] of [
      ['#view=storm&outage=30m', 'storm-heading'],
      ['#section=staleness', 'staleness-heading'],
    ]) {
      await page.goto(`${baseUrl}${link}`);
      await page.reload();
      await until(async () => STATUS_PATTERN.test(await textOf(page, '#status')), `${link} to render`);
      assert.ok(await inView(page, heading), `${link} opens at #${heading}`);
      assert.ok(!(await inView(page, 'schedule-heading')), `${link} is not left at the top`);
    }
  });
});
