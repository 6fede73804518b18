#!/usr/bin/env bash
# Schemathesis (from PyPI) against the OpenAPI document of a real `studio serve` with the demo data:
# no answer may be a 5xx, and every answer must match the document (status, content type, body schema);
# the API must also refuse requests without the token. Bounded: API_SCHEMA_EXAMPLES examples per operation
# (default 25) and at most API_SCHEMA_SECONDS (default 90). Ends with "api-schema: N passed, M failed, K skipped",
# counting the operations: tested, failed, and skipped by schemathesis (none of their checks ran).
set -uo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
ensure_base || exit 1
if ! command -v schemathesis >/dev/null 2>&1; then
  python3 -m pip install --quiet schemathesis || { echo "api-schema: 0 passed, 1 failed, 0 skipped"; exit 1; }
fi
studio=$(realpath -m "${CARGO_TARGET_DIR:-target}/debug/studio")
build_programs || { echo "api-schema: 0 passed, 1 failed, 0 skipped"; exit 1; }

work=$(mktemp -d)
server=""
cleanup() { [ -n "$server" ] && kill "$server" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
"$studio" demo-data --data-dir "$work/data" >/dev/null || { echo "api-schema: 0 passed, 1 failed, 0 skipped"; exit 1; }
"$studio" serve --listen 127.0.0.1:0 --data-dir "$work/data" >"$work/serve.out" 2>"$work/serve.log" &
server=$!
for _ in $(seq 100); do grep -q '^listening on ' "$work/serve.out" && break; sleep 0.1; done
token=$(sed -n 's/^token: //p' "$work/serve.out")
base=$(sed -n 's/^listening on //p' "$work/serve.out")
[ -n "$base" ] || { echo "studio serve did not start"; cat "$work/serve.log"; echo "api-schema: 0 passed, 1 failed, 0 skipped"; exit 1; }

# Run from the temporary directory: schemathesis keeps a cache (.schemathesis/) where it runs.
(cd "$work" && NO_COLOR=1 schemathesis run "$base/api-docs" --url "$base" \
  -H "Authorization: Bearer $token" \
  --checks not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance,response_headers_conformance,missing_required_header,ignored_auth,unsupported_method \
  --phases examples,coverage,fuzzing --max-examples "${API_SCHEMA_EXAMPLES:-25}" --max-time "${API_SCHEMA_SECONDS:-90}" \
  --continue-on-failure --workers 2 --request-timeout 30 --suppress-health-check all \
  --report junit --report-dir "$work/report" --seed "${API_SCHEMA_SEED:-20260901}") 2>&1 | tee "$work/run.log"
status=${PIPESTATUS[0]}

# One line per operation from the JUnit report: failed with a failure or error, skipped when marked so,
# passed otherwise.
counts=$(python3 - "$work/report" <<'PY'
import glob, sys, xml.etree.ElementTree as ET
passed = failed = skipped = 0
for path in glob.glob(sys.argv[1] + "/*.xml"):
    for case in ET.parse(path).getroot().iter("testcase"):
        if case.find("failure") is not None or case.find("error") is not None:
            failed += 1
        elif case.find("skipped") is not None:
            skipped += 1
        else:
            passed += 1
print(passed, failed, skipped)
PY
)
read -r passed failed skipped <<<"${counts:-0 1 0}"
if [ "$status" -ne 0 ] && [ "$failed" -eq 0 ]; then failed=1; fi
if grep -q " 5[0-9][0-9] " "$work/serve.log" 2>/dev/null; then echo "the server logged a server error"; fi
echo "api-schema: $passed passed, $failed failed, $skipped skipped"
[ "$status" -eq 0 ]
