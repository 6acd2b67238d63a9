#!/usr/bin/env bash
# Install (only what is missing) the tools that scripts/test.sh and scripts/build-page.sh need:
# the wasm32 target, rustfmt and clippy, Debian's chromium + chromium-driver, wasm-pack,
# wasm-bindgen-cli at the exact wasm-bindgen version pinned in Cargo.lock, python3, MkDocs (pinned,
# in a virtual environment under target/docs-venv) and the e2e npm packages.
# Idempotent: a second run only checks. Never installs Debian's binaryen: its wasm-opt (version
# 108) produces a wasm that fails at load, and wasm-pack would use it silently if it were on PATH.
set -euo pipefail

export PATH="$HOME/.cargo/bin:$PATH"
cd "$(dirname "$0")/.."

say() { printf 'ensure-tools: %s\n' "$*"; }

# Run a command as root: directly when we are root, through sudo when it exists.
as_root() {
    if [ "$(id -u)" -eq 0 ]; then
        "$@"
    elif command -v sudo >/dev/null 2>&1; then
        sudo "$@"
    else
        say "need root to run: $* (not root and no sudo)" >&2
        return 1
    fi
}

# --- Rust target and components -------------------------------------------------------------
if rustup target list --installed | grep -qx 'wasm32-unknown-unknown'; then
    say "wasm32-unknown-unknown target present"
else
    say "adding wasm32-unknown-unknown target"
    rustup target add wasm32-unknown-unknown
fi

missing_components=()
installed_components="$(rustup component list --installed)"
for component in rustfmt clippy; do
    if ! grep -q "^${component}" <<<"$installed_components"; then
        missing_components+=("$component")
    fi
done
if [ "${#missing_components[@]}" -eq 0 ]; then
    say "rustfmt and clippy present"
else
    say "adding components: ${missing_components[*]}"
    rustup component add "${missing_components[@]}"
fi

# --- Browser and driver (Debian packages) ---------------------------------------------------
if [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ]; then
    say "chromium and chromedriver present"
else
    say "installing chromium and chromium-driver with apt-get"
    as_root apt-get update
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y chromium chromium-driver
fi

# --- wasm-pack --------------------------------------------------------------------------------
if command -v wasm-pack >/dev/null 2>&1; then
    say "wasm-pack present ($(wasm-pack --version 2>/dev/null || echo 'unknown version'))"
else
    say "installing wasm-pack (cargo install --locked, a few minutes)"
    cargo install --locked wasm-pack
fi

# --- wasm-bindgen-cli, matching Cargo.lock exactly ------------------------------------------
if [ ! -f Cargo.lock ]; then
    say "no Cargo.lock: generating one"
    cargo generate-lockfile
fi
wasm_bindgen_version="$(awk '
    $0 == "name = \"wasm-bindgen\"" { found = 1; next }
    found && /^version = / { gsub(/"/, "", $3); print $3; exit }
    /^\[\[package\]\]/ { found = 0 }
' Cargo.lock)"
if [ -z "$wasm_bindgen_version" ]; then
    say "could not find the wasm-bindgen version in Cargo.lock" >&2
    exit 1
fi
installed_bindgen="$(wasm-bindgen --version 2>/dev/null || true)"
if [ "$installed_bindgen" = "wasm-bindgen $wasm_bindgen_version" ] ||
    [[ "$installed_bindgen" == "wasm-bindgen $wasm_bindgen_version "* ]]; then
    say "wasm-bindgen-cli $wasm_bindgen_version present"
else
    say "installing wasm-bindgen-cli $wasm_bindgen_version (found: ${installed_bindgen:-none}; a few minutes)"
    # No --locked: with it, cargo fails to resolve wasm-bindgen-cli's dependencies on Debian 12
    # with Rust 1.95 (seen when this script was written); without it the install works.
    cargo install wasm-bindgen-cli --version "$wasm_bindgen_version"
fi

# --- Python 3: the independent implementation of the storm model (tests/independent) ---------
if command -v python3 >/dev/null 2>&1; then
    say "python3 present"
else
    say "installing python3 with apt-get"
    as_root apt-get update
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y python3
fi

# --- MkDocs, pinned, in a virtual environment: the docs-site end-to-end test (tests/docs-site) ---
# target/ is gitignored; a venv that no longer runs (moved, python upgraded) is made again.
mkdocs_version=1.6.1
docs_venv=target/docs-venv
installed_mkdocs="$("$docs_venv/bin/mkdocs" --version 2>/dev/null | awk '{ print $3 }' || true)"
if [ "$installed_mkdocs" = "$mkdocs_version" ]; then
    say "mkdocs $mkdocs_version present ($docs_venv)"
else
    # Debian's python3 has no venv (nor ensurepip) without the python3-venv package.
    if ! python3 -c 'import ensurepip, venv' >/dev/null 2>&1; then
        say "installing python3-venv with apt-get"
        as_root apt-get update
        as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y python3-venv
    fi
    say "installing mkdocs $mkdocs_version into $docs_venv (found: ${installed_mkdocs:-none}; pip, seconds)"
    rm -rf "$docs_venv"
    python3 -m venv "$docs_venv"
    "$docs_venv/bin/pip" install --quiet --disable-pip-version-check "mkdocs==$mkdocs_version"
fi

# --- npm packages: the end-to-end test (playwright-core), the embed bundler (esbuild) and the
# declarations' type check (typescript) ---
if [ -d tests/e2e/node_modules/playwright-core ] && [ -x tests/e2e/node_modules/.bin/esbuild ] &&
    [ -x tests/e2e/node_modules/.bin/tsc ]; then
    say "tests/e2e node modules present"
else
    if ! command -v npm >/dev/null 2>&1; then
        say "npm not found: installing nodejs and npm with apt-get"
        as_root apt-get update
        as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y nodejs npm
    fi
    say "installing tests/e2e node modules (npm ci)"
    (cd tests/e2e && npm ci --no-audit --no-fund)
fi

say "done"
