#!/bin/bash
# The summary must never turn a broken or empty run into a green one.
# Feeds scripts/tap-summary.sh small TAP/KTAP streams and checks its verdict.
set -u
here=$(cd "$(dirname "$0")" && pwd)
summary=$here/../../scripts/tap-summary.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=tests/host/lib/tap.sh
. "$here/lib/tap.sh"

# check NAME EXPECTED_EXIT EXPECTED_LAST_LINE [PATTERN] -- stdin: file body
# (a body of "@missing" means the file does not exist; NAME.rc via $RC)
check() {
	local name=$1 want_rc=$2 want_last=$3 pattern=${4:-} f out rc
	f=$tmp/$name.tap
	cat > "$f"
	[ "$(cat "$f")" = "@missing" ] && rm -f "$f"
	rm -f "$tmp/$name.rc"
	[ -n "${RC:-}" ] && echo "$RC" > "$tmp/$name.rc"
	out=$("$summary" "$f" 2>&1); rc=$?
	[ "$rc" = "$want_rc" ] && [ "$(tail -n 1 <<<"$out")" = "$want_last" ] &&
		{ [ -z "$pattern" ] || grep -q -- "$pattern" <<<"$out"; }
	result "$name" $((! $?)) "$out" "exit $rc, wanted $want_rc and '$want_last'"
}

echo "TAP version 13"
echo "1..30"
check all_pass 0 "2 passed, 0 failed, 0 skipped" <<'EOF2'
TAP version 13
1..2
ok 1 a
ok 2 b
EOF2
check one_failure_shows_diagnostics 1 "1 passed, 1 failed, 0 skipped" "Expected 3" <<'EOF2'
1..2
ok 1 a
# t.c:10:b:Expected 3 (3) == counts[g] (0)
not ok 2 b
EOF2
check skip_counts 0 "1 passed, 0 failed, 1 skipped" "no device" <<'EOF2'
1..2
ok 1 a
ok 2 b # SKIP no device
EOF2
check nothing_ran_fails 1 "0 passed, 1 failed, 0 skipped" <<'EOF2'
TAP version 13
EOF2
check missing_file_fails 1 "0 passed, 1 failed, 0 skipped" "no output" <<'EOF2'
@missing
EOF2
check short_plan_fails 1 "1 passed, 1 failed, 0 skipped" "planned 3" <<'EOF2'
1..3
ok 1 a
EOF2
RC=139 check crash_after_passes_fails 1 "1 passed, 1 failed, 0 skipped" "status 139" <<'EOF2'
1..1
ok 1 a
EOF2
check all_skipped_is_not_green 1 "0 passed, 0 failed, 1 skipped" <<'EOF2'
1..1
ok 1 a # SKIP nothing here
EOF2
check ktap_leaves_only 0 "3 passed, 0 failed, 0 skipped" "ktap_leaves_only: suite_a.case_1" <<'EOF2'
KTAP version 1
1..2
    KTAP version 1
    # Subtest: suite_a
    1..2
    ok 1 case_1
    ok 2 case_2
ok 1 suite_a
    KTAP version 1
    # Subtest: suite_b
    1..1
    ok 1 case_x
ok 2 suite_b
EOF2
check ktap_nested_failure 1 "1 passed, 1 failed, 0 skipped" "suite_a.case_2" <<'EOF2'
KTAP version 1
1..1
    KTAP version 1
    # Subtest: suite_a
    1..2
    ok 1 case_1
    # case_2: EXPECTATION FAILED at x.c:3
    not ok 2 case_2
not ok 1 suite_a
EOF2

# What a run must not take for a pass (issue 14); each is a real TAP/KTAP
# form that an earlier summary let through silently.
# A suite that tested nothing fails, whatever its reason or exit status.
check plan_1_0_fails 1 "0 passed, 1 failed, 0 skipped" "^FAIL plan_1_0_fails # plan 1..0: SKIP no disk" <<'EOF2'
TAP version 13
1..0 # SKIP no disk
EOF2
RC=4 check plan_1_0_with_ksft_skip_status_fails_once 1 "0 passed, 1 failed, 0 skipped" "^FAIL plan_1_0_with_ksft_skip_status_fails_once # plan 1..0" <<'EOF2'
1..0 # SKIP no disk
EOF2
RC=4 check ksft_skip_status_with_its_skips_is_no_failure 0 "1 passed, 0 failed, 1 skipped" <<'EOF2'
1..2
ok 1 a
ok 2 b # SKIP no disk
EOF2
check xfail_is_a_skip_not_a_pass 0 "1 passed, 0 failed, 1 skipped" "^SKIP xfail_is_a_skip_not_a_pass: b # XFAIL known bug" <<'EOF2'
1..2
ok 1 a
ok 2 b # XFAIL known bug
EOF2
check todo_is_a_skip_not_a_failure 0 "1 passed, 0 failed, 1 skipped" "^SKIP todo_is_a_skip_not_a_failure: b # TODO later" <<'EOF2'
1..2
ok 1 a
not ok 2 b # TODO later
EOF2
check xpass_fails 1 "1 passed, 1 failed, 0 skipped" "^FAIL xpass_fails: b # XPASS" <<'EOF2'
1..2
ok 1 a
ok 2 b # XPASS
EOF2
check lowercase_skip_is_a_skip 0 "1 passed, 0 failed, 1 skipped" "^SKIP lowercase_skip_is_a_skip: b # skip no fio" <<'EOF2'
1..2
ok 1 a
ok 2 b # skip no fio
EOF2
check comment_is_not_a_directive 0 "1 passed, 0 failed, 0 skipped" "^PASS comment_is_not_a_directive: a$" <<'EOF2'
1..1
ok 1 a #  took 3 s
EOF2
check missing_plan_fails 1 "1 passed, 1 failed, 0 skipped" "no plan" <<'EOF2'
TAP version 13
ok 1 a
EOF2
check plan_at_the_end_is_fine 0 "2 passed, 0 failed, 0 skipped" <<'EOF2'
ok 1 a
ok 2 b
1..2
EOF2
check duplicate_number_fails 1 "2 passed, 1 failed, 0 skipped" "is numbered 1 (duplicate" <<'EOF2'
1..2
ok 1 a
ok 1 b
EOF2
check bail_out_fails 1 "2 passed, 1 failed, 0 skipped" "bail out: no scsi_debug" <<'EOF2'
1..2
ok 1 a
ok 2 b
Bail out! no scsi_debug
EOF2
check ktap_nested_plan_short_fails 1 "2 passed, 1 failed, 0 skipped" "subtest suite_a: planned 3, reported 2" <<'EOF2'
KTAP version 1
1..1
    KTAP version 1
    # Subtest: suite_a
    1..3
    ok 1 case_1
    ok 2 case_2
