// End-to-end test of the explorer features of the backoff-lab page: presets, the timeline
// comparison, the state in the URL hash, exports, the embed page, in headless Debian Chromium
// driven by playwright-core.
//
// Same harness as page.test.mjs (harness.mjs): the page must already be built (scripts/build-page.sh writes
// www/pkg); server.mjs serves www/ on an ephemeral port with the strict Content-Security-Policy;
// every test opens fresh pages that record console errors, uncaught page errors and failed
// requests, and ends by asserting there were none.
//
//   cd tests/e2e && npm test
//
// Environment: CHROMIUM (browser binary, default /usr/bin/chromium); BACKOFF_LAB_WWW (the directory
// to serve instead of www/); SHOTS (where the screenshots go, default /tmp/shots).

import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import {
  STATUS_PATTERN,
  WAIT_MS,
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
  wwwRoot,
} from './harness.mjs';

const shotsDir = process.env.SHOTS || '/tmp/shots';

const DEFAULT_ROWS = 14;
const DEFAULT_LAST_ELAPSED = '24 h 02 min';
const CHARTS = ['timeline', 'distribution', 'herd', 'storm', 'staleness'];
const VIEWS = ['timeline', 'distribution', 'herd', 'storm', 'staleness'];
// Give-up times as the providers document them (and src/presets.rs tests them).
const DOCUMENTED = {
  svix: { giveUp: '27 h 35 min 5 s', lastElapsed: '27 h 35 min', rows: 8 },
  'standard-webhooks': { giveUp: '75 h 35 min 5 s', lastElapsed: '75 h 35 min', rows: 10 },
};

let server;
let baseUrl;
let browser;

before(async () => {
  ({ server, url: baseUrl } = await servePage([
    'index.html',
    'embed.html',
    'embed.bundle.js',
    'pkg/backoff_lab.js',
    'pkg/backoff_lab_bg.wasm',
  ]));
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await closeServer(server);
});

/**
 * Open `address` (relative to the server root: '', '#base=1m', 'embed.html#view=herd') in a
 * fresh context; see harness.mjs's openPage.
 */
function open(address = '', contextOptions = {}, onPage = () => {}) {
  return openPage(browser, new URL(address, baseUrl).href, contextOptions, onPage);
}

/** Run `body` with a freshly opened page; assert no console or page errors; always close. */
async function withPage(address, body, contextOptions = {}, onPage = undefined) {
  const opened = await open(address, contextOptions, onPage);
  try {
    await body(opened);
    assertNoProblems(opened.problems);
  } finally {
    await opened.context.close();
  }
}

/**
 * Wait until the page is at rest: the final clean status, and no further render for a moment
 * (a resize or a taller timeline can start one more render after the first).
 */
async function settle(page) {
  let last = -1;
  await until(async () => {
    const { changes, status } = await page.evaluate(() => ({
      changes: window.__e2e?.statusChanges ?? 0,
      status: document.getElementById('status')?.textContent ?? '',
    }));
    const quiet = changes === last && STATUS_PATTERN.test(status);
    last = changes;
    if (!quiet) await new Promise((resolve) => setTimeout(resolve, 200));
    return quiet;
  }, 'the page to finish rendering');
}

/** The page's presets, from its own wasm module (same origin, so the CSP allows the import). */
function pagePresets(page) {
  return page.evaluate(async () => {
    const wasm = await import('/pkg/backoff_lab.js');
    await wasm.default();
    return wasm.presets();
  });
}

/** Every form control of the page by id: its value, or whether it is checked. */
function controlValues(page) {
  return page.$$eval('#controls input, #controls select, #controls textarea, #embed-view', (elements) =>
    Object.fromEntries(
      elements.map((element) => [element.id, element.type === 'checkbox' ? element.checked : element.value]),
    ),
  );
}

async function downloadOf(page, buttonId) {
  const [download] = await Promise.all([page.waitForEvent('download'), page.click(`#${buttonId}`)]);
  const file = await download.path();
  assert.ok(file, `the download from #${buttonId} was not saved (${await download.failure()})`);
  return { name: download.suggestedFilename(), bytes: await readFile(file) };
}

// ---- Presets and the comparison

test('each preset loads and shows its documented give-up time', { timeout: 120_000 }, async () => {
  await withPage('', async ({ page }) => {
    const presets = await pagePresets(page);
    assert.ok(presets.length >= 7, `${presets.length} presets`);
    const options = await page.$$eval('#preset option', (all) => all.map((o) => ({ value: o.value, text: o.textContent })));
    assert.deepEqual(options[0], { value: '', text: 'your own policy' }, 'the first #preset option');
    assert.deepEqual(
      options.slice(1),
      presets.map((p) => ({ value: p.name, text: p.title })),
      '#preset lists every preset by title',
    );
    assert.ok(await page.locator('#preset-info').isHidden(), '#preset-info is hidden for your own policy');

    for (const preset of presets) {
      await renderAfter(page, () => page.selectOption('#preset', preset.name));
      const info = page.locator('#preset-info');
      assert.ok(await info.isVisible(), `#preset-info is visible for ${preset.name}`);
      const text = (await info.textContent()) ?? '';
      assert.ok(text.includes(preset.give_up_text), `#preset-info for ${preset.name} lacks ${preset.give_up_text}: ${JSON.stringify(text)}`);
      assert.ok(text.includes(preset.note), `#preset-info for ${preset.name} lacks its note`);
      const link = await page.$eval('#preset-source', (a) => ({ href: a.getAttribute('href'), rel: a.rel, text: a.textContent }));
      assert.equal(link.href, preset.source, `#preset-source href for ${preset.name}`);
      assert.equal(link.rel, 'noopener', '#preset-source rel');
      assert.ok(link.text.trim().length > 0, '#preset-source has text');

      const rows = await tableRows(page);
      assert.equal(rows.length, preset.attempts, `${preset.name}: one table row per attempt`);
      const listed = Array.isArray(preset.params.gaps);
      assert.equal(await page.locator('#gaps-field').isVisible(), listed, `#gaps-field visible for ${preset.name}`);
      assert.equal(await page.locator('#mode').inputValue(), preset.jitter.mode, `#mode for ${preset.name}`);
      if (typeof preset.jitter.factor === 'number') {
        assert.equal(Number(await page.locator('#factor-text').inputValue()), preset.jitter.factor, `#factor-text for ${preset.name}`);
      }
      const documented = DOCUMENTED[preset.name];
      if (documented) {
        assert.equal(preset.give_up_text, documented.giveUp, `${preset.name}: the documented give-up time`);
        assert.ok(text.includes(documented.giveUp), `#preset-info for ${preset.name} shows ${documented.giveUp}`);
        assert.equal(rows.length, documented.rows, `${preset.name}: attempts`);
        assert.equal(lastElapsed(rows), documented.lastElapsed, `${preset.name}: the last elapsed cell`);
      }
    }
    for (const name of Object.keys(DOCUMENTED)) {
      assert.ok(presets.some((p) => p.name === name), `a ${name} preset exists`);
    }

    // Svix again, then a 3 h cap: Svix's gaps cut to it (as the CLI's --cap cuts them), still
    // Svix; a cap past its longest gap brings them back.
    await renderAfter(page, () => page.selectOption('#preset', 'svix'));
    assert.match(await page.locator('#gaps-text').inputValue(), /^5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h$/, '#gaps-text for Svix');
    await renderAfter(page, () => page.fill('#cap-text', '3 h'));
    assert.equal(await page.locator('#preset').inputValue(), 'svix', 'a cap keeps Svix');
    assert.match(await page.locator('#gaps-text').inputValue(), /^5 s, 5 min, 30 min, 2 h, 3 h, 3 h, 3 h$/, 'the cap cuts the gaps');
    assert.equal(lastElapsed(await tableRows(page)), '11 h 35 min', 'Svix cut to 3 h gives up at 11 h 35 min');
    await renderAfter(page, () => page.fill('#cap-text', '20 h'));
    assert.match(await page.locator('#gaps-text').inputValue(), /^5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h$/, 'a longer cap gives the gaps back');
    assert.equal(lastElapsed(await tableRows(page)), DOCUMENTED.svix.lastElapsed, 'and Svix\'s schedule');

    // Then the base slider: back to your own policy, and the formula.
    await renderAfter(page, async () => {
      await page.focus('#base');
      await page.keyboard.press('ArrowRight');
    });
    assert.equal(await page.locator('#preset').inputValue(), '', 'moving base goes back to your own policy');
    assert.ok(await page.locator('#preset-info').isHidden(), '#preset-info hides with your own policy');
    assert.ok(await page.locator('#gaps-field').isHidden(), 'moving base drops the listed gaps');
    assert.equal(await page.locator('#gaps-text').inputValue(), '', '#gaps-text is empty');
    assert.notEqual(lastElapsed(await tableRows(page)), DOCUMENTED.svix.lastElapsed, 'the schedule is the formula again');
  });
});

