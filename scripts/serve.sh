#!/usr/bin/env bash
# Build the page and serve www/ on 127.0.0.1 (with the same strict CSP the e2e test uses).
# Usage: scripts/serve.sh [--port N]     (or PORT=N scripts/serve.sh; default 8000)
set -euo pipefail

export PATH="$HOME/.cargo/bin:$PATH"
cd "$(dirname "$0")/.."

port="${PORT:-8000}"
while [ "$#" -gt 0 ]; do
    case "$1" in
        --port)
            [ "$#" -ge 2 ] || { echo "serve: --port needs a value" >&2; exit 2; }
            port="$2"
            shift 2
            ;;
        --port=*)
            port="${1#--port=}"
            shift
            ;;
        -h | --help)
            echo "usage: scripts/serve.sh [--port N]   (PORT env var also works; default 8000)"
            exit 0
            ;;
        *)
            echo "serve: unknown argument: $1" >&2
            exit 2
            ;;
    esac
done
if ! [[ "$port" =~ ^[0-9]+$ ]] || [ "$port" -gt 65535 ]; then
    echo "serve: port must be a number from 0 to 65535, got '$port'" >&2
    exit 2
fi

scripts/ensure-tools.sh
SKIP_ENSURE_TOOLS=1 scripts/build-page.sh

echo "Serving backoff-lab at http://127.0.0.1:$port/"
exec node tests/e2e/server.mjs --root www --port "$port" --host 127.0.0.1 --quiet
