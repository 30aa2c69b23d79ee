#!/bin/bash
# Build bzImage from build/linux into an out-of-tree directory, with the
# kconfig fragment(s) in kernel/ on top of tinyconfig.
#
#   build-kernel.sh [OBJ_DIR]    (default build/obj)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

OBJ=${1:-$OBJ}
FRAGMENT=${FRAGMENT:-$ROOT/kernel/streams.config}
[ -e "$TREE/.git" ] || die "no kernel tree: run 'make tree' first"
mkdir -p "$OBJ"
use_ccache
JOBS=${JOBS:-$(($(nproc) + 1))}

# Re-configure only when the fragment or the tree's Kconfig files changed,
# so that a warm build is just the compile.
stamp=$OBJ/.fragment.sha
want=$( { cat "$FRAGMENT"; git -C "$TREE" ls-files -s -- '*Kconfig*'; } | sha1sum)
if [ ! -f "$OBJ/.config" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
	log "configuring $OBJ (tinyconfig + $(basename "$FRAGMENT"))"
	make -s -C "$TREE" O="$OBJ" tinyconfig >/dev/null
	"$TREE/scripts/kconfig/merge_config.sh" -m -O "$OBJ" "$OBJ/.config" "$FRAGMENT" >/dev/null
	make -s -C "$TREE" O="$OBJ" olddefconfig >/dev/null
	# olddefconfig silently drops an option whose dependency is missing.
	missing=0
	while IFS= read -r line; do
		case $line in CONFIG_*=*) ;; *) continue ;; esac
		if ! grep -qx -- "$line" "$OBJ/.config"; then
			echo "kconfig: '$line' requested but not set in $OBJ/.config" >&2
			missing=1
		fi
	done < "$FRAGMENT"
	[ $missing = 0 ] || die "kernel config is incomplete (see above)"
	echo "$want" > "$stamp"
fi

log "building bzImage in $OBJ (-j$JOBS)"
make -s -C "$TREE" O="$OBJ" -j"$JOBS" bzImage
log "kernel: $OBJ/arch/x86/boot/bzImage"
