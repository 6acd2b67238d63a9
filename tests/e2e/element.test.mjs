// The <backoff-lab> element as a docs site meets it: the npm tarball (scripts/build-package.sh)
// installed into a fresh folder, a host page served on loopback under a strict CSP loading the
// element from its node_modules. Three elements (timeline, distribution in dark mode, storm)
// render; no request leaves the origin; an attribute change and a narrower column redraw; a bad
// attribute shows an inline error while the others keep working; ten elements fetch the wasm
// once; with wasm refused by the CSP the fallback image stays; the single-file variant works.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import { closeServer, countRowJobs, launchBrowser, repoRoot, until, watchProblems } from './harness.mjs';
import { CONTENT_SECURITY_POLICY, startServer } from './server.mjs';

const tarball = () => {
  const dir = path.join(repoRoot, 'target');
  const found = readdirSync(dir).filter((f) => /^backoff-lab-.*\.tgz$/.test(f));
  if (found.length !== 1) {
    throw new Error(`expected one target/backoff-lab-*.tgz, found ${found.length}: run scripts/build-package.sh first (scripts/test.sh does)`);
  }
  return path.join(dir, found[0]);
};

const FALLBACK_SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="600" height="300"><rect width="600" height="300" fill="#eee"/><text x="20" y="40">static retry timeline</text></svg>';

const page = (body, module = './node_modules/backoff-lab/backoff-lab.js') => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>host</title>
<link rel="stylesheet" href="./host.css">
<script type="module" src="${module}"></script>
</head><body><main id="column">${body}</main></body></html>`;

const HOSTS = {
  'index.html': page(`
    <h1>Retry docs</h1>
    <backoff-lab id="timeline" view="timeline" actions><img src="./fallback.svg" alt="the retry timeline, static"></backoff-lab>
    <backoff-lab id="distribution" view="distribution" theme="dark"></backoff-lab>
    <backoff-lab id="storm" view="storm" outage="2 min" traffic="20 min"></backoff-lab>
    <backoff-lab id="bad" view="timeline" multiplier="NaN" theme="blue"></backoff-lab>`),
  'ten.html': page(Array.from({ length: 10 }, (_, i) => `<backoff-lab view="timeline" attempts="${i + 3}"></backoff-lab>`).join('\n')),
  'survival.html': page(`
    <backoff-lab id="survival" view="survival" steps="6x4" outages="1m..2h" actions></backoff-lab>
    <backoff-lab id="bad-map" view="survival" steps="1x4"></backoff-lab>`),
  // Properties set before the element is defined (a classic script that runs before the module)
  // and before its wasm has loaded (a module that creates elements once the element is defined),
  // as frameworks set them; a reference element with the same values as attributes.
  'early.html': `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>host</title>
<link rel="stylesheet" href="./host.css">
<script type="module" src="./early.js"></script>
</head><body><main id="column">
<backoff-lab id="reference" give-up="2 h" multiplier="2"></backoff-lab>
<backoff-lab id="predefined"></backoff-lab>
<script src="./predefined.js"></script>
</main></body></html>`,
  'predefined.js': "const e = document.getElementById('predefined'); e.giveUp = '2 h'; e.multiplier = 2;",
  'early.js': `import { BackoffLab } from './node_modules/backoff-lab/backoff-lab.js';
window.__moduleExports = Object.keys(await import('./node_modules/backoff-lab/backoff-lab.js'));
const column = document.getElementById('column');
for (const [id, set] of [
  ['created', (e) => { e.giveUp = '2 h'; e.multiplier = 2; e.actions = true; }],
  ['hidden-actions', (e) => { e.setAttribute('actions', ''); e.actions = false; }],
  // As React 18 writes actions={false}: the text "false" (it showed the buttons).
  ['false-actions', (e) => { e.setAttribute('actions', 'false'); }],
]) {
  const element = document.createElement('backoff-lab');
  element.id = id;
  set(element);
  window.__wasBackoffLab = element instanceof BackoffLab;
  column.append(element);
}`,
  'limits.html': page(`
    <backoff-lab id="over" view="storm" arrivals="1000000/s"><img src="./fallback.svg" alt="the storm, static"></backoff-lab>
    <backoff-lab id="nope" view="timeline" preset="nope"></backoff-lab>
    <backoff-lab id="odds" view="timeline" base="1m" cap="10s"></backoff-lab>`),
  // An element far below the fold, without fallback children, between two paragraphs; and one
  // with a fallback image.
  'far.html': page(`
    <p id="above">Above.</p>
    <div id="spacer"></div>
    <backoff-lab id="far" view="timeline"></backoff-lab>
    <p id="below">Below.</p>
    <div id="spacer-2"></div>
    <backoff-lab id="far-fallback" view="timeline"><img src="./fallback.svg" alt="the retry timeline, static"></backoff-lab>`),
  // A docs author's self-closing element: HTML makes what follows its fallback content.
  'unclosed.html': page(`
    <section><backoff-lab id="prose" view="storm" /><p>One.</p><p>Two.</p><ul><li>Three.</li></ul></section>
    <backoff-lab id="short" view="timeline"><p>This chart needs JavaScript.</p><p><a href="./fallback.svg">The static figure</a>.</p></backoff-lab>
    <backoff-lab id="unclosed" view="timeline" />
    <h2>Next section</h2>
    <p>More text.</p>
    <backoff-lab id="closed" view="timeline"><img src="./fallback.svg" alt="the retry timeline, static"></backoff-lab>
    <backoff-lab id="figured" view="timeline"><figure><h3>Retry timeline</h3><img src="./fallback.svg" alt="the retry timeline, static"></figure></backoff-lab>`),
  // An off-white site's background for one chart, and a colour the core cannot read for another.
  'background.html': page(`
    <link rel="stylesheet" href="./background.css">
    <backoff-lab id="off-white" view="storm" outage="2 min" traffic="20 min"></backoff-lab>
    <backoff-lab id="named" view="timeline"><img src="./fallback.svg" alt="the retry timeline, static"></backoff-lab>`),
  'background.css': '#off-white { --backoff-lab-background: rgb(250 248 245); } #named { --backoff-lab-background: ivory; }',
  'inline.html': page('<backoff-lab id="timeline" view="timeline"></backoff-lab>', './node_modules/backoff-lab/backoff-lab.inline.js'),
  // A chart a second or more of work (the staleness report of 10,000 jittered attempts) beside
  // a quick one, and a button of the host's own.
  'heavy.html': page(`
    <script type="module" src="./heavy.js"></script>
    <button id="poke" type="button">poke</button>
    <backoff-lab id="quick" view="timeline"></backoff-lab>
    <backoff-lab id="heavy" view="staleness" attempts="10000" mode="full"></backoff-lab>`),
  'heavy.js': `document.getElementById('poke').addEventListener('click', () => { window.__poked = performance.now(); });
