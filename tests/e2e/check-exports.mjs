// What the type check alone cannot see. Every function and class the wasm package exports must
// appear in api-types.ts, so that the type check covers it: a new export without a typed use
// fails the test command. The element's declarations (backoff-lab.d.ts) must declare exactly
// what the bundled element modules export, and a property for every setting the core reads from
// an attribute (a declared export the module lacks type-checks, then fails when it is linked).
import { readFileSync } from 'node:fs';
import { build } from 'esbuild';

import { initSync, decodeState } from '../../www/pkg/backoff_lab.js';

const failures = [];
const declarations = readFileSync(new URL('../../www/pkg/backoff_lab.d.ts', import.meta.url), 'utf8');
const program = readFileSync(new URL('./api-types.ts', import.meta.url), 'utf8');
const exported = [...declarations.matchAll(/^\s*export (?:function|class) (\w+)/gm)]
  .map((match) => match[1])
  .filter((name) => name !== 'initSync');
const unused = exported.filter((name) => !new RegExp(`\\b${name}\\b`).test(program));
// wasm-bindgen indents the declarations by their braces: one it misreads pushes every later
// declaration deeper (150 spaces by the end of the file once).
const deepest = Math.max(...declarations.split('\n').map((line) => line.length - line.trimStart().length));
if (deepest > 24) failures.push(`backoff_lab.d.ts has lines indented ${deepest} spaces: a brace wasm-bindgen misread`);
if (unused.length > 0) failures.push(`api-types.ts does not use these exports: ${unused.join(', ')}`);

const element = readFileSync(new URL('../../target/package/backoff-lab.d.ts', import.meta.url), 'utf8');
const declared = [...element.matchAll(/^export (?:declare )?(?:function|class|const|let|var) (\w+)/gm)].map((m) => m[1]).sort();
for (const file of ['backoff-lab.js', 'backoff-lab.inline.js']) {
  const { metafile } = await build({
    entryPoints: [new URL(`../../target/package/${file}`, import.meta.url).pathname],
    bundle: false, write: false, metafile: true, format: 'esm', logLevel: 'silent', loader: { '.js': 'js' },
  });
  const actual = Object.values(metafile.outputs)[0].exports.slice().sort();
  if (JSON.stringify(actual) !== JSON.stringify(declared)) {
    failures.push(`backoff-lab.d.ts declares the exports [${declared}] but ${file} exports [${actual}]`);
  }
}

initSync({ module: readFileSync(new URL('../../www/pkg/backoff_lab_bg.wasm', import.meta.url)) });
const body = element.slice(element.indexOf('export declare class BackoffLab'));
const typed = new Set([...body.slice(0, body.indexOf('\n}')).matchAll(/^\s*get (\w+)\(\)/gm)].map((m) => m[1]));
const properties = [...Object.keys(decodeState('').settings), 'state', 'theme', 'actions']
  .map((key) => key.replace(/-([a-z])/g, (_, c) => c.toUpperCase()));
const untyped = properties.filter((name) => !typed.has(name));
const extra = [...typed].filter((name) => !properties.includes(name));
if (untyped.length > 0) failures.push(`backoff-lab.d.ts types no property for: ${untyped.join(', ')}`);
if (extra.length > 0) failures.push(`backoff-lab.d.ts types properties the element lacks: ${extra.join(', ')}`);

if (failures.length > 0) {
  console.error(failures.join('\n'));
  process.exit(1);
}
console.log(`api-types.ts uses all ${exported.length} exports; backoff-lab.d.ts declares the element's exports (${declared}) and ${typed.size} properties`);
