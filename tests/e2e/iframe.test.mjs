// End-to-end test of the self-sizing iframe: embed.html posts the height it wants to its parent,
// and embed-host.js, added once to the host page, sizes the iframe to it. The host pages are
// served from another origin on the loopback interface (as a docs site would embed the chart),
// with an iframe 150 px tall; a listener of their own records every height the embed posts.
//
//   cd tests/e2e && npm test

import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import path from 'node:path';

import {
  WAIT_MS,
  assertNoProblems,
  assertPainted,
  canvasStats,
  closeServer,
  launchBrowser,
  servePage,
  until,
  watchProblems,
  wwwRoot,
} from './harness.mjs';

let server;
let baseUrl;
let hostServer;
let hostUrl;
let browser;

/** The chart's natural height in embed.js: half the frame's width, between 240 and 520 px. */
const naturalChartHeight = (width) => Math.min(520, Math.max(240, Math.round(width * 0.5)));

/** A host page without embed-host.js: a 288 px column and a 460 px frame of a link with a notice. */
function crampedHostPage() {
  const src = new URL('embed.html#view=herd&multiplier=zero&base=x&bogus=1', baseUrl).href;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>A phone's column</title></head><body>
<div style="width: 288px"><iframe id="chart" src="${src}" width="100%" height="460" style="border:0" title="a herd"></iframe></div>
</body></html>`;
}

function hostPage(withScript, hash = 'view=timeline') {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>An article</title>
<script>
  window.__posted = [];
  // The listeners the host scripts add, beside this page's own.
  window.__messageListeners = 0;
  const add = window.addEventListener;
  window.addEventListener = function (type, ...rest) {
    if (type === 'message') window.__messageListeners += 1;
    return add.call(this, type, ...rest);
  };
  window.addEventListener('message', (event) => {
    if (event.data && event.data.type === 'backoff-lab:height') window.__posted.push(event.data.height);
  });
</script>
${withScript ? '<script src="embed-host.js" defer></script>\n<script src="embed-host.js" defer></script>' : ''}
</head><body>
<p>Retries, drawn:</p>
<div id="column" style="width: 800px">
  <iframe id="chart" src="${new URL(`embed.html#${hash}`, baseUrl).href}" width="100%" height="150" style="border:0" title="retry timeline"></iframe>
</div>
<p>And after the chart, more text.</p>
</body></html>`;
}

before(async () => {
  ({ server, url: baseUrl } = await servePage(['embed.html', 'embed.bundle.js', 'embed-host.js', 'style.css']));
  const hostScript = await readFile(path.join(wwwRoot, 'embed-host.js'));
  hostServer = createServer((request, response) => {
    const pathname = new URL(request.url ?? '/', 'http://localhost').pathname;
    if (pathname === '/embed-host.js') {
      response.writeHead(200, { 'Content-Type': 'text/javascript; charset=utf-8' });
      response.end(hostScript);
    } else if (pathname === '/with-script.html' || pathname === '/without-script.html') {
      response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      response.end(hostPage(pathname === '/with-script.html'));
    } else if (pathname === '/survival.html') {
      response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      response.end(hostPage(true, 'view=survival'));
    } else if (pathname === '/cramped.html') {
      response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      response.end(crampedHostPage());
    } else {
      response.writeHead(404, { 'Content-Type': 'text/plain' });
      response.end('not found\n');
    }
  });
  await new Promise((resolve) => hostServer.listen(0, '127.0.0.1', resolve));
  hostUrl = `http://127.0.0.1:${hostServer.address().port}/`;
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await closeServer(server);
  await closeServer(hostServer);
});

/** Open the host page `name` and wait for its embed to be drawn; run `body`; assert no problems. */
async function withHost(name, body) {
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
  try {
    const host = await context.newPage();
    host.setDefaultTimeout(WAIT_MS);
    const problems = watchProblems(host);
    await host.goto(new URL(name, hostUrl).href);
    const frame = await until(() => host.frames().find((f) => f.url().includes('embed.html')), 'the embed frame');
    await frame.waitForSelector('body[data-ready="true"]', { state: 'attached' });
    await body({ host, frame });
    assertNoProblems(problems);
  } finally {
    await context.close();
  }
}

const posted = (host) => host.evaluate(() => window.__posted.slice());
const frameHeight = (host) => host.$eval('#chart', (f) => f.clientHeight);

/**
 * Wait until the embed has posted at least `after` heights, the frame is drawn at its current
 * size, and nothing new was posted between two looks 250 ms apart; returns the last posted height.
 */
async function settle(host, frame, after = 1) {
  let last = -1;
  await until(async () => {
    const count = (await posted(host)).length;
    const fits = await frame.$eval('#chart', (c) => c.height === Math.round(c.getBoundingClientRect().height * (window.devicePixelRatio || 1)));
    const quiet = count >= after && count === last && fits;
    last = count;
    if (!quiet) await new Promise((resolve) => setTimeout(resolve, 250));
    return quiet;
  }, 'the embed to stop posting heights');
  return (await posted(host)).at(-1);
}

/** The embed's layout: frame size, document height, chart box, caption overflow. */
function layout(frame) {
  return frame.evaluate(() => {
    const chart = document.getElementById('chart-box').getBoundingClientRect();
    const caption = document.querySelector('.embed-caption');
    return {
      width: document.documentElement.clientWidth,
      height: window.innerHeight,
      scrollHeight: document.documentElement.scrollHeight,
      chartHeight: chart.height,
      chartBottom: chart.bottom,
      captionOverflow: caption.scrollHeight - caption.clientHeight,
      captionBottom: caption.getBoundingClientRect().bottom,
    };
  });
}

