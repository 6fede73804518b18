#!/usr/bin/env bash
# Fuzzes everything Search Studio reads from outside (fuzz/) for a bounded time: each target runs
# FUZZ_SECONDS (default 10) from the committed seeds, under libFuzzer via cargo-fuzz, on the stable toolchain
# (RUSTC_BOOTSTRAP=1 allows the nightly flags cargo-fuzz passes). Ends with "fuzz: N passed, M failed, 0 skipped":
# targets that ran clean vs. targets that found a crash (its input is kept in fuzz/artifacts/<target>/); every
# target runs, so none is skipped.
set -uo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
ensure_base || exit 1
command -v cargo-fuzz >/dev/null 2>&1 || cargo install cargo-fuzz --locked --version 0.13.2 || exit 1

seconds=${FUZZ_SECONDS:-10}
targets=(config_merge search_body text_query import_documents import_concepts remote_answer)
export RUSTC_BOOTSTRAP=1
# -s none: the targets are safe Rust over bundled SQLite, so what is sought is panics and broken invariants;
# -a keeps debug assertions (integer overflow checks) on in the optimised build.
# --codegen-units 16: cargo-fuzz's default of one unit per crate built on one core (with the fuzz workspace's
# opt-level 1, fuzz/Cargo.toml, the build took 4.5 minutes before and 3 after, at the same inputs a second).
flags=(-s none -a --codegen-units 16)
# The fuzz targets are not linted with the workspace (scripts/lib.sh, with_lints).
unset RUSTC_WORKSPACE_WRAPPER
if ! cargo fuzz build "${flags[@]}"; then
  echo "fuzz: 0 passed, ${#targets[@]} failed, 0 skipped"
  exit 1
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Fuzzes one target; its exit status goes to $work/<target>.rc, its output to $work/<target>.log.
fuzz_one() {
  local target=$1
  mkdir -p "$work/$target" "fuzz/artifacts/$target"
  cargo fuzz run "${flags[@]}" "$target" "$work/$target" "fuzz/seeds/$target" -- \
    -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="fuzz/artifacts/$target/" >"$work/$target.log" 2>&1
  echo $? >"$work/$target.rc"
}

# One libFuzzer process uses one core: as many targets run at once as there are cores.
at_once=$(nproc 2>/dev/null || echo 1)
for target in "${targets[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$at_once" ]; do wait -n; done
  fuzz_one "$target" &
done
wait

passed=0 failed=0
for target in "${targets[@]}"; do
  log="$work/$target.log"
  if [ "$(cat "$work/$target.rc" 2>/dev/null)" = 0 ]; then
    passed=$((passed + 1))
    runs=$(grep -Eo 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -Eo '[0-9]+$' | tail -1)
    echo "fuzz $target: clean, ${runs:-?} inputs tried in ${seconds} s"
  else
    failed=$((failed + 1))
    echo "fuzz $target: FAILED"
    grep -E 'panicked|ERROR|Test unit written|SUMMARY' "$log" | head -20
  fi
done
echo "fuzz: $passed passed, $failed failed, 0 skipped"
[ "$failed" -eq 0 ]
