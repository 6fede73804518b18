#!/usr/bin/env bash
# Installs what is needed and starts the Search Studio desktop app on the local store (the demo search space is
# loaded on first launch). The data directory is SEARCH_STUDIO_DATA_DIR, else ~/.local/share/search-studio.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
ensure_base
ensure_desktop_libs
bash scripts/test-ui.sh build
cargo build --release -p search-studio -p studio-cli
if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
  echo "error: no display: run this in a desktop session (or set DISPLAY)" >&2
  exit 1
fi
exec target/release/search-studio "$@"
