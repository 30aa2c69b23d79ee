#!/bin/bash
# Summarise TAP (kselftest) and KTAP (KUnit) result files: one line per
# test (PASS/FAIL/SKIP, with the test's own diagnostics under a failure),
# then the closing line "N passed, N failed, N skipped".
#
#   tap-summary.sh FILE...
#
# A file's suite name is its base name without extension. A file NAME.tap
# may have a sidecar NAME.rc with the program's exit status. Each of these
# counts as a failure, so that a run that tested nothing is never green:
# an empty or missing file, a plan (1..N) that does not match the results,
# a non-zero exit status with no failing test to explain it.
# Exit status: 0 if something passed and nothing failed, 1 otherwise.
set -u

for f in "$@"; do
	rc=
	[ -f "${f%.*}.rc" ] && rc=$(cat "${f%.*}.rc")
	name=$(basename "$f"); name=${name%.*}
	if [ ! -s "$f" ]; then
		printf 'not ok 1 %s: no output at all\n' "$name" |
			awk -v suite="$name" -f "$(dirname "$0")/tap-summary.awk"
		continue
	fi
	awk -v suite="$name" -v rc="$rc" -f "$(dirname "$0")/tap-summary.awk" "$f"
done | awk '
	/^PASS / { p++ } /^FAIL / { f++ } /^SKIP / { s++ }
	{ print }
	END {
		printf "%d passed, %d failed, %d skipped\n", p, f, s
		exit (f > 0 || p == 0) ? 1 : 0
	}'
