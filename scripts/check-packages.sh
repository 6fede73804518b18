#!/usr/bin/env bash
# The package check, run by scripts/package.sh once it has built the packages (or on its own:
# `bash scripts/check-packages.sh [DIR]`, DIR defaulting to target/packages). It compares each package's
# contents and fields with what docs/packaging.md promises, finds no file in two packages, and starts the server
# package's `studio serve --config` from the packages unpacked into a temporary root (its paths moved there)
# until it answers /healthz and /readyz. Each problem is one line "package check: FAIL: …"; the last line says
# how many there were, and the exit status is 1 when there was one.
set -uo pipefail
cd "$(dirname "$0")/.."

dir=${1:-target/packages}
failures=0
fail() {
  echo "package check: FAIL: $*" >&2
  failures=$((failures + 1))
}
ok() { echo "package check: ok: $*"; }

# The workspace's one version, [workspace.package] version in Cargo.toml.
version=$(awk '/^\[workspace\.package\]/ {f = 1; next} /^\[/ {f = 0} f && $1 == "version" {gsub(/"/, "", $3); print $3}' Cargo.toml)

work=$(mktemp -d)
server_pid=""
cleanup() {
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

for file in packaging/server/search-studio.service packaging/server/serve.toml; do
  [ -f "$file" ] || fail "$file is missing: the server package installs it (docs/packaging.md)"
done

# The package file of NAME in $dir, or nothing.
package_file() { compgen -G "$dir/${1}_*.deb" | head -n 1; }

# The files (not directories) a package holds, one path a line without the leading ".".
files_of() { dpkg-deb -c "$1" | awk '$1 !~ /^d/ {print $6}' | sed 's/^\.//' | sort; }

# Compares the files of package NAME with the list EXPECTED (one path a line); a path under a prefix ending in
# "/" in PREFIXES may be any number of files.
compare_files() {
  local name=$1 expected=$2 prefixes=${3:-} actual extra missing
  actual=$(files_of "$(package_file "$name")")
  missing=$(comm -13 <(echo "$actual") <(sort <<<"$expected"))
  extra=$(comm -23 <(echo "$actual") <(sort <<<"$expected"))
  for prefix in $prefixes; do
    extra=$(grep -v "^$prefix" <<<"$extra")
  done
  [ -z "$missing" ] || fail "$name lacks: $(echo $missing)"
  [ -z "$extra" ] || fail "$name holds what it does not promise: $(echo $extra)"
  [ -z "$missing$extra" ] && ok "$name holds what it promises ($(wc -l <<<"$actual") files)"
}

# Fails unless package NAME's field FIELD contains each of the WANTED strings.
field_has() {
  local name=$1 field=$2 value
  shift 2
  value=$(dpkg-deb -f "$(package_file "$name")" "$field")
  for wanted in "$@"; do
    grep -qF -- "$wanted" <<<"$value" || fail "$name's $field lacks \"$wanted\": $value"
  done
}

field_lacks() {
  local name=$1 field=$2 value
  shift 2
  value=$(dpkg-deb -f "$(package_file "$name")" "$field")
  for unwanted in "$@"; do
    grep -qF -- "$unwanted" <<<"$value" && fail "$name's $field names \"$unwanted\" (a desktop library): $value"
  done
}

present=()
for name in search-studio-cli search-studio search-studio-server; do
  file=$(package_file "$name")
  if [ -z "$file" ]; then
    fail "no $name package in $dir"
    continue
  fi
  present+=("$name")
  got=$(dpkg-deb -f "$file" Version)
  [ "$got" = "$version" ] || fail "$name is version $got, the workspace's is $version"
  dpkg-deb -x "$file" "$work/root"
done
has() { [[ " ${present[*]} " == *" $1 "* ]]; }

if has search-studio-cli; then
  studio="$work/root/usr/bin/studio"
  got=$("$studio" --version)
  [ "$got" = "studio $version" ] || fail "the packaged studio --version says \"$got\", not \"studio $version\""
  commands=$("$studio" --help | sed -n '/^Commands:/,/^$/p' | awk 'NR > 1 && $1 != "help" && NF {print $1}')
  expected="/usr/bin/studio
/usr/share/man/man1/studio.1.gz
/usr/share/bash-completion/completions/studio
/usr/share/zsh/vendor-completions/_studio
/usr/share/fish/vendor_completions.d/studio.fish
/usr/share/doc/search-studio-cli/copyright
/usr/share/doc/search-studio-cli/changelog.gz"
  for command in $commands; do expected+=$'\n'"/usr/share/man/man1/studio-$command.1.gz"; done
  compare_files search-studio-cli "$expected"
  zcat "$work/root/usr/share/man/man1/studio-serve.1.gz" | grep -q -- 'listen' ||
    fail "man studio-serve does not describe --listen"
  field_lacks search-studio-cli Depends libwebkit2gtk libgtk-3
fi

if has search-studio; then
  expected="/usr/bin/search-studio
/usr/share/applications/search-studio.desktop
/usr/share/icons/hicolor/32x32/apps/search-studio.png
/usr/share/icons/hicolor/64x64/apps/search-studio.png
/usr/share/icons/hicolor/128x128/apps/search-studio.png
/usr/share/icons/hicolor/256x256/apps/search-studio.png
/usr/share/icons/hicolor/512x512/apps/search-studio.png
/usr/share/icons/hicolor/scalable/apps/search-studio.svg
/usr/share/doc/search-studio/copyright
/usr/share/doc/search-studio/changelog.gz"
  compare_files search-studio "$expected"
  field_has search-studio Depends "search-studio-cli (= $version)" libwebkit2gtk-4.1-0 libgtk-3-0 xdg-utils
  for size in 32 64 128 256 512; do
    got=$(file -b "$work/root/usr/share/icons/hicolor/${size}x${size}/apps/search-studio.png" | grep -o '[0-9]* x [0-9]*')
    [ "$got" = "$size x $size" ] || fail "the ${size}x${size} icon is $got"
  done
  if command -v desktop-file-validate >/dev/null; then
    desktop-file-validate "$work/root/usr/share/applications/search-studio.desktop" ||
      fail "the desktop entry does not validate (above)"
  fi
fi

if has search-studio-server; then
  expected="/lib/systemd/system/search-studio.service
/etc/search-studio/serve.toml
/usr/lib/search-studio-server/first-admin-token
/usr/share/search-studio/ui/index.html
/usr/share/doc/search-studio-server/copyright
/usr/share/doc/search-studio-server/changelog.gz"
  compare_files search-studio-server "$expected" /usr/share/search-studio/ui/
  field_has search-studio-server Depends "search-studio-cli (= $version)" adduser init-system-helpers
  field_lacks search-studio-server Depends libwebkit2gtk libgtk-3
  dpkg-deb -e "$(package_file search-studio-server)" "$work/control"
  grep -qx /etc/search-studio/serve.toml "$work/control/conffiles" 2>/dev/null ||
    fail "serve.toml is not a conffile of search-studio-server (an upgrade would overwrite the admin's edits)"
  for script in postinst prerm postrm; do
    [ -x "$work/control/$script" ] && sh -n "$work/control/$script" || fail "search-studio-server's $script is missing or not valid sh"
  done
  grep -qx 'listen = "127.0.0.1:8080"' "$work/root/etc/search-studio/serve.toml" ||
    fail "the packaged serve.toml does not listen on 127.0.0.1:8080"
fi

# No file in two packages.
twice=$(for name in "${present[@]}"; do files_of "$(package_file "$name")"; done | sort | uniq -d)
[ -z "$twice" ] && ok "no file is in two packages" || fail "in two packages: $(echo $twice)"

# The server from the unpacked packages, as the unit starts it, its paths moved into the temporary root.
if has search-studio-server && has search-studio-cli; then
  root="$work/root"
  etc="$root/etc/search-studio"
  token_file=$("$root/usr/lib/search-studio-server/first-admin-token" "$etc" "$(id -gn)")
  [ "$token_file" = "$etc/admin-token" ] || fail "first-admin-token printed \"$token_file\", not its token file"
  [ "$(stat -c %a "$etc/admin-token" 2>/dev/null)" = 600 ] || fail "the admin token file is not 0600"
  [ "$(stat -c %a "$etc/auth.json" 2>/dev/null)" = 640 ] || fail "the auth file is not 0640"
  before=$(cat "$etc/auth.json" "$etc/admin-token" 2>/dev/null)
  again=$("$root/usr/lib/search-studio-server/first-admin-token" "$etc" "$(id -gn)")
  [ -z "$again" ] && [ "$before" = "$(cat "$etc/auth.json" "$etc/admin-token" 2>/dev/null)" ] ||
    fail "first-admin-token replaced an existing token"
  token=$(cat "$etc/admin-token" 2>/dev/null)

  sed -i -e "s#/etc/search-studio#$etc#g" -e "s#/var/lib/search-studio#$root/var/lib/search-studio#g" \
    -e "s#/usr/share/search-studio#$root/usr/share/search-studio#g" \
    -e 's#^listen = .*#listen = "127.0.0.1:0"#' "$etc/serve.toml"
  mkdir -p "$root/var/lib/search-studio"
  env -i PATH=/usr/bin:/bin HOME="$work" "$root/usr/bin/studio" serve --config "$etc/serve.toml" \
    >"$work/serve.out" 2>"$work/serve.err" &
  server_pid=$!
  base=""
  for _ in $(seq 600); do
    base=$(sed -n 's/^listening on //p' "$work/serve.out")
    [ -n "$base" ] && break
    kill -0 "$server_pid" 2>/dev/null || break
    sleep 0.1
  done
  if [ -z "$base" ]; then
    fail "studio serve --config $etc/serve.toml did not start: $(tail -n 3 "$work/serve.err")"
  else
    status() { curl -s -o /dev/null -w '%{http_code}' "$@"; }
    [ "$(status "$base/healthz")" = 200 ] && ok "the packaged server answers /healthz at $base" ||
      fail "/healthz of the packaged server did not answer 200"
    ready=""
    for _ in $(seq 600); do
      ready=$(status "$base/readyz")
      [ "$ready" = 200 ] && break
      sleep 0.1
    done
    [ "$ready" = 200 ] && ok "the packaged server is ready (/readyz)" || fail "/readyz answered $ready, not 200"
    [ "$(status -H "Authorization: Bearer $token" "$base/api/configurations")" = 200 ] ||
      fail "the first admin token is refused by the packaged server"
    [ "$(status "$base/api/configurations")" = 401 ] || fail "the packaged server answers /api without a token"
  fi
fi

echo "package check: $failures failed"
[ "$failures" -eq 0 ]
