# Common settings for the project's scripts; sourced, never run.
# shellcheck shell=bash

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-$ROOT/build}
TREE=${TREE:-$BUILD/linux}	# git tree: tag "base" + the series as commits
OBJ=${OBJ:-$BUILD/obj}		# out-of-tree kernel build directory
SELFTESTS=${SELFTESTS:-$BUILD/selftests}	# built kselftests: SELFTESTS/streams
PATCHES=$ROOT/patches
# Debian's linux-source-7.3 (trixie-backports), fetched and unpacked by
# scripts/deps.sh; never installed, so the system's sources stay bookworm's.
SRC_PKG=linux-source-7.3
SRC_CACHE=${SRC_CACHE:-/var/cache/io-hints}
SRC_TARBALL=$SRC_CACHE/$SRC_PKG/usr/src/$SRC_PKG.tar.xz
IDENT="I/O Hints Project <io-hints@example.org>"

log() { printf '==> %s\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# Patch files in series order.
series_files() {
	[ -f "$PATCHES/series" ] || return 0
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$PATCHES/series" |
		while read -r p; do printf '%s\n' "$PATCHES/$p"; done
}

# Stable patch ids (sorted) of the tree's commits base..HEAD and of the series.
tree_patch_ids() {
	git -C "$TREE" log -p --reverse base..HEAD | git patch-id --stable |
		awk '{print $1}' | sort
}
series_patch_ids() {
	local f
	series_files | while read -r f; do cat "$f"; done |
		git patch-id --stable | awk '{print $1}' | sort
}

# ccache for every kernel build; BASEDIR makes hits survive a new clone path.
use_ccache() {
	if [ -d /usr/lib/ccache ]; then
		export PATH=/usr/lib/ccache:$PATH
		export CCACHE_BASEDIR=$ROOT
		export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-8G}
	fi
}

# Write to $3 the lines of kconfig fragment $2 whose symbols exist in the
# tree $1: an earlier point of the series (or the base) lacks the symbols
# that later patches add.
fragment_for_tree() {
	local tree=$1 frag=$2 out=$3 line sym
	while IFS= read -r line; do
		case $line in
		CONFIG_*=*)
			sym=${line%%=*}; sym=${sym#CONFIG_}
			git -C "$tree" grep -qE "^(menu)?config $sym\$" -- '*Kconfig*' || continue ;;
		esac
		printf '%s\n' "$line"
	done < "$frag" > "$out"
}
