#!/usr/bin/env bash
# Builds the desktop app for release (target/release/search-studio) with the code its start runs placed together
# at the front of its binary, so that an idle app holds about 4 MB of its code in memory instead of 12
# (docs/performance-journal.md, "The start's code placed together"):
#   1. the release build;
#   2. its everyday launch profiled under valgrind's callgrind: `studio-bench --desktop APP --start-order FILE`
#      writes the functions it runs to target/release/search-studio.start-order (names of this build only);
#   3. the app linked again by LLD with that list as its --symbol-ordering-file (nothing is compiled again), and
#      its relative relocations packed where the C library reads them so.
# With --bench-hooks it builds what `studio-bench --desktop` measures: the app with the benchmark's mark, and the
# empty window it is measured beside, built the same way (its own start profiled, linked in that order). Without,
# what scripts/package.sh packages. Installs what it needs, like the other set-up commands; one to two minutes more
# than the release build alone.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

bench=false
case "${1:-}" in
  --bench-hooks) bench=true ;;
  "") ;;
  *)
    echo "usage: bash scripts/desktop-release.sh [--bench-hooks]" >&2
    exit 2
    ;;
esac

ensure_base
ensure_desktop_libs
ensure_packages valgrind

app=target/release/search-studio
floor=target/release/studio-empty-window
features=()
build=(-p search-studio)
if $bench; then
  features=(--features search-studio/bench-hooks)
  # The empty window in the same build as the app, so that both have one Tauri with the same features.
  build+=(-p studio-empty-window)
fi
# The benchmark's program apart: built with the app, it would lend its dependencies' features to the app's.
cargo build --release --locked -p studio-bench
STUDIO_EMPTY_WINDOW_LINK_ARGS="" cargo build --release --locked "${build[@]}" "${features[@]}"

# The order is given to LLD, the linker Rust uses on x86-64 Linux; another linker builds the app as it is.
if ! readelf -p .comment "$app" | grep -q 'Linker: LLD'; then
  echo "warning: $app was not linked by LLD, so its start's code is not placed together" >&2
  exit 0
fi

# The relative relocations packed (DT_RELR): the table the loader reads at every start, and which then stays in
# memory, is 25 kB instead of 880. The C library reads that form from 2.36 on (the package then depends on it);
# with an older one the binary is linked without.
link=(-Wl,--no-warn-symbol-ordering)
glibc=$(getconf GNU_LIBC_VERSION | awk '{print $2}')
if [ "$(printf '%s\n' 2.36 "$glibc" | sort -V | head -1)" = 2.36 ]; then
  link+=(-Wl,-z,pack-relative-relocs)
fi

# Profiles BINARY's start and prints the path of the list of its functions, a copy named by its content: cargo
# links again when the link's arguments change, not when a file they name does. The launches run on an X display
# (an Xvfb, not the user's screen) and a D-Bus session of their own, as the benchmark's do.
start_order() {
  local binary=$1 order=$1.start-order
  with_session_bus env -u DISPLAY -u WAYLAND_DISPLAY \
    target/release/studio-bench --desktop "$binary" --start-order "$order" >&2
  rm -f "$order".*
  local linked
  linked="$order.$(sha256sum "$order" | cut -c1-16)"
  cp "$order" "$linked"
  echo "$PWD/$linked"
}

# Checks that BINARY's code starts with a function of the list ORDER: the order was taken.
check_order() {
  local binary=$1 order=$2 text first
  text=$(readelf -SW "$binary" | awk '{for (i = 1; i < NF; i++) if ($i == ".text") print $(i + 2)}')
  first=$(nm -n --defined-only "$binary" | awk -v text="$text" '!found && ($2 == "t" || $2 == "T") && $1 >= text {print $3; found = 1}')
  if ! grep -qxF -- "$first" "$order"; then
    echo "error: $binary was linked again but its code does not start with its start's functions ($first)" >&2
    exit 1
  fi
  echo "$binary: the $(wc -l <"$order") functions of its start placed together"
}

if $bench; then
  floor_order=$(start_order "$floor")
  # Only the empty window's build step reads this, so only the window is linked again.
  STUDIO_EMPTY_WINDOW_LINK_ARGS="-Wl,--symbol-ordering-file=$floor_order ${link[*]}" \
    cargo build --release --locked "${build[@]}" "${features[@]}"
  check_order "$floor" "$floor_order"
fi
app_order=$(start_order "$app")
link_args=()
for arg in "-Wl,--symbol-ordering-file=$app_order" "${link[@]}"; do link_args+=(-C "link-arg=$arg"); done
cargo rustc --release --locked -p search-studio --bin search-studio "${features[@]}" -- "${link_args[@]}"
check_order "$app" "$app_order"
