#!/bin/bash
# Create or refresh build/linux: the pristine base as one commit tagged
# "base", then every patch of the series applied with git am.
#
# Idempotent: if the tree already holds exactly the series, nothing happens.
# If the tree holds commits that patches/ does not have, it refuses to throw
# them away (run "make export" first, or FORCE=1 to discard them).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

want_version=$(cat "$ROOT/base.version")
have_version=$(cat "$SRC_CACHE/$SRC_PKG.version" 2>/dev/null || true)
[ -f "$SRC_TARBALL" ] || die "$SRC_TARBALL missing: run 'make deps' first"
if [ "$have_version" != "$want_version" ]; then
	printf 'WARNING: series is made against %s %s, building on %s\n' "$SRC_PKG" \
		"$want_version" "$have_version" >&2
fi

make_base() {
	log "unpacking $SRC_TARBALL ($have_version) into $TREE"
	rm -rf "$TREE" "$TREE.tmp"
	mkdir -p "$TREE.tmp"
	tar -xJf "$SRC_TARBALL" -C "$TREE.tmp" --strip-components=1
	mv "$TREE.tmp" "$TREE"
	cd "$TREE"
	# Debian's tarball ends .gitignore with a packaging stanza that ignores
	# every top-level path ("/*"): new files would silently stay untracked.
	sed -i '/^# Debian packaging/,$d' .gitignore
	sed -i '${/^#$/d}' .gitignore
	! grep -q '^/\*$' .gitignore || die "Debian stanza still in .gitignore"
	# It also lacks upstream's exceptions to ".*": without them a new
	# directory's .gitignore could not be committed.
	printf '\n# Dot-files that are part of the tree\n!.gitignore\n!.mailmap\n' >> .gitignore
	git init -q -b master .
	git config user.name "${IDENT% <*}"
	git config user.email "io-hints@example.org"
	git config core.abbrev 12
	git config gc.auto 0	# no background repacks of 90k files mid-run
	# -f: the tarball is pristine source; the dot-files that .gitignore
	# would skip (every .gitignore among them) belong to it.
	git add -f -A
	# Fixed dates: the base commit is the same object on every machine.
	GIT_AUTHOR_DATE='2025-01-01T00:00:00Z' GIT_COMMITTER_DATE='2025-01-01T00:00:00Z' \
		git commit -q -m "Linux $have_version (Debian $SRC_PKG)"
	git tag base
	echo "$have_version" > .git/base-version
}

apply_series() {
	cd "$TREE"
	git reset -q --hard base
	local f n=0
	while read -r f; do
		[ -f "$f" ] || die "series lists missing patch $f"
		git am -q --keep-cr "$f" || { git am --abort || true; die "patch does not apply: $f"; }
		n=$((n + 1))
	done < <(series_files)
	log "applied $n patches onto base"
}

if [ ! -d "$TREE/.git" ] || ! git -C "$TREE" rev-parse -q --verify base >/dev/null ||
   [ "$(cat "$TREE/.git/base-version" 2>/dev/null)" != "$have_version" ]; then
	make_base
	apply_series
	exit 0
fi

if [ "$(tree_patch_ids)" = "$(series_patch_ids)" ] &&
   [ -z "$(git -C "$TREE" status --porcelain --untracked-files=no)" ]; then
	log "build/linux already matches patches/"
	exit 0
fi

# Commits in the tree that the series lacks would be lost by a re-apply.
local_only=$(comm -23 <(tree_patch_ids) <(series_patch_ids))
dirty=$(git -C "$TREE" status --porcelain --untracked-files=no)
if { [ -n "$local_only" ] || [ -n "$dirty" ]; } && [ "${FORCE:-0}" != 1 ]; then
	die "build/linux has work that patches/ lacks: 'make export' it, or FORCE=1 to discard"
fi
apply_series