test('the base slider past the cap takes the cap with it, and the cap slider under the base takes the base down', { timeout: 60_000 }, async () => {
  // Without the deadline sizing, which a 1 s cap could not meet (a refusal of its own).
  await withPage('#deadline=', async ({ page }) => {
    await renderAfter(page, async () => {
      await page.focus('#base');
      await page.keyboard.press('End');
    });
    const base = await page.locator('#base-text').inputValue();
    assert.equal(await page.locator('#cap-text').inputValue(), base, 'the cap follows the base to the slider\'s end');
    assert.equal(await page.locator('#cap-error').textContent(), '', 'and is not refused');
    assert.ok((await tableRows(page)).length > 0, 'the schedule is drawn');
    await renderAfter(page, async () => {
      await page.focus('#cap');
      await page.keyboard.press('Home');
    });
    const cap = await page.locator('#cap-text').inputValue();
    assert.equal(await page.locator('#base-text').inputValue(), cap, 'the base follows the cap to the slider\'s start');
    assert.equal(await page.locator('#cap-error').textContent(), '', 'the cap is not refused');
    assert.equal(await page.locator('#base-error').textContent(), '', 'nor the base');
    // Typed, a cap under the base is refused where it was typed, and the base is kept (it was
    // lowered silently: outside review).
    const kept = await page.locator('#base-text').inputValue();
    await page.fill('#cap-text', '0.5s');
    await page.waitForFunction(() => document.getElementById('cap-error').textContent !== '');
    assert.equal(await page.locator('#base-text').inputValue(), kept, 'the typed cap leaves the base');
    assert.match(await page.locator('#cap-error').textContent(), /at least the base/);
  });
});

test('a typed cap under the base moves neither thumb until the two no longer cross', { timeout: 60_000 }, async () => {
  await withPage('#deadline=', async ({ page }) => {
    const thumbs = () => page.evaluate(() => [document.getElementById('base').value, document.getElementById('cap').value]);
    const before = await thumbs();
    await page.fill('#cap-text', '10s');
    await page.waitForFunction(() => document.getElementById('cap-error').textContent !== '');
    assert.deepEqual(await thumbs(), before, 'the refused cap leaves both thumbs at the schedule drawn');
    await page.fill('#base-text', '5s');
    await page.waitForFunction(() => document.getElementById('cap-error').textContent === '');
    const [base, cap] = await thumbs();
    assert.notEqual(base, before[0], 'uncrossed, the base\'s thumb follows its field');
    assert.equal(cap, '2', 'and the cap\'s stands at 10 s, its third stop');
  });
});

test('choosing "your own policy" keeps the schedule; a new attempt count keeps the gaps', { timeout: 60_000 }, async () => {
  await withPage('', async ({ page }) => {
    await renderAfter(page, () => page.selectOption('#preset', 'svix'));
    await renderAfter(page, () => page.selectOption('#preset', ''));
    assert.ok(await page.locator('#preset-info').isHidden(), '#preset-info hides for your own policy');
    assert.ok(await page.locator('#gaps-field').isVisible(), 'your own policy keeps the listed gaps');
    assert.equal(lastElapsed(await tableRows(page)), DOCUMENTED.svix.lastElapsed, 'and the schedule');

    await renderAfter(page, () => page.selectOption('#preset', 'svix'));
    await renderAfter(page, () => page.fill('#attempts-text', '10'));
    assert.equal(await page.locator('#preset').inputValue(), '', 'a new attempt count leaves the preset');
    assert.ok(await page.locator('#gaps-field').isVisible(), 'but keeps the listed gaps');
    const rows = await tableRows(page);
    assert.equal(rows.length, 10, 'ten attempts of the listed gaps');
    assert.equal(rows[9][1], '10 h', 'past the list, the last gap repeats');

    await renderAfter(page, () => page.click('#drop-gaps'));
    assert.ok(await page.locator('#gaps-field').isHidden(), '"Use the formula instead" drops the gaps');
  });
});

test('comparing with a preset draws two timelines and names both give-up times', { timeout: 60_000 }, async () => {
  await withPage('', async ({ page }) => {
    assert.ok(await page.locator('#compare-info').isHidden(), '#compare-info is hidden without a comparison');
    const options = await page.$$eval('#compare option', (all) => all.map((o) => o.value));
    assert.equal(options[0], '', 'the first #compare option is "no comparison"');
    assert.equal(await page.$eval('#compare option', (o) => o.textContent), 'no comparison');
    const before = { height: await page.$eval('#timeline', (c) => c.clientHeight), pixels: await canvasDataUrl(page, '#timeline') };

    await renderAfter(page, () => page.selectOption('#compare', 'svix'));
    await settle(page);
    const info = page.locator('#compare-info');
    assert.ok(await info.isVisible(), '#compare-info is visible');
    const text = (await info.textContent()) ?? '';
    assert.ok(text.includes(`gives up after ${DEFAULT_LAST_ELAPSED}`), `#compare-info names your give-up time: ${JSON.stringify(text)}`);
    assert.ok(text.includes('Svix after 27 h 35 min'), `#compare-info names Svix's give-up time: ${JSON.stringify(text)}`);
    const height = await page.$eval('#timeline', (c) => c.clientHeight);
    assert.ok(height > before.height, `the compared timeline is taller (${height} px vs ${before.height} px)`);
    assert.notEqual(await canvasDataUrl(page, '#timeline'), before.pixels, 'the compared timeline is another picture');
    assertPainted(await canvasStats(page, '#timeline'), '#timeline');
    assert.equal((await tableRows(page)).length, DEFAULT_ROWS, 'the table stays your policy');

    await renderAfter(page, () => page.selectOption('#compare', ''));
    await settle(page);
    assert.ok(await info.isHidden(), '#compare-info hides again');
    assert.equal(await page.$eval('#timeline', (c) => c.clientHeight), before.height, 'the timeline is its usual height again');
    assert.equal(await canvasDataUrl(page, '#timeline'), before.pixels, 'the single timeline again');
  });
});

