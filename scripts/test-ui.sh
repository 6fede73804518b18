#!/usr/bin/env bash
# The web UI's build and tests.
#   bash scripts/test-ui.sh build   install what is needed (Chromium, fonts, npm packages) and build ui/dist
#   bash scripts/test-ui.sh test    run Vitest and the Playwright suite (headless Chromium against `studio serve`)
# `test` ends with one line per suite: "ui-unit: N passed, M failed, K skipped" and the same for "ui-e2e".
set -uo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

build() {
  ensure_packages chromium fonts-dejavu-core ca-certificates || return 1
  command -v npm >/dev/null || ensure_packages nodejs npm || return 1
  (cd ui && npm ci --no-audit --no-fund --loglevel=error && npm run check && npm run build) || return 1
}

test_ui() {
  local status=0 out
  [ -d ui/node_modules ] && [ -f ui/dist/index.html ] || build || return 1

  out=$(mktemp)
  (cd ui && npx vitest run --reporter=default --reporter=json --outputFile.json="$out") 2>&1 | grep -v '^npm warn'
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
  local unit_passed unit_failed unit_skipped
  unit_passed=$(node -e 'const r=JSON.parse(require("fs").readFileSync(process.argv[1],"utf8"));console.log(r.numPassedTests??0)' "$out" 2>/dev/null || echo 0)
  unit_failed=$(node -e 'const r=JSON.parse(require("fs").readFileSync(process.argv[1],"utf8"));console.log((r.numFailedTests??0)+(r.numRuntimeErrorTestSuites??0))' "$out" 2>/dev/null || echo 1)
  # Skipped and to-do tests (test.skip, test.todo) are counted apart: a test that did not run is not a pass.
  unit_skipped=$(node -e 'const r=JSON.parse(require("fs").readFileSync(process.argv[1],"utf8"));console.log((r.numPendingTests??0)+(r.numTodoTests??0))' "$out" 2>/dev/null || echo 0)
  rm -f "$out"

  ensure_rust && ensure_test_servers && build_programs || return 1
  local e2e_log
  e2e_log=$(mktemp)
  (cd ui && node e2e/run.mjs) 2>&1 | tee "$e2e_log" | grep -v '^ui-e2e:'
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
  local e2e_line
  e2e_line=$(grep -E '^ui-e2e: [0-9]+ passed, [0-9]+ failed$' "$e2e_log" || echo 'ui-e2e: 0 passed, 1 failed')
  rm -f "$e2e_log"

  echo "ui-unit: $unit_passed passed, $unit_failed failed, $unit_skipped skipped"
  # The e2e runner (ui/e2e/harness.mjs) runs every test it is given: it has no way to skip one.
  echo "$e2e_line, 0 skipped"
  [ "$unit_failed" = 0 ] || status=1
  return "$status"
}

case "${1:-}" in
  build) build ;;
  test) test_ui ;;
  *) echo "usage: $0 build|test" >&2; exit 2 ;;
esac
