// The page's own speed, as a person meets it: from an input event on the multiplier slider until
// every chart is redrawn (the schedule, distribution and herd synchronously, then the storm on
// the next animation frame), over 200 slider steps, for the default state and for a storm of
// 1,000,000 deliveries; the time from navigation to the first complete render. Medians and p95s,
// with the redraw of the synchronous charts alone as the baseline measured in the same run.
// Never a timed assertion: it fails only when the page fails.
//
//   cd tests/e2e && npm run bench:page      (the page must be built: scripts/build-page.sh)

import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

import { startServer } from './server.mjs';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const wwwRoot = path.resolve(repoRoot, process.env.BACKOFF_LAB_WWW ?? 'www');
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const STEPS = 200;

const quantile = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
};

async function run(browser, url, label) {
  const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  const problems = [];
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
  await page.goto(url);
  await page.waitForFunction(() => /^rendered in/.test(document.getElementById('status').textContent), null, { timeout: 60_000 });
  const firstRender = await page.evaluate(() => performance.now());
  const steps = await page.evaluate(async (count) => {
    const slider = document.getElementById('multiplier');
    const status = document.getElementById('status');
    const done = () => new Promise((resolve) => {
      const observer = new MutationObserver(() => {
        if (/^rendered in/.test(status.textContent)) {
          observer.disconnect();
          resolve(performance.now());
        }
      });
      observer.observe(status, { childList: true, characterData: true, subtree: true });
    });
    const out = [];
    for (let i = 0; i < count; i++) {
      slider.value = String(1.5 + (i % 30) * 0.1);
      const finished = done();
      const start = performance.now();
      slider.dispatchEvent(new Event('input', { bubbles: true }));
      const synchronous = performance.now() - start;
      const all = (await finished) - start;
      out.push({ synchronous, all });
    }
    return out;
  }, STEPS);
  await page.close();
  if (problems.length) throw new Error(`${label}: ${problems.join('; ')}`);
  const sync = steps.map((s) => s.synchronous);
  const all = steps.map((s) => s.all);
  return { label, firstRender, sync, all };
}

const { server, url } = await startServer({ root: wwwRoot, port: 0 });
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: CHROMIUM_ARGS });
try {
  const runs = [
    await run(browser, url, 'default state'),
    // 500,000 an hour for the 2 h of traffic: a storm of 1,000,000 deliveries.
    await run(browser, `${url}#arrivals=500000/h`, '1,000,000-delivery storm'),
  ];
  console.log(`page redraw over ${STEPS} multiplier steps (ms; input event → charts redrawn)`);
  console.log('scenario                   first render   schedule+jitter median/p95   every chart median/p95   ratio');
  for (const r of runs) {
    const [sm, sp, am, ap] = [quantile(r.sync, 0.5), quantile(r.sync, 0.95), quantile(r.all, 0.5), quantile(r.all, 0.95)];
    console.log(`${r.label.padEnd(26)} ${r.firstRender.toFixed(1).padStart(12)}   ${`${sm.toFixed(1)} / ${sp.toFixed(1)}`.padStart(26)}   ${`${am.toFixed(1)} / ${ap.toFixed(1)}`.padStart(22)}   ${(am / sm).toFixed(2)}x`);
  }
} finally {
  await browser.close();
  server.close();
}
