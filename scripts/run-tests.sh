#!/usr/bin/env bash
# Installs what is needed and runs the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
ensure_base
cargo test --workspace --locked
