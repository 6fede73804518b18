#!/usr/bin/env bash
# Builds the Debian packages from this checkout (release build), the .rpm of the first two, and checks them:
#   search-studio-cli     /usr/bin/studio, its man pages and its bash, zsh and fish completions
#   search-studio         the desktop app, its desktop entry and icons (Depends: search-studio-cli, its libraries)
#   search-studio-server  `studio serve` as the systemd service search-studio (Depends: search-studio-cli)
# What each holds is listed once, in packaging/contents.sh; the .deb and the .rpm of a package are built from
# the same staged folder.
# Installs what it needs, like the other set-up commands. Its last line of output is the folder that holds the
# packages (target/packages). docs/packaging.md says what each package holds and why.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
. packaging/contents.sh

ensure_base
ensure_desktop_libs
# dpkg-shlibdeps (the libraries' package names), and what the package check runs.
ensure_packages dpkg-dev binutils curl file desktop-file-utils
ensure_rpmbuild
warn_low_disk 6

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT

# The desktop app embeds ui/dist, and cargo builds it again (minutes) when a file there is newer than the app.
# A UI build that wrote the same files as the last one gets the last one's back, with their times, so a
# release build that is current is not made again.
[ -d ui/dist ] && cp -a ui/dist "$stage/dist-before"
bash scripts/test-ui.sh build
if [ -d "$stage/dist-before" ] && diff -r -q "$stage/dist-before" ui/dist >/dev/null; then
  rm -rf ui/dist
  mv "$stage/dist-before" ui/dist
fi
cargo build --release --locked -p studio-cli
# The desktop app, its start's code placed together (profiled under valgrind, linked again: about a minute).
bash scripts/desktop-release.sh
# No benchmark hook is packaged: a build with the desktop's `bench-hooks` feature (docs/performance.md) prints the
# benchmark's mark (studio_model::marks::FIRST_RESULTS_LINE), so its binary holds the mark's text; the build above
# has not the feature, and this says so should it ever have.
if grep -qaF 'search-studio: first results shown' target/release/search-studio; then
  echo "error: target/release/search-studio has the benchmark's hook (the bench-hooks feature); build it without" >&2
  exit 1
fi

out=target/packages
rm -rf "$out"
mkdir -p "$out"
umask 022

# The one version: the workspace's, as the built `studio` states it (`studio --version`).
version=$(target/release/studio --version | awk '{print $2}')
arch=$(dpkg --print-architecture)
deb=packaging/deb

# The package names of the shared libraries that the ELF files given link to (dpkg-shlibdeps, run where it
# finds the debian/control it insists on).
shlibs() {
  local work="$stage/shlibs" files=()
  mkdir -p "$work/debian"
  : >"$work/debian/control"
  for f in "$@"; do files+=("$(realpath "$f")"); done
  local found
  found=$(cd "$work" && dpkg-shlibdeps -O "${files[@]}" 2>"$work/errors") || {
    echo "error: dpkg-shlibdeps could not name the libraries of $*: $(cat "$work/errors")" >&2
    return 1
  }
  sed -n 's/^shlibs:Depends=//p' <<<"$found"
}

# Copies the package's shared files (copyright, the changelog) into ROOT/usr/share/doc/NAME.
add_docs() {
  local root=$1 name=$2
  install -d "$root/usr/share/doc/$name"
  install -m 0644 "$deb/copyright" "$root/usr/share/doc/$name/copyright"
  gzip -9n <CHANGELOG.md >"$root/usr/share/doc/$name/changelog.gz"
}

# Fills in DIR/control (with SHLIBS) into ROOT/DEBIAN/control and builds the package into $out.
build_deb() {
  local dir=$1 root=$2 depends=${3:-}
  install -d "$root/DEBIAN"
  local size
  size=$(du -sk --exclude=DEBIAN "$root" | cut -f1)
  sed -e "s/@VERSION@/$version/g" -e "s/@ARCH@/$arch/g" -e "s/@INSTALLED_SIZE@/$size/g" \
    -e "s/@SHLIBS@/$depends/g" "$dir/control" >"$root/DEBIAN/control"
  for script in conffiles postinst prerm postrm; do
    [ -f "$dir/$script" ] || continue
    install -m "$([ "$script" = conffiles ] && echo 0644 || echo 0755)" "$dir/$script" "$root/DEBIAN/$script"
  done
  dpkg-deb --root-owner-group -Zxz --build "$root" "$out" >/dev/null
}

