#!/bin/bash
# Build the streams kselftests on the host against the tree's uapi headers,
# into build/selftests/streams (the guest runs them from there over 9p;
# SELFTESTS=DIR builds into DIR/streams instead, OBJ=DIR takes the
# headers from that kernel build).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

out=$SELFTESTS/streams
rm -rf "$out"
mkdir -p "$out"
make -s -C "$TREE" O="$OBJ" headers
make -s -C "$TREE/tools/testing/selftests/streams" OUTPUT="$out" \
	KHDR_INCLUDES="-isystem $OBJ/usr/include"
log "selftests: $(cd "$out" && echo *)"