// ---- State in the URL hash

test('a link round-trips exactly', { timeout: 120_000 }, async () => {
  const viewport = { width: 1200, height: 900 };
  let href;
  let first;
  await withPage('', async ({ page }) => {
    await renderAfter(page, () => page.selectOption('#preset', 'svix'));
    await renderAfter(page, () => page.selectOption('#mode', 'equal'));
    await renderAfter(page, () => page.fill('#seed-text', '123456789'));
    await renderAfter(page, () => page.fill('#budget-text', '10'));
    await renderAfter(page, () => page.selectOption('#compare', 'standard-webhooks'));
    await renderAfter(page, () => page.selectOption('#samples', '100000'));
    await renderAfter(page, () => page.fill('#deliveries-text', '2500'));
    await renderAfter(page, () => page.fill('#rate-limit-text', '25/s'));
    await renderAfter(page, () => page.check('#pause'));
    await renderAfter(page, () => page.uncheck('#log-scale'));
    await renderAfter(page, () => page.selectOption('#embed-view', 'herd'));
    await settle(page);
    assert.equal(await page.locator('#preset').inputValue(), 'svix', 'a jitter mode keeps the preset');

    href = page.url();
    const hash = new URL(href).hash;
    for (const part of ['preset=svix', 'mode=equal', 'seed=123456789', 'budget=10', 'compare=standard-webhooks', 'pause=true', 'view=herd']) {
      assert.ok(hash.includes(part), `the hash ${JSON.stringify(hash)} lacks ${part}`);
    }
    assert.equal(await page.locator('#link-text').inputValue(), href, '#link-text shows the link');
    first = { controls: await controlValues(page), pixels: {} };
    for (const id of CHARTS) first.pixels[id] = await canvasDataUrl(page, `#${id}`);
  }, { viewport });

  await withPage(new URL(href).hash, async ({ page }) => {
    await settle(page);
    assert.ok(await page.locator('#notice').isHidden(), 'a link the page wrote has no notices');
    assert.deepEqual(await controlValues(page), first.controls, 'every control reads as on the first page');
    for (const id of CHARTS) {
      assert.equal(await canvasDataUrl(page, `#${id}`), first.pixels[id], `#${id} draws the same picture`);
    }
    assert.equal(page.url(), href, 'the page keeps the link as it is');
  }, { viewport });
});

test('a short link with a preset gets its schedule and jitter', { timeout: 60_000 }, async () => {
  await withPage('#preset=grpc&seed=7', async ({ page }) => {
    assert.equal(await page.locator('#preset').inputValue(), 'grpc', '#preset');
    assert.equal(await page.locator('#base-text').inputValue(), '1 s', '#base-text from the preset');
    assert.equal(await page.locator('#multiplier-text').inputValue(), '1.6', '#multiplier-text from the preset');
    assert.equal(await page.locator('#mode').inputValue(), 'proportional', '#mode from the preset');
    assert.equal(await page.locator('#seed-text').inputValue(), '7', '#seed-text from the link');
    assert.equal((await tableRows(page)).length, 10, 'the preset\'s ten attempts');
  });
});

test('garbage in the hash shows a notice and the defaults, and never becomes HTML', { timeout: 60_000 }, async () => {
  const garbage = '#base=-5s&mode=%3Cimg%20src%3Dx%20onerror%3D%22window.__pwned%3D1%22%3E&zzz=1';
  await withPage(garbage, async ({ page }) => {
    const notice = page.locator('#notice');
    assert.ok(await notice.isVisible(), '#notice is visible');
    // Said by a live region that never moves (the box does, and a moved region is not announced
    // by every screen reader).
    const announcer = page.locator('#notice-announcer');
    assert.equal(await announcer.getAttribute('role'), 'status', '#notice-announcer role');
    await page.waitForFunction(() => document.getElementById('notice-announcer').textContent.includes('zzz'));
    assert.equal(
      await announcer.evaluate((region) => region.parentElement === document.body),
      true,
      'the live region stays a child of the body',
    );
    const text = (await notice.textContent()) ?? '';
    assert.ok(text.includes('zzz'), `#notice names the unknown setting: ${JSON.stringify(text)}`);
    assert.ok(text.includes('base'), `#notice names the bad base: ${JSON.stringify(text)}`);
    assert.ok(text.includes('<img src=x'), `#notice shows the mode as text: ${JSON.stringify(text)}`);
    assert.equal(await page.locator('#base-text').inputValue(), '30 s', '#base-text falls back to the default');
    assert.equal(await page.locator('#mode').inputValue(), 'full', '#mode falls back to the default');
    const rows = await tableRows(page);
    assert.equal(rows.length, DEFAULT_ROWS, 'the default schedule');
    assert.equal(lastElapsed(rows), DEFAULT_LAST_ELAPSED, 'the default schedule');
    assert.equal(await page.evaluate(() => typeof window.__pwned), 'undefined', 'window.__pwned');
    assert.equal(await page.evaluate(() => document.querySelectorAll('img').length), 0, '<img> elements in the DOM');
    assert.ok(!page.url().includes('zzz'), `the page rewrote its link without the garbage: ${page.url()}`);

    // A new hash while the page is open is read too, and a clean one clears the notice.
    await renderAfter(page, () => page.evaluate(() => {
      location.hash = '#base=1m&attempts=5';
    }));
    assert.equal(await page.locator('#base-text').inputValue(), '1m', '#base-text from the new hash');
    assert.equal((await tableRows(page)).length, 5, 'five attempts from the new hash');
    assert.ok(await notice.isHidden(), '#notice hides for a clean hash');
    assert.equal(await announcer.textContent(), '', 'nothing left to announce for a clean hash');
    assert.equal(await page.evaluate(() => typeof window.__pwned), 'undefined', 'window.__pwned');
  });
});

// Every link Copy link writes names its chart, and the page opens at that chart: the list of
// what the link could not use was at the top, 2,400 px above where the reader landed (outside
// page review).
test('a link that opens at a chart shows what it could not use where the page lands', { timeout: 60_000 }, async () => {
  await withPage('#view=storm&budget=1000&multiplier=%3Cb%3E', async ({ page }) => {
    const notice = page.locator('#notice');
    assert.ok(await notice.isVisible(), '#notice is visible');
    const text = (await notice.textContent()) ?? '';
    assert.ok(text.includes('budget') && text.includes('multiplier'), `#notice names both: ${JSON.stringify(text)}`);
    assert.equal(
      await notice.evaluate((box) => box.closest('section')?.getAttribute('aria-labelledby')),
      'storm-heading',
      'the notice is in the storm section',
    );
    const inView = await notice.evaluate((box) => {
      const { top, bottom } = box.getBoundingClientRect();
      return top >= 0 && bottom <= window.innerHeight;
    });
    assert.ok(inView, 'the notice is on screen where the link opened');
  });
  // The herd shares the jitter's section: its link's notice goes under its own heading.
  await withPage('#view=herd&budget=1000', async ({ page }) => {
    assert.equal(await page.locator('#notice').evaluate((box) => box.previousElementSibling?.id), 'herd-heading');
  });
});

