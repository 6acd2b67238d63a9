// End-to-end test of the survival map: it is computed once its section comes near the screen,
// drawn progressively as its rows arrive from the workers, a newer input stops it and starts the
// new map (the old one's rows are never drawn), the rest of the page answers meanwhile, bad axes
// are refused next to their field, the exports carry the map, and the embed page and the
// element draw view=survival; an invalid map in a link is refused in the section itself and in
// the status line, on the page and on the embed page.
//
//   cd tests/e2e && npm test

import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';

import {
  STATUS_PATTERN,
  assertNoProblems,
  assertPainted,
  canvasStats,
  closeServer,
  countRowJobs,
  launchBrowser,
  openPage,
  servePage,
  textOf,
  until,
  watchProblems,
} from './harness.mjs';

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

// A whole map's caption: your scenario's own outcome, then the boundaries at the grid's row
// nearest your headroom, said to be yours or only the nearest.
const FINAL = /^Your scenario \(an outage of [^)]+ at [\d.]+× headroom\) (recovers|recovers slowly|collapses): .+ At [\d.]+× headroom \(capacity ÷ arrivals\), (your scenario's row of the map|the map's row nearest your [\d.]+×), your policy /;
const PARTIAL = /^Computing the survival map: (\d+) of (\d+) rows done\.$/;

async function withPage(hash, body, contextOptions = {}) {
  const opened = await openPage(browser, new URL(hash, baseUrl).href, { viewport: { width: 1200, height: 900 }, ...contextOptions });
  try {
    await until(async () => STATUS_PATTERN.test(await textOf(opened.page, '#status')), 'the first clean render');
    await body(opened.page);
    assertNoProblems(opened.problems);
  } finally {
    await opened.context.close();
  }
}

const caption = async (p) => ((await textOf(p, '#survival-caption')) ?? '').trim();

/** Every text the survival caption shows from now on, in order. */
async function recordCaptions(p) {
  await p.evaluate(() => {
    window.__captions = [];
    const node = document.getElementById('survival-caption');
    new MutationObserver(() => window.__captions.push(node.textContent)).observe(node, { childList: true, characterData: true, subtree: true });
  });
  return () => p.evaluate(() => window.__captions.slice());
}

async function downloadOf(p, buttonId) {
  const [download] = await Promise.all([p.waitForEvent('download'), p.click(`#${buttonId}`)]);
  const file = await download.path();
  assert.ok(file, `the download from #${buttonId} was not saved`);
  return { name: download.suggestedFilename(), text: await readFile(file, 'utf8') };
}

