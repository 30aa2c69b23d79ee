#!/bin/bash
# Export the commits base..HEAD of build/linux to patches/ (git format-patch
# files and a quilt-style "series" file), keeping the cover letter's subject
# and text and refreshing its shortlog and diffstat.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[ -d "$TREE/.git" ] || die "no kernel tree: run 'make tree' first"
[ -z "$(git -C "$TREE" status --porcelain --untracked-files=no)" ] ||
	die "build/linux has uncommitted changes: commit them first"
untracked=$(git -C "$TREE" status --porcelain | grep '^??' || true)
[ -z "$untracked" ] || die "build/linux has untracked files (add them to a commit or remove them): $untracked"

cover=$PATCHES/0000-cover-letter.patch
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# --zero-commit and --no-signature keep the files identical across machines
# (commit ids differ with the committer date; the git version does not matter).
# series.version: the version being prepared ([PATCH vN ...] from 2 on).
version=$(cat "$ROOT/series.version" 2>/dev/null || echo 1)
vflag=
[ "$version" -gt 1 ] && vflag=-v$version
git -C "$TREE" format-patch -q --zero-commit --no-signature --cover-letter \
	$vflag -o "$tmp" base..HEAD
# File names stay NNNN-*.patch whatever the version.
for f in "$tmp"/v"$version"-*.patch; do
	[ -e "$f" ] && mv "$f" "$tmp/${f##*/v"$version"-}"
done

new_cover=$(ls "$tmp"/0000-cover-letter.patch)
if [ -f "$cover" ]; then
	# Carry over the subject line and the blurb: everything between the
	# headers and the shortlog ("Author (N):").
	subject=$(sed -n 's/^Subject: \[PATCH[^]]*\] //p' "$cover" | head -n 1)
	awk '
		hdr == 0 && /^$/ { hdr = 1; next }
		hdr == 1 && /^[^ ].* \([0-9]+\):$/ { exit }
		hdr == 1 { print }
	' "$cover" > "$tmp/blurb"
	SUBJECT=$subject awk -v blurb="$tmp/blurb" '
		/^Subject: / { sub(/\*\*\* SUBJECT HERE \*\*\*/, ENVIRON["SUBJECT"]) }
		/^\*\*\* BLURB HERE \*\*\*$/ {
			while ((getline l < blurb) > 0) print l
			skip = 1; next
		}
		skip == 1 && /^$/ { skip = 0; next }
		{ print }
	' "$new_cover" > "$tmp/cover"
	mv "$tmp/cover" "$new_cover"
fi

rm -f "$PATCHES"/*.patch "$PATCHES/series"
mkdir -p "$PATCHES"
cp "$tmp"/*.patch "$PATCHES"/
( cd "$PATCHES" && ls [0-9]*.patch | grep -v '^0000-cover-letter' ) > "$PATCHES/series"
log "exported $(wc -l < "$PATCHES/series") patches to patches/"
