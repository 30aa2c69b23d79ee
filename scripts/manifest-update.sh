#!/bin/bash
# Regenerate tests/manifest, the list of every test make test must report,
# from a good run's results (default build/test-results):
#
#   manifest-update.sh [RESULTS_DIR]
#
# The manifest is committed and maintained by hand between runs; this
# keeps its leading comment block and its prefix lines (TEST ending in
# "*", e.g. the series check's per-patch lines) and lists every other test
# the run reported, in the order it reported them. It refuses a run with
# failures (FORCE=1 overrides): a broken run would drop the tests it lost.
# Review the change with git diff before committing it.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

res=${1:-$BUILD/test-results}
manifest=${MANIFEST:-$ROOT/tests/manifest}
[ -d "$res" ] || die "no results in $res: run make test first"

# The files run-tests.sh summarises, in its order; manifest.tap is the
# check's own output, not a suite.
shopt -s nullglob
files=()
for f in "$res"/series.tap "$res"/host/*.tap "$res"/guest.tap "$res"/vm/guest/kunit.ktap \
	"$res"/vm/guest/*.tap "$res"/kernel.tap "$res"/qemu-fdp/qemu-fdp.tap \
	"$res"/kernel-qemu-fdp.tap; do
	[ -f "$f" ] && files+=("$f")
done
[ ${#files[@]} -gt 0 ] || die "no TAP files in $res"

summary=$("$ROOT/scripts/tap-summary.sh" "${files[@]}") || true
last=$(tail -n 1 <<<"$summary")
case $last in
*" 0 failed"*) ;;
*) [ "${FORCE:-0}" = 1 ] || die "the run in $res has failures ($last): FORCE=1 to use it anyway" ;;
esac

old=$(mktemp)
trap 'rm -f "$old"' EXIT
[ -f "$manifest" ] && cp "$manifest" "$old"
grep '^\(PASS\|FAIL\|SKIP\) [^ :]*: ' <<<"$summary" |
	awk -F'\t' '
	# The old manifest: its header and its prefix lines.
	part == "old" {
		if (!started && /^[ \t]*(#|$)/) { print; next }
		started = 1
		if (NF == 2 && $2 ~ /\*$/) {
			if (!($1 in np)) np[$1] = 0
			pat[$1, ++np[$1]] = $2
		}
		next
	}
	{
		line = substr($0, 6)
		s = line; sub(/: .*/, "", s)
		t = substr(line, length(s) + 3); sub(/ # .*/, "", t)
		if (s == "manifest" || (s, t) in done)
			next
		done[s, t] = 1
		if (!(s in begun)) {
			begun[s] = 1
			for (i = 1; i <= np[s]; i++)
				print s "\t" pat[s, i]
		}
		for (i = 1; i <= np[s]; i++)
			if (index(t, substr(pat[s, i], 1, length(pat[s, i]) - 1)) == 1)
				next
		print s "\t" t
	}
	END {
		for (s in np)
			if (!(s in begun))
				for (i = 1; i <= np[s]; i++)
					print s "\t" pat[s, i]
	}' part=old "$old" part=new - > "$manifest.new"
mv "$manifest.new" "$manifest"
log "$manifest: $(grep -vc '^[[:space:]]*\(#\|$\)' "$manifest") entries; review with git diff"
