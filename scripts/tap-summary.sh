#!/bin/bash
# Summarise TAP (kselftest) and KTAP (KUnit) result files: one line per
# test (PASS/FAIL/SKIP, with the test's own diagnostics under a failure),
# then the closing line "N passed, N failed, N skipped". A test's line is
# "KIND SUITE: TEST[ # note]"; a line about a whole file is "KIND SUITE #
# note" (see tap-summary.awk). Whether each skip is allowed, and whether
# every expected test ran, is scripts/manifest-check.sh's business.
#
#   tap-summary.sh FILE...
#
# A file's suite name is its base name without extension. A file NAME.tap
# may have a sidecar NAME.rc with the program's exit status. Each of these
# counts as a failure, so that a run that tested nothing is never green:
# an empty or missing file, a plan 1..0, a missing plan (1..N) or one that
# does not match the results (also a nested KTAP subtest's), a test number
# repeated or out of order, "Bail out!", a non-zero exit status with no
# failing test to explain it, XPASS/TIMEOUT/ERROR directives. XFAIL and
# TODO count as skips, as does a nested KTAP subtest that plans 1..0.
# Exit status: 0 if something passed and nothing failed, 1 otherwise.
set -u

for f in "$@"; do
	rc=
	[ -f "${f%.*}.rc" ] && rc=$(cat "${f%.*}.rc")
	name=$(basename "$f"); name=${name%.*}
	if [ ! -s "$f" ]; then
		echo "FAIL $name # no output at all"
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
