#!/usr/bin/env bash
# Benchmarks: criterion (native) and the bench page in headless Chromium (wasm), each reporting
# medians and ratios against a baseline measured in the same run; the page's own redraw; then the
# gzipped size of what each page loads. Numbers to read, never pass/fail thresholds: this fails
# only when a step fails.
set -euo pipefail

# shellcheck source=scripts/steps.sh
source "$(dirname "$0")/steps.sh" bench

step "ensure tools (scripts/ensure-tools.sh)"
scripts/ensure-tools.sh

step "native benchmarks (cargo bench --bench core)"
bench_started="$(date +%s)"
cargo bench --bench core

step "criterion medians and ratios to each group's baseline"
python3 scripts/criterion_summary.py target/criterion --since "$bench_started"

step "build the page (scripts/build-page.sh)"
SKIP_ENSURE_TOOLS=1 scripts/build-page.sh

step "wasm benchmarks in headless Chromium (cd tests/e2e && npm run bench)"
(cd tests/e2e && TMPDIR="$browser_tmp" npm run --silent bench)

step "the page's own redraw, input event to charts (cd tests/e2e && npm run bench:page)"
(cd tests/e2e && TMPDIR="$browser_tmp" npm run --silent bench:page)

step "the <backoff-lab> element: weight, cold first draw, ten on a page (cd tests/e2e && npm run bench:element)"
SKIP_PAGE_BUILD=1 scripts/build-package.sh
(cd tests/e2e && TMPDIR="$browser_tmp" npm run --silent bench:element)

step "gzipped size (gzip -9) of what each page loads"
weigh() {
    local page="$1"
    shift
    local total_raw=0 total_gzip=0 raw gz
    printf '%-28s %10s %10s\n' "$page" bytes gzipped
    for file in "$@"; do
        raw="$(wc -c <"$file" | tr -d ' ')"
        gz="$(gzip -9 -c "$file" | wc -c | tr -d ' ')"
        total_raw=$((total_raw + raw))
        total_gzip=$((total_gzip + gz))
        printf '  %-26s %10d %10d\n' "$file" "$raw" "$gz"
    done
    printf '  %-26s %10d %10d\n' total "$total_raw" "$total_gzip"
}
weigh "the explorer (index.html)" www/index.html www/app.js www/compute.js www/row-pool.js www/ui.js www/exports.js www/schedule-table.js www/worker.js www/style.css \
    www/pkg/backoff_lab.js www/pkg/backoff_lab_bg.wasm
weigh "the embed page (embed.html)" www/embed.html www/embed.bundle.js www/style.css

printf '\nBenchmarks done (%ss).\n' "$((SECONDS - started))"
