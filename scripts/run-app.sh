#!/usr/bin/env bash
# Installs what is needed and starts Search Studio on the local store with the demo search space loaded.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
ensure_base
cargo build --release -p studio-server
exec target/release/studio serve "$@"
