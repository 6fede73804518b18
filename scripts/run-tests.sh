#!/usr/bin/env bash
# Installs what is needed and runs the whole test suite: the Rust workspace, then the web UI (Vitest and
# Playwright in headless Chromium), then the desktop app under Xvfb. Ends with one line:
# "tests: N passed, N failed, N skipped".
set -uo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
ensure_base && ensure_lint_tools && ensure_desktop_libs && ensure_test_servers || exit 1

# A build from a fresh clone writes about 4 GB (the workspace's test programs, the fuzz targets, the web UI's
# packages). Cargo's incremental caches would add another gigabyte, and time, for rebuilds a run of the whole
# suite does not make.
export CARGO_INCREMENTAL=0
warn_low_disk 5

log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
failed_parts=""
run_part() {
  echo "==> $*"
  local started=$SECONDS
  "$@" 2>&1 | tee -a "$log"
  local rc=${PIPESTATUS[0]}
  echo "==> $((SECONDS - started)) s: $*"
  [ "$rc" -eq 0 ] || { echo "==> failed ($rc): $*"; status=1; failed_parts+="  part failed ($rc): $*"$'\n'; }
}

# The web UI is built first: the server's tests and the desktop app serve the built files.
[ -f scripts/test-ui.sh ] && run_part bash scripts/test-ui.sh build
run_part cargo fmt --all --check
# Linted while compiled (scripts/lib.sh, with_lints): clippy's findings and compiler warnings fail this part.
# --no-fail-fast: a failing test program does not keep the others from running (and being counted).
run_part with_lints cargo test --workspace --locked --no-fail-fast
[ -f scripts/test-fuzz.sh ] && run_part bash scripts/test-fuzz.sh
[ -f scripts/test-api-schema.sh ] && run_part bash scripts/test-api-schema.sh
[ -f scripts/test-service-unit.sh ] && run_part bash scripts/test-service-unit.sh
[ -f scripts/test-ui.sh ] && run_part bash scripts/test-ui.sh test
[ -f scripts/test-desktop.sh ] && run_part bash scripts/test-desktop.sh

# Sum cargo's "test result" lines (its ignored tests are skipped ones) and the parts' own
# "<suite>: N passed, N failed, N skipped" lines.
parts() { grep -E '^[a-z0-9-]+: [0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$' "$log" | awk "{print \$$1}"; }
total() { awk '{s += $1} END {print s + 0}'; }
passed=$( { grep -Eo 'test result: [a-zA-Z]+\. [0-9]+ passed' "$log" | awk '{print $4}'; parts 2; } | total)
failed=$( { grep -Eo '[0-9]+ passed; [0-9]+ failed;' "$log" | awk '{print $3}'; parts 4; } | total)
skipped=$( { grep -Eo '[0-9]+ failed; [0-9]+ ignored;' "$log" | awk '{print $3}'; parts 6; } | total)
echo
# What failed, named again at the end: a run's last lines are often all that is kept of it. Cargo's
# "test NAME ... FAILED" and its panic lines, node's "not ok", Vitest's "FAIL" and Playwright's "✘" lines.
if [ "$failed" -gt 0 ] || [ "$status" -ne 0 ]; then
  echo "failures:"
  printf '%s' "$failed_parts"
  grep -E '^test .* FAILED$|panicked at|^not ok |^ *✘ +[0-9]|^ *(×|FAIL) ' "$log" | head -40 | sed 's/^/  /'
  grep -A3 'panicked at' "$log" | grep -v 'panicked at' | head -20 | sed 's/^/    /'
fi
echo "tests: $passed passed, $failed failed, $skipped skipped"
exit "$status"
