// The source of backoff-lab.inline.js, the <backoff-lab> element with the wasm inside as one file
// (scripts/build-package.sh bundles it; this file itself does not load in a browser, which
// refuses to import a .wasm file as a module): for hosts that cannot serve .wasm files. It is an ES module, so it
// is served too: browsers refuse modules on file:// pages (the embed page's classic script is
// the one for those).
// Instantiating wasm from bytes still needs 'wasm-unsafe-eval' under a CSP. It exports what
// backoff-lab.js exports (one .d.ts declares both).
import wasm from './pkg/backoff_lab_bg.wasm';
import { BackoffLab, define } from './element.js';

define(wasm);

export { BackoffLab };
