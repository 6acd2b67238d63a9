// The <backoff-lab> element in a site built by a real docs generator: tests/docs-site (MkDocs,
// its default `mkdocs` theme, no plugins beyond the built-in search) copied into a fresh folder,
// the package's two files (backoff-lab.js and backoff_lab_bg.wasm, from target/package/) copied
// into docs/js/, the static SVG fallbacks written into docs/ by `backoff-lab figure`, then
// `mkdocs build`. The built site is served on loopback under the strict CSP and opened in headless
// Chromium: both elements render, the fallback <img> survived the Markdown build and its SVG is in
// the site, no request leaves the origin, and there are no console errors.
//
// MkDocs comes from scripts/ensure-tools.sh (target/docs-venv); MKDOCS overrides where it is.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import { closeServer, launchBrowser, repoRoot, summarize, until, watchProblems } from './harness.mjs';
import { CONTENT_SECURITY_POLICY, startServer } from './server.mjs';

const packageDir = path.join(repoRoot, 'target', 'package');
const cli = path.join(repoRoot, 'target', 'debug', 'backoff-lab');
const mkdocs = process.env.MKDOCS || path.join(repoRoot, 'target', 'docs-venv', 'bin', 'mkdocs');

/** The SVG fallbacks the page's <img> elements name, as `backoff-lab figure` arguments: each
 * element's own settings (`--state`) and its 2:1 shape, as the README makes them. */
const FIGURES = {
  'svix-timeline.svg': ['timeline', '--state', 'preset=svix', '--height', '450'],
  'staleness.svg': ['staleness', '--state', 'preset=svix&tolerance=6h&read-outage=4h', '--height', '450'],
};
const ELEMENTS = ['svix-timeline', 'staleness'];

/**
 * MkDocs' `mkdocs` theme writes one inline <script> (base_url and the keyboard shortcuts, which
 * its base.js and the search need) and one style="" attribute (in its keyboard-shortcuts dialog),
 * which the strict policy refuses. A site owner allows them by hash, not by 'unsafe-inline': the
 * policy here is the strict one plus the hashes of the built page's inline scripts and style
 * attributes, so the element itself still gets nothing beyond 'self' and 'wasm-unsafe-eval'.
 */
