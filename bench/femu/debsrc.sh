#!/bin/bash
# Fetch and unpack the upstream source of a Debian source package (the
# release this machine runs), for what Debian's binary packages do not
# ship: SQLite's speedtest1.c, fio's example job files.
#
#   bench/femu/debsrc.sh PKG      print the unpacked directory
#
# Uses a private apt state under build/femu/debsrc, with a deb-src line for
# each deb source of /etc/apt/sources.list.d/debian.sources: the system's
# apt configuration is not touched. Needs dpkg-dev's dpkg-source.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../../scripts/lib.sh"
[ $# = 1 ] || die "usage: debsrc.sh PKG"
pkg=$1
top=$BUILD/femu/debsrc
done_mark=$top/$pkg.dir
if [ -s "$done_mark" ] && [ -d "$(cat "$done_mark")" ]; then
	cat "$done_mark"
	exit 0
fi
command -v dpkg-source >/dev/null || apt-get install -y -q dpkg-dev >&2
mkdir -p "$top/parts" "$top/lists/partial" "$top/$pkg"
src=/etc/apt/sources.list.d/debian.sources
[ -f $src ] || die "debsrc: no $src to derive deb-src lines from"
sed 's/^Types: deb$/Types: deb-src/' $src > "$top/parts/debian-src.sources"
apt_opts=(-o "Dir::Etc::SourceList=/dev/null" -o "Dir::Etc::SourceParts=$top/parts"
	-o "Dir::State::Lists=$top/lists" -o "APT::Get::List-Cleanup=0")
apt-get "${apt_opts[@]}" -q update >&2
(cd "$top/$pkg" && apt-get "${apt_opts[@]}" -q source "$pkg" >&2) ||
	die "debsrc: apt-get source $pkg failed"
dir=$(find "$top/$pkg" -mindepth 1 -maxdepth 1 -type d | head -n1)
[ -n "$dir" ] || die "debsrc: nothing unpacked for $pkg"
echo "$dir" > "$done_mark"
echo "$dir"
