#!/usr/bin/env bash
# Checks the server package's systemd unit (packaging/server/search-studio.service): `systemd-analyze verify`
# finds nothing wrong with it, and `systemd-analyze security --offline=true` rates its exposure 2.0 or
# lower ("OK"). The unit names /usr/bin/studio, which a development machine does not have: the check reads a
# copy naming the binary the test build made (target/debug/studio), and the same unit otherwise.
# Ends with "service-unit: N passed, N failed, N skipped".
set -uo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
ensure_systemd_analyze || exit 1

unit=${1:-packaging/server/search-studio.service}
studio=${STUDIO_BIN:-$PWD/target/debug/studio}
[ -x "$studio" ] || { echo "error: $studio is missing: build it first (cargo build -p studio-cli)" >&2; exit 1; }
passed=0 failed=0
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
copy="$dir/search-studio.service"
sed "s|/usr/bin/studio|$studio|g" "$unit" >"$copy"

if out=$(systemd-analyze verify --man=no "$copy" 2>&1) && [ -z "$out" ]; then
  echo "ok: systemd-analyze verify finds nothing to say about $unit"
  passed=$((passed + 1))
else
  echo "FAILED: systemd-analyze verify $unit:"
  echo "$out"
  failed=$((failed + 1))
fi

report=$(systemd-analyze security --offline=true "$copy" 2>&1)
level=$(echo "$report" | sed -n 's/.*Overall exposure level for [^:]*: \([0-9.]*\).*/\1/p')
if [ -n "$level" ] && awk -v l="$level" 'BEGIN { exit !(l <= 2.0) }'; then
  echo "ok: systemd-analyze security rates $unit $level (2.0 or lower)"
  passed=$((passed + 1))
else
  echo "FAILED: systemd-analyze security rates $unit ${level:-(no rating)}, above 2.0:"
  echo "$report" | grep '✗'
  failed=$((failed + 1))
fi

echo "service-unit: $passed passed, $failed failed, 0 skipped"
[ "$failed" -eq 0 ]