function policyFor(html) {
  const hash = (text) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
  const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map(([, body]) => hash(body));
  const styles = [...new Set([...html.matchAll(/\sstyle="([^"]*)"/g)].map(([, body]) => hash(body)))];
  let policy = CONTENT_SECURITY_POLICY;
  if (scripts.length > 0) policy = policy.replace("script-src 'self'", `script-src 'self' ${scripts.join(' ')}`);
  if (styles.length > 0) policy = policy.replace("style-src 'self'", `style-src 'self' 'unsafe-hashes' ${styles.join(' ')}`);
  return policy;
}

let browser;
let folder;
let site;
let served;
let unmodified;
let builtHtml;

before(async () => {
  for (const file of ['backoff-lab.js', 'backoff_lab_bg.wasm']) {
    if (!existsSync(path.join(packageDir, file))) {
      throw new Error(`no ${path.join(packageDir, file)}: run scripts/build-package.sh first (scripts/test.sh does)`);
    }
  }
  if (!existsSync(cli)) {
    throw new Error(`no ${cli}: run cargo build first (scripts/test.sh does)`);
  }
  if (!existsSync(mkdocs)) {
    throw new Error(`no MkDocs at ${mkdocs}: run scripts/ensure-tools.sh (it installs MkDocs into target/docs-venv) or set MKDOCS`);
  }

  folder = mkdtempSync(path.join(os.tmpdir(), 'backoff-lab-docs-'));
  const project = path.join(folder, 'project');
  site = path.join(folder, 'site');
  cpSync(path.join(repoRoot, 'tests', 'docs-site'), project, { recursive: true });
  // The "two files" install: the element's module and the wasm it finds next to itself.
  const js = path.join(project, 'docs', 'js');
  mkdirSync(js, { recursive: true });
  for (const file of ['backoff-lab.js', 'backoff_lab_bg.wasm']) copyFileSync(path.join(packageDir, file), path.join(js, file));
  // The static fallbacks, made at build time by the CLI (it writes the SVG to stdout).
  for (const [name, args] of Object.entries(FIGURES)) {
    const svg = execFileSync(cli, ['figure', ...args], { encoding: 'utf8', maxBuffer: 64 << 20 });
    assert.match(svg, /^<svg[\s>]/, `backoff-lab figure ${args.join(' ')} wrote an SVG`);
    writeFileSync(path.join(project, 'docs', name), svg);
  }
  // --strict: any MkDocs warning (a bad nav entry, a broken Markdown link) fails the build.
  execFileSync(mkdocs, ['build', '--strict', '-q', '-f', path.join(project, 'mkdocs.yml'), '-d', site], {
    cwd: project,
    stdio: 'pipe',
  });
  builtHtml = readFileSync(path.join(site, 'index.html'), 'utf8');
  served = await startServer({ root: site, csp: policyFor(builtHtml) });
  unmodified = await startServer({ root: site }); // the strict policy exactly as the page's
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await closeServer(served?.server);
  await closeServer(unmodified?.server);
  if (folder) rmSync(folder, { recursive: true, force: true });
});

test('the Markdown build keeps the elements, their fallback images and the module script', () => {
  for (const [id, name] of [['svix-timeline', 'svix-timeline.svg'], ['staleness', 'staleness.svg']]) {
    const element = builtHtml.match(new RegExp(`<backoff-lab id="${id}"[^>]*>([\\s\\S]*?)</backoff-lab>`));
    assert.ok(element, `<backoff-lab id="${id}"> is in the built index.html`);
    assert.match(element[1], new RegExp(`^<img src="${name.replace('.', '\\.')}" alt="[^"]{20,}">$`), `${id}: its fallback <img>`);
    assert.ok(existsSync(path.join(site, name)), `${name} is in the built site`);
    assert.match(readFileSync(path.join(site, name), 'utf8'), /^<svg[\s>]/);
  }
  assert.match(builtHtml, /<backoff-lab id="svix-timeline" view="timeline" preset="svix">/);
  assert.match(builtHtml, /<script src="js\/backoff-lab\.js" type="module"><\/script>/, 'extra_javascript as a module script');
  for (const file of ['js/backoff-lab.js', 'js/backoff_lab_bg.wasm']) assert.ok(existsSync(path.join(site, file)), `${file} in the site`);
  assert.doesNotMatch(builtHtml, /cdnjs|googletagmanager/, 'no third-party scripts or styles in the theme');
});

describe('the built site in Chromium, under the strict CSP', () => {
  let context;
  let tab;
  let problems;
  const requests = [];

  before(async () => {
    context = await browser.newContext({ viewport: { width: 1100, height: 2400 } });
    tab = await context.newPage();
    problems = watchProblems(tab);
    tab.on('request', (request) => requests.push(request.url()));
    await tab.addInitScript(() => {
      window.__events = [];
      for (const type of ['backoff-lab:rendered', 'backoff-lab:error']) {
        document.addEventListener(type, (event) => {
          window.__events.push({ type, id: event.target.id, view: event.detail?.view });
        });
      }
    });
    const response = await tab.goto(served.url);
    assert.equal(response?.status(), 200);
    for (const id of ELEMENTS) {
      // A page error (the module failing to load, say) ends the wait: the tests then say what.
      await until(
        async () => problems.some((p) => p.startsWith('page error')) || tab.evaluate((id) => window.__events.some((e) => e.id === id), id),
        async () => `${id} to render or fail (problems: ${summarize(problems) || 'none'})`,
        30_000,
      );
    }
  });
  after(() => context?.close());

  test('both elements render: a rendered event each, a drawn canvas, the fallback gives way', async () => {
    const events = await tab.evaluate(() => window.__events);
    assert.deepEqual(events.filter((e) => e.type === 'backoff-lab:error'), [], 'no element reports an error');
    for (const [id, view] of [['svix-timeline', 'timeline'], ['staleness', 'staleness']]) {
      assert.ok(events.some((e) => e.type === 'backoff-lab:rendered' && e.id === id && e.view === view), `${id}: rendered as ${view}`);
      const seen = await tab.evaluate((id) => {
        const root = document.getElementById(id).shadowRoot;
        const canvas = root.querySelector('canvas');
        const { width, height } = canvas;
        const data = width > 1 ? canvas.getContext('2d').getImageData(0, 0, width, height).data : [];
        const at = 4 * (width * 2 + 2);
        const corner = [data[at], data[at + 1], data[at + 2]];
        let inked = 0;
        for (let i = 0; i < data.length; i += 4 * 7) {
          if (Math.abs(data[i] - corner[0]) + Math.abs(data[i + 1] - corner[1]) + Math.abs(data[i + 2] - corner[2]) > 60) inked += 1;
        }
        return {
          width,
          cssWidth: canvas.getBoundingClientRect().width,
          inked,
          fallbackShown: !root.querySelector('.fallback').hidden,
          chartShown: !root.querySelector('.chart').hidden,
          caption: root.querySelector('.caption').textContent,
          image: document.querySelector(`#${id} > img`)?.getAttribute('src'),
        };
      }, id);
      assert.ok(seen.inked > 200, `${id}: a drawn chart (${seen.inked} inked pixels)`);
      assert.ok(seen.cssWidth > 300, `${id}: laid out in the theme's column (${seen.cssWidth} px)`);
      assert.equal(seen.chartShown, true, `${id}: the chart is shown`);
      assert.equal(seen.fallbackShown, false, `${id}: the fallback gives way to the chart`);
      assert.ok(seen.caption.length > 20, `${id}: caption ${JSON.stringify(seen.caption)}`);
      assert.ok(seen.image, `${id}: the fallback <img> is still its light-DOM child`);
    }
  });

  test('the fallback SVGs and the wasm are fetched from the site itself', () => {
    for (const name of ['svix-timeline.svg', 'staleness.svg']) {
      assert.ok(requests.includes(new URL(name, served.url).href), `${name} requested: ${requests.join(', ')}`);
    }
    assert.equal(requests.filter((url) => url.endsWith('.wasm')).length, 1, 'one wasm fetch for both elements');
  });

  test('no request leaves the origin, and there are no console errors', () => {
    const origin = new URL(served.url).origin;
    assert.deepEqual(requests.filter((url) => new URL(url).origin !== origin), []);
    assert.deepEqual(problems, [], summarize(problems));
  });
});

test('under the strict CSP without the theme\'s hashes the elements still render: only the theme breaks', async () => {
  const context = await browser.newContext({ viewport: { width: 1100, height: 2400 } });
  try {
    const tab = await context.newPage();
    const problems = watchProblems(tab);
    const warnings = [];
    tab.on('console', (message) => message.type() === 'warning' && warnings.push(message.text()));
    await tab.addInitScript(() => {
      window.__rendered = new Set();
      document.addEventListener('backoff-lab:rendered', (event) => window.__rendered.add(event.target.id));
    });
    await tab.goto(unmodified.url);
    await until(
      () => tab.evaluate((ids) => ids.every((id) => window.__rendered.has(id)), ELEMENTS),
      async () => `both elements to render (problems: ${summarize(problems) || 'none'})`,
      30_000,
    );
    // The theme's inline script is refused (and its base.js and search then miss base_url and
    // shortcuts): the reason policyFor() adds its hash. None of it is the element's.
    assert.ok(problems.some((p) => p.includes('inline script')), `the theme's inline script refused: ${summarize(problems)}`);
    assert.deepEqual(problems.filter((p) => /backoff-lab\.js|backoff_lab_bg|<backoff-lab>/.test(p)), []);
    assert.deepEqual(warnings.filter((w) => w.includes('<backoff-lab>')), []);
  } finally {
    await context.close();
  }
});