document.addEventListener('backoff-lab:rendered', (event) => {
  if (event.target.id === 'heavy') window.__heavyAt = performance.now();
});`,
  'host.css': '#column { width: 760px; margin: 0 auto; font-family: sans-serif; } backoff-lab { margin: 24px 0; } #spacer, #spacer-2 { height: 1500px; }',
  'fallback.svg': FALLBACK_SVG,
};

let browser;
let folder;
let strict;
let noWasm;
let noWorkers;

before(async () => {
  folder = mkdtempSync(path.join(os.tmpdir(), 'backoff-lab-host-'));
  writeFileSync(path.join(folder, 'package.json'), '{ "name": "host", "private": true }\n');
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', tarball()], { cwd: folder, stdio: 'pipe' });
  for (const [name, text] of Object.entries(HOSTS)) writeFileSync(path.join(folder, name), text);
  strict = await startServer({ root: folder });
  // The same host refusing WebAssembly: no 'wasm-unsafe-eval'.
  noWasm = await startServer({ root: folder, csp: CONTENT_SECURITY_POLICY.replace(" 'wasm-unsafe-eval'", '') });
  // And refusing workers.
  noWorkers = await startServer({ root: folder, csp: `${CONTENT_SECURITY_POLICY}; worker-src 'none'` });
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await closeServer(strict?.server);
  await closeServer(noWasm?.server);
  await closeServer(noWorkers?.server);
  if (folder) rmSync(folder, { recursive: true, force: true });
});

/** A page with every rendered/error event recorded in `window.__events`, and every request. */
async function open(url, options = {}) {
  const context = await browser.newContext({ viewport: { width: 1000, height: 3000 }, acceptDownloads: true, ...options });
  const tab = await context.newPage();
  const problems = watchProblems(tab);
  const requests = [];
  const warnings = [];
  tab.on('request', (request) => requests.push(request.url()));
  tab.on('console', (message) => message.type() === 'warning' && warnings.push(message.text()));
  await countRowJobs(tab);
  await tab.addInitScript(() => {
    window.__events = [];
    for (const type of ['backoff-lab:rendered', 'backoff-lab:error']) {
      document.addEventListener(type, (event) => {
        window.__events.push({ type, id: event.target.id, detail: JSON.parse(JSON.stringify(event.detail)) });
      });
    }
  });
  await tab.goto(url);
  return { context, tab, problems, requests, warnings };
}

const rendered = (tab, id) => tab.evaluate((id) => window.__events.filter((e) => e.type === 'backoff-lab:rendered' && e.id === id), id);

/** Inside an element's shadow root: the canvas's size, ink and background, and what is shown. */
const luminance = ([r, g, b]) => (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
const look = (tab, id) => tab.evaluate((id) => {
  const host = document.getElementById(id);
  const root = host.shadowRoot;
  const canvas = root.querySelector('canvas');
  const { width, height } = canvas;
  const data = width > 1 ? canvas.getContext('2d').getImageData(0, 0, width, height).data : [];
  const corner = [data[4 * (width * 2 + 2)], data[4 * (width * 2 + 2) + 1], data[4 * (width * 2 + 2) + 2]];
  let inked = 0;
  for (let i = 0; i < data.length; i += 4 * 7) {
    if (Math.abs(data[i] - corner[0]) + Math.abs(data[i + 1] - corner[1]) + Math.abs(data[i + 2] - corner[2]) > 60) inked += 1;
  }
  const error = root.querySelector('.error');
  return {
    width,
    cssWidth: canvas.getBoundingClientRect().width,
    inked,
    corner,
    label: canvas.getAttribute('aria-label'),
    role: canvas.getAttribute('role'),
    ariaHidden: canvas.getAttribute('aria-hidden'),
    caption: root.querySelector('.caption').textContent,
    error: error.hidden ? '' : error.textContent,
    fallbackShown: !root.querySelector('.fallback').hidden,
    chartShown: !root.querySelector('.chart').hidden,
    tableRows: root.querySelectorAll('tbody tr').length,
    rowHeaders: root.querySelectorAll('tbody tr > th[scope="row"]:first-child').length,
    tableName: root.querySelector('table').getAttribute('aria-label'),
    // The box a wide table scrolls in, as the keyboard reaches it.
    tableBox: [root.querySelector('.table-box')].map((b) => [b.tabIndex, b.getAttribute('role'), getComputedStyle(b).overflowX])[0],
    errorRole: root.querySelector('.error').getAttribute('role'),
    // The polite region that says the errors: always there, visually hidden.
    said: [root.querySelector('.said')].map((s) => [s.getAttribute('role'), s.hidden, s.textContent])[0],
    buttonNames: [...root.querySelectorAll('.actions button')].map((b) => b.getAttribute('aria-label')),
    buttons: [...root.querySelectorAll('.actions:not([hidden]) button')].map((b) => b.textContent),
  };
}, id);

describe('<backoff-lab> from the npm package, under a strict CSP', () => {
  let tab;
  let context;
  let requests;
  let problems;

  before(async () => {
    ({ tab, context, requests, problems } = await open(`${strict.url}/index.html`));
    for (const id of ['timeline', 'distribution', 'storm', 'bad']) {
      await until(async () => (await rendered(tab, id)).length > 0, `${id} to render`, 30_000);
    }
  });
  after(() => context?.close());

  test('three charts render with their captions as accessible labels and tables', async () => {
    for (const id of ['timeline', 'distribution', 'storm']) {
      const seen = await look(tab, id);
      assert.ok(seen.inked > 200, `${id}: a drawn chart (${seen.inked} inked pixels)`);
      assert.equal(seen.role, 'img');
      assert.equal(seen.ariaHidden, null, `${id}: a drawn chart is not hidden from assistive technology`);
      assert.ok(seen.caption.length > 20 && seen.label === seen.caption, `${id}: caption ${seen.caption}`);
      assert.ok(seen.tableRows > 0, `${id}: the numbers as a table`);
      // Each row's first cell is its header, and the table and the buttons are named after
      // the chart, so that two elements' tables and buttons tell apart.
      assert.equal(seen.rowHeaders, seen.tableRows, `${id}: every row has its header`);
      assert.match(seen.tableName, /^The numbers of the chart \(.+\)$/, `${id}: ${seen.tableName}`);
      // A phone's column is narrower than the storm's table: it scrolls in a box the keyboard
      // reaches. Errors are polite: a host writing an attribute per keystroke had an alert each.
      assert.deepEqual(seen.tableBox, [0, 'region', 'auto'], `${id}: the table's box`);
      assert.equal(seen.errorRole, null, `${id}: the error box itself is no live region`);
      assert.deepEqual(seen.said, ['status', false, ''], `${id}: a polite region, there and empty`);
      assert.equal(seen.fallbackShown, false, `${id}: the fallback gives way to the chart`);
      assert.equal(seen.error, '');
    }
    const timeline = await look(tab, 'timeline');
    assert.equal(timeline.tableRows, 14, 'the default schedule has 14 attempts');
    assert.deepEqual(timeline.buttonNames, ['PNG', 'SVG', 'CSV'].map((f) => `Download the chart (retry timeline) as ${f}`));
    assert.notEqual((await look(tab, 'storm')).tableName, timeline.tableName, 'two charts\' tables have two names');
    const [event] = await rendered(tab, 'timeline');
    assert.equal(event.detail.view, 'timeline');
    assert.equal(event.detail.schedule.rows.length, 14);
    const [storm] = await rendered(tab, 'storm');
    assert.ok(storm.detail.storms.length >= 1 && storm.detail.storms[0].summary.delivered > 0, 'the storm summary in the event');
  });

  test('a site hides the caption and the numbers with ::part, and the chart keeps its label', async () => {
    // A docs page carries its own caption: the storm's ran to three paragraphs under its chart.
    const display = () => tab.evaluate(() => {
      const root = document.getElementById('storm').shadowRoot;
      return ['.caption', 'details', '.chart'].map((selector) => getComputedStyle(root.querySelector(selector)).display);
    });
    assert.notEqual((await display())[0], 'none');
    await tab.evaluate(() => {
      const sheet = new CSSStyleSheet();
      sheet.replaceSync('backoff-lab::part(caption), backoff-lab::part(numbers) { display: none; }');
      document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
    });
    try {
      const [caption, numbers, chart] = await display();
      assert.deepEqual([caption, numbers], ['none', 'none']);
      assert.notEqual(chart, 'none', 'the chart stays');
      assert.ok((await look(tab, 'storm')).label.length > 20, 'the caption is still the chart\'s label');
    } finally {
      await tab.evaluate(() => { document.adoptedStyleSheets = document.adoptedStyleSheets.slice(0, -1); });
    }
  });

  test('an element\'s title names its buttons and table, so two charts of one view tell apart', async () => {
    const names = async () => {
      const seen = await look(tab, 'storm');
      return [seen.tableName, ...seen.buttonNames];
    };
    assert.ok((await names()).every((name) => name.includes('retry storm after an outage')), JSON.stringify(await names()));
    await tab.evaluate(() => document.getElementById('storm').setAttribute('title', 'Storm with a 10% budget'));
    await until(async () => (await names()).every((name) => name.includes('(Storm with a 10% budget)')), 'the names follow the title');
    await tab.evaluate(() => document.getElementById('storm').removeAttribute('title'));
    await until(async () => (await names()).every((name) => name.includes('retry storm after an outage')), 'the chart\'s names again');
  });

  test('each element reports one render at load, not one per draw', async () => {
    // The first size the ResizeObserver reports, and the chart's own appearance, draw again.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const counts = await tab.evaluate(() => Object.groupBy(window.__events.filter((e) => e.type === 'backoff-lab:rendered'), (e) => e.id));
    for (const id of ['timeline', 'distribution', 'storm', 'bad']) {
      assert.equal(counts[id]?.length, 1, `${id}: ${counts[id]?.length} rendered events`);
    }
  });

  test('theme="dark" draws on a dark background, the default on a light one', async () => {
    assert.ok(luminance((await look(tab, 'distribution')).corner) < 0.3, 'dark');
    assert.ok(luminance((await look(tab, 'timeline')).corner) > 0.7, 'light');
  });

  test('no request leaves the origin, and there are no errors', () => {
    const elsewhere = requests.filter((url) => !url.startsWith(strict.url));
    assert.deepEqual(elsewhere, []);
    assert.equal(requests.filter((url) => url.endsWith('.wasm')).length, 1, 'one wasm fetch for four elements');
    const unexpected = problems.filter((p) => !p.includes('multiplier'));
    assert.deepEqual(unexpected, []);
  });

  test('a bad attribute shows an inline error naming it and its range; the others keep working', async () => {
    const bad = await look(tab, 'bad');
    assert.match(bad.error, /multiplier/);
    // Said by the polite region that was there before the error came.
    assert.equal(bad.said[0], 'status');
    assert.match(bad.said[2], /multiplier/);
    assert.match(bad.error, /NaN/);
    const errors = await tab.evaluate(() => window.__events.filter((e) => e.type === 'backoff-lab:error'));
    assert.ok(errors.some((e) => e.id === 'bad' && e.detail.field === 'multiplier'), JSON.stringify(errors));
    assert.match(bad.error, /theme "blue" was ignored \(one of auto, light, dark\)/);
    assert.ok(errors.some((e) => e.id === 'bad' && e.detail.field === 'theme'), JSON.stringify(errors));
    assert.ok(errors.every((e) => e.id === 'bad'), 'only the bad element reports an error');
  });

  test('an error is announced once, not again when another attribute changes', async () => {
    const errorsOf = () => tab.evaluate(() => window.__events.filter((e) => e.type === 'backoff-lab:error' && e.id === 'bad').length);
    const [errors, renders] = [await errorsOf(), (await rendered(tab, 'bad')).length];
    await tab.evaluate(() => document.getElementById('bad').setAttribute('attempts', '6'));
    await until(async () => (await rendered(tab, 'bad')).length > renders, 'the bad element redrawn');
    assert.equal(await errorsOf(), errors, 'the unchanged multiplier and theme errors are not announced again');
    assert.match((await look(tab, 'bad')).error, /multiplier/, 'still shown');
    await tab.evaluate(() => document.getElementById('bad').setAttribute('multiplier', 'zero'));
    await until(async () => (await errorsOf()) === errors + 1, 'the new multiplier error announced, alone');
  });

  test('an attribute changed while the element is out of the document is drawn when it is back', async () => {
    const renders = (await rendered(tab, 'timeline')).length;
    await tab.evaluate(() => {
      const host = document.getElementById('timeline');
      const parent = host.parentNode;
      const next = host.nextSibling;
      host.remove();
      host.attempts = 4;
      parent.insertBefore(host, next);
    });
    await until(async () => (await look(tab, 'timeline')).tableRows === 4, 'the four attempts drawn');
    await until(async () => (await rendered(tab, 'timeline')).length === renders + 1, 'one rendered event');
  });

  test('an element showing a refusal, fixed while out of the document, draws when it is back', async () => {
    await tab.evaluate(() => {
      const host = document.createElement('backoff-lab');
      host.id = 'refused';
      host.setAttribute('view', 'storm');
      // In its own range (an attribute out of it is ignored, the default drawn), but 72,000,000
      // deliveries over the default 2 h of traffic: the storm refuses it.
      host.setAttribute('arrivals', '10000/s');
      document.getElementById('column').append(host);
    });
    await until(async () => /arrivals/.test((await look(tab, 'refused')).error), 'the refusal shown', 30_000);
    assert.equal((await look(tab, 'refused')).chartShown, false, 'no chart beside the refusal');
    await tab.evaluate(() => {
      const host = document.getElementById('refused');
      host.remove();
      host.setAttribute('arrivals', '600/min');
      document.getElementById('column').append(host);
    });
    await until(async () => (await rendered(tab, 'refused')).length === 1, 'drawn once back', 30_000);
    assert.equal((await look(tab, 'refused')).error, '');
    await tab.evaluate(() => document.getElementById('refused').remove());
  });

  test('changing an attribute or property redraws', async () => {
    const before = (await look(tab, 'timeline')).caption;
    const count = (await rendered(tab, 'timeline')).length;
    await tab.evaluate(() => document.getElementById('timeline').setAttribute('attempts', '5'));
    await until(async () => (await rendered(tab, 'timeline')).length > count, 'a redraw after the attribute changed');
    const after = await look(tab, 'timeline');
    assert.notEqual(after.caption, before);
    assert.equal(after.tableRows, 5);
    await tab.evaluate(() => { document.getElementById('timeline').giveUp = '1 h'; document.getElementById('timeline').stop = 'give-up'; });
    await until(async () => (await tab.evaluate(() => document.getElementById('timeline').getAttribute('give-up'))) === '1 h', 'the property to set the attribute');
    await until(async () => (await look(tab, 'timeline')).caption !== after.caption, 'a redraw after the property changed');
  });

  test('the theme, or an attribute set to the value it had, draws again with no new rendered event', async () => {
    const count = (await rendered(tab, 'timeline')).length;
    assert.ok(luminance((await look(tab, 'timeline')).corner) > 0.7, 'light before');
    await tab.evaluate(() => {
      const host = document.getElementById('timeline');
      host.setAttribute('attempts', host.getAttribute('attempts'));
      host.setAttribute('theme', 'dark');
    });
    await until(async () => luminance((await look(tab, 'timeline')).corner) < 0.3, 'the dark theme drawn');
    await tab.evaluate(() => document.getElementById('timeline').setAttribute('theme', 'light'));
    await until(async () => luminance((await look(tab, 'timeline')).corner) > 0.7, 'the light theme drawn again');
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal((await rendered(tab, 'timeline')).length, count, 'the numbers did not change: no rendered event');
    // A theme that is no theme is still refused in the element, and announced.
    await tab.evaluate(() => document.getElementById('timeline').setAttribute('theme', 'blue'));
    await until(async () => /theme "blue" was ignored/.test((await look(tab, 'timeline')).error), 'the theme refused');
    const errors = await tab.evaluate(() => window.__events.filter((e) => e.type === 'backoff-lab:error' && e.id === 'timeline'));
    assert.ok(errors.some((e) => e.detail.field === 'theme'), JSON.stringify(errors));
    await tab.evaluate(() => document.getElementById('timeline').removeAttribute('theme'));
    await until(async () => (await look(tab, 'timeline')).error === '', 'the error gone with the attribute');
  });

  test('a narrower column redraws at the new width, with no new rendered event', async () => {
    const wide = await look(tab, 'storm');
    const reported = (await rendered(tab, 'storm')).length;
    await tab.evaluate(() => { document.getElementById('column').style.width = '420px'; });
    await until(async () => (await look(tab, 'storm')).width < wide.width, 'the canvas to follow the column');
    const narrow = await look(tab, 'storm');
    assert.ok(Math.abs(narrow.cssWidth - 420) < 2, `${narrow.cssWidth}`);
    assert.ok(narrow.inked > 200, 'drawn again at the new width');
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.equal((await rendered(tab, 'storm')).length, reported, 'the numbers did not change: no rendered event');
  });

  test('the export buttons are keyboard-usable and download the chart', async () => {
    const seen = await look(tab, 'timeline');
    assert.deepEqual(seen.buttons, ['PNG', 'SVG', 'CSV']);
    for (const [index, extension] of [[1, 'svg'], [2, 'csv']]) {
      const download = tab.waitForEvent('download');
      await tab.evaluate((i) => document.getElementById('timeline').shadowRoot.querySelectorAll('.actions button')[i].focus(), index);
      await tab.keyboard.press('Enter');
      const file = await download;
      // Named after the element's settings (an earlier test gave it a 1 h deadline).
      assert.match(file.suggestedFilename(), new RegExp(`^backoff-lab-timeline-30s-x3-cap-3h-give-up-1h-[0-9a-f]{6}\\.${extension}$`));
      // The CSV is numbers a spreadsheet reads, in seconds (it was the table's "30 s").
      if (extension === 'csv') {
        assert.match(readFileSync(await file.path(), 'utf8'), /^attempt,gap before it \(s\),time of the attempt \(s\)\n1,,0\n2,30,30\n/);
      }
    }
  });
});