test('the map waits for its section, then draws row by row into the whole map', { timeout: 120_000 }, async () => {
  await withPage('#steps=12x8', async (p) => {
    assert.equal(await caption(p), 'The map is computed when you scroll here.', 'nothing computed off screen');
    const captions = await recordCaptions(p);
    await p.locator('#survival').scrollIntoViewIfNeeded();
    await until(async () => FINAL.test(await caption(p)), 'the whole map', 90_000);
    const seen = await captions();
    const partial = seen.map((text) => text.match(PARTIAL)).filter(Boolean);
    assert.ok(partial.length >= 2, `partial maps drawn on the way: ${JSON.stringify(seen)}`);
    const done = partial.map((m) => Number(m[1]));
    assert.ok(done.every((n, i) => i === 0 || n > done[i - 1]), `rows only add up: ${done}`);
    assert.ok(partial.every((m) => m[2] === '24'), 'three series × 8 headroom rows');
    assertPainted(await canvasStats(p, '#survival'), 'the survival map');
    assert.match(await caption(p), /fixed 30 s survives outages up to/);
    assert.match(await caption(p), /your policy \+ 10% budget/);
    // The page's scenario (a 10 min outage at 3×) collapses, whatever the cell its mark sits in:
    // the caption says so, and that its row (2.44×) is only the grid's nearest.
    assert.match(await caption(p), /^Your scenario \(an outage of 10 min at 3\.00× headroom\) collapses: goodput in the hour after the outage is [\d.]+% of the arrival rate\. /);
    assert.match(await caption(p), / At 2\.44× headroom \(capacity ÷ arrivals\), the map's row nearest your 3\.00×, your policy /);
    assert.match(await p.locator('#survival').getAttribute('aria-label'), FINAL);

    // A new width redraws the whole map as computed: no row is computed again (a phone turned
    // sideways showed "Computing the survival map: 8 of 48 rows" for a second).
    const whole = await caption(p);
    const width = await p.$eval('#survival', (c) => c.width);
    const again = await recordCaptions(p);
    await p.setViewportSize({ width: 1100, height: 900 });
    await until(async () => (await p.$eval('#survival', (c) => c.width)) !== width, 'the map redrawn at the new width');
    await until(async () => STATUS_PATTERN.test(await textOf(p, '#status')), 'the render after the resize');
    await p.waitForTimeout(500);
    assert.deepEqual((await again()).filter((text) => PARTIAL.test(text)), [], 'no row computed again');
    assert.equal(await caption(p), whole);
  });
});

test('a newer input stops the running map and only the new one is drawn', { timeout: 120_000 }, async () => {
  await withPage('#steps=24x16', async (p) => {
    await p.locator('#survival').scrollIntoViewIfNeeded();
    await until(async () => Number((await caption(p)).match(PARTIAL)?.[1]) >= 4, 'a few rows of the first map', 60_000);
    const captions = await recordCaptions(p);
    // Marks, among the captions, the moment of the input (its listener runs after the page's,
    // which starts the new map).
    await p.evaluate(() => document.getElementById('capacity-text').addEventListener('input', () => window.__captions.push('<input>')));
    // The same shape of map (48 rows), other numbers: a stale row would fit it.
    await p.fill('#capacity-text', '40/s');
    await until(async () => FINAL.test(await caption(p)), 'the new map', 90_000);
    const recorded = await captions();
    assert.ok(recorded.includes('<input>'), JSON.stringify(recorded));
    const seen = recorded.slice(recorded.indexOf('<input>') + 1);
    const done = seen.map((text) => text.match(PARTIAL)).filter(Boolean).map((m) => Number(m[1]));
    assert.ok(done.length >= 2, `the new map drew as it went: ${JSON.stringify(seen)}`);
    assert.ok(done[0] <= 8, `the new map starts from its first rows, not the old map's: ${done}`);
    assert.ok(done.every((n, i) => i === 0 || n > done[i - 1]), `no row of the stopped map is drawn after the input: ${done}`);
    assert.match(await caption(p), / At 4\.15× headroom \(capacity ÷ arrivals\), the map's row nearest your 4\.00×/, 'the final map is the new scenario\'s (40/s is 4× the arrivals)');
    assert.match(p.url(), /capacity=40%2Fs|capacity=40\/s/, 'the link carries the input');
  });
});

test('the rest of the page answers while the map computes', { timeout: 120_000 }, async () => {
  await withPage('#steps=24x16', async (p) => {
    await p.locator('#survival').scrollIntoViewIfNeeded();
    await until(async () => PARTIAL.test(await caption(p)), 'the map under way', 60_000);
    await p.fill('#attempts-text', '9');
    await until(async () => (await p.$$eval('#schedule-table tbody tr', (rows) => rows.length)) === 9, 'the schedule table to follow the input');
    // The caption and the map's exports, read in one go: the exports wait for the whole map.
    // Held by aria-disabled, not disabled: a held button keeps the keyboard's focus (a disabled
    // one dropped it to the page's body).
    const exportsNow = () => p.evaluate(() => [
      document.getElementById('survival-caption').textContent.trim(),
      [...document.querySelectorAll('figure:has(#survival) .exports button')]
        .map((button) => [button.getAttribute('aria-disabled') === 'true', button.title]),
    ]);
    const [progress, held] = await exportsNow();
    assert.match(progress, PARTIAL, 'the new map is still under way when the table has followed');
    assert.equal(held.length, 4);
    assert.ok(held.every(([disabled, title]) => disabled && title === 'available once the whole map is computed'), JSON.stringify(held));
    // A click on a held export downloads nothing, and the button keeps the focus.
    let downloads = 0;
    p.on('download', () => { downloads += 1; });
    await p.focus('#export-survival-csv');
    await p.keyboard.press('Enter');
    await p.waitForTimeout(300);
    assert.equal(downloads, 0, 'a held export downloads nothing');
    assert.equal(await p.evaluate(() => document.activeElement?.id), 'export-survival-csv', 'the held button keeps the focus');
    await until(async () => FINAL.test(await caption(p)), 'the whole map', 90_000);
    const [, ready] = await exportsNow();
    assert.ok(ready.every(([disabled, title]) => !disabled && title === ''), JSON.stringify(ready));
    assert.equal(await p.evaluate(() => document.activeElement?.id), 'export-survival-csv', 'and keeps it when the map is whole');
  });
});

test('bad axes are refused next to their field, and the exports carry the map', { timeout: 120_000 }, async () => {
  await withPage('#steps=6x4&outages=1m..2h&headroom=1.5..6', async (p) => {
    await p.locator('#survival').scrollIntoViewIfNeeded();
    await until(async () => FINAL.test(await caption(p)), 'the map', 60_000);
    const csv = await downloadOf(p, 'export-survival-csv');
    assert.match(csv.name, /^backoff-lab-survival-30s-x3-cap-3h-14-attempts-full-jitter-outage-10min-[0-9a-f]{6}\.csv$/);
    const lines = csv.text.trimEnd().split('\n');
    assert.equal(lines[0], 'series,headroom,outage_s,outcome,recovery_s,exhausted_share,peak_multiple,goodput_vs_arrivals');
    assert.equal(lines.length, 1 + 3 * 6 * 4, 'a line per cell of the three series');
    assert.ok(lines.slice(1).every((line) => /,(recovers|slow|collapsed),/.test(line)), csv.text);
    const json = JSON.parse((await downloadOf(p, 'export-survival-json')).text);
    assert.deepEqual([json.outages_s.length, json.headroom.length, json.rows_pending], [6, 4, 0]);
    assert.deepEqual(json.series.map((s) => s.label), ['your policy', 'fixed 30 s', 'your policy + 10% budget']);
    assert.ok(json.series.every((s) => s.cells.length === 4 && s.cells.every((row) => row.length === 6)));
    const png = await downloadOf(p, 'export-survival-png');
    assert.match(png.name, /^backoff-lab-survival-30s-x3-cap-3h-14-attempts-full-jitter-outage-10min-[0-9a-f]{6}\.png$/);
    const svg = await downloadOf(p, 'export-survival-svg');
    assert.match(svg.text, /fixed 30 s: cliff/);

    for (const [field, text, message] of [
      ['steps', '1x4', 'steps must be from 2 to 64 steps on each axis and at most 1024 cells in all (outages × headroom, such as 32x32 or 64x16), got 1x4'],
      ['outages', '2h..1m', 'outages must be two durations from 1 s to'],
      // Ends that round to one whole second: one column, which the page could not draw and
      // said nowhere near the field.
      ['outages', '10s..10.4s', 'the first shorter in whole seconds'],
      ['headroom', '1.5', 'headroom must be two ratios of capacity to arrivals from 0.1 to 1000, the first smaller (such as 1.05..20)'],
    ]) {
      await p.fill(`#${field}-text`, text);
      await until(async () => ((await textOf(p, `#${field}-error`)) ?? '').includes(message), `#${field}-error for ${text}`);
      assert.equal(await p.locator(`#${field}-text`).getAttribute('aria-invalid'), 'true');
      await p.fill(`#${field}-text`, { steps: '6x4', outages: '1m..2h', headroom: '1.5..6' }[field]);
      await until(async () => ((await textOf(p, `#${field}-error`)) ?? '') === '', `#${field}-error clears`);
    }
  });
});

test('the embed page draws view=survival as its rows arrive', { timeout: 120_000 }, async () => {
  const opened = await openPage(browser, new URL('embed.html#view=survival&steps=8x4', baseUrl).href, { viewport: { width: 800, height: 520 } }, countRowJobs);
  try {
    const p = opened.page;
    await until(() => p.evaluate(() => document.body.dataset.ready === 'true'), 'the embedded map', 90_000);
    assert.ok(await p.evaluate(() => window.__rowJobs) > 0, 'the rows were computed in workers');
    assert.match(((await textOf(p, '#chart-caption')) ?? '').trim(), FINAL);
    assertPainted(await canvasStats(p, '#chart'), 'the embedded survival map');
    assertNoProblems(opened.problems);
  } finally {
    await opened.context.close();
  }
});

/** Opens `url` without waiting for a clean render (an invalid link never gives one). */
async function openInvalid(url, viewport = { width: 1200, height: 900 }) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const problems = watchProblems(page);
  await page.goto(url, { waitUntil: 'load' });
  return { context, page, problems };
}

