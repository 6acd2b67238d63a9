# Sourced by scripts/test.sh and scripts/bench.sh: the repository as the working directory, step
# headings, a failure line naming the step that failed, and a private temporary directory for the
# browser steps ($browser_tmp: Chromium leaves profiles and scoped dirs in TMPDIR), removed on
# exit. `$1` names it.
export PATH="$HOME/.cargo/bin:$PATH"
cd "$(dirname "${BASH_SOURCE[0]}")/.."

started=$SECONDS
current_step="start"
step() {
    current_step="$*"
    printf '\n==> %s\n' "$*"
}
trap 'printf "\nFAILED at step: %s (after %ss)\n" "$current_step" "$((SECONDS - started))" >&2' ERR

browser_tmp="$(mktemp -d "${TMPDIR:-/tmp}/backoff-lab-$1.XXXXXX")"
trap 'rm -rf "$browser_tmp"' EXIT
