// The page's own speed, as a person meets it: from an input event on the multiplier slider until
// every chart on screen shows the new input (app.js's `charts-drawn` event with scope "first": a
// quicker first run of a sampled chart counts), until they show their final results (scope
// "visible"), and until every chart is (scope "all": the ones off screen follow, one per task),
// over 200 slider steps, for the default state (the schedule in view), for a storm of 1,000,000
// deliveries (the storm in view) and for the staleness section in view; and the time from
// navigation to the first render of both. Medians and p95s, with the synchronous part of the
// input event as the baseline measured in the same run.
// Never a timed assertion: it fails only when the page fails.
//
//   cd tests/e2e && npm run bench:page      (the page must be built: scripts/build-page.sh)

import { closeServer, launchBrowser, servePage, summarize, watchProblems } from './harness.mjs';

const STEPS = 200;

const quantile = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
};

async function run(browser, url, label, inView) {
  const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  const problems = watchProblems(page);
  // Every `charts-drawn` event app.js dispatches: the charts on screen, then all of them.
  await page.addInitScript(() => {
    window.__drawn = [];
    document.addEventListener('charts-drawn', (event) => window.__drawn.push({ scope: event.detail.scope, at: performance.now() }));
  });
  await page.goto(url);
  await page.waitForFunction(() => window.__drawn.some((d) => d.scope === 'all'), null, { timeout: 60_000 });
  const firstRender = await page.evaluate(() => ({
    visible: window.__drawn.find((d) => d.scope === 'visible').at,
    all: window.__drawn.find((d) => d.scope === 'all').at,
  }));
  if (inView) {
    await page.evaluate((id) => document.getElementById(id).scrollIntoView(), inView);
    // Let the scroll settle and any redraw it caused finish.
    await page.waitForTimeout(500);
  }
  const steps = await page.evaluate(async (count) => {
    const slider = document.getElementById('multiplier');
    const next = (scope) => new Promise((resolve) => {
      const seen = (event) => {
        if (event.detail.scope !== scope) return;
        document.removeEventListener('charts-drawn', seen);
        resolve(performance.now());
      };
      document.addEventListener('charts-drawn', seen);
    });
    const out = [];
    for (let i = 0; i < count; i++) {
      slider.value = String(1.5 + (i % 30) * 0.1);
      const first = next('first');
      const visible = next('visible');
      const all = next('all');
      const start = performance.now();
      slider.dispatchEvent(new Event('input', { bubbles: true }));
      const synchronous = performance.now() - start;
      out.push({ synchronous, first: (await first) - start, visible: (await visible) - start, all: (await all) - start });
    }
    return out;
  }, STEPS);
  const onScreen = await page.evaluate(() => ['timeline', 'distribution', 'herd', 'storm', 'staleness'].filter((id) => {
    const r = document.getElementById(id).getBoundingClientRect();
    return r.bottom > 0 && r.top < window.innerHeight;
  }));
  await page.close();
  if (problems.length) throw new Error(`${label}:\n${summarize(problems)}`);
  return {
    label,
    onScreen,
    firstRender,
    sync: steps.map((s) => s.synchronous),
    first: steps.map((s) => s.first),
    visible: steps.map((s) => s.visible),
    all: steps.map((s) => s.all),
  };
}

// The links of the "never a frozen page" issue, and a seeded walk of extreme but valid states.
const FROZEN_BEFORE = [
  '#samples=1000000&attempts=10000',
  '#attempts=10000&mode=decorrelated',
  '#attempts=2000&mode=decorrelated',
  '#base=1s&multiplier=1&cap=1s&attempts=10000&mode=full',
  '#mode=decorrelated&arrivals=500000/h&capacity=420/s',
  '#attempts=10000&mode=equal',
  '#attempts=10000',
  '',
];

function extremeStates(count, seed) {
  let state = seed >>> 0;
  const next = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
  const pick = (values) => values[Math.floor(next() * values.length)];
  return Array.from({ length: count }, () => [
    `attempts=${pick([1, 50, 1000, 5000, 10000])}`,
    `mode=${pick(['none', 'full', 'equal', 'decorrelated', 'proportional'])}`,
    `samples=${pick(['20000', '100000', '1000000'])}`,
    `deliveries=${pick([1, 1000, 100000, 1000000])}`,
    `base=${pick(['0.1s', '1s', '30s', '1d'])}`,
    `multiplier=${pick([1, 1.5, 3, 1000])}`,
    `cap=${pick(['1s', '3h', '365d'])}`,
    `arrivals=${pick(['1/s', '600/min', '500000/h'])}`,
    `capacity=${pick(['3/s', '30/s', '420/s'])}`,
    `outage=${pick(['1 min', '10 min', '6 h'])}`,
    `budget=${pick([0, 10, 50])}`,
  ].join('&'));
}

