#!/bin/bash
# Regenerate tests/manifest, the list of every test make test must report,
# from a good run's results (default build/test-results):
#
#   manifest-update.sh [RESULTS_DIR]
#
# The manifest is committed and maintained by hand between runs; this
# keeps its leading comment block and its prefix lines ("SUITE<TAB>
# PREFIX*<TAB>COUNT", e.g. the series check's per-patch lines: COUNT
# "patches" is kept, a number becomes how many tests the run matched) and
# lists every other test the run reported, in the order it reported them. It refuses a run with
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
	"$res"/qemu-fdp/bench_real.tap "$res"/kernel-qemu-fdp.tap; do
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
	awk -F'\t' -v OFS='\t' '
	# The old manifest: its header and its prefix lines.
	part == "old" {
		if (!started && /^[ \t]*(#|$)/) { print; next }
		started = 1
		if ($2 ~ /\*$/) {
			if (!($1 in np)) { np[$1] = 0; order[++nsuites] = $1 }
			pat[$1, ++np[$1]] = $2; cnt[$1, np[$1]] = $3
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
		if (!(s in begun)) { begun[s] = 1; ns++; suite[ns] = s; nt[s] = 0 }
		for (i = 1; i <= np[s]; i++)
			if (index(t, substr(pat[s, i], 1, length(pat[s, i]) - 1)) == 1) {
				hits[s, i]++
				next
			}
		test[s, ++nt[s]] = t
	}
	# A prefix gets the count of tests the run matched to it, "patches"
	# stays (the series check follows patches/series), and one the run did
	# not match keeps its old count.
	function prefixes(s, i, c) {
		for (i = 1; i <= np[s]; i++) {
			c = cnt[s, i]
			if (c != "patches" && hits[s, i] > 0)
				c = hits[s, i]
			print s, pat[s, i], c == "" ? 1 : c
		}
	}
	END {
		for (j = 1; j <= ns; j++) {
			s = suite[j]
			prefixes(s)
			for (i = 1; i <= nt[s]; i++)
				print s, test[s, i]
		}
		for (j = 1; j <= nsuites; j++)
			if (!(order[j] in begun))
				prefixes(order[j])
	}' part=old "$old" part=new - > "$manifest.new"
mv "$manifest.new" "$manifest"
log "$manifest: $(grep -vc '^[[:space:]]*\(#\|$\)' "$manifest") entries; review with git diff"