test('the link is copied, or selected when the clipboard refuses', { timeout: 60_000 }, async () => {
  await withPage(
    '',
    async ({ page }) => {
      await renderAfter(page, () => page.fill('#seed-text', '99'));
      await page.click('#copy-link');
      await until(async () => (await textOf(page, '#share-status')).includes('copied'), '#share-status to say the link was copied');
      assert.equal(await page.evaluate(() => navigator.clipboard.readText()), page.url(), 'the clipboard holds the link');

      await page.evaluate(() => {
        navigator.clipboard.writeText = () => Promise.reject(new DOMException('denied', 'NotAllowedError'));
      });
      await page.click('#copy-link');
      await until(async () => (await textOf(page, '#share-status')).includes('did not allow'), '#share-status to explain');
      const selected = await page.evaluate(() => {
        const field = document.activeElement;
        return { id: field?.id, text: field?.value?.slice(field.selectionStart, field.selectionEnd) };
      });
      assert.deepEqual(selected, { id: 'link-text', text: page.url() }, 'the link field is focused and its text selected');
    },
    { permissions: ['clipboard-read', 'clipboard-write'] },
  );
});

// The address bar and the link field follow an input at once, not when every chart is drawn
// (seconds with a long schedule, while a reader copying the address bar shared the settings
// before), and "Link copied." goes once the link it spoke of is no longer the page's.
test('the link follows an input before the costly charts are drawn, and a copied link\'s status goes with it', { timeout: 120_000 }, async () => {
  await withPage(
    '',
    async ({ page }) => {
      await page.click('#copy-link');
      await until(async () => (await textOf(page, '#share-status')).includes('copied'), '#share-status to say the link was copied');
      await page.selectOption('#mode', 'decorrelated');
      await page.fill('#attempts-text', '800');
      await page.fill('#seed-text', '7');
      await until(() => page.evaluate(() => location.hash.includes('seed=7')), 'the address bar to follow the seed', 2_000);
      assert.ok((await page.locator('#link-text').inputValue()).includes('seed=7'), 'the link field follows the seed');
      // Still computing: the staleness chart of 800 decorrelated attempts takes seconds.
      assert.equal(await textOf(page, '#status'), 'computing…', 'written before the render finished');
      assert.equal(await textOf(page, '#share-status'), '', '"Link copied." is gone with the link it spoke of');
    },
    { permissions: ['clipboard-read', 'clipboard-write'] },
  );
});

// ---- Exports

// A download is named after what it shows and the settings it was drawn from (every one read
// `backoff-lab-storm.png`, whatever the state): here the default state's.
const DEFAULT_POLICY = '30s-x3-cap-3h-14-attempts';
const STEMS = {
  timeline: `backoff-lab-timeline-${DEFAULT_POLICY}`,
  distribution: `backoff-lab-distribution-${DEFAULT_POLICY}-full-jitter`,
  herd: `backoff-lab-herd-${DEFAULT_POLICY}-full-jitter`,
  storm: `backoff-lab-storm-${DEFAULT_POLICY}-full-jitter-outage-10min`,
  staleness: `backoff-lab-staleness-${DEFAULT_POLICY}-full-jitter-tolerance-6h`,
  survival: `backoff-lab-survival-${DEFAULT_POLICY}-full-jitter-outage-10min`,
  schedule: `backoff-lab-schedule-${DEFAULT_POLICY}`,
};
// Then six hex digits of the state, which set two states' names apart.
const named = (id, extension) => new RegExp(`^${STEMS[id]}-[0-9a-f]{6}\\.${extension}$`);

test('PNG and SVG exports of every chart', { timeout: 120_000 }, async () => {
  await withPage('', async ({ page }) => {
    await settle(page);
    for (const id of CHARTS) {
      const png = await downloadOf(page, `export-${id}-png`);
      assert.match(png.name, named(id, 'png'), `#export-${id}-png file name`);
      assert.deepEqual([...png.bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], `${png.name} starts with the PNG signature`);

      const svg = await downloadOf(page, `export-${id}-svg`);
      assert.match(svg.name, named(id, 'svg'), `#export-${id}-svg file name`);
      const text = svg.bytes.toString('utf8');
      assert.ok(/^(<\?xml[^>]*>\s*)?<svg[\s>]/.test(text), `${svg.name} starts with <svg: ${JSON.stringify(text.slice(0, 60))}`);
      assert.ok(text.trimEnd().endsWith('</svg>'), `${svg.name} ends with </svg>`);
      // Titled and described with the caption, as `backoff-lab figure` writes it.
      assert.match(text, /<title>backoff-lab: [^<]+<\/title>\s*<desc>[^<]{40,}<\/desc>/, `${svg.name} has a <title> and a <desc>`);
      const parsed = await page.evaluate((source) => {
        const doc = new DOMParser().parseFromString(source, 'image/svg+xml');
        return { root: doc.documentElement.localName, errors: doc.getElementsByTagName('parsererror').length };
      }, text);
      assert.deepEqual(parsed, { root: 'svg', errors: 0 }, `${svg.name} parses as SVG`);
    }
  });
});

// The page had no CSV for the jitter, herd and storm charts, which the element's downloads have
// (outside page review): the numbers the chart was drawn from, as the element writes them.
test('the jitter, herd and storm charts export their numbers as CSV', { timeout: 120_000 }, async () => {
  await withPage('', async ({ page }) => {
    await settle(page);
    for (const id of ['distribution', 'herd', 'storm']) {
      const csv = await downloadOf(page, `export-${id}-numbers-csv`);
      assert.match(csv.name, named(id, 'csv'), `#export-${id}-numbers-csv file name`);
      const lines = csv.bytes.toString('utf8').trimEnd().split('\n');
      const width = lines[0].split(',').length;
      assert.ok(width >= 2 && lines.length >= 2, `${csv.name}: ${JSON.stringify(lines.slice(0, 3))}`);
      assert.ok(lines.every((line) => line.split(',').length === width), `${csv.name}: one width`);
      // The bins the chart draws, not the summary under it (outside page review).
      const header = { distribution: 'give_up_from_s,give_up_to_s,deliveries,share', herd: 'series,bin_start_s,bin_s,first_retries' }[id];
      if (header) assert.equal(lines[0], header, `${csv.name}: its bins`);
      if (header) assert.ok(lines.length > 10, `${csv.name}: ${lines.length} lines`);
    }
    // A report's own CSV button saves one file (bound twice for a moment, it saved two).
    const downloads = [];
    page.on('download', (d) => downloads.push(d.suggestedFilename()));
    await page.click('#export-staleness-csv');
    await page.waitForTimeout(1_000);
    assert.equal(downloads.length, 1, 'one download a click');
    assert.match(downloads[0], named('staleness', 'csv'));
    // The storm's CSV is every series' minutes; the busiest of your policy's is the caption's
    // peak (an expected value in the CSV, rounded in words).
    const storm = (await downloadOf(page, 'export-storm-numbers-csv')).bytes.toString('utf8').trimEnd().split('\n');
    const column = storm[0].split(',').indexOf('attempts');
    const yours = storm.slice(1).map((line) => line.split(',')).filter((cells) => cells[0] === 'your policy');
    assert.ok(yours.length > 60, `${yours.length} minutes of your policy`);
    const peak = Math.round(Math.max(...yours.map((cells) => Number(cells[column]))));
    const caption = await textOf(page, '#storm-caption');
    assert.ok(caption.includes(`attempts peak at ${peak.toLocaleString('en-US')} `), `peak ${peak} in ${JSON.stringify(caption.slice(0, 160))}`);
  });
});

