#!/bin/bash
# A run must not go green by skipping or by losing tests. Feeds
# scripts/manifest-check.sh crafted result files against a small manifest
# and allowlist, then summarises them as run-tests.sh does, and checks the
# verdict: each bad case must fail, naming what is wrong, and the good one
# must pass. Last, the repository's own tests/manifest and
# tests/skip-allowlist must be well formed.
set -u
here=$(cd "$(dirname "$0")" && pwd)
scripts=$here/../../scripts
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=tests/host/lib/tap.sh
. "$here/lib/tap.sh"
tab=$'\t'

# The expectations: suite "alpha" with three tests, "beta" with one, and
# "series" with per-patch lines given as a prefix.
manifest() {
	cat > "$tmp/manifest" <<-EOF
	# a comment
	alpha${tab}one
	alpha${tab}two
	alpha${tab}three
	beta${tab}only
	series${tab}applies: *
	series${tab}tree matches
	EOF
}
allow() {
	printf '# a comment\nalpha\tthree\tneeds a device this VM lacks\n' > "$tmp/allow"
}
# The good files; a case then breaks one of them.
good() {
	rm -rf "$tmp/r"; mkdir -p "$tmp/r"
	printf '1..3\nok 1 one\nok 2 two\nok 3 three # SKIP no device\n' > "$tmp/r/alpha.tap"
	printf '1..1\nok 1 only\n' > "$tmp/r/beta.tap"
	printf '1..3\nok 1 applies: 0001-a.patch\nok 2 applies: 0002-b.patch\nok 3 tree matches\n' > "$tmp/r/series.tap"
	manifest; allow
}

# check NAME EXPECTED_EXIT EXPECTED_LAST_LINE [PATTERN]: run the check and
# the summary on $tmp/r's files as run-tests.sh does.
check() {
	local name=$1 want_rc=$2 want_last=$3 pattern=${4:-} out rc files
	files=("$tmp/r/series.tap" "$tmp/r/alpha.tap" "$tmp/r/beta.tap")
	[ -n "${ONLY:-}" ] && read -ra files <<<"$ONLY"
	"$scripts/manifest-check.sh" -m "$tmp/manifest" -a "$tmp/allow" "${files[@]}" \
		> "$tmp/r/manifest.tap" 2>&1
	out=$("$scripts/tap-summary.sh" "${files[@]}" "$tmp/r/manifest.tap" 2>&1); rc=$?
	[ "$rc" = "$want_rc" ] && [ "$(tail -n 1 <<<"$out")" = "$want_last" ] &&
		{ [ -z "$pattern" ] || grep -q -- "$pattern" <<<"$out"; }
	result "$name" $((! $?)) "$out" "exit $rc, wanted $want_rc and '$want_last'"
}

echo "TAP version 13"
echo "1..17"

good
check good_run_passes 0 "9 passed, 0 failed, 1 skipped" \
	"PASS manifest: series: 3 of 3 listed tests reported"

good; rm "$tmp/r/beta.tap"
check suite_without_output_fails 1 "7 passed, 2 failed, 1 skipped" \
	"FAIL manifest: beta: did not report at all (1 tests listed"

good
ONLY="$tmp/r/series.tap $tmp/r/alpha.tap" \
check suite_not_run_at_all_fails 1 "7 passed, 1 failed, 1 skipped" \
	"FAIL manifest: beta: did not report at all"

good; printf '1..2\nok 1 one\nok 2 three # SKIP no device\n' > "$tmp/r/alpha.tap"
check missing_test_fails 1 "7 passed, 2 failed, 1 skipped" \
	"FAIL manifest: alpha: two: listed in .*, did not report"

good; printf '1..3\nok 1 one\nok 2 one\nok 3 three # SKIP no device\n' > "$tmp/r/alpha.tap"
check fewer_tests_than_listed_fails 1 "8 passed, 3 failed, 1 skipped" \
	"FAIL manifest: alpha: 2 of 3 listed tests reported"

good; printf '1..1\nok 1 only # SKIP no disk\n' > "$tmp/r/beta.tap"
check skip_not_allowed_fails 1 "8 passed, 1 failed, 2 skipped" \
	"FAIL manifest: beta: only: skipped (SKIP no disk), and .* does not list it"

