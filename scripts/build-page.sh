#!/usr/bin/env bash
# Build the wasm package the static page loads (www/pkg/backoff_lab{.js,_bg.wasm}), and the embed
# page's single classic script with the wasm inside (www/embed.bundle.js, by esbuild), which also
# carries its workers' script as text (www/pkg/worker.classic.txt, built first).
# Set SKIP_ENSURE_TOOLS=1 to skip the tool check (scripts/test.sh and scripts/serve.sh do,
# having just run it).
set -euo pipefail

export PATH="$HOME/.cargo/bin:$PATH"
cd "$(dirname "$0")/.."

if [ "${SKIP_ENSURE_TOOLS:-0}" != "1" ]; then
    scripts/ensure-tools.sh
fi

echo "build-page: wasm-pack build --target web --release --out-dir www/pkg"
wasm-pack build --target web --release --out-dir www/pkg

wasm=www/pkg/backoff_lab_bg.wasm
if [ ! -f "$wasm" ]; then
    echo "build-page: expected $wasm after the build, but it is missing" >&2
    exit 1
fi
# wasm-bindgen declares each class's `[Symbol.dispose]`, which a host's TypeScript without the
# esnext.disposable lib (`"lib": ["es2022", "dom"]`) refuses in the package's declarations
# (outside review); `free()` does the same and stays declared. `npm run types` checks with that lib.
# (`-i.bak`, then removed: BSD sed needs the suffix.)
sed -i.bak '/\[Symbol\.dispose\](): void;/d' www/pkg/backoff_lab.d.ts && rm www/pkg/backoff_lab.d.ts.bak
raw_bytes="$(wc -c <"$wasm" | tr -d ' ')"
gzip_bytes="$(gzip -9 -c "$wasm" | wc -c | tr -d ' ')"
echo "build-page: $wasm is $raw_bytes bytes, $gzip_bytes bytes gzipped (gzip -9)"

# The embed page runs from file:// too: there browsers refuse ES modules and fetch, so it loads
# one classic script that carries the wasm as bytes.
# Its workers' script rides inside it as text, started from a blob: URL: a file:// page cannot
# start a worker from a file (nor a module worker at all). The worker gets the page's compiled
# wasm in its first message, so it carries only the glue (wasm-pack's pkg/ is rebuilt above,
# and ignored by git with the rest of pkg/).
worker_text=www/pkg/worker.classic.txt
# (esbuild warns that `import.meta` is empty in a classic script: the glue's default wasm URL,
# never used, since the page hands the worker its module; other warnings show.)
echo "build-page: esbuild www/worker.js --bundle --format=iife --minify --outfile=$worker_text"
tests/e2e/node_modules/.bin/esbuild www/worker.js --bundle --format=iife --minify \
    --log-level=warning --log-override:empty-import-meta=silent --outfile="$worker_text"
bundle=www/embed.bundle.js
echo "build-page: esbuild www/embed-standalone.js --bundle --format=iife --minify --outfile=$bundle"
tests/e2e/node_modules/.bin/esbuild www/embed-standalone.js --bundle --format=iife --minify \
    --loader:.wasm=binary --loader:.txt=text --log-level=error --outfile="$bundle"
bundle_gzip="$(gzip -9 -c "$bundle" | wc -c | tr -d ' ')"
echo "build-page: $bundle is $(wc -c <"$bundle" | tr -d ' ') bytes, $bundle_gzip bytes gzipped (gzip -9)"