/** The frame is `height` px tall and shows the chart at its natural height and the whole caption. */
async function assertSized(host, frame, height) {
  await until(async () => (await frameHeight(host)) === height, async () => `the iframe to be ${height} px tall (it is ${await frameHeight(host)})`);
  // The embed redraws at the new size.
  await until(
    () => frame.$eval('#chart', (c) => c.height === Math.round(c.getBoundingClientRect().height * (window.devicePixelRatio || 1))),
    'the canvas to fit its box',
  );
  const box = await layout(frame);
  const what = JSON.stringify(box);
  assert.equal(box.height, height, `the embed's viewport is the frame: ${what}`);
  assert.ok(height >= box.scrollHeight, `the frame shows the whole document: ${what}`);
  // Give or take the pixel or two by which the posted height rounds up.
  const natural = naturalChartHeight(box.width);
  assert.ok(box.chartHeight >= natural - 0.5 && box.chartHeight <= natural + 2.5, `the chart has its natural height, ${natural} px: ${what}`);
  assert.ok(box.chartBottom <= box.height && box.captionBottom <= box.height, `chart and caption inside the frame: ${what}`);
  assert.ok(box.captionOverflow <= 0, `the caption does not scroll: ${what}`);
  assertPainted(await canvasStats(frame, '#chart'), 'the embedded timeline');
}

test('with embed-host.js the iframe takes the height its embed posts', { timeout: 60_000 }, async () => {
  await withHost('with-script.html', async ({ host, frame }) => {
    const height = await settle(host, frame);
    assert.ok(Number.isInteger(height) && height > 150, `the posted height ${height}`);
    await assertSized(host, frame, height);
    assert.ok(await host.$eval('#chart', (f) => f.style.height === `${f.clientHeight}px`), 'the script set style.height');
    // Pasted twice (with two snippets), the script listens once.
    assert.equal(await host.evaluate(() => window.__messageListeners), 2, "the page's own listener and one of embed-host.js");
  });
});

test('without embed-host.js the iframe keeps its given height, and the chart still fits it', { timeout: 60_000 }, async () => {
  await withHost('without-script.html', async ({ host, frame }) => {
    const height = await settle(host, frame);
    assert.ok(height > 150, `the embed posted ${height} all the same`);
    assert.equal(await frameHeight(host), 150, 'the iframe stays 150 px tall');
    const box = await layout(frame);
    assert.equal(box.height, 150, JSON.stringify(box));
    assert.ok(box.scrollHeight <= 150 && box.chartBottom <= 150 && box.captionBottom <= 150, `the page fills the frame, no more: ${JSON.stringify(box)}`);
    assertPainted(await canvasStats(frame, '#chart'), 'the timeline in a 150 px frame');
    assert.equal((await posted(host)).length, 1, `one height posted: ${JSON.stringify(await posted(host))}`);
  });
});

// An outside docs review: the survival map's frame shrank to its progress caption ("computing
// the survival map: 16 of 48 rows…"), then grew to its final one, moving the page below twice.
test('a chart drawn progressively posts its height once drawn whole, not its progress', { timeout: 120_000 }, async () => {
  await withHost('survival.html', async ({ host, frame }) => {
    const height = await settle(host, frame);
    const heights = await posted(host);
    assert.ok(heights.length >= 1, 'a height was posted');
    assert.ok(Math.min(...heights) >= height - 16, `no shorter height before the final ${height}: ${JSON.stringify(heights)}`);
    await assertSized(host, frame, height);
  });
});

// An outside docs review: a notice, the chart's minimum and the caption overflowed a phone's
// fixed frame, and the caption's end was cut off, out of reach.
test('in a fixed frame too small for a notice, the chart and the caption, the embed scrolls to the caption\'s end', { timeout: 60_000 }, async () => {
  await withHost('cramped.html', async ({ host, frame }) => {
    await until(() => frame.$eval('#chart-caption', (c) => c.textContent !== 'loading…'), 'the caption');
    // As a reader scrolls: the wheel over the frame's notice (a script could scroll even a box
    // that hides its overflow).
    await host.mouse.move(144, 40);
    for (let i = 0; i < 5; i += 1) await host.mouse.wheel(0, 400);
    await host.waitForTimeout(300);
    const end = await frame.evaluate(() => {
      const caption = document.querySelector('.embed-caption').getBoundingClientRect();
      const notice = document.getElementById('notice');
      return { bottom: caption.bottom, height: innerHeight, notice: !notice.hidden, overflow: document.body.scrollHeight - innerHeight };
    });
    assert.ok(end.notice, 'the link has a notice');
    assert.ok(end.overflow > 0, `the test's frame is too small for its content: ${JSON.stringify(end)}`);
    assert.ok(end.bottom <= end.height + 0.5, `the caption's end is reached by scrolling: ${JSON.stringify(end)}`);
  });
});

test('the posted height follows the host column, and the posting stops', { timeout: 60_000 }, async () => {
  await withHost('with-script.html', async ({ host, frame }) => {
    let height = await settle(host, frame);
    await assertSized(host, frame, height);
    for (const width of [520, 1000, 320, 800]) {
      const before = (await posted(host)).length;
      const chartBefore = (await layout(frame)).chartHeight;
      await host.$eval('#column', (column, w) => {
        column.style.width = `${w}px`;
      }, width);
      height = await settle(host, frame, before + 1);
      const box = await layout(frame);
      assert.equal(box.width, width, 'the frame follows the column');
      assert.notEqual(naturalChartHeight(width), chartBefore, 'the chart height changes with the width');
      await assertSized(host, frame, height);

      // At rest: nothing more is posted over a second, so the sizing does not feed back.
      const count = (await posted(host)).length;
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const heights = await posted(host);
      assert.equal(heights.length, count, `no stream of heights at ${width} px: ${JSON.stringify(heights)}`);
    }
  });
});
