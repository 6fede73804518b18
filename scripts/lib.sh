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

# Build tools and the libraries every part of the project needs.
ensure_base() {
  ensure_packages build-essential pkg-config git
  ensure_rust
}

# System libraries the desktop app (Tauri 2, WebKitGTK) builds and runs with, and what drives it in tests.
ensure_desktop_libs() {
  ensure_packages libwebkit2gtk-4.1-dev libayatana-appindicator3-dev librsvg2-dev libssl-dev \
    xvfb xauth webkit2gtk-driver dbus-x11
}

# tauri-driver, the WebDriver bridge to the desktop app.
ensure_tauri_driver() {
  command -v tauri-driver >/dev/null 2>&1 && return 0
  cargo install tauri-driver --version '^2' --locked
}

# Starts Xvfb on $1 unless a server already answers there.
ensure_xvfb() {
  local display=$1
  if ! xdpyinfo -display "$display" >/dev/null 2>&1 && [ ! -e "/tmp/.X11-unix/X${display#:}" ]; then
    Xvfb "$display" -screen 0 1600x1000x24 -nolisten tcp >/dev/null 2>&1 &
    for _ in $(seq 50); do [ -e "/tmp/.X11-unix/X${display#:}" ] && break; sleep 0.1; done
  fi
}