/** The longest main-thread tasks while `hash` loads and draws (Long Tasks API), after its first paint. */
async function longestTasks(browser, url, hash) {
  const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  await page.addInitScript(() => {
    window.__tasks = [];
    window.__painted = Infinity;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) window.__tasks.push({ start: entry.startTime, duration: entry.duration });
    }).observe({ type: 'longtask', buffered: true });
    document.addEventListener('charts-drawn', () => {
      window.__painted = Math.min(window.__painted, performance.now());
    });
  });
  await page.goto(`${url}${hash}`);
  await page.waitForFunction(
    () => /^(rendered in|not everything was redrawn)/.test(document.getElementById('status')?.textContent ?? ''),
    null,
    { timeout: 120_000 },
  );
  const result = await page.evaluate(() => {
    const after = window.__tasks.filter((t) => t.start >= window.__painted);
    return {
      status: document.getElementById('status').textContent,
      longest: Math.max(0, ...window.__tasks.map((t) => t.duration)),
      afterFirstPaint: Math.max(0, ...after.map((t) => t.duration)),
    };
  });
  await page.close();
  return result;
}

/** The survival map of `hash`: scrolled to, the time to its whole map and its longest
 * main-thread task meanwhile (Long Tasks API), and the draws it took. */
async function survivalMap(browser, url, hash) {
  const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  await page.addInitScript(() => {
    window.__tasks = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) window.__tasks.push({ start: entry.startTime, duration: entry.duration });
    }).observe({ type: 'longtask', buffered: true });
  });
  await page.goto(`${url}${hash}`);
  await page.waitForFunction(() => /^rendered in/.test(document.getElementById('status')?.textContent ?? ''), null, { timeout: 120_000 });
  const started = await page.evaluate(() => {
    window.__draws = 0;
    const caption = document.getElementById('survival-caption');
    new MutationObserver(() => { window.__draws += 1; }).observe(caption, { childList: true, characterData: true, subtree: true });
    document.getElementById('survival').scrollIntoView();
    return performance.now();
  });
  // The whole map's caption (it starts with your scenario's own outcome); a partial map's reads
  // "Computing the survival map: …".
  await page.waitForFunction(() => /A cell recovers when/.test(document.getElementById('survival-caption').textContent), null, { timeout: 300_000 });
  const result = await page.evaluate((started) => ({
    ms: performance.now() - started,
    longest: Math.max(0, ...window.__tasks.filter((t) => t.start >= started).map((t) => t.duration)),
    draws: window.__draws,
    workers: navigator.hardwareConcurrency,
  }), started);
  await page.close();
  return result;
}

/**
 * Interaction to next paint of `presses` arrow keys on the focused multiplier slider, `gapMs`
 * apart (real key events, so the browser's Event Timing API times each from the key to the
 * next paint after its handlers): the durations, in ms (the API rounds them to 8 ms); and for
 * each key, the time until the schedule's timeline was redrawn (the end of app.js's
 * `draw timeline` measure), which a long schedule does after that paint.
 */
async function keyToPaint(browser, url, hash, presses = 24, gapMs = 400) {
  const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  await page.goto(`${url}${hash}`);
  await page.waitForFunction(() => /rendered|not every/.test(document.getElementById('status').textContent), null, { timeout: 120_000 });
  await page.waitForTimeout(2_000);
  await page.evaluate(() => {
    window.__keys = [];
    window.__timelines = [];
    document.addEventListener('keydown', (event) => window.__keys.push(event.timeStamp), true);
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        if (entry.name === 'draw timeline') window.__timelines.push(entry.startTime + entry.duration);
      }
    }).observe({ type: 'measure' });
    window.__interactions = new Map();
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        if (!entry.interactionId) continue;
        const seen = window.__interactions.get(entry.interactionId) ?? 0;
        window.__interactions.set(entry.interactionId, Math.max(seen, entry.duration));
      }
    }).observe({ type: 'event', durationThreshold: 16, buffered: true });
  });
  await page.focus('#multiplier');
  for (let i = 0; i < presses; i++) {
    await page.keyboard.press(i % 2 ? 'ArrowLeft' : 'ArrowRight');
    await page.waitForTimeout(gapMs);
  }
  await page.waitForTimeout(500);
  // Interactions under 16 ms are not reported: counted as 16.
  const durations = await page.evaluate(() => [...window.__interactions.values()]);
  const redrawn = await page.evaluate(() => window.__keys
    .map((key) => (window.__timelines.find((end) => end >= key) ?? Infinity) - key));
  await page.close();
  return { paint: [...durations, ...Array(Math.max(0, presses - durations.length)).fill(16)], redrawn };
}

