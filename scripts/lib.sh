# Shared by the set-up scripts: install what is missing, and nothing twice.

# Installs the named Debian packages that are not installed yet.
ensure_packages() {
  local missing=()
  for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "installing: ${missing[*]}"
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"
}

# Makes sure a Rust toolchain is on PATH (rustup's, as Debian's is too old for this project).
ensure_rust() {
  [ -f "$HOME/.cargo/env" ] && . "$HOME/.cargo/env"
  command -v cargo >/dev/null 2>&1 && return 0
  ensure_packages curl ca-certificates
  curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs | sh -s -- -y --profile minimal
  . "$HOME/.cargo/env"
}

# Warns when the disk that builds are written to has less than $1 GB free: a build that fills it fails only
# later, with "No space left on device" deep in a compiler's output.
warn_low_disk() {
  local need_gb=$1 free_kb
  free_kb=$(df -Pk "${CARGO_TARGET_DIR:-.}" 2>/dev/null | awk 'NR == 2 {print $4}')
  [ -n "$free_kb" ] || return 0
  [ "$free_kb" -ge $((need_gb * 1024 * 1024)) ] && return 0
  echo "warning: $((free_kb / 1024)) MB free on the disk the build goes to; the build needs about $need_gb GB." \
    "Free some space (an old target/ folder: cargo clean) if it fails with 'No space left on device'." >&2
}

# rustfmt and clippy (clippy-driver), which the test command runs (rustup's minimal profile has neither).
ensure_lint_tools() {
  cargo fmt --version >/dev/null 2>&1 && cargo clippy --version >/dev/null 2>&1 && return 0
  rustup component add rustfmt clippy
}

# Build tools and the libraries every part of the project needs.
ensure_base() {
  ensure_packages build-essential pkg-config git
  ensure_rust
}

# System libraries the desktop app (Tauri 2, WebKitGTK) builds and runs with, and what drives it in tests
# (with the desktop Settings portal and GNOME's settings, whose dark style the app follows).
ensure_desktop_libs() {
  ensure_packages libwebkit2gtk-4.1-dev libayatana-appindicator3-dev librsvg2-dev libssl-dev \
    xvfb xauth webkit2gtk-driver dbus-x11 xdg-utils \
    xdg-desktop-portal-gtk gsettings-desktop-schemas dconf-gsettings-backend libglib2.0-bin
}

# What the tests run beside the project: strace, and the npm packages of the test servers
# (crates/testkit/servers: the OpenID Connect provider), installed again only when node_modules is missing
# or older than the lock file.
ensure_test_servers() {
  ensure_packages strace
  local dir=crates/testkit/servers
  if [ ! -d "$dir/node_modules" ] || [ "$dir/package-lock.json" -nt "$dir/node_modules" ]; then
    npm ci --prefix "$dir" --no-audit --no-fund && touch "$dir/node_modules"
  fi
}

# systemd-analyze, which checks the server package's unit (scripts/test-service-unit.sh).
ensure_systemd_analyze() {
  command -v systemd-analyze >/dev/null 2>&1 || ensure_packages systemd
}

# rpmbuild (Debian's rpm package), which builds the .rpm packages beside the .deb ones (scripts/package.sh).
ensure_rpmbuild() {
  command -v rpmbuild >/dev/null 2>&1 || ensure_packages rpm
}

# tauri-driver, the WebDriver bridge to the desktop app.
ensure_tauri_driver() {
  command -v tauri-driver >/dev/null 2>&1 && return 0
  cargo install tauri-driver --version '^2' --locked
}

# Starts Xvfb on a display it finds free (-displayfd: a stale lock or socket of an earlier run is no
# obstacle) and sets XVFB_DISPLAY (":N") and XVFB_PID; fails if no server comes up within 10 s.
start_xvfb() {
  local file
  file=$(mktemp)
  Xvfb -displayfd 3 -screen 0 1600x1000x24 -nolisten tcp 3>"$file" >/dev/null 2>&1 &
  XVFB_PID=$!
  for _ in $(seq 100); do [ -s "$file" ] && break; sleep 0.1; done
  XVFB_DISPLAY=":$(tr -dc '0-9' <"$file")"
  rm -f "$file"
  if [ "$XVFB_DISPLAY" = ":" ]; then
    echo "error: Xvfb did not start" >&2
    kill "$XVFB_PID" 2>/dev/null
    return 1
  fi
}

# Runs a command on a D-Bus session bus of its own (dbus-run-session) and a runtime directory of its own
# (XDG_RUNTIME_DIR), then ends every program the bus started for it. The desktop app's start asks the bus for
# the desktop portals; they outlive their bus (the document portal does not even end when asked to), keep its
# FUSE file system mounted and hold open the output they inherited, so that a `| tee` after this would wait
# for ever. The document portal mounts its file system in the runtime directory, detached here at the end.
with_session_bus() {
  local runtime rc
  runtime=$(mktemp -d)
  XDG_RUNTIME_DIR=$runtime dbus-run-session -- bash -c '"$@"; rc=$?; end_bus_peers; exit $rc' bash "$@"
  rc=$?
  fusermount3 -u -z "$runtime/doc" 2>/dev/null
  rm -rf --one-file-system "$runtime"
  return "$rc"
}

# Ends the programs connected to the session bus (D-Bus names them; a caller is not one of them): asked to
# (SIGTERM) first, killed after 3 s.
end_bus_peers() {
  local bus=(dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus) name pid pids=()
  for name in $("${bus[@]}" org.freedesktop.DBus.ListNames | grep -o '":[^"]*"' | tr -d '"'); do
    pid=$("${bus[@]}" org.freedesktop.DBus.GetConnectionUnixProcessID "string:$name" 2>/dev/null | awk '$1 == "uint32" {print $2}')
    [ -n "$pid" ] && pids+=("$pid")
  done
  [ ${#pids[@]} -eq 0 ] && return 0
  echo "ending what the session bus started: $(cd /proc && cat "${pids[@]/%//comm}" 2>/dev/null | tr '\n' ' ')" >&2
  kill "${pids[@]}" 2>/dev/null
  for _ in $(seq 30); do
    kill -0 "${pids[@]}" 2>/dev/null || return 0
    sleep 0.1
  done
  kill -9 "${pids[@]}" 2>/dev/null
  return 0
}
export -f end_bus_peers

# Runs a cargo command with the workspace's own crates compiled by clippy-driver, which lints a crate while it
# compiles it, with every lint and warning an error (-D warnings, as `cargo clippy -- -D warnings`): cargo's
# RUSTC_WORKSPACE_WRAPPER is scripts/lint-rustc, which hands rustc's command line and -D warnings to clippy-driver.
# So the test build is also the lint: a separate `cargo clippy` checked every dependency a second time, about a
# third of the suite's time. Dependencies are compiled as always.
with_lints() {
  command -v clippy-driver >/dev/null || { echo "error: clippy-driver is missing (rustup component add clippy)" >&2; return 1; }
  RUSTC_WORKSPACE_WRAPPER="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lint-rustc" "$@"
}

# Builds the workspace's programs (target/debug/studio, target/debug/search-studio) as the test command builds
# them: with `cargo test --workspace`'s features and the same compiler wrapper, so nothing is compiled twice.
build_programs() {
  with_lints cargo test --workspace --locked --no-run --quiet
}
