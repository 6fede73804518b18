#!/usr/bin/env bash
# The package check, run by scripts/package.sh once it has built the packages (or on its own:
# `bash scripts/check-packages.sh [DIR]`, DIR defaulting to target/packages). It compares each package's
# contents (.deb and .rpm) with packaging/contents.sh and its fields with what docs/packaging.md promises, finds
# no file in two packages and no .rpm file that differs from its .deb's, and starts the server
# package's `studio serve --config` from the packages unpacked into a temporary root (its paths moved there)
# until it answers /healthz and /readyz. Each problem is one line "package check: FAIL: …"; the last line says
# how many there were, and the exit status is 1 when there was one.
set -uo pipefail
cd "$(dirname "$0")/.."
. packaging/contents.sh

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

# The .rpm file of NAME in $dir, or nothing.
rpm_file() { compgen -G "$dir/${1}-[0-9]*.rpm" | head -n 1; }

# The files (not directories) a package holds, one path a line without the leading ".".
files_of() { dpkg-deb -c "$1" | awk '$1 !~ /^d/ {print $6}' | sed 's/^\.//' | sort; }
rpm_files_of() { rpm -qp --qf '[%{FILEMODES:perms} %{FILENAMES}\n]' "$1" | awk '$1 !~ /^d/ {print $2}' | sort; }

# Compares the files ACTUAL (one path a line) of the package file LABEL with what packaging/contents.sh lists
# for package NAME; a listed folder (a path ending in "/") may hold any files, but at least one.
compare_files() {
  local label=$1 name=$2 actual=$3 listed expected extra missing
  listed=$(package_contents "$name" "$work/root/usr/bin/studio") || {
    fail "the contents promised for $name could not be listed (above)"
    return
  }
  expected=$(grep -v '/$' <<<"$listed" | sort)
  missing=$(comm -13 <(echo "$actual") <(echo "$expected"))
  extra=$(comm -23 <(echo "$actual") <(echo "$expected"))
  for prefix in $(grep '/$' <<<"$listed"); do
    grep -q "^$prefix" <<<"$actual" || missing+=" $prefix"
    extra=$(grep -v "^$prefix" <<<"$extra")
  done
  [ -z "$missing" ] || fail "$label lacks: $(echo $missing)"
  [ -z "$extra" ] || fail "$label holds what it does not promise: $(echo $extra)"
  [ -z "$missing$extra" ] && ok "$label holds what it promises ($(wc -l <<<"$actual") files)"
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
  compare_files "$(basename "$(package_file search-studio-cli)")" search-studio-cli \
    "$(files_of "$(package_file search-studio-cli)")"
  zcat "$work/root/usr/share/man/man1/studio-serve.1.gz" | grep -q -- 'listen' ||
    fail "man studio-serve does not describe --listen"
  field_lacks search-studio-cli Depends libwebkit2gtk libgtk-3
fi

if has search-studio; then
  compare_files "$(basename "$(package_file search-studio)")" search-studio "$(files_of "$(package_file search-studio)")"
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
  compare_files "$(basename "$(package_file search-studio-server)")" search-studio-server \
    "$(files_of "$(package_file search-studio-server)")"
  [ -f "$work/root/usr/share/search-studio/ui/index.html" ] || fail "search-studio-server lacks the web UI's index.html"
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

# The .rpm packages: the same files as the .deb of the same name (the same content, by their SHA-256), the
# version, and what they require.
rpm_version=$(rpm_version "$version")
rpm_present=()
if ! command -v rpm >/dev/null; then
  fail "rpm is not installed, so the .rpm packages cannot be checked: install Debian's rpm package (apt install rpm)"
else
  for name in search-studio-cli search-studio; do
    file=$(rpm_file "$name")
    if [ -z "$file" ]; then
      fail "no $name .rpm in $dir"
      continue
    fi
    rpm_present+=("$name")
    label=$(basename "$file")
    [ "$label" = "$name-$rpm_version-1.x86_64.rpm" ] || fail "$label is not named $name-$rpm_version-1.x86_64.rpm"
    got=$(rpm -qp --qf '%{VERSION}-%{RELEASE}' "$file")
    [ "$got" = "$rpm_version-1" ] || fail "$label is version $got, not $rpm_version-1 (the workspace's $version)"
    compare_files "$label" "$name" "$(rpm_files_of "$file")"
    # Each file's SHA-256 (digest algorithm 8) as the .rpm records it, against the file the .deb unpacked.
    algo=$(rpm -qp --qf '%{FILEDIGESTALGO}' "$file")
    [ "$algo" = 8 ] || fail "$label records its files' digests by algorithm $algo, not SHA-256 (8)"
    differ=$(rpm -qp --qf '[%{FILEDIGESTS} %{FILENAMES}\n]' "$file" | while read -r digest path; do
      [ -n "$digest" ] || continue
      [ "$digest" = "$(sha256sum "$work/root$path" 2>/dev/null | cut -d' ' -f1)" ] || echo "$path"
    done)
    [ -z "$differ" ] || fail "$label's files differ from those of its .deb: $(echo $differ)"
  done
fi
rpm_has() { [[ " ${rpm_present[*]} " == *" $1 "* ]]; }
rpm_requires_has() {
  local name=$1 value
  shift
  # Without the versions of the symbols (libc.so.6(GLIBC_2.34)(64bit)), which would make a failure unreadable.
  value=$(rpm -qp --requires "$(rpm_file "$name")" | grep -v '([^)][^)]*)(64bit)$')
  for wanted in "$@"; do
    grep -qF -- "$wanted" <<<"$value" || fail "$(basename "$(rpm_file "$name")") requires no \"$wanted\": $(echo $value)"
  done
}
rpm_requires_lacks() {
  local name=$1 value
  shift
  value=$(rpm -qp --requires "$(rpm_file "$name")")
  for unwanted in "$@"; do
    grep -qF -- "$unwanted" <<<"$value" &&
      fail "$(basename "$(rpm_file "$name")") requires \"$unwanted\" (a desktop library): $(echo $value)"
  done
}
if rpm_has search-studio; then
  rpm_requires_has search-studio "search-studio-cli = $rpm_version-1" libwebkit2gtk-4.1.so.0 libgtk-3.so.0 xdg-utils
fi
if rpm_has search-studio-cli; then
  rpm_requires_has search-studio-cli libc.so.6
  rpm_requires_lacks search-studio-cli libwebkit2gtk libgtk-3
fi

# No file in two packages.
twice=$(for name in "${present[@]}"; do files_of "$(package_file "$name")"; done | sort | uniq -d)
rpm_twice=$(for name in "${rpm_present[@]}"; do rpm_files_of "$(rpm_file "$name")"; done | sort | uniq -d)
[ -z "$twice$rpm_twice" ] && ok "no file is in two packages" || fail "in two packages: $(echo $twice $rpm_twice)"

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