// The jitter, herd and storm numbers were only in their captions on the page (outside page
// review): each chart has "The numbers" folded under it, as the element has.
test('the jitter, herd and storm charts show their numbers as a table', { timeout: 120_000 }, async () => {
  await withPage('', async ({ page }) => {
    await settle(page);
    for (const id of ['distribution', 'herd', 'storm']) {
      const details = page.locator(`details:has(#${id}-numbers)`);
      assert.ok(await details.isVisible(), `${id}: "The numbers" is shown`);
      await details.locator('summary').click();
      const table = await page.$eval(`#${id}-numbers`, (t) => ({
        caption: t.caption?.textContent,
        headers: [...t.tHead.rows[0].cells].map((c) => c.textContent),
        rows: t.tBodies[0].rows.length,
      }));
      assert.ok(table.caption && table.headers.length >= 2 && table.rows >= 1, `${id}: ${JSON.stringify(table)}`);
    }
    const storm = await page.$eval('#storm-numbers', (t) => [...t.tHead.rows[0].cells].map((c) => c.textContent));
    assert.ok(storm.includes('peak attempts/min'), JSON.stringify(storm));
  });
});

test('the schedule exports as CSV, JSON and Markdown', { timeout: 60_000 }, async () => {
  await withPage(
    '',
    async ({ page }) => {
      const csv = await downloadOf(page, 'export-csv');
      assert.match(csv.name, named('schedule', 'csv'));
      const lines = csv.bytes.toString('utf8').trimEnd().split('\n');
      assert.equal(lines.length, DEFAULT_ROWS + 1, `one CSV line per attempt plus a header: ${JSON.stringify(lines)}`);
      assert.match(lines[0], /^attempt,/, 'the CSV header');
      assert.match(lines[DEFAULT_ROWS], /^14,10800,86520,/, 'the last attempt in the CSV');

      const json = await downloadOf(page, 'export-json');
      assert.match(json.name, named('schedule', 'json'));
      const report = JSON.parse(json.bytes.toString('utf8'));
      assert.equal(report.rows.length, DEFAULT_ROWS, 'rows in the JSON');
      assert.equal(report.give_up_s, 86_520, 'give_up_s in the JSON');

      await page.click('#copy-markdown');
      await until(async () => (await textOf(page, '#copy-markdown ~ .export-status')).includes('copied'), 'the Markdown to be copied');
      const markdown = await page.evaluate(() => navigator.clipboard.readText());
      assert.ok(markdown.startsWith('| Attempt | Gap before it | Elapsed since first failure |'), `Markdown: ${JSON.stringify(markdown.slice(0, 80))}`);
      assert.ok(markdown.includes(`| 14 | 3 h (capped) | ${DEFAULT_LAST_ELAPSED} |`), 'the last attempt in the Markdown');
      // The facts shown under the timeline, the jittered give-up among them, are in it too.
      const facts = await page.$$eval('#facts li', (items) => items.map((item) => item.textContent));
      assert.ok(facts.some((fact) => fact.includes('on average')), `the jittered give-up among the facts: ${JSON.stringify(facts)}`);
      for (const fact of facts) assert.ok(markdown.includes(fact), `${JSON.stringify(fact)} in the Markdown`);

      // A preset's schedule exports as the preset.
      await renderAfter(page, () => page.selectOption('#preset', 'svix'));
      const svix = (await downloadOf(page, 'export-csv')).bytes.toString('utf8').trimEnd().split('\n');
      assert.equal(svix.length, DOCUMENTED.svix.rows + 1, 'Svix: one CSV line per attempt plus a header');
      assert.match(svix.at(-1), /^8,36000,99305,/, 'Svix: the last attempt in the CSV');
    },
    { permissions: ['clipboard-read', 'clipboard-write'] },
  );
});

// ---- Keyboard and out-of-date numbers

test('the first tab stop skips the settings to the charts; a refused input dims the schedule\'s numbers', { timeout: 60_000 }, async () => {
  await withPage('', async ({ page }) => {
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement.id), 'skip-to-charts', 'the first tab stop');
    assert.ok(await page.locator('#skip-to-charts').isVisible(), 'shown once focused');
    await page.keyboard.press('Enter');
    assert.equal(await page.evaluate(() => document.activeElement.id), 'schedule-heading', 'focus lands on the charts');
    assert.equal(new URL(page.url()).hash, '', 'the hash, the page\'s state, is untouched');

    const dimmed = () => page.$$eval('#facts, #schedule-box', (els) => els.map((e) => e.classList.contains('stale')));
    assert.deepEqual(await dimmed(), [false, false]);
    const before = await statusChanges(page);
    await page.fill('#base-text', 'abc');
    await nextRender(page, before, /^not everything was redrawn/);
    assert.deepEqual(await dimmed(), [true, true], 'the facts and the table are out of date with the timeline');
    await renderAfter(page, () => page.fill('#base-text', '30s'));
    assert.deepEqual(await dimmed(), [false, false], 'current again once redrawn');
  });
});

// ---- The embed page

