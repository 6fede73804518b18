#!/usr/bin/env bash
# Installs what is needed and runs the whole test suite, ending with one line: "tests: N passed, N failed".
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
ensure_base

log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
cargo test --workspace --locked 2>&1 | tee "$log" || status=$?

passed=$(grep -Eo 'test result: [a-zA-Z]+\. [0-9]+ passed' "$log" | awk '{s += $4} END {print s + 0}')
failed=$(grep -Eo '[0-9]+ failed;' "$log" | awk '{s += $1} END {print s + 0}')
echo
echo "tests: $passed passed, $failed failed"
exit "$status"
