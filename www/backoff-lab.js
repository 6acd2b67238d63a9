// The <backoff-lab> element's module: defines the element, its wasm (backoff_lab_bg.wasm) loaded
// from next to this file. scripts/build-package.sh bundles it into one file for the npm package;
// served from www/ as it is, it loads the wasm package from ./pkg/. It exports the element's class
// (for `instanceof`), which backoff-lab.d.ts declares with its properties.
import { BackoffLab, define } from './element.js';

define();

export { BackoffLab };
