#!/usr/bin/env bash
# Build the npm package of backoff-lab into target/package/ and pack it with `npm pack` into
# target/backoff-lab-<version>.tgz:
#   backoff-lab.js         the <backoff-lab> element (one ES module; loads the wasm next to it)
#   backoff-lab.inline.js  the same with the wasm inside (for hosts that cannot serve .wasm)
#   backoff_lab.js, .d.ts  the JS API (init, schedule, jitter, storm, staleness, draw*...)
#   backoff_lab_bg.wasm    the core, shared by the element and the API
# Runs scripts/build-page.sh first unless SKIP_PAGE_BUILD=1 (the page's wasm is the package's).
set -euo pipefail

cd "$(dirname "$0")/.."
if [ "${SKIP_PAGE_BUILD:-0}" != "1" ]; then
    scripts/build-page.sh
fi

out=target/package
esbuild=tests/e2e/node_modules/.bin/esbuild
rm -rf "$out"
mkdir -p "$out"
cp www/pkg/backoff_lab.js www/pkg/backoff_lab.d.ts www/pkg/backoff_lab_bg.wasm "$out/"
# The bundled element finds the wasm next to itself (`new URL(__BACKOFF_LAB_WASM__,
# import.meta.url)`) wherever the two files are copied, and runs itself as its workers' script.
define='--define:__BACKOFF_LAB_WASM__="backoff_lab_bg.wasm"'
"$esbuild" www/backoff-lab.js --bundle --format=esm --minify "$define" --log-level=error --outfile="$out/backoff-lab.js"
"$esbuild" www/inline-entry.js --bundle --format=esm --minify "$define" --loader:.wasm=binary \
    --log-level=error --outfile="$out/backoff-lab.inline.js"
cp www/backoff-lab.d.ts "$out/backoff-lab.d.ts"
cp README.md "$out/README.md"

version="$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n 1)"
description="$(sed -n 's/^description = "\(.*\)"/\1/p' Cargo.toml | head -n 1)"
license="$(sed -n 's/^license = "\(.*\)"/\1/p' Cargo.toml | head -n 1)"
cat >"$out/package.json" <<JSON
{
  "name": "backoff-lab",
  "version": "$version",
  "description": "$description",
  "license": "$license",
  "type": "module",
  "main": "./backoff_lab.js",
  "types": "./backoff_lab.d.ts",
  "exports": {
    ".": { "types": "./backoff_lab.d.ts", "default": "./backoff_lab.js" },
    "./element": { "types": "./backoff-lab.d.ts", "default": "./backoff-lab.js" },
    "./element.inline": { "types": "./backoff-lab.d.ts", "default": "./backoff-lab.inline.js" },
    "./backoff_lab_bg.wasm": "./backoff_lab_bg.wasm",
    "./package.json": "./package.json"
  },
  "files": [
    "backoff-lab.js",
    "backoff-lab.inline.js",
    "backoff-lab.d.ts",
    "backoff_lab.js",
    "backoff_lab.d.ts",
    "backoff_lab_bg.wasm",
    "README.md"
  ],
  "sideEffects": ["./backoff-lab.js", "./backoff-lab.inline.js"],
  "keywords": ["retry", "backoff", "jitter", "webhooks", "web-component", "wasm"]
}
JSON

for file in backoff-lab.js backoff-lab.inline.js backoff_lab_bg.wasm; do
    echo "build-package: $out/$file is $(wc -c <"$out/$file" | tr -d ' ') bytes, $(gzip -9 -c "$out/$file" | wc -c | tr -d ' ') bytes gzipped (gzip -9)"
done
(cd "$out" && npm pack --silent --pack-destination ..) >/dev/null
echo "build-package: target/backoff-lab-$version.tgz"