const { server, url } = await servePage();
const browser = await launchBrowser();
try {
  const runs = [
    await run(browser, url, 'default state', null),
    // The article's storm at 1,000,000 deliveries: 500,000 an hour for its 2 h of traffic, and
    // capacity scaled with it (the article's 3× headroom over arrivals), the storm in view. Its
    // survival map of outages up to 12 h: at this rate a 24 h outage's cell would create more
    // deliveries than a storm may, and the map would be refused.
    await run(browser, `${url}#arrivals=500000/h&capacity=420/s&outages=10s..12h`, '1,000,000-delivery storm', 'storm-heading'),
    // The staleness section in view with the default policy (full jitter: 20,000 sampled
    // schedules for its caption, 5,000 for its curves) and the compared preset.
    await run(browser, `${url}#compare=svix`, 'staleness, jittered', 'staleness-heading'),
  ];
  const pair = (values) => `${quantile(values, 0.5).toFixed(1)} / ${quantile(values, 0.95).toFixed(1)}`;
  console.log(`page redraw over ${STEPS} multiplier steps, viewport 1200x900 (ms, median / p95; input event → charts redrawn)`);
  console.log('scenario                   charts on screen             first render on screen / all   first pixels   on screen      all charts     input handler');
  for (const r of runs) {
    console.log(
      `${r.label.padEnd(26)} ${r.onScreen.join(', ').padEnd(28)} ` +
      `${`${r.firstRender.visible.toFixed(0)} / ${r.firstRender.all.toFixed(0)}`.padStart(30)}   ` +
      `${pair(r.first).padStart(12)}   ${pair(r.visible).padStart(12)}   ${pair(r.all).padStart(12)}   ${pair(r.sync).padStart(13)}`,
    );
  }
  console.log('first pixels: every chart on screen shows the new input (a quicker first run of a sampled chart counts);');
  console.log('on screen: what the person sees is redrawn with its final result; all charts: the charts off screen too, drawn after,');
  console.log('one per task; input handler: the synchronous part of the input event (the baseline: schedule and jitter charts on screen).');

  console.log('\nmultiplier slider, arrow keys 400 ms apart (ms, median / p95 / worst of 24)');
  console.log('scenario                   key → next paint (Event Timing)   key → timeline redrawn');
  const three = (values) => `${quantile(values, 0.5).toFixed(0).padStart(5)} / ${quantile(values, 0.95).toFixed(0).padStart(4)} / ${Math.max(...values).toFixed(0).padStart(4)}`;
  for (const [label, hash] of [['default state', ''], ['400 attempts', '#attempts=400'], ['10,000 attempts', '#attempts=10000']]) {
    const { paint, redrawn } = await keyToPaint(browser, url, hash);
    console.log(`${label.padEnd(26)} ${three(paint).padStart(32)}   ${three(redrawn).padStart(22)}`);
  }
  console.log('target: an input answered within 100 ms');

  const links = [...FROZEN_BEFORE, ...extremeStates(12, 2026).map((state) => `#${state}`)];
  console.log(`\nlongest main-thread task (Long Tasks API, ms) while a link loads and draws, of ${links.length} links`);
  console.log('longest task   after first paint   status                                    link');
  let worst = 0;
  for (const hash of links) {
    const r = await longestTasks(browser, url, hash);
    worst = Math.max(worst, r.afterFirstPaint);
    console.log(`${r.longest.toFixed(0).padStart(12)}   ${r.afterFirstPaint.toFixed(0).padStart(17)}   ${r.status.slice(0, 40).padEnd(40)}  ${hash || '(default)'}`);
  }
  console.log(`worst main-thread task after the first paint: ${worst.toFixed(0)} ms (target: none over 50 ms)`);

  console.log('\nsurvival map, scrolled into view: time to the whole map (workers) and the longest main-thread task meanwhile');
  console.log('map                                   whole map (s)   longest task (ms)   draws   workers');
  for (const [label, hash] of [['default 24x16, backoff + full jitter', ''], ['article fixed 30 s policy', '#preset=&gaps=&base=30s&multiplier=1&cap=30s&stop=give-up&give-up=2h&mode=none'], ['12x8', '#steps=12x8']]) {
    const r = await survivalMap(browser, url, hash);
    console.log(`${label.padEnd(36)}  ${(r.ms / 1000).toFixed(2).padStart(13)}   ${r.longest.toFixed(0).padStart(17)}   ${String(r.draws).padStart(5)}   ${String(r.workers).padStart(7)}`);
  }
  console.log('targets: the default map within 2 s, no main-thread task over 50 ms while it computes');
} finally {
  await browser.close();
  await closeServer(server);
}
