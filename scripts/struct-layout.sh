#!/bin/bash
# Print the layout of the structures the series must not grow (struct bio,
# struct request, struct kiocb) as the kernel source tree SRC lays them out,
# with the configuration and compiler flags of the kernel built in $OBJ:
# block/bio.c of SRC is compiled with debug info, exactly as kbuild compiled
# it in $OBJ, and pahole reads the object. Same config and flags for the
# base and the series, so only the source differs.
#
#   struct-layout.sh SRC OUT     (OUT.txt: pahole; OUT.sizes: "name size")
set -euo pipefail
. "$(dirname "$0")/lib.sh"

src=$(cd "$1" && pwd)
out=$2
STRUCTS=(bio request kiocb inode)

cmdfile=$OBJ/block/.bio.o.cmd
[ -f "$cmdfile" ] || die "no $cmdfile: build the kernel first (make kernel)"
command -v pahole >/dev/null || die "pahole missing (package dwarves): make deps"
cmd=$(sed -n 's/^savedcmd_block\/bio\.o := //p' "$cmdfile")
[ -n "$cmd" ] || die "no compile command in $cmdfile"

# Kbuild compiled $TREE/block/bio.c into block/bio.o from $OBJ. Point every
# path at SRC instead, drop the dependency output, add debug info that keeps
# every type, and write elsewhere.
tree=$(cd "$TREE" && pwd)
obj=$(mktemp --suffix=.o)
trap 'rm -f "$obj"' EXIT
cmd=${cmd//$tree/$src}
cmd=$(sed -e 's/-Wp,-MMD,[^ ]*//' -e "s| -o block/bio\.o | -o $obj |" \
	-e 's/ -g[^ ]*//g' <<< "$cmd")
(cd "$OBJ" && eval "$cmd -g -gdwarf-4 -fno-eliminate-unused-debug-types")

: > "$out.txt"
: > "$out.sizes"
for s in "${STRUCTS[@]}"; do
	pahole -C "$s" "$obj" >> "$out.txt"
	size=$(pahole -C "$s" "$obj" | sed -n 's/.*\/\* size: \([0-9]*\),.*/\1/p')
	[ -n "$size" ] || die "pahole found no struct $s"
	echo "$s $size" >> "$out.sizes"
done