good; printf '1..1\nok 1 only # XFAIL known bug\n' > "$tmp/r/beta.tap"
check xfail_not_allowed_fails 1 "8 passed, 1 failed, 2 skipped" \
	"FAIL manifest: beta: only: skipped (XFAIL known bug)"

good; printf '1..1\nnot ok 1 only # TODO later\n' > "$tmp/r/beta.tap"
check todo_not_allowed_fails 1 "8 passed, 1 failed, 2 skipped" \
	"FAIL manifest: beta: only: skipped (TODO later)"

# (b) A suite that tested nothing fails, and the allowlist cannot excuse it.
good; printf '1..0 # SKIP no disk\n' > "$tmp/r/beta.tap"
printf 'beta\t1..0\tonly runs with a disk\n' >> "$tmp/allow"
check plan_1_0_fails 1 "7 passed, 2 failed, 1 skipped" \
	"FAIL manifest: beta: did not report at all"

good; printf 'alpha\tthree\t\n' > "$tmp/allow"
check allowlist_entry_needs_a_reason 1 "9 passed, 2 failed, 1 skipped" \
	"allow:1: not SUITE<TAB>TEST<TAB>REASON"

good; printf '1..2\nok 1 only\nok 2 brand new\n' > "$tmp/r/beta.tap"
check unlisted_test_fails 1 "10 passed, 1 failed, 1 skipped" \
	"FAIL manifest: beta: brand new: reported, but not in .* (add it)"

# (a) A suite the manifest does not list fails the run, also one that
# reports nothing but a failure of its file (here: it tested nothing).
good; printf '1..1\nok 1 x\n' > "$tmp/r/gamma.tap"
ONLY="$tmp/r/series.tap $tmp/r/alpha.tap $tmp/r/beta.tap $tmp/r/gamma.tap" \
check unlisted_suite_fails 1 "10 passed, 1 failed, 1 skipped" \
	"FAIL manifest: gamma: reported 1 tests, but the suite is not in"

good; printf '1..0\n' > "$tmp/r/gamma.tap"
ONLY="$tmp/r/series.tap $tmp/r/alpha.tap $tmp/r/beta.tap $tmp/r/gamma.tap" \
check unlisted_suite_that_tested_nothing_fails 1 "9 passed, 2 failed, 1 skipped" \
	"FAIL manifest: gamma: reported 0 tests, but the suite is not in"

good; printf '1..1\nok 1 tree matches\n' > "$tmp/r/series.tap"
check prefix_entry_needs_a_match 1 "6 passed, 2 failed, 1 skipped" \
	"FAIL manifest: series: applies: \*: listed in .*, did not report"

good; printf 'alpha\tone\n' >> "$tmp/manifest"
check manifest_line_listed_twice_fails 1 "9 passed, 1 failed, 1 skipped" \
	"manifest:8: listed twice: alpha: one"

# A KTAP subtest whose plan does not add up fails even with every listed
# test present.
good
printf 'kt\tsuite_a.case_1\nkt\tsuite_a.case_2\n' >> "$tmp/manifest"
printf 'KTAP version 1\n1..1\n    KTAP version 1\n    # Subtest: suite_a\n    1..3\n    ok 1 case_1\n    ok 2 case_2\nok 1 suite_a\n' > "$tmp/r/kt.ktap"
ONLY="$tmp/r/series.tap $tmp/r/alpha.tap $tmp/r/beta.tap $tmp/r/kt.ktap" \
check ktap_plan_short_fails_with_manifest 1 "12 passed, 1 failed, 1 skipped" \
	"FAIL kt # subtest suite_a: planned 3, reported 2"

# The repository's own lists: well formed (no "line N:" complaint when
# nothing reported), every allowlisted skip names a listed test.
out=$("$scripts/manifest-check.sh" 2>&1)
bad=$(grep -E '^not ok .*:[0-9]+: ' <<<"$out")
while IFS=$'\t' read -r s t _; do
	case $s in ''|'#'*) continue ;; esac
	grep -qxF "$s$tab$t" "$here/../manifest" ||
		bad+=$'\n'"skip-allowlist: $s: $t is not in tests/manifest"
done < "$here/../skip-allowlist"
[ -z "$bad" ] && grep -q '^ok\|^not ok' <<<"$out"
result repository_manifest_and_allowlist_are_well_formed $((! $?)) "$bad"
[ $fails = 0 ]
