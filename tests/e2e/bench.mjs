// Run www/bench.html in headless Debian Chromium and print its results as a table: medians and
// p95s, and each benchmark's ratio to the baseline of its group measured in the same run. Never a
// timed assertion: it fails only when the page fails (an error, a console error, a timeout).
//
// The page must already be built (scripts/build-page.sh writes www/pkg).
//
//   cd tests/e2e && npm run bench
//
// Environment: CHROMIUM (browser binary, default /usr/bin/chromium); BACKOFF_LAB_WWW (the
// directory to serve instead of www/); DEVICE_SCALE_FACTOR (default 1). The full results are
// also written to tests/e2e/artifacts/bench-results.json.

import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

import { artifactsDir, closeServer, launchBrowser, servePage, summarize, watchProblems } from './harness.mjs';

const TIMEOUT_MS = 180_000;

function table(results) {
  const header = ['benchmark', 'median ms', 'p95 ms', 'vs baseline'];
  const lines = [];
  for (const group of results.groups) {
    lines.push({ title: `${group.name}: ${group.description}` });
    for (const r of group.rows) {
      lines.push([`  ${r.name}`, r.medianMs.toFixed(2), r.p95Ms.toFixed(2), `${r.ratioVsBaseline.toFixed(3)}x`]);
    }
  }
  const cells = lines.filter(Array.isArray);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const format = (c) => c.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ');
  const out = [format(header), widths.map((w) => '-'.repeat(w)).join('  ')];
  for (const line of lines) out.push(Array.isArray(line) ? format(line) : line.title);
  return out.join('\n');
}

function notes(results) {
  const out = [];
  const sampling = results.groups.find((g) => g.name === 'sampling');
  if (sampling) {
    const m = sampling.means;
    out.push(`sampling: JS median / wasm median = ${sampling.jsMedianOverWasmMedian}x`);
    out.push(
      `sampling: mean give-up time JS ${m.jsMedianS} s, wasm ${m.wasmMedianS} s, expected ${m.expectedS} s; ` +
        `worst relative error JS ${(m.jsWorstRelativeError * 100).toFixed(3)}%, wasm ${(m.wasmWorstRelativeError * 100).toFixed(3)}%: ` +
        (m.allWithin1Percent ? 'all within 1%' : 'NOT all within 1%'),
    );
  }
  const exact = results.groups.find((g) => g.name === 'exact percentiles');
  if (exact) {
    const p = exact.exactPercentilesS;
    out.push(`exact percentiles (s): p1 ${p.p1.toFixed(1)}, p5 ${p.p5.toFixed(1)}, p50 ${p.p50.toFixed(1)}, p95 ${p.p95.toFixed(1)}, p99 ${p.p99.toFixed(1)}`);
  }
  const storm = results.groups.find((g) => g.name === 'storm');
  if (storm) {
    const describe = (s) =>
      `${s.attempts} attempts for ${s.arrivals} deliveries over ${s.minutes} min, ` +
      // A batch has no normal traffic: its peak is read against the destination's capacity.
      (s.peakMultiple === null ? `peak ${s.peakVsCapacity}x capacity, ` : `peak ${s.peakMultiple}x normal traffic, `) +
      `${s.exhausted} exhausted, ` +
      (s.drainedAfterOutageS === null ? 'never drains' : `drained ${s.drainedAfterOutageS} s after the outage`);
    out.push(`storm: 24 h / 2 h outage over the article's fixed storm = ${storm.rows[1].ratioVsBaseline}x`);
    out.push(`storm: article fixed: ${describe(storm.articleFixed)}`);
    out.push(`storm: 24 h, 2 h outage: ${describe(storm.storm24h)}`);
    out.push(`storm: batch of 1,000,000 over the article's fixed storm = ${storm.rows[2].ratioVsBaseline}x`);
    out.push(`storm: batch of 1,000,000: ${describe(storm.stormBatch1M)}`);
  }
  const redrawStorm = results.groups.find((g) => g.name === 'redraw with storm');
  if (redrawStorm) {
    const peaks = Object.entries(redrawStorm.peakMultiples).map(([label, m]) => `${label} ${m}x`).join(', ');
    out.push(
      `redraw with storm: storm canvas ${redrawStorm.canvasPx.join('x')} px; whole redraw / three charts = ` +
        `${redrawStorm.rows[2].ratioVsBaseline}x; peaks: ${peaks}`,
    );
  }
  const env = results.environment;
  out.push(
    `browser: ${env.userAgent}; ${env.hardwareConcurrency} threads; devicePixelRatio ${env.devicePixelRatio}; ` +
      `timer step ${env.timerResolutionMs} ms; percentiles by ${results.percentileMethod} ` +
      `(the p95 of 19 or fewer runs is the slowest, of 20 the second slowest); total ${(results.totalMs / 1000).toFixed(1)} s`,
  );
  return out.join('\n');
}

async function main() {
  const { server, url } = await servePage(['bench.html', 'bench.js', 'pkg/backoff_lab.js', 'pkg/backoff_lab_bg.wasm']);
  let browser;
  try {
    browser = await launchBrowser();
    const context = await browser.newContext({
      viewport: { width: 1200, height: 900 },
      deviceScaleFactor: Number(process.env.DEVICE_SCALE_FACTOR || 1),
    });
    const page = await context.newPage();
    const problems = watchProblems(page);

    const started = Date.now();
    process.stderr.write(`bench: running ${url}bench.html (up to ${TIMEOUT_MS / 1000} s)…\n`);
    await page.goto(new URL('bench.html', url).href);
    await page.waitForFunction(() => document.body.dataset.done === 'true' || document.body.dataset.error, null, {
      timeout: TIMEOUT_MS,
      polling: 500,
    });
    const error = await page.evaluate(() => document.body.dataset.error);
    if (error) problems.push(`bench page error: ${error}`);
    if (problems.length > 0) {
      throw new Error(`the bench page failed:\n${summarize(problems)}`);
    }
    const results = await page.evaluate(() => window.benchResults);
    await mkdir(artifactsDir, { recursive: true });
    const saved = path.join(artifactsDir, 'bench-results.json');
    await writeFile(saved, JSON.stringify(results, null, 2) + '\n');

    console.log(table(results));
    console.log('');
    console.log(notes(results));
    console.log(`(full results: ${path.relative(process.cwd(), saved)}; ${((Date.now() - started) / 1000).toFixed(1)} s in all)`);
  } finally {
    await browser?.close();
    await closeServer(server);
  }
}

main().catch((error) => {
  console.error(`bench: ${error.message}`);
  process.exitCode = 1;
});