// Each invalid map setting a link can carry, and the start of its refusal (field and range).
const INVALID_LINKS = [
  ['outages=24h..10s', 'outages', 'outages must be two durations from 1 s to'],
  ['headroom=0..5', 'headroom', 'headroom must be'],
  ['steps=100x1', 'steps', 'steps must be from 2 to 64 steps'],
  ['steps=64x64', 'steps', 'steps must be from 2 to 64 steps on each axis and at most 1024 cells'],
];

test('an invalid map in a link is refused in the survival section and in the status line', { timeout: 120_000 }, async () => {
  for (const [hash, field, message] of INVALID_LINKS) {
    const { context, page: p, problems } = await openInvalid(new URL(`#${hash}`, baseUrl).href);
    try {
      await until(async () => /^not everything was redrawn/.test(await textOf(p, '#status')), `#${hash}: the status to report the invalid input`, 30_000);
      assert.ok((await textOf(p, `#${field}-error`)).includes(message), `#${hash}: #${field}-error reads ${JSON.stringify(await textOf(p, `#${field}-error`))}`);
      // Before and after the section comes into view: it says why there is no map.
      for (const when of ['off screen', 'in view']) {
        if (when === 'in view') await p.locator('#survival-heading').scrollIntoViewIfNeeded();
        await until(async () => (await caption(p)).startsWith('The survival map cannot be computed: '), async () => `#${hash} ${when}: the caption reads ${JSON.stringify(await caption(p))}`);
        assert.ok((await caption(p)).includes(message), `#${hash} ${when}: ${JSON.stringify(await caption(p))}`);
        assert.equal(await p.locator('#survival').getAttribute('aria-label'), await caption(p), `#${hash}: the canvas' label`);
        // The message takes the map's place: no empty box, no exports of a map there is not.
        assert.ok(await p.locator('#survival').isHidden(), `#${hash} ${when}: the empty map is hidden`);
        assert.ok(await p.locator('#export-survival-png').isDisabled(), `#${hash} ${when}: the exports are off`);
      }
      // Still refused once the map would have had time to start.
      await p.waitForTimeout(600);
      assert.match(await textOf(p, '#status'), /^not everything was redrawn/, `#${hash}: the status stays`);
      assert.ok((await caption(p)).includes(message), `#${hash}: the caption stays`);
      assertNoProblems(problems);
    } finally {
      await context.close();
    }
  }
});

// 10,000 attempts are a schedule every other chart draws, past the survival map's work: the
// field is noted with the map's limit, not flagged as a value to fix (outside review: it was
// red while five charts drew with it). Attempts the schedule refuses are flagged as before.
test('attempts past the survival map\'s work are noted as the map\'s limit, not flagged', { timeout: 120_000 }, async () => {
  const { context, page: p, problems } = await openInvalid(new URL('#attempts=10000', baseUrl).href, { width: 390, height: 844 });
  try {
    await until(async () => /^not everything was redrawn/.test(await textOf(p, '#status')), 'the render to end', 60_000);
    assert.match(await textOf(p, '#status'), /^not everything was redrawn: a chart's limit is noted under its input \(/);
    assert.match(await textOf(p, '#attempts-error'), /^attempts must be at most \d+ for a survival map/);
    assert.equal(await p.locator('#attempts-error').getAttribute('class'), 'error limit');
    assert.equal(await p.locator('#attempts-text').getAttribute('aria-invalid'), null, 'the field is not flagged');
    assert.ok((await caption(p)).startsWith('The survival map cannot be computed: attempts must be at most'), await caption(p));
    // A value the schedule refuses: flagged, as any value to fix.
    await p.fill('#attempts-text', '20000');
    await until(async () => (await p.locator('#attempts-text').getAttribute('aria-invalid')) === 'true', 'attempts 20000 flagged');
    assert.match(await textOf(p, '#attempts-error'), /^attempts must be a whole number from 1 to 10000/);
    assert.equal(await p.locator('#attempts-error').getAttribute('class'), 'error');
    assert.match(await textOf(p, '#status'), /^not everything was redrawn: fix the highlighted input/);
    assertNoProblems(problems);
  } finally {
    await context.close();
  }
});

test('a link with every axis invalid is told all three at once, next to each field', { timeout: 120_000 }, async () => {
  const { context, page: p, problems } = await openInvalid(new URL('#steps=64x17&outages=10s..8d&headroom=0..5', baseUrl).href);
  try {
    await until(async () => /^not everything was redrawn/.test(await textOf(p, '#status')), 'the status to report the invalid input', 30_000);
    for (const [field, message] of [
      ['steps', 'steps must be from 2 to 64 steps on each axis and at most 1024 cells'],
      ['outages', 'outages must be two durations from 1 s to'],
      ['headroom', 'headroom must be'],
    ]) {
      assert.ok(((await textOf(p, `#${field}-error`)) ?? '').includes(message), `#${field}-error reads ${JSON.stringify(await textOf(p, `#${field}-error`))}`);
      assert.equal(await p.locator(`#${field}-text`).getAttribute('aria-invalid'), 'true', `#${field}-text`);
    }
    // The section says the map's own refusal: one of them.
    assert.ok((await caption(p)).startsWith('The survival map cannot be computed: '), await caption(p));
    assertNoProblems(problems);
  } finally {
    await context.close();
  }
});

test('a map fixed after its refusal is computed, and the caption no longer refuses it', { timeout: 120_000 }, async () => {
  const { context, page: p, problems } = await openInvalid(new URL('#steps=100x1', baseUrl).href);
  try {
    await until(async () => (await caption(p)).startsWith('The survival map cannot be computed: '), 'the refusal');
    await p.fill('#steps-text', '6x4');
    await until(async () => STATUS_PATTERN.test(await textOf(p, '#status')), 'a clean render');
    assert.equal(await caption(p), 'The map is computed when you scroll here.', 'off screen, the map waits again');
    assert.ok(await p.locator('#export-survival-png').isEnabled(), 'the exports are back');
    await p.locator('#survival').scrollIntoViewIfNeeded();
    await until(async () => FINAL.test(await caption(p)), 'the map', 60_000);
    assertNoProblems(problems);
  } finally {
    await context.close();
  }
});

test('the embed page says why an invalid map in its link cannot be drawn', { timeout: 120_000 }, async () => {
  for (const [hash, , message] of INVALID_LINKS) {
    const { context, page: p, problems } = await openInvalid(new URL(`embed.html#view=survival&${hash}`, baseUrl).href, { width: 800, height: 520 });
    try {
      await until(async () => (await textOf(p, '#chart-caption')).includes(message), async () => `embed #${hash}: #chart-caption reads ${JSON.stringify(await textOf(p, '#chart-caption'))}`);
      assert.match(await textOf(p, '#chart-caption'), /^This chart could not be drawn: /);
      assertNoProblems(problems);
    } finally {
      await context.close();
    }
  }
});