test('the Embed button writes an iframe snippet, and the script that sizes it, for the chosen chart', { timeout: 60_000 }, async () => {
  await withPage('', async ({ page, context }) => {
    assert.ok(await page.locator('#embed-box').isHidden(), 'no embed code before asking');
    await renderAfter(page, () => page.fill('#seed-text', '5'));
    await renderAfter(page, () => page.selectOption('#embed-view', 'storm'));
    assert.equal(await page.getAttribute('#embed', 'aria-expanded'), 'false');
    await page.click('#embed');
    assert.equal(await page.getAttribute('#embed', 'aria-expanded'), 'true', 'the button says its box is open');
    const code = await page.locator('#embed-code').inputValue();
    assert.equal(await page.$eval('#embed-code', (t) => t.readOnly), true, '#embed-code is read-only');
    const match = /^<iframe src="([^"]+)" width="100%" height="640" frameborder="0" loading="lazy" title="([^"]+)"><\/iframe>\n<!-- once per page, for every backoff-lab iframe on it: sizes each to its chart \(without it, each keeps the height above\) -->\n<script src="([^"]+)" defer><\/script>$/.exec(code);
    assert.ok(match, `#embed-code reads ${JSON.stringify(code)}`);
    const src = match[1].replaceAll('&amp;', '&');
    assert.ok(src.startsWith(new URL('embed.html#', baseUrl).href), `the iframe src ${src}`);
    assert.ok(src.endsWith('&view=storm'), `the iframe src names the view: ${src}`);
    assert.ok(src.includes('seed=5'), `the iframe src carries the settings: ${src}`);
    assert.match(match[2], /storm/, 'the iframe title');
    assert.equal(match[3], new URL('embed-host.js', baseUrl).href, 'the host script beside the embed page');
    assert.equal(await page.evaluate(() => document.querySelectorAll('iframe').length), 0, 'the snippet is text, not an element');

    // The code follows later changes.
    await renderAfter(page, () => page.selectOption('#embed-view', 'herd'));
    assert.ok((await page.locator('#embed-code').inputValue()).includes('view=herd'), '#embed-code follows the chart choice');

    // The snippet works: pasted into another site's page (another origin on the loopback
    // interface, with no CSP of its own), its frame draws the chart.
    const snippet = await page.locator('#embed-code').inputValue();
    const hostServer = createServer((request, response) => {
      response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      response.end(`<!doctype html><title>An article</title><p>Retries:</p>${snippet}`);
    });
    await new Promise((resolve) => hostServer.listen(0, '127.0.0.1', resolve));
    try {
      const host = await context.newPage();
      host.setDefaultTimeout(WAIT_MS);
      const hostProblems = watchProblems(host);
      await host.goto(`http://127.0.0.1:${hostServer.address().port}/article.html`);
      const frame = await until(() => host.frames().find((f) => f.url().includes('embed.html')), 'the embed frame');
      await frame.waitForSelector('body[data-ready="true"]', { state: 'attached' });
      assert.equal(await frame.evaluate(() => document.querySelectorAll('canvas').length), 1, 'one canvas in the frame');
      assertPainted(await canvasStats(frame, 'canvas'), 'the embedded herd');
      // embed-host.js gives the frame the height its content asks for, not the snippet's (herd: 460 px).
      const wanted = await frame.evaluate(() => document.querySelector('.embed-caption').scrollHeight);
      await until(async () => (await host.$eval('iframe', (f) => f.clientHeight)) !== 460, 'the frame to size itself');
      assert.ok((await host.$eval('iframe', (f) => f.clientHeight)) > wanted + 200, 'the chart and its caption fit');
      assertNoProblems(hostProblems);
    } finally {
      hostServer.closeAllConnections();
      await new Promise((resolve) => hostServer.close(resolve));
    }
  });
});

test('the embed page draws exactly one chart for each view, under the strict CSP', { timeout: 120_000 }, async () => {
  for (const view of VIEWS) {
    await withPage(`embed.html#seed=7&view=${view}`, async ({ page, response }) => {
      const policy = response.headers()['content-security-policy'] ?? '';
      assert.match(policy, /script-src 'self' 'wasm-unsafe-eval'/, 'the strict CSP header');
      assert.doesNotMatch(policy, /'unsafe-inline'|'unsafe-eval'/, 'the CSP stays strict');
      assert.equal(await page.evaluate(() => document.querySelectorAll('canvas').length), 1, `${view}: canvases`);
      assert.equal(await page.evaluate(() => document.querySelectorAll('script:not([src])').length), 0, 'no inline script');
      assert.equal(await page.evaluate(() => document.querySelectorAll('[style]').length), 0, 'no style attribute');
      // The caption sits under the chart: wait for the redraw at the final size.
      await until(
        () => page.$eval('canvas', (c) => c.width === Math.round(c.getBoundingClientRect().width * (window.devicePixelRatio || 1))),
        'the canvas to fit its box',
      );
      assertPainted(await canvasStats(page, 'canvas'), `the embedded ${view}`);
      const caption = (await textOf(page, '#chart-caption')).trim();
      assert.ok(caption.length > 20, `${view}: the caption reads ${JSON.stringify(caption)}`);
      assert.notEqual(caption, 'loading…', `${view}: the caption`);
      assert.equal(await page.$eval('#chart', (c) => c.getAttribute('aria-label')), caption, `${view}: aria-label`);
      assert.equal(await page.$eval('#chart-caption', (p) => p.getAttribute('aria-live')), 'polite', 'aria-live');
      const box = await page.$eval('#chart', (c) => {
        const rect = c.getBoundingClientRect();
        return { width: rect.width, bottom: rect.bottom, viewport: window.innerWidth, height: window.innerHeight, scroll: document.documentElement.scrollHeight };
      });
      assert.equal(box.width, box.viewport, `${view}: the chart spans the frame's width`);
      assert.ok(box.bottom <= box.height && box.scroll <= box.height, `${view}: chart and caption fit the frame (${JSON.stringify(box)})`);
      const href = await page.$eval('#open-explorer', (a) => a.getAttribute('href'));
      assert.ok(href.startsWith('./index.html#') && href.includes('seed=7'), `the explorer link: ${href}`);
      assert.equal(await page.locator('#open-explorer').isVisible(), true, 'the explorer link, served');
      if (view === 'storm') {
        // A redraw at another width says the same: the caption, a live region, is not written
        // again (it was read out in full at every resize).
        await page.evaluate(() => {
          window.captionWrites = 0;
          new MutationObserver(() => { window.captionWrites += 1; })
            .observe(document.getElementById('chart-caption'), { childList: true, characterData: true, subtree: true });
        });
        await page.setViewportSize({ width: 560, height: 360 });
        await until(
          () => page.$eval('canvas', (c) => c.width === Math.round(c.getBoundingClientRect().width * (window.devicePixelRatio || 1))),
          'the canvas to fit its new box',
        );
        assert.equal(await page.evaluate(() => window.captionWrites), 0, 'the caption is not written again');
      }
    }, { viewport: { width: 640, height: 360 } });
  }
});

/**
 * Opens the embed page at `embedUrl` (no hash) with the staleness report of 10,000 jittered
 * attempts, a second or more of work, and asserts that the page answered while it was computed
 * (`where` names the case in messages).
 */
async function assertAnswersWhileComputing(embedUrl, where) {
  const context = await browser.newContext({ viewport: { width: 640, height: 360 } });
  const page = await context.newPage();
  const problems = watchProblems(page);
  try {
    await page.addInitScript(() => {
      new MutationObserver(() => {
        if (document.body?.dataset.ready && window.__readyAt === undefined) window.__readyAt = performance.now();
      }).observe(document, { attributes: true, subtree: true });
    });
    await page.goto(`${embedUrl}#view=staleness&attempts=10000&mode=full`);
    // The page has read its link (its title names the chart) and asked for the chart.
    await until(async () => (await page.title()).startsWith('backoff-lab: '), 'the page to read its link', 30_000);
    const answered = await page.evaluate(() => performance.now());
    await until(async () => (await page.evaluate(() => window.__readyAt)) !== undefined, 'the chart', 60_000);
    const readyAt = await page.evaluate(() => window.__readyAt);
    // Computed on the page's thread, the page answered only once the chart was drawn.
    assert.ok(answered < readyAt, `${where}: answered at ${answered} ms, the chart drawn at ${readyAt} ms`);
    assertPainted(await canvasStats(page, 'canvas'), `the staleness chart, ${where}`);
    assertNoProblems(problems);
  } finally {
    await context.close();
  }
}

test('the embed page computes a costly chart in a worker: the page answers while it is computed', { timeout: 120_000 }, async () => {
  await assertAnswersWhileComputing(new URL('embed.html', baseUrl).href, 'served');
});