ok 1 suite_a
EOF2
check ktap_nested_plan_1_0_is_a_skip 1 "0 passed, 0 failed, 1 skipped" "^SKIP ktap_nested_plan_1_0_is_a_skip: suite_a # its subtest planned 1..0" <<'EOF2'
KTAP version 1
1..1
    KTAP version 1
    # Subtest: suite_a
    1..0
ok 1 suite_a
EOF2
check ktap_parameters_get_their_path 0 "2 passed, 0 failed, 0 skipped" "^PASS ktap_parameters_get_their_path: suite_a.case_1.param b$" <<'EOF2'
KTAP version 1
1..1
    KTAP version 1
    # Subtest: suite_a
    1..1
        KTAP version 1
        # Subtest: case_1
        ok 1 param a
        ok 2 param b
    ok 1 case_1
ok 1 suite_a
EOF2
check ktap_parent_fails_without_failed_child 1 "1 passed, 1 failed, 0 skipped" "suite_a # not ok, but none" <<'EOF2'
KTAP version 1
1..1
    KTAP version 1
    # Subtest: suite_a
    1..1
    ok 1 case_1
not ok 1 suite_a
EOF2
check ktap_cut_short_fails 1 "1 passed, 2 failed, 0 skipped" "subtest suite_a has no result line" <<'EOF2'
KTAP version 1
1..1
    KTAP version 1
    # Subtest: suite_a
    1..2
    ok 1 case_1
EOF2
check ktap_skip_in_subtest_is_a_skip 0 "1 passed, 0 failed, 1 skipped" "^SKIP ktap_skip_in_subtest_is_a_skip: suite_a.case_2 # SKIP no device" <<'EOF2'
KTAP version 1
1..1
    KTAP version 1
    # Subtest: suite_a
    1..2
    ok 1 case_1
    ok 2 case_2 # SKIP no device
ok 1 suite_a
EOF2

# A failing kselftest_harness test shows its own lines, from its "#  RUN"
# to its "not ok", stderr (no "#") among them; nothing of the test before.
cat > "$tmp/own.tap" <<'EOF2'
TAP version 13
1..2
# Starting 2 tests from 1 test cases.
#  RUN           f.a ...
output of a
#            OK  f.a
ok 1 f.a
#  RUN           f.b ...
mkfs: stderr of b
# t.c:10:b:Expected 3 (3) == n (0)
#          FAIL  f.b
not ok 2 f.b
# Totals: pass:1 fail:1
EOF2
out=$("$summary" "$tmp/own.tap" 2>&1)
want='FAIL own: f.b
      #  RUN           f.b ...
      mkfs: stderr of b
      # t.c:10:b:Expected 3 (3) == n (0)
      #          FAIL  f.b
PASS own: f.a'
# The summary lists failures as they come; compare the failure's block.
got=$(grep -A 4 '^FAIL own: f.b$' <<<"$out"; grep '^PASS' <<<"$out")
[ "$got" = "$want" ] && ! grep -q 'output of a\|Starting\|Totals' <<<"$out"
result a_failure_shows_its_own_lines_and_stderr $((! $?)) "$out"

# A long one: its first 50 and last 150 lines, and how many were left out.
{ echo 1..1; echo '#  RUN f.long ...'; seq 1 299; echo 'not ok 1 f.long'; } > "$tmp/long.tap"
out=$("$summary" "$tmp/long.tap" 2>&1)
[ "$(grep -c '^      ' <<<"$out")" = 201 ] && grep -q '^      49$' <<<"$out" &&
	grep -q '^      \[\.\.\. 100 lines left out, see .*long.tap' <<<"$out" &&
	grep -q '^      150$' <<<"$out" && ! grep -q '^      149$' <<<"$out" &&
	grep -q '^      299$' <<<"$out"
result a_long_failure_shows_head_and_tail $((! $?)) "$out"
[ $fails = 0 ]