test('view="survival" fills in row by row and reports once, when the whole map is drawn', async () => {
  const { context, tab, problems } = await open(`${strict.url}/survival.html`);
  try {
    await tab.evaluate(() => {
      window.__captions = [];
      const root = () => document.getElementById('survival').shadowRoot;
      const watch = setInterval(() => {
        const text = root()?.querySelector('.caption')?.textContent;
        // With whether its downloads were on then.
        const seen = `${text} [downloads ${[...root().querySelectorAll('.actions button')].every((b) => !b.disabled) ? 'on' : 'off'}]`;
        if (text && window.__captions.at(-1) !== seen) window.__captions.push(seen);
      }, 5);
      window.__stopWatch = () => clearInterval(watch);
    });
    await until(async () => (await rendered(tab, 'survival')).length > 0, 'the map to render', 60_000);
    const captions = await tab.evaluate(() => { window.__stopWatch(); return window.__captions; });
    assert.ok(captions.some((c) => /^Computing the survival map: \d+ of 12 rows done\. \[downloads off\]$/.test(c)), `drawn as rows arrived: ${JSON.stringify(captions)}`);
    assert.ok(captions.every((c) => !c.startsWith('Computing') || c.endsWith('[downloads off]')), `no download of a map still filling in: ${JSON.stringify(captions)}`);
    assert.match(captions.at(-1), /^Your scenario .* \[downloads on\]$/);
    const seen = await look(tab, 'survival');
    assert.match(seen.caption, /^Your scenario \(an outage of [^)]+\) (recovers|recovers slowly|collapses): .+ At [\d.]+× headroom \(capacity ÷ arrivals\), (your scenario's row of the map|the map's row nearest your [\d.]+×), your policy /);
    assert.equal(seen.tableRows, 12, 'the longest outage survived, per series and headroom');
    assert.ok(seen.inked > 200, 'a drawn map');
    const events = await rendered(tab, 'survival');
    assert.equal(events.length, 1, 'one rendered event, for the whole map');
    assert.equal(events[0].detail.view, 'survival');
    // Off the host's thread: a map takes seconds.
    assert.ok(await tab.evaluate(() => window.__rowJobs) > 0, 'the rows were computed in workers');
    const errors = await tab.evaluate(() => window.__events.filter((e) => e.type === 'backoff-lab:error'));
    assert.deepEqual(errors.map((e) => [e.id, e.detail.field]), [['bad-map', 'steps']]);
    assert.match((await look(tab, 'bad-map')).error, /steps must be from 2 to 64 steps on each axis and at most 1024 cells in all \(outages × headroom, such as 32x32 or 64x16\), got 1x/);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('--backoff-lab-background fills behind the chart; one the core cannot read is refused in its place', async () => {
  const { context, tab, problems } = await open(`${strict.url}/background.html`);
  try {
    await until(async () => (await rendered(tab, 'off-white')).length > 0, 'the storm to render', 30_000);
    const offWhite = await look(tab, 'off-white');
    assert.deepEqual(offWhite.corner, [250, 248, 245]);
    assert.ok(offWhite.inked > 200, 'the storm is drawn over it');
    await until(async () => (await look(tab, 'named')).error !== '', 'the refusal', 30_000);
    const named = await look(tab, 'named');
    assert.match(named.error, /^--backoff-lab-background: chart options: background must be an opaque colour written #rrggbb, #rgb or rgb\(r, g, b\).*got "ivory"/);
    assert.ok(named.fallbackShown, 'the fallback image stays');
    const errors = await tab.evaluate(() => window.__events.filter((e) => e.type === 'backoff-lab:error'));
    assert.ok(errors.some((e) => e.id === 'named' && e.detail.field === '--backoff-lab-background'), JSON.stringify(errors));
    // Set from a script and drawn at the next drawing (here a theme), in the dark theme too.
    await tab.evaluate(() => {
      const named = document.getElementById('named');
      named.style.setProperty('--backoff-lab-background', '#0d1b2a');
      named.theme = 'dark';
    });
    await until(async () => (await look(tab, 'named')).error === '', 'the chart', 30_000);
    assert.deepEqual((await look(tab, 'named')).corner, [0x0d, 0x1b, 0x2a]);
    assert.deepEqual(problems.filter((p) => !/background/.test(p)), []);
  } finally {
    await context.close();
  }
});

test('properties set before the element is defined or its wasm loaded are taken over', async () => {
  const { context, tab, problems } = await open(`${strict.url}/early.html`);
  try {
    for (const id of ['reference', 'predefined', 'created', 'hidden-actions', 'false-actions']) {
      await until(async () => (await rendered(tab, id)).length > 0, `${id} to render`, 30_000);
    }
    const reference = await look(tab, 'reference');
    assert.match(reference.caption, /2 h/, reference.caption);
    for (const id of ['predefined', 'created']) {
      const seen = await look(tab, id);
      assert.equal(seen.caption, reference.caption, `${id} is drawn with giveUp = '2 h' and multiplier = 2`);
      assert.equal(seen.label, reference.caption);
      const [event] = await rendered(tab, id);
      assert.deepEqual(event.detail.schedule, (await rendered(tab, 'reference'))[0].detail.schedule);
      const state = await tab.evaluate((id) => {
        const element = document.getElementById(id);
        return { own: Object.hasOwn(element, 'giveUp') || Object.hasOwn(element, 'multiplier'), giveUp: element.giveUp, multiplier: element.getAttribute('multiplier') };
      }, id);
      assert.deepEqual(state, { own: false, giveUp: '2 h', multiplier: '2' }, `${id}: the accessors took the properties over`);
    }
    assert.deepEqual((await look(tab, 'created')).buttons, ['PNG', 'SVG', 'CSV'], 'actions = true shows the buttons');
    assert.deepEqual((await look(tab, 'hidden-actions')).buttons, [], 'actions = false hides them');
    assert.deepEqual((await look(tab, 'false-actions')).buttons, [], 'actions="false" hides them');
    assert.equal(await tab.evaluate(() => document.getElementById('false-actions').actions), false);
    const flags = await tab.evaluate(() => {
      const element = document.getElementById('hidden-actions');
      const before = [element.hasAttribute('actions'), element.actions];
      element.actions = true;
      return [...before, element.getAttribute('actions'), element.actions];
    });
    assert.deepEqual(flags, [false, false, '', true]);
    assert.deepEqual(await tab.evaluate(() => [window.__moduleExports, window.__wasBackoffLab]), [['BackoffLab'], true]);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('arrivals over the work limit are named as arrivals with their range; an unknown preset uses none', async () => {
  const { context, tab } = await open(`${strict.url}/limits.html`);
  try {
    await until(async () => (await rendered(tab, 'nope')).length > 0, 'the timeline', 30_000);
    await until(async () => (await tab.evaluate(() => window.__events.filter((e) => e.id === 'over').length)) > 0, 'the storm to fail', 30_000);
    const errors = await tab.evaluate(() => window.__events.filter((e) => e.type === 'backoff-lab:error').map((e) => [e.id, e.detail.field, e.detail.message]));
    const over = errors.filter(([id]) => id === 'over');
    assert.deepEqual(over, [['over', 'arrivals', "arrivals must be a rate that brings at most 10000000 deliveries over the storm's 2 h of traffic (up to about 83333/min), got 1000000/s"]]);
    const seen = await look(tab, 'over');
    assert.equal(seen.error, over[0][2], 'shown as it is, naming the attribute');
    // Each value is valid, together they are over a work limit: no one default to draw instead.
    assert.deepEqual([seen.chartShown, seen.fallbackShown], [false, true]);
    // Above the fallback image, as it is above a chart: under it, it was easy to miss.
    const [errorBottom, imageTop] = await tab.evaluate(() => {
      const host = document.getElementById('over');
      return [host.shadowRoot.querySelector('.error').getBoundingClientRect().bottom, host.querySelector('img').getBoundingClientRect().top];
    });
    assert.ok(errorBottom <= imageTop, `the error (bottom ${errorBottom}) above the image (top ${imageTop})`);
    const nope = errors.filter(([id]) => id === 'nope');
    assert.equal(nope.length, 1);
    assert.match(nope[0][2], /^preset "nope" was ignored \(one of .+\); using none$/);
    assert.ok((await look(tab, 'nope')).inked > 200, 'drawn with no preset');
    // Two values at odds (a cap under the base): refused as a pair, named by the cap.
    const odds = errors.filter(([id]) => id === 'odds');
    assert.equal(odds.length, 1);
    assert.equal(odds[0][1], 'cap');
    assert.match(odds[0][2], /^cap must be a duration of at least the base \(60 s\)/);
    assert.deepEqual([(await look(tab, 'odds')).chartShown, (await look(tab, 'odds')).error], [false, odds[0][2]]);
  } finally {
    await context.close();
  }
});

test('a chart that takes seconds to compute leaves the host page answering, and is drawn when done', async () => {
  const { context, tab } = await open(`${strict.url}/heavy.html`);
  try {
    await until(async () => (await rendered(tab, 'quick')).length > 0, 'the quick chart', 30_000);
    // Computed on the page's thread, the staleness report held the click until it was drawn.
    await tab.click('#poke');
    // Meanwhile it says in the chart's place that it is computing, and no more once drawn.
    const busy = () => tab.evaluate(() => {
      const label = document.getElementById('heavy').shadowRoot.querySelector('.busy');
      return label && !label.hidden && label.checkVisibility() ? label.textContent : null;
    });
    await until(async () => (await busy()) === 'computing…', 'the computing label', 10_000);
    await until(async () => (await rendered(tab, 'heavy')).length > 0, 'the heavy chart', 60_000);
    const [poked, heavyAt] = await tab.evaluate(() => [window.__poked, window.__heavyAt]);
    assert.ok(poked !== undefined && heavyAt !== undefined && poked < heavyAt, `the click at ${poked} ms, the chart at ${heavyAt} ms`);
    assert.ok((await look(tab, 'heavy')).inked > 200, 'the heavy chart is drawn');
    assert.equal(await busy(), null, 'no computing label once drawn');

    // Switched to a costly chart, the quick one keeps its old picture while the new one is
    // computed; drawn again meanwhile (a narrower column), the old one is not announced again.
    await tab.evaluate(() => {
      const quick = document.getElementById('quick');
      quick.setAttribute('view', 'staleness');
      quick.setAttribute('attempts', '10000');
      quick.setAttribute('mode', 'full');
      document.getElementById('column').style.width = '600px';
    });
    await until(async () => (await rendered(tab, 'quick')).length >= 2, 'the switched chart', 60_000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const views = (await rendered(tab, 'quick')).map((event) => event.detail.view);
    assert.deepEqual(views, ['timeline', 'staleness'], 'one rendered event per result');
  } finally {
    await context.close();
  }
});

test('a quicker first run replaced by new settings is never announced', async () => {
  const { context, tab } = await open(`${strict.url}/heavy.html`);
  try {
    // The staleness report's quicker first run is drawn long before its full run ends.
    await until(async () => (await look(tab, 'heavy')).inked > 200, 'the first run', 60_000);
    assert.equal((await rendered(tab, 'heavy')).length, 0, 'a first run is not announced');
    // New settings while it shows, and a redraw of what shows (a narrower column).
    await tab.evaluate(() => {
      document.getElementById('heavy').setAttribute('tolerance', '2h');
      document.getElementById('column').style.width = '600px';
    });
    // Its whole run (the first run samples 250 schedules, the whole one 20,000).
    const whole = (event) => /Sampled from 20,000 jittered schedules/.test(event.detail.caption);
    await until(async () => (await rendered(tab, 'heavy')).some(whole), 'the new chart', 60_000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const events = await rendered(tab, 'heavy');
    assert.deepEqual(events.map(whole), [true], 'announced once, the whole run, not the old first run');
    // The default 6 h tolerance keeps outages up to 3 h 4x min fresh; 2 h keeps fewer.
    assert.doesNotMatch(events[0].detail.caption, /^Outages up to 3 h/, 'the caption of the new settings');
  } finally {
    await context.close();
  }
});

test('a theme or class changed while the chart computes keeps its result, drawn dark', async () => {
  const { context, tab } = await open(`${strict.url}/heavy.html`);
  try {
    // While the staleness chart's whole run is under way in a worker (its first run is drawn
    // long before), attributes that change no number: the result was dropped, as the settings
    // it was asked for were no longer the element's, and nothing was drawn again.
    await until(async () => (await look(tab, 'heavy')).inked > 200, 'the first run', 60_000);
    await tab.evaluate(() => {
      const heavy = document.getElementById('heavy');
      heavy.setAttribute('class', 'wide');
      heavy.theme = 'dark';
    });
    const whole = (event) => /Sampled from 20,000 jittered schedules/.test(event.detail.caption);
    await until(async () => (await rendered(tab, 'heavy')).some(whole), 'the whole run drawn', 60_000);
    await until(async () => luminance((await look(tab, 'heavy')).corner) < 0.3, 'drawn dark');
    assert.equal(await tab.evaluate(() => document.getElementById('heavy').getAttribute('theme')), 'dark');
  } finally {
    await context.close();
  }
});

test('a removed element stops its computation, and its worker is freed', async () => {
  const { context, tab } = await open(`${strict.url}/heavy.html`);
  try {
    await until(async () => (await rendered(tab, 'quick')).length > 0, 'the quick chart', 30_000);
    // Removed while its seconds of work run, and put back: computed again, announced once.
    await tab.evaluate(() => {
      const heavy = document.getElementById('heavy');
      heavy.remove();
      document.getElementById('column').append(heavy);
    });
    await until(async () => (await rendered(tab, 'heavy')).length > 0, 'the heavy chart', 60_000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal((await rendered(tab, 'heavy')).length, 1);
    assert.ok((await look(tab, 'heavy')).inked > 200, 'the heavy chart is drawn');
  } finally {
    await context.close();
  }
});

test('ten elements on one page fetch and instantiate the wasm once', async () => {
  const { context, tab, requests } = await open(`${strict.url}/ten.html`);
  try {
    // Each holds its chart's box, so the last ones start only once scrolled to.
    await tab.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await until(async () => (await tab.evaluate(() => window.__events.length)) >= 10, 'ten charts', 30_000);
    assert.equal(requests.filter((url) => url.endsWith('.wasm')).length, 1);
  } finally {
    await context.close();
  }
});

test('with workers refused by the CSP, costly charts and the survival map are computed on the page', async () => {
  const { context, tab, problems } = await open(`${noWorkers.url}/survival.html`);
  try {
    await until(async () => (await rendered(tab, 'survival')).length > 0, 'the map to render', 60_000);
    const seen = await look(tab, 'survival');
    assert.equal(seen.tableRows, 12, 'every row of the map');
    assert.equal(seen.error, '');
    await tab.evaluate(() => {
      const other = document.getElementById('bad-map');
      other.removeAttribute('steps');
      other.setAttribute('view', 'storm');
    });
    await until(async () => (await rendered(tab, 'bad-map')).length > 0, 'the storm', 60_000);
    assert.ok((await look(tab, 'bad-map')).inked > 200, 'the storm is drawn');
    assert.equal((await rendered(tab, 'survival')).length, 1);
    // The refused workers are the only complaint.
    assert.ok(problems.every((p) => /worker/i.test(p)), JSON.stringify(problems));
  } finally {
    await context.close();
  }
});

test('with WebAssembly refused by the CSP the fallback image stays, with one console warning', async () => {
  const { context, tab, warnings } = await open(`${noWasm.url}/index.html`);
  try {
    await until(async () => warnings.some((w) => w.includes('<backoff-lab>')), 'the warning', 30_000);
    const seen = await look(tab, 'timeline');
    assert.equal(seen.fallbackShown, true);
    assert.equal(seen.chartShown, false);
    const image = await tab.evaluate(() => document.querySelector('#timeline img').getBoundingClientRect().height);
    assert.ok(image > 100, `the fallback image is shown (${image} px high)`);
    assert.equal(seen.error, '', 'with a fallback image, no message in the element');
    const told = await tab.evaluate(() => window.__events.filter((e) => e.type === 'backoff-lab:error' && e.id === 'timeline'));
    assert.equal(told.length, 1, `the host hears it from an element with a fallback too: ${JSON.stringify(told)}`);
    // Without children the element said nothing and shrank to nothing (outside docs review):
    // it says why in the chart's place, and the host hears it.
    await tab.evaluate(() => document.getElementById('distribution').scrollIntoView());
    await until(async () => (await look(tab, 'distribution')).error !== '', 'the message in the chart\'s place', 30_000);
    const bare = await look(tab, 'distribution');
    // The fix named, not the browser's 'unsafe-eval', which would be the wrong one.
    assert.equal(bare.error, "the chart cannot be drawn here (this page's Content-Security-Policy does not allow WebAssembly: its script-src needs 'wasm-unsafe-eval'); the page gives no fallback image");
    const height = await tab.evaluate(() => document.getElementById('distribution').getBoundingClientRect().height);
    assert.ok(height > 10, `the element keeps a box (${height} px)`);
    const heard = await tab.evaluate(() => window.__events.filter((e) => e.type === 'backoff-lab:error' && e.id === 'distribution'));
    assert.equal(heard.length, 1, JSON.stringify(heard));
    assert.equal(heard[0].detail.field, null);
    assert.match(heard[0].detail.message, /^WebAssembly did not load: this page's Content-Security-Policy does not allow WebAssembly: its script-src needs 'wasm-unsafe-eval'$/);
    const warning = warnings.filter((w) => w.includes('<backoff-lab>'));
    assert.equal(warning.length, 1, 'one warning for the page');
    assert.match(warning[0], /needs 'wasm-unsafe-eval'; the browser said: /);
  } finally {
    await context.close();
  }
});

test('a self-closing element, which swallows what follows it, is named in one console warning', async () => {
  const { context, tab, warnings, problems } = await open(`${strict.url}/unclosed.html`);
  try {
    await until(async () => (await rendered(tab, 'unclosed')).length > 0, 'the unclosed element drawn', 30_000);
    await until(async () => (await rendered(tab, 'closed')).length > 0, 'the closed element drawn', 30_000);
    // A fallback figure with a heading of its own is no slip, nor two short paragraphs.
    await until(async () => (await rendered(tab, 'figured')).length > 0, 'the element with a figure drawn', 30_000);
    await until(async () => (await rendered(tab, 'short')).length > 0, 'the element with two paragraphs drawn', 30_000);
    const said = warnings.filter((w) => w.includes('self-closing'));
    assert.equal(said.length, 2, `one warning each for the two unclosed elements: ${JSON.stringify(warnings)}`);
    // A slip followed by paragraphs alone (no heading) is told too.
    assert.match(said.find((w) => w.includes('"storm"')), /^A backoff-lab element \(view "storm"\) holds 3 paragraphs or other blocks as its fallback content, hidden .* write <backoff-lab …><\/backoff-lab>\.$/);
    assert.match(said.find((w) => w.includes('"timeline"')), /^A backoff-lab element \(view "timeline"\) holds headings .* write <backoff-lab …><\/backoff-lab>\.$/);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('an element far below the fold holds its chart\'s box before it starts, so drawing it moves nothing', async () => {
  const { context, tab, problems } = await open(`${strict.url}/far.html`, { viewport: { width: 1000, height: 800 } });
  try {
    const boxes = () => tab.evaluate(() => {
      const far = document.getElementById('far');
      return {
        height: far.getBoundingClientRect().height,
        top: far.getBoundingClientRect().top + scrollY,
        chart: far.shadowRoot.querySelector('.chart').getBoundingClientRect().height,
        canvasHidden: far.shadowRoot.querySelector('canvas').getAttribute('aria-hidden'),
        below: document.getElementById('below').getBoundingClientRect().top + scrollY,
        fallbackImage: document.querySelector('#far-fallback img').getBoundingClientRect().height,
      };
    });
    await tab.evaluate(() => customElements.whenDefined('backoff-lab'));
    await tab.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    const before = await boxes();
    assert.equal((await rendered(tab, 'far')).length, 0, 'not started while far from the viewport');
    // The column is 760 px wide: a chart half as high.
    assert.equal(before.height, 380, `the element holds its chart's box before it starts: ${JSON.stringify(before)}`);
    assert.equal(before.canvasHidden, 'true', 'the empty box is no image with no name for a screen reader');
    assert.ok(before.fallbackImage > 100, `fallback children are shown until the chart is drawn: ${JSON.stringify(before)}`);
    // Printed before it starts, it prints no empty box (its fallback children, where it has
    // them, print as they show).
    await tab.emulateMedia({ media: 'print' });
    const printed = await boxes();
    assert.equal(printed.height, 0, `no empty box in print: ${JSON.stringify(printed)}`);
    assert.ok(printed.fallbackImage > 100, `the fallback image prints: ${JSON.stringify(printed)}`);
    await tab.emulateMedia({ media: 'screen' });

    await tab.evaluate(() => document.getElementById('far').scrollIntoView());
    await until(async () => (await rendered(tab, 'far')).length > 0, 'the chart to render', 30_000);
    const after = await boxes();
    assert.ok((await look(tab, 'far')).inked > 200, 'the chart is drawn');
    // The chart takes exactly the box held for it: nothing above moves, and the chart's box
    // keeps its height (only the caption's lines are added under it).
    assert.equal(after.top, before.top, 'the element stays where it was');
    assert.equal(after.chart, before.height, 'the drawn chart is as high as the box held for it');
    assert.equal(after.below - before.below, after.height - before.height, 'what is below moves only by the caption added under the chart');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('the single-file variant (wasm inlined) renders without fetching a .wasm', async () => {
  const { context, tab, requests, problems } = await open(`${strict.url}/inline.html`);
  try {
    await until(async () => (await rendered(tab, 'timeline')).length > 0, 'the chart', 30_000);
    assert.equal(requests.filter((url) => url.endsWith('.wasm')).length, 0);
    assert.ok((await look(tab, 'timeline')).inked > 200);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