test('a saved copy of the embed page draws every view from file://, with no server', { timeout: 120_000 }, async () => {
  // Only what the embed page needs: its HTML, its one script (the wasm inside) and the styles.
  const copy = await mkdtemp(path.join(os.tmpdir(), 'backoff-lab-embed-'));
  try {
    for (const file of ['embed.html', 'embed.bundle.js', 'style.css']) {
      await copyFile(path.join(wwwRoot, file), path.join(copy, file));
    }
    // The survival map too, small: its rows computed by the workers the bundle carries.
    for (const [view, more] of [...VIEWS.map((view) => [view, '']), ['survival', '&steps=4x2']]) {
      const context = await browser.newContext({ viewport: { width: 360, height: 360 } });
      try {
        const page = await context.newPage();
        const problems = watchProblems(page);
        const requests = [];
        page.on('request', (request) => requests.push(request.url()));
        await page.goto(`${pathToFileURL(path.join(copy, 'embed.html')).href}#seed=7&view=${view}${more}`);
        await page.waitForSelector('body[data-ready="true"]', { state: 'attached', timeout: WAIT_MS });
        assertPainted(await canvasStats(page, 'canvas'), `the ${view} from file://`);
        const caption = (await textOf(page, '#chart-caption')).trim();
        assert.ok(caption.length > 20 && caption !== 'loading…', `${view}: the caption reads ${JSON.stringify(caption)}`);
        // No link to an explorer that cannot run here (and is not among the three files).
        assert.equal(await page.locator('#open-explorer').isHidden(), true, `${view}: "Open in backoff-lab" is hidden`);
        // (blob: is the workers' script the bundle carries, made on the page.)
        assert.deepEqual(requests.filter((url) => !/^(file|blob):/.test(url)), [], `${view}: requests beyond its own files`);
        assertNoProblems(problems);
      } finally {
        await context.close();
      }
    }
    // A costly chart is computed in a worker from file:// too (started from the copy of its
    // script the bundle carries), not on the page: the page answers before it is drawn.
    await assertAnswersWhileComputing(pathToFileURL(path.join(copy, 'embed.html')).href, 'from file://');
    // Where no worker may start at all (a CSP's worker-src 'none'), the chart and the survival
    // map are computed on the page itself, and drawn.
    const html = await readFile(path.join(copy, 'embed.html'), 'utf8');
    await writeFile(path.join(copy, 'embed.html'), html.replace('<head>', `<head>\n  <meta http-equiv="Content-Security-Policy" content="worker-src 'none'">`));
    for (const more of ['view=storm', 'view=survival&steps=4x2']) {
      const context = await browser.newContext({ viewport: { width: 360, height: 360 } });
      try {
        const page = await context.newPage();
        const problems = watchProblems(page);
        await page.goto(`${pathToFileURL(path.join(copy, 'embed.html')).href}#seed=7&${more}`);
        await page.waitForSelector('body[data-ready="true"]', { state: 'attached', timeout: WAIT_MS });
        assertPainted(await canvasStats(page, 'canvas'), `${more} from file:// without workers`);
        // The refused worker is the only complaint (the browser's, on the console).
        assertNoProblems(problems.filter((p) => !/worker-src 'none'/.test(p)));
      } finally {
        await context.close();
      }
    }
  } finally {
    await rm(copy, { recursive: true, force: true });
  }
});

// A chart the embed page cannot draw left a large empty box above a small grey message
// (outside page review); its message takes the chart's place, as on the page.
test('the embed page shows a chart it cannot draw as its message, without an empty box', { timeout: 60_000 }, async () => {
  await withPage('embed.html#view=distribution', async ({ page }) => {
    const drawn = await textOf(page, '#chart-caption');
    await page.evaluate(() => { location.hash = '#view=distribution&mode=decorrelated&preset=svix'; });
    await until(async () => (await textOf(page, '#chart-caption')).startsWith('This chart could not be drawn'), 'the refusal');
    assert.equal(await page.locator('#chart').isVisible(), false, 'no empty chart box');
    const caption = await page.$eval('.embed-caption', (c) => ({ top: c.getBoundingClientRect().top, border: getComputedStyle(c).borderTopStyle }));
    assert.ok(caption.top < 60 && caption.border === 'dashed', `the message in the chart's place: ${JSON.stringify(caption)}`);
    // And a good link draws the chart again.
    await page.evaluate(() => { location.hash = '#view=distribution'; });
    await until(async () => (await textOf(page, '#chart-caption')) === drawn, 'the chart again');
    assert.equal(await page.locator('#chart').isVisible(), true, 'the chart is back');
    assertPainted(await canvasStats(page, '#chart'), 'the redrawn distribution');
  });
});

test('the embed page redraws when its frame is resized', { timeout: 60_000 }, async () => {
  await withPage('embed.html#view=distribution', async ({ page }) => {
    const before = await page.$eval('#chart', (c) => ({ width: c.width, height: c.height }));
    await page.setViewportSize({ width: 420, height: 300 });
    await until(async () => (await page.$eval('#chart', (c) => c.width)) !== before.width, 'the canvas to follow the frame');
    const after = await page.$eval('#chart', (c) => ({ width: c.width, height: c.height }));
    assert.ok(after.width < before.width && after.height < before.height, `${JSON.stringify(before)} → ${JSON.stringify(after)}`);
    assertPainted(await canvasStats(page, '#chart'), 'the resized distribution');
  }, { viewport: { width: 800, height: 480 } });
});

test('the embed page follows the color scheme', { timeout: 60_000 }, async () => {
  const backgrounds = {};
  for (const colorScheme of ['light', 'dark']) {
    await withPage('embed.html#view=timeline', async ({ page }) => {
      backgrounds[colorScheme] = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      assertPainted(await canvasStats(page, '#chart'), `the ${colorScheme} timeline`);
    }, { colorScheme });
  }
  assert.notEqual(backgrounds.light, backgrounds.dark, `backgrounds ${JSON.stringify(backgrounds)}`);
  // A link's theme wins over the reader's scheme, for the page and the chart alike (a
  // light-only docs site showed a dark frame to readers with a dark system).
  for (const [theme, colorScheme] of [['light', 'dark'], ['dark', 'light']]) {
    await withPage(`embed.html#view=timeline&theme=${theme}`, async ({ page }) => {
      const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      assert.equal(background, backgrounds[theme], `theme=${theme} on a ${colorScheme} system`);
      const stats = await canvasStats(page, '#chart');
      assertPainted(stats, `the ${theme} timeline`);
      const corner = await page.$eval('#chart', (c) => [...c.getContext('2d').getImageData(2, 2, 1, 1).data].slice(0, 3));
      const light = corner.reduce((a, b) => a + b, 0) > 3 * 128;
      assert.equal(light, theme === 'light', `the chart's own background ${corner}`);
      assert.equal(await page.locator('#notice').isHidden().catch(() => true), true, 'theme is a setting, not an unknown key');
    }, { colorScheme });
  }
  // The explorer keeps a link's theme (it was dropped in silence), in its colours and its link.
  await withPage('index.html#theme=dark&view=storm', async ({ page }) => {
    await until(async () => /theme=dark/.test(page.url()), 'the link keeps its theme');
    // The explorer's background is the root's (the style sheet's dark --bg, #0d1117).
    const background = await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
    assert.equal(background, 'rgb(13, 17, 23)', 'the page is dark on a light system');
    assert.equal(await page.$eval('#theme', (s) => s.value), 'dark', 'the Theme control shows the link\'s theme');
  }, { colorScheme: 'light' });
  // The Theme control sets it: the page, its charts, its link and its embed snippet follow.
  await withPage('index.html', async ({ page }) => {
    const rootBackground = () => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
    const corner = async () => {
      const pixel = await page.$eval('#timeline', (c) => [...c.getContext('2d').getImageData(2, 2, 1, 1).data].slice(0, 3));
      return pixel.reduce((a, b) => a + b, 0) > 3 * 128 ? 'light' : 'dark';
    };
    const light = await rootBackground();
    assert.equal(await corner(), 'light');
    await page.selectOption('#theme', 'dark');
    await until(async () => /theme=dark/.test(page.url()), 'the link to carry theme=dark');
    assert.equal(await rootBackground(), 'rgb(13, 17, 23)', 'the page turns dark');
    await until(async () => (await corner()) === 'dark', 'the timeline to be redrawn dark');
    await page.click('#embed');
    assert.match(await page.$eval('#embed-code', (t) => t.value), /theme=dark/, 'the embed snippet carries the theme');
    await page.selectOption('#theme', 'auto');
    await until(async () => !/theme=/.test(page.url()), 'the link to drop the default theme');
    assert.equal(await rootBackground(), light, 'the page follows the system again');
    await until(async () => (await corner()) === 'light', 'the timeline to be redrawn light');
  }, { colorScheme: 'light' });
});