# Builds NAME-<version>-1.<arch>.rpm into $out from the staged folder ROOT with packaging/rpm/search-studio.spec:
# the paths of packaging/contents.sh, the summary and description of packaging/deb/NAME/control, REQUIRES
# beside the shared libraries that rpmbuild finds in the ELF files (as dpkg-shlibdeps does for the .deb).
build_rpm() {
  local name=$1 root=$2 requires=${3:-} work="$stage/rpm/$1"
  mkdir -p "$work"
  package_contents "$name" target/release/studio | sed 's#/$##' >"$work/files"
  local control="$deb/$name/control" summary
  summary=$(sed -n 's/^Description: //p' "$control")
  awk '/^Description:/ {f = 1; next} f && /^ / {sub(/^ /, ""); if ($0 == ".") $0 = ""; print; next} {f = 0}' \
    "$control" >"$work/description"
  local args=(
    --quiet -bb packaging/rpm/search-studio.spec
    --define "_topdir $work/top" --define "_rpmdir $(realpath "$out")"
    --define "_rpmfilename %%{NAME}-%%{VERSION}-%%{RELEASE}.%%{ARCH}.rpm"
    --define "pkg_name $name" --define "pkg_version $(rpm_version "$version")" --define "pkg_summary $summary"
    --define "pkg_description_file $work/description" --define "pkg_root $root" --define "pkg_files $work/files"
  )
  [ -z "$requires" ] || args+=(--define "pkg_requires $requires")
  rpmbuild "${args[@]}" >"$work/log" 2>&1 || {
    echo "error: rpmbuild could not build the $name .rpm:" >&2
    cat "$work/log" >&2
    return 1
  }
}

# search-studio-cli
cli="$stage/search-studio-cli"
install -D -m 0755 -s target/release/studio "$cli/usr/bin/studio"
target/release/studio manuals "$stage/manuals"
for page in "$stage"/manuals/man/man1/*.1; do
  install -D -m 0644 "$page" "$cli/usr/share/man/man1/$(basename "$page")"
  gzip -9n "$cli/usr/share/man/man1/$(basename "$page")"
done
for file in bash-completion/completions/studio zsh/vendor-completions/_studio fish/vendor_completions.d/studio.fish; do
  install -D -m 0644 "$stage/manuals/$file" "$cli/usr/share/$file"
done
add_docs "$cli" search-studio-cli
cli_libs=$(shlibs "$cli/usr/bin/studio")
build_rpm search-studio-cli "$cli"
build_deb "$deb/search-studio-cli" "$cli" "$cli_libs"

# search-studio (the desktop app)
app="$stage/search-studio"
install -D -m 0755 -s target/release/search-studio "$app/usr/bin/search-studio"
install -D -m 0644 "$deb/search-studio/search-studio.desktop" "$app/usr/share/applications/search-studio.desktop"
for size in 32 64 128; do
  install -D -m 0644 "icons/${size}x${size}.png" "$app/usr/share/icons/hicolor/${size}x${size}/apps/search-studio.png"
done
install -D -m 0644 icons/128x128@2x.png "$app/usr/share/icons/hicolor/256x256/apps/search-studio.png"
install -D -m 0644 icons/icon.png "$app/usr/share/icons/hicolor/512x512/apps/search-studio.png"
install -D -m 0644 icons/source.svg "$app/usr/share/icons/hicolor/scalable/apps/search-studio.svg"
add_docs "$app" search-studio
app_libs=$(shlibs "$app/usr/bin/search-studio")
build_rpm search-studio "$app" "search-studio-cli = $(rpm_version "$version")-1, xdg-utils"
build_deb "$deb/search-studio" "$app" "$app_libs"

# search-studio-server: the unit and its configuration file come from packaging/server; without them the
# package is not built, and the check below fails naming what is missing.
server="$stage/search-studio-server"
if [ -f packaging/server/search-studio.service ] && [ -f packaging/server/serve.toml ]; then
  install -D -m 0644 packaging/server/search-studio.service "$server/lib/systemd/system/search-studio.service"
  install -D -m 0644 packaging/server/serve.toml "$server/etc/search-studio/serve.toml"
  install -D -m 0755 "$deb/search-studio-server/first-admin-token" \
    "$server/usr/lib/search-studio-server/first-admin-token"
  install -d "$server/usr/share/search-studio"
  cp -r ui/dist "$server/usr/share/search-studio/ui"
  chmod -R u=rwX,go=rX "$server/usr/share/search-studio/ui"
  add_docs "$server" search-studio-server
  build_deb "$deb/search-studio-server" "$server"
fi

bash scripts/check-packages.sh "$out" "$version"
realpath "$out"
