# What each package holds, written once. scripts/package.sh stages a folder per package and builds its .deb
# and its .rpm from that folder (rpmbuild packs exactly these paths: it stops on one that is listed and not
# staged, or staged and not listed); scripts/check-packages.sh compares the files of every built package with
# these lists. docs/packaging.md describes them.

# The commands a `--help` lists (the command is "$@"), one a line.
listed_commands() {
  "$@" --help | sed -n '/^Commands:/,/^$/p' | awk 'NR > 1 && $1 != "help" && NF {print $1}'
}

# The commands of the `studio` at $1, those its commands have of their own as <command>-<subcommand>; each has
# a man page studio-<command>.1.
studio_commands() {
  local command sub
  for command in $(listed_commands "$1"); do
    echo "$command"
    for sub in $(listed_commands "$1" "$command"); do echo "$command-$sub"; done
  done
}

# The paths package $1 holds, one a line; a path ending in "/" is a folder all of whose files belong to the
# package. $2 is the `studio` whose commands get a man page each (the built or the packaged one).
package_contents() {
  local name=$1 studio=${2:-}
  case $name in
    search-studio-cli)
      [ -x "$studio" ] || {
        echo "error: the contents of search-studio-cli need the studio binary to list its commands; \"$studio\" is not one" >&2
        return 1
      }
      echo /usr/bin/studio
      echo /usr/share/man/man1/studio.1.gz
      local command
      for command in $(studio_commands "$studio"); do echo "/usr/share/man/man1/studio-$command.1.gz"; done
      echo /usr/share/bash-completion/completions/studio
      echo /usr/share/zsh/vendor-completions/_studio
      echo /usr/share/fish/vendor_completions.d/studio.fish
      ;;
    search-studio)
      echo /usr/bin/search-studio
      echo /usr/share/applications/search-studio.desktop
      local size
      for size in 32 64 128 256 512; do echo "/usr/share/icons/hicolor/${size}x${size}/apps/search-studio.png"; done
      echo /usr/share/icons/hicolor/scalable/apps/search-studio.svg
      ;;
    search-studio-server)
      echo /lib/systemd/system/search-studio.service
      echo /etc/search-studio/serve.toml
      echo /usr/lib/search-studio-server/first-admin-token
      echo /usr/share/search-studio/ui/
      ;;
    *)
      echo "error: no package is named \"$name\" (packaging/contents.sh lists search-studio-cli, search-studio, search-studio-server)" >&2
      return 1
      ;;
  esac
  echo "/usr/share/doc/$name/copyright"
  echo "/usr/share/doc/$name/changelog.gz"
}

# The version $1 as an .rpm states it: rpm allows no "-" in a version, and a pre-release 1.0.0-rc.1, which
# must sort before 1.0.0, is 1.0.0~rc.1 there.
rpm_version() {
  echo "${1//-/\~}"
}
