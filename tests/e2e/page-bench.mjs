// The page's own speed, as a person meets it: from an input event on the multiplier slider until
// the charts on screen are redrawn (app.js's `charts-drawn` event with scope "visible"), and
// until every chart is (scope "all": the ones off screen follow, one per task), over 200 slider
// steps, for the default state (the schedule in view) and for a storm of 1,000,000 deliveries
// (the storm in view); and the time from navigation to the first render of both. Medians and
// p95s, with the synchronous part of the input event as the baseline measured in the same run.
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
      const visible = next('visible');
      const all = next('all');
      const start = performance.now();
      slider.dispatchEvent(new Event('input', { bubbles: true }));
      const synchronous = performance.now() - start;
      out.push({ synchronous, visible: (await visible) - start, all: (await all) - start });
    }
    return out;
  }, STEPS);
  const onScreen = await page.evaluate(() => ['timeline', 'distribution', 'herd', 'storm'].filter((id) => {
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
    visible: steps.map((s) => s.visible),
    all: steps.map((s) => s.all),
  };
}

const { server, url } = await servePage();
const browser = await launchBrowser();
try {
  const runs = [
    await run(browser, url, 'default state', null),
    // The article's storm at 1,000,000 deliveries: 500,000 an hour for its 2 h of traffic, and
    // capacity scaled with it (the article's 3× headroom over arrivals), the storm in view.
    await run(browser, `${url}#arrivals=500000/h&capacity=420/s`, '1,000,000-delivery storm', 'storm-heading'),
  ];
  const pair = (values) => `${quantile(values, 0.5).toFixed(1)} / ${quantile(values, 0.95).toFixed(1)}`;
  console.log(`page redraw over ${STEPS} multiplier steps, viewport 1200x900 (ms, median / p95; input event → charts redrawn)`);
  console.log('scenario                   charts on screen             first render on screen / all   on screen      all charts     input handler');
  for (const r of runs) {
    console.log(
      `${r.label.padEnd(26)} ${r.onScreen.join(', ').padEnd(28)} ` +
      `${`${r.firstRender.visible.toFixed(0)} / ${r.firstRender.all.toFixed(0)}`.padStart(30)}   ` +
      `${pair(r.visible).padStart(12)}   ${pair(r.all).padStart(12)}   ${pair(r.sync).padStart(13)}`,
    );
  }
  console.log('on screen: what the person sees is redrawn (the target); all charts: the charts off screen too, drawn after,');
  console.log('one per task; input handler: the synchronous part of the input event (the baseline: schedule and jitter charts on screen).');
} finally {
  await browser.close();
  await closeServer(server);
}
