// The embed page as one classic script with the wasm inside it, bundled by scripts/build-page.sh
// into embed.bundle.js: a saved copy opened from file:// works too, where browsers refuse ES
// modules and fetch. Instantiating wasm from bytes needs only 'wasm-unsafe-eval' under a CSP.
import wasm from './pkg/backoff_lab_bg.wasm';
import { start } from './embed.js';

start(wasm);
