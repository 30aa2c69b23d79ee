#!/bin/bash
# Build bzImage from build/linux into an out-of-tree directory, with the
# kconfig fragment(s) in kernel/ on top of tinyconfig.
#
#   build-kernel.sh [OBJ_DIR]    (default build/obj)
#
# FRAGMENT: the fragment, or several separated by spaces, merged in that
# order (default kernel/streams.config; make test-debug adds
# kernel/debug.config). Where two set one symbol, the later one wins.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

OBJ=${1:-$OBJ}
FRAGMENT=${FRAGMENT:-$ROOT/kernel/streams.config}
read -ra fragments <<<"$FRAGMENT"
names=
for f in "${fragments[@]}"; do
	[ -f "$f" ] || die "no kconfig fragment $f"
	names+="${names:+ + }$(basename "$f")"
done
[ -e "$TREE/.git" ] || die "no kernel tree: run 'make tree' first"
mkdir -p "$OBJ"
OBJ=$(cd "$OBJ" && pwd)	# make runs in $TREE: a relative O= would land there
# FOR_TREE=1 (the unpatched base, an earlier patch): leave out the options
# whose symbols the tree does not have yet.
if [ "${FOR_TREE:-0}" = 1 ]; then
	for i in "${!fragments[@]}"; do
		fragment_for_tree "$TREE" "${fragments[$i]}" "$OBJ/.fragment.$i"
		fragments[i]=$OBJ/.fragment.$i
	done
fi
use_ccache
JOBS=${JOBS:-$(($(nproc) + 1))}

# Re-configure only when the fragment or the tree's Kconfig files changed,
# so that a warm build is just the compile.
stamp=$OBJ/.fragment.sha
want=$( { cat "${fragments[@]}"; git -C "$TREE" ls-files -s -- '*Kconfig*'; } | sha1sum)
if [ ! -f "$OBJ/.config" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
	log "configuring $OBJ (tinyconfig + $names)"
	make -s -C "$TREE" O="$OBJ" tinyconfig >/dev/null
	"$TREE/scripts/kconfig/merge_config.sh" -m -O "$OBJ" "$OBJ/.config" "${fragments[@]}" >/dev/null
	make -s -C "$TREE" O="$OBJ" olddefconfig >/dev/null
	# olddefconfig silently drops an option whose dependency is missing.
	# Checked: each symbol's last setting over the fragments, if it is one
	# to a value (a "# CONFIG_X is not set" there cancels an earlier one).
	missing=0
	while IFS= read -r line; do
		case $line in CONFIG_*=*) ;; *) continue ;; esac
		if ! grep -qx -- "$line" "$OBJ/.config"; then
			echo "kconfig: '$line' requested but not set in $OBJ/.config" >&2
			missing=1
		fi
	done < <(cat "${fragments[@]}" | awk '
		/^CONFIG_[A-Za-z0-9_]+=/ { s = $0; sub(/=.*/, "", s) }
		/^# CONFIG_[A-Za-z0-9_]+ is not set$/ { s = $2 }
		s != "" { if (!(s in v)) o[++n] = s; v[s] = $0; s = "" }
		END { for (i = 1; i <= n; i++) print v[o[i]] }')
	[ $missing = 0 ] || die "kernel config is incomplete (see above)"
	echo "$want" > "$stamp"
fi

log "building bzImage in $OBJ (-j$JOBS)"
make -s -C "$TREE" O="$OBJ" -j"$JOBS" bzImage
log "kernel: $OBJ/arch/x86/boot/bzImage"