// ---- Accessibility, CSP and screenshots

test('the new controls are labelled, reached with Tab and show their focus', { timeout: 60_000 }, async () => {
  await withPage('', async ({ page, response }) => {
    const policy = response.headers()['content-security-policy'] ?? '';
    assert.match(policy, /script-src 'self' 'wasm-unsafe-eval'/, 'the strict CSP header');
    assert.equal(await page.evaluate(() => document.querySelectorAll('[style]').length), 0, 'no style attributes');

    const ids = ['preset', 'compare', 'storm-compare', 'gaps-text', 'then-every-text', 'traffic-text', 'link-text', 'embed-view', 'theme', 'embed-code'];
    for (const id of ids) {
      const labels = await page.$eval(`#${id}`, (element) => Array.from(element.labels ?? [], (l) => l.textContent.trim()));
      assert.ok(labels.length > 0 && labels[0] !== '', `#${id} has a label`);
    }
    const buttons = ['copy-link', 'embed', 'drop-gaps', 'export-csv', 'export-json', 'copy-markdown',
      ...CHARTS.flatMap((id) => [`export-${id}-png`, `export-${id}-svg`])];
    for (const id of buttons) {
      const name = await page.$eval(`#${id}`, (b) => (b.getAttribute('aria-label') || b.textContent).trim());
      assert.ok(name.length > 0, `#${id} has a name`);
      assert.equal(await page.$eval(`#${id}`, (b) => b.type), 'button', `#${id} is a button`);
    }
    // A caption is the chart's name, read once: as live regions, every key press on a slider
    // re-read all five (the storm's alone is 1,350 characters), and a canvas described by the
    // caption it is labelled with read it twice (outside page review).
    for (const id of ['caption', 'distribution-caption', 'herd-caption', 'storm-caption', 'staleness-caption', 'survival-caption']) {
      assert.equal(await page.$eval(`#${id}`, (p) => p.closest('[aria-live]')), null, `#${id} is no live region`);
    }
    for (const id of CHARTS) {
      assert.equal(await page.$eval(`#${id}`, (c) => c.getAttribute('aria-describedby')), null, `#${id} is not described by its own label`);
    }
    const markdownNames = await Promise.all(['copy-markdown', 'copy-staleness-markdown']
      .map((id) => page.$eval(`#${id}`, (b) => b.getAttribute('aria-label'))));
    assert.ok(markdownNames[0] && markdownNames[1] && markdownNames[0] !== markdownNames[1], `two Markdown buttons, two names: ${markdownNames}`);

    // The skip button comes first, then the share row (the link before the many controls), then
    // the preset list, the first control: Tab reaches it, shows its focus, and the arrow keys
    // choose a preset.
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'skip-to-charts', 'the first Tab stop');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'copy-link', 'the second Tab stop');
    for (let i = 0; i < 6 && (await page.evaluate(() => document.activeElement?.id)) !== 'preset'; i++) {
      await page.keyboard.press('Tab');
    }
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'preset', 'the first control, after the share row');
    const focus = await page.$eval('#preset', (element) => ({
      visible: element.matches(':focus-visible'),
      outline: getComputedStyle(element).outlineStyle,
    }));
    assert.ok(focus.visible && focus.outline !== 'none', `#preset shows its focus: ${JSON.stringify(focus)}`);
    await renderAfter(page, () => page.keyboard.press('ArrowDown'));
    assert.notEqual(await page.locator('#preset').inputValue(), '', 'ArrowDown chose a preset');
    assert.ok(await page.locator('#preset-info').isVisible(), '#preset-info shows for the keyboard-chosen preset');

    // Keyboard to the Copy link button and press it.
    await page.focus('#copy-link');
    await page.keyboard.press('Enter');
    await until(async () => (await textOf(page, '#share-status')).trim() !== '', '#share-status after Enter on #copy-link');
  });
});

test('screenshots of the explorer and the embed page', { timeout: 60_000 }, async () => {
  await mkdir(shotsDir, { recursive: true });
  await withPage('#preset=svix&compare=standard-webhooks', async ({ page }) => {
    await settle(page);
    await page.click('#embed');
    await page.locator('#export-timeline-png').focus();
    const file = path.join(shotsDir, 'explorer.png');
    await page.screenshot({ path: file, fullPage: true });
    assert.ok(existsSync(file), `${file} was not written`);
  }, { viewport: { width: 1200, height: 900 } });
  await withPage('embed.html#view=storm', async ({ page }) => {
    const file = path.join(shotsDir, 'embed.png');
    await until(
      () => page.$eval('canvas', (c) => c.width === Math.round(c.getBoundingClientRect().width)),
      'the canvas to fit its box',
    );
    await page.screenshot({ path: file });
    assert.ok(existsSync(file), `${file} was not written`);
  }, { viewport: { width: 640, height: 360 } });
});

test('the compared preset joins the storm as well', { timeout: 60_000 }, async () => {
  await withPage('', async ({ page }) => {
    const lines = async () => ((await textOf(page, '#storm-caption')) ?? '').split('\n').filter(Boolean);
    const before = { lines: await lines(), pixels: await canvasDataUrl(page, '#storm') };
    assert.equal(before.lines.length, 3, 'your policy, fixed 30 s and the budget');
    await renderAfter(page, () => page.selectOption('#compare', 'svix'));
    await settle(page);
    const after = await lines();
    assert.equal(after.length, 4, `a fourth scenario: ${JSON.stringify(after)}`);
    assert.ok(after[3].startsWith('Svix: A 10 min outage'), after[3]);
    assert.deepEqual(after.slice(0, 3), before.lines, 'the other scenarios are unchanged');
    assert.notEqual(await canvasDataUrl(page, '#storm'), before.pixels, 'the storm chart draws it');
  });
});
