// The embed page as one classic script with the wasm inside it, bundled by scripts/build-page.sh
// into embed.bundle.js: a saved copy opened from file:// works too, where browsers refuse ES
// modules and fetch. Instantiating wasm from bytes needs only 'wasm-unsafe-eval' under a CSP.
// Its workers' script comes inside it too (worker.js bundled as a classic script, as text), for
// file:// pages, which cannot start a worker from a file.
import wasm from './pkg/backoff_lab_bg.wasm';
import workerScript from './pkg/worker.classic.txt';
import { start } from './embed.js';

start(wasm, workerScript);
