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
# "series" with per-patch lines given as a prefix, one per patch in
# $tmp/series.
manifest() {
	cat > "$tmp/manifest" <<-EOF
	# a comment
	alpha${tab}one
	alpha${tab}two
	alpha${tab}three
	beta${tab}only
	series${tab}applies: *${tab}patches
	series${tab}tree matches
	EOF
	printf '# a comment\n0001-a.patch\n\n0002-b.patch\n' > "$tmp/series"
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
	"$scripts/manifest-check.sh" -m "$tmp/manifest" -a "$tmp/allow" -s "$tmp/series" "${files[@]}" \
		> "$tmp/r/manifest.tap" 2>&1
	out=$("$scripts/tap-summary.sh" "${files[@]}" "$tmp/r/manifest.tap" 2>&1); rc=$?
	[ "$rc" = "$want_rc" ] && [ "$(tail -n 1 <<<"$out")" = "$want_last" ] &&
		{ [ -z "$pattern" ] || grep -q -- "$pattern" <<<"$out"; }
	result "$name" $((! $?)) "$out" "exit $rc, wanted $want_rc and '$want_last'"
}

echo "TAP version 13"
echo "1..25"

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

# (d) A prefix stands for exactly its count of tests: not more, not fewer,
# and it must have one.
good; printf 'alpha\ton*\n' >> "$tmp/manifest"
check prefix_without_a_count_is_malformed 1 "9 passed, 1 failed, 1 skipped" \
	"manifest:8: not SUITE<TAB>TEST or SUITE<TAB>PREFIX\*<TAB>COUNT: alpha"

delta() {	# N: the suite delta with N tests "run 1".."run N", 2 listed
	good; printf 'delta\trun *\t2\n' >> "$tmp/manifest"
	{ echo "1..$1"; for i in $(seq "$1"); do echo "ok $i run $i"; done; } > "$tmp/r/delta.tap"
}
delta 2
ONLY="$tmp/r/series.tap $tmp/r/alpha.tap $tmp/r/beta.tap $tmp/r/delta.tap" \
check prefix_with_its_count_passes 0 "12 passed, 0 failed, 1 skipped" \
	"PASS manifest: delta: 2 of 2 listed tests reported"
delta 3
ONLY="$tmp/r/series.tap $tmp/r/alpha.tap $tmp/r/beta.tap $tmp/r/delta.tap" \
check prefix_matched_too_often_fails 1 "12 passed, 2 failed, 1 skipped" \
	"FAIL manifest: delta: run \*: 3 reported, .* wants 2$"
delta 1
ONLY="$tmp/r/series.tap $tmp/r/alpha.tap $tmp/r/beta.tap $tmp/r/delta.tap" \
check prefix_matched_too_seldom_fails 1 "10 passed, 2 failed, 1 skipped" \
	"FAIL manifest: delta: run \*: 1 reported, .* wants 2$"

# (e) "patches" follows patches/series: a run with fewer series checks
# than patches fails; a longer series passes with no manifest edit.
good; printf '0003-c.patch\n' >> "$tmp/series"
check fewer_series_checks_than_patches_fails 1 "8 passed, 2 failed, 1 skipped" \
	"FAIL manifest: series: applies: \*: 2 reported, .* wants 3 (the patches in .*series)"
good; printf '0003-c.patch\n' >> "$tmp/series"
printf '1..4\nok 1 applies: 0001-a.patch\nok 2 applies: 0002-b.patch\nok 3 applies: 0003-c.patch\nok 4 tree matches\n' > "$tmp/r/series.tap"
check longer_series_needs_no_manifest_edit 0 "10 passed, 0 failed, 1 skipped" \
	"PASS manifest: series: 4 of 4 listed tests reported"
good; rm "$tmp/series"
check patches_count_without_a_series_is_malformed 1 "9 passed, 3 failed, 1 skipped" \
	"count \"patches\", but .*series lists none"

# A KTAP subtest whose plan does not add up fails even with every listed
# test present.
good
printf 'kt\tsuite_a.case_1\nkt\tsuite_a.case_2\n' >> "$tmp/manifest"
printf 'KTAP version 1\n1..1\n    KTAP version 1\n    # Subtest: suite_a\n    1..3\n    ok 1 case_1\n    ok 2 case_2\nok 1 suite_a\n' > "$tmp/r/kt.ktap"
ONLY="$tmp/r/series.tap $tmp/r/alpha.tap $tmp/r/beta.tap $tmp/r/kt.ktap" \
check ktap_plan_short_fails_with_manifest 1 "12 passed, 1 failed, 1 skipped" \
	"FAIL kt # subtest suite_a: planned 3, reported 2"

# manifest-update.sh writes the form the check reads: from a good run, a
# manifest that accepts it, with "patches" kept, an old prefix line
# without a count given the run's, and the new test listed.
good
mkdir -p "$tmp/res/host"
cp "$tmp/r/series.tap" "$tmp/res/series.tap"
printf '1..3\nok 1 one\nok 2 two\nok 3 twice\n' > "$tmp/res/host/alpha.tap"
printf 'alpha\ttw*\n' >> "$tmp/manifest"
MANIFEST=$tmp/manifest "$scripts/manifest-update.sh" "$tmp/res" 2>/dev/null
out=$("$scripts/manifest-check.sh" -m "$tmp/manifest" -a "$tmp/allow" -s "$tmp/series" \
	"$tmp/res/series.tap" "$tmp/res/host/alpha.tap" 2>&1)
rc=$?
grep -qx "series${tab}applies: \*${tab}patches" "$tmp/manifest" &&
	grep -qx "alpha${tab}tw\*${tab}2" "$tmp/manifest" && [ $rc = 0 ]
result manifest_update_writes_counts_the_check_accepts $((! $?)) "$out" "$(cat "$tmp/manifest")"

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
