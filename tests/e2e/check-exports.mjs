// Every function and class the wasm package exports must appear in api-types.ts, so that the
// type check covers it: a new export without a typed use fails the test command.
import { readFileSync } from 'node:fs';

const declarations = readFileSync(new URL('../../www/pkg/backoff_lab.d.ts', import.meta.url), 'utf8');
const program = readFileSync(new URL('./api-types.ts', import.meta.url), 'utf8');
const exported = [...declarations.matchAll(/^\s*export (?:function|class) (\w+)/gm)]
  .map((match) => match[1])
  .filter((name) => name !== 'initSync');
const unused = exported.filter((name) => !new RegExp(`\\b${name}\\b`).test(program));
if (unused.length > 0) {
  console.error(`api-types.ts does not use these exports: ${unused.join(', ')}`);
  process.exit(1);
}
console.log(`api-types.ts uses all ${exported.length} exports`);
