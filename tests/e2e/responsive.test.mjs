// End-to-end: heavy links never freeze the page. The charts' costly steps run in workers; a
// control is handled while they run; a newer input supersedes older work and its result never
// lands; Stop leaves no progress behind; work beyond the limits is refused inline.
//
//   cd tests/e2e && npm test

import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';

import {
  STATUS_PATTERN,
  WAIT_MS,
  assertNoProblems,
  closeServer,
  launchBrowser,
  servePage,
  statusChanges,
  textOf,
  until,
  watchProblems,
  withUnsettledPage,
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

// Heavy but within the limits: a million give-up times of 800 attempts (0.8 billion draws),
// and long decorrelated schedules, whose storm the discrete engine simulates. With a small
// survival map, within its limits: a map refused is in every render's report (the map is
// refused up front, wherever its section is), and a map of more than 826 attempts of this
// policy is past what the fluid engine's cells take, whatever its steps; and at 500,000
// deliveries an hour a map of outages up to 24 h has cells of more deliveries than a storm may
// create, so that link maps outages up to 12 h. The decorrelated link
// has 6000 attempts (with 3000 its progress showed for under a second, and a CI run under load
// missed it), so a map of 4×3 cells: 6×4 would be past the map's work limit.
const HEAVY = [
  ['#samples=1000000&attempts=800&steps=12x8', 'distribution'],
  ['#attempts=6000&mode=decorrelated&steps=4x3', 'distribution'],
  ['#mode=decorrelated&arrivals=500000/h&capacity=420/s&outages=10s..12h', 'storm'],
];

/** Opens `hash` without waiting for a clean render (a heavy or refused link may not give one). */
function open(hash, body) {
  const onPage = (page) => page.addInitScript(() => {
    window.__e2e = { statusChanges: 0 };
    document.addEventListener('DOMContentLoaded', () => {
      new MutationObserver(() => {
        window.__e2e.statusChanges += 1;
      }).observe(document.getElementById('status'), { childList: true, characterData: true, subtree: true });
    }, { once: true });
  });
  return withUnsettledPage(browser, `${baseUrl}${hash}`, body, { onPage });
}

/** Whether `view`'s progress (computing… and Stop) shows over its chart. */
function progressShown(page, view) {
  return page.evaluate((id) => {
    const box = document.getElementById(id)?.parentElement.querySelector('.progress');
    return Boolean(box && !box.hidden);
  }, view);
}

function finalStatus(page) {
  return until(
    async () => /^(rendered in|not everything was redrawn)/.test(await textOf(page, '#status')),
    'the render to end',
    60_000,
  );
}

for (const [hash, heavy] of HEAVY) {
  test(`${hash}: a control is handled while the heavy work runs`, { timeout: 120_000 }, async () => {
    await open(hash, async (page) => {
      // The table is drawn at once, on the main thread, before any heavy result.
      await until(async () => (await page.$$('#schedule-table tbody tr')).length > 0, 'the schedule table');
      // The progress over the heavy chart is painted while it computes: the main thread is free.
      await until(() => progressShown(page, heavy), `#${heavy}'s progress`, 60_000);
      assert.equal(await textOf(page, '#status'), 'computing…', 'the heavy charts are still computing');
      const before = await statusChanges(page);
      const checked = await page.locator('#log-scale').isChecked();
      await page.locator('#log-scale').click();
      // The click's render starts (the status goes back to computing…) while workers compute.
      await until(async () => (await statusChanges(page)) > before, 'the click to start a render');
      assert.equal(await page.locator('#log-scale').isChecked(), !checked, '#log-scale toggled');
      await finalStatus(page);
      assert.match(await textOf(page, '#status'), STATUS_PATTERN, 'the heavy link renders in the end');
      for (const view of ['distribution', 'herd', 'storm']) {
        assert.equal(await progressShown(page, view), false, `no progress left over #${view}`);
      }
    });
  });
}

/** How many workers `hash` had started when its charts in view first showed (`charts-drawn` "first"). */
async function workersBeforeFirstPicture(hash) {
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
  try {
    const page = await context.newPage();
    const problems = watchProblems(page);
    await page.addInitScript(() => {
      window.__started = 0;
      const Native = window.Worker;
      window.Worker = class extends Native {
        constructor(...args) {
          super(...args);
          window.__started += 1;
        }
      };
      document.addEventListener('charts-drawn', (event) => {
        if (event.detail.scope === 'first') window.__atFirst ??= window.__started;
      });
    });
    await page.goto(`${baseUrl}${hash}`);
    await page.waitForFunction(() => window.__atFirst !== undefined, null, { timeout: WAIT_MS });
    await finalStatus(page);
    assertNoProblems(problems);
    return await page.evaluate(() => window.__atFirst);
  } finally {
    await context.close();
  }
}

test('cheap charts are computed on the page itself; costly ones start a worker', { timeout: 120_000 }, async () => {
  // The default page shows the timeline and the distribution (20,000 draws of 14 attempts: about
  // 2 ms): no worker's start (about 100 ms on a cold load) stands between them and the reader.
  assert.equal(await workersBeforeFirstPicture(''), 0, 'workers started before the default charts showed');
  // A million draws of a thousand attempts is a worker's job.
  assert.ok(await workersBeforeFirstPicture('#samples=1000000&attempts=1000') >= 1, 'the costly distribution in a worker');
});

test('the workers get the page\'s compiled wasm module instead of fetching and compiling it again', { timeout: 120_000 }, async () => {
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
  try {
    const page = await context.newPage();
    const problems = watchProblems(page);
    const fetched = [];
    context.on('request', (request) => {
      if (request.url().endsWith('.wasm')) fetched.push(request.url());
    });
    let workers = 0;
    page.on('worker', () => { workers += 1; });
    await page.goto(baseUrl);
    await finalStatus(page);
    assert.match(await textOf(page, '#status'), STATUS_PATTERN);
    assert.ok(workers >= 2, `the storm's and the staleness chart's workers ran (${workers})`);
    assert.equal(fetched.length, 1, `the wasm fetched once, by the page: ${fetched.join(', ')}`);
    assertNoProblems(problems);
  } finally {
    await context.close();
  }
});

test('a newer input supersedes a running computation, and the stale result never lands', { timeout: 120_000 }, async () => {
  await open('#samples=1000000&attempts=1000', async (page) => {
    await until(() => progressShown(page, 'distribution'), 'the distribution to show its progress');
    await page.selectOption('#samples', '20000');
    await finalStatus(page);
    const caption = await textOf(page, '#distribution-caption');
    assert.match(caption, /\b20,000 seeded draws\b/, caption);
    // However long the million draws would have taken, they never arrive: their worker is gone.
    const started = Date.now();
    await page.waitForTimeout(3_000);
    assert.equal(await textOf(page, '#distribution-caption'), caption, `still the newest after ${Date.now() - started} ms`);
  });
});

test('a newer heavy input keeps the progress shown instead of hiding and showing it again', { timeout: 120_000 }, async () => {
  await open('#samples=1000000&attempts=1000', async (page) => {
    await until(() => progressShown(page, 'distribution'), 'the distribution to show its progress');
    // Counts each time the progress is hidden from now on.
    await page.$eval('.canvas-box:has(#distribution) .progress', (box) => {
      window.__e2e.progressHidden = 0;
      new MutationObserver(() => {
        if (box.hidden) window.__e2e.progressHidden += 1;
      }).observe(box, { attributes: true, attributeFilter: ['hidden'] });
    });
    // Another million draws, under a new seed. On a busy machine the first million may land
    // before the new input (its progress hidden then, rightly): counted from the input on.
    await page.fill('#seed-text', '43');
    const before = await page.evaluate(() => window.__e2e.progressHidden);
    await finalStatus(page);
    assert.match(await textOf(page, '#distribution-caption'), /\bseed 43\b/);
    const hidden = await page.evaluate(() => window.__e2e.progressHidden);
    assert.equal(hidden - before, 1, 'hidden once after the input, when the newest result landed');
  });
});

test('Stop ends a computation and leaves no progress behind', { timeout: 120_000 }, async () => {
  await open('#samples=1000000&attempts=1000', async (page) => {
    await until(() => progressShown(page, 'distribution'), 'the distribution to show its progress');
    // By the keyboard: once Stop is gone, the focus stays in the chart's figure (it fell to the
    // page's body, and the next Tab started from the top).
    const stop = page.locator('.canvas-box:has(#distribution) .progress button');
    // Named for its chart, and the status says once what is computed (the running time beside
    // it, rewritten ten times a second, is hidden from screen readers).
    assert.equal(await stop.getAttribute('aria-label'), 'Stop computing the jitter distribution');
    assert.equal(
      await page.$eval('.canvas-box:has(#distribution) .progress', (box) => [box.getAttribute('role'), box.querySelector('.progress-text').getAttribute('aria-hidden'), box.textContent.startsWith('Computing the jitter distribution')].join()),
      'status,true,true',
    );
    await stop.focus();
    await page.keyboard.press('Enter');
    await finalStatus(page);
    assert.equal(await progressShown(page, 'distribution'), false, 'the progress is gone');
    assert.equal(
      await page.evaluate(() => document.activeElement?.closest('figure')?.contains(document.getElementById('distribution')) ?? false),
      true,
      'the focus stays in the chart\'s figure',
    );
    assert.match(await textOf(page, '#form-error'), /the distribution chart was stopped/);
    assert.match(await textOf(page, '#status'), /^not everything was redrawn/);
    // Its downloads of the older picture wait, saying why: nothing is highlighted to fix.
    assert.equal(await page.locator('#export-distribution-png').getAttribute('title'), 'stopped before it was redrawn');
    assert.equal(await page.locator('#export-herd-png').getAttribute('aria-disabled'), null, 'the herd\'s exports are the herd\'s');
  });
});

test('work beyond the limits is refused next to its input, and the rest of the page draws', { timeout: 120_000 }, async () => {
  await open('#samples=1000000&attempts=10000', async (page) => {
    await finalStatus(page);
    assert.equal(
      (await textOf(page, '#samples-error')).trim(),
      'samples must be at most 200020 for a schedule of 10000 attempts (samples × retries at most 2,000,000,000 drawn gaps), got 1000000',
    );
    const rows = await page.$$eval('#schedule-table tbody tr', (trs) => trs.map((tr) => tr.textContent.trim()));
    assert.equal(rows.length, 401, 'the schedule: its first 399 attempts, a row for those left out, its last');
    assert.match(rows[399], /^… 9,600 more attempts \(every one is in the CSV and JSON downloads\)/);
    assert.match(rows[400], /^10000/);
  });
});
