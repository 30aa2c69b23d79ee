#!/bin/bash
# make test T=SUITE[:TEST] runs only what it names, and a run cannot pass
# without testing. Runs scripts/run-tests.sh on the host with stand-ins:
# a "VM" (VM_SH) that runs the guest's command here, with /mnt/results
# mapped to its --out folder and a fake dmesg (the host's log must not be
# cleared); two kselftest-like scripts, alpha_test and beta_test, that
# honour kselftest_harness's -t and -r; a manifest of their own.
set -u
here=$(cd "$(dirname "$0")" && pwd)
scripts=$here/../../scripts
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=tests/host/lib/tap.sh
. "$here/lib/tap.sh"
tab=$'\t'

mkdir -p "$tmp/st/streams" "$tmp/obj"
# The stand-in VM: --append goes to $tmp/append, the command runs here.
cat > "$tmp/vm.sh" <<'EOF'
#!/bin/bash
while [ $# -gt 0 ]; do
	case $1 in
	--out) out=$2; shift 2 ;;
	--append) echo "$2" >> "$TMPD/append"; shift 2 ;;
	--) shift; break ;;
	*) shift 2 ;;
	esac
done
mkdir -p "$out"
cmd=()
for a in "$@"; do cmd+=("${a//\/mnt\/results/$out}"); done
DMESG=$TMPD/dmesg "${cmd[@]}"
EOF
# The kernel log: the buffer size kernel-log-check.sh asks for, and one
# KUnit suite with one case (kunit.ktap is cut from the boot's).
cat > "$tmp/dmesg" <<'EOF'
#!/bin/bash
printf 'printk: log buffer data + meta data: 4194304 + 0 = 4194304 bytes\n'
printf 'KTAP version 1\n1..1\n    KTAP version 1\n    # Subtest: suite_a\n    1..1\n    ok 1 case_1\nok 1 suite_a\n'
EOF
# A kselftest: tests f.one and f.two; MODE=fail fails them (with a line
# on stderr), MODE=exit1 passes them and exits 1. Its arguments go to
# $tmp/NAME.args.
for name in alpha_test beta_test; do
	cat > "$tmp/st/streams/$name" <<'EOF'
#!/bin/bash
echo "$*" > "$TMPD/$(basename "$0").args"
t= r=
while getopts t:r: o; do
	case $o in t) t=$OPTARG ;; r) r=$OPTARG ;; *) exit 1 ;; esac
done
list=()
for n in f.one f.two; do
	{ [ -z "$t" ] || [ "${n##*.}" = "$t" ]; } && { [ -z "$r" ] || [ "$n" = "$r" ]; } && list+=("$n")
done
echo "TAP version 13"
echo "1..${#list[@]}"
i=0
for n in "${list[@]}"; do
	i=$((i + 1))
	echo "#  RUN           $n ..."
	if [ "${MODE:-}" = fail ]; then echo "stderr of $n" >&2; echo "not ok $i $n"
	else echo "ok $i $n"; fi
done
[ -z "${MODE:-}" ]
EOF
done
chmod +x "$tmp/vm.sh" "$tmp/dmesg" "$tmp"/st/streams/*
manifest() {
	printf '%s\n' "alpha_test${tab}f.one" "alpha_test${tab}f.two" \
		"beta_test${tab}f.one" "beta_test${tab}f.two" "kunit${tab}suite_a.case_1" \
		"guest${tab}ran to the end" "guest${tab}every kselftest exited 0" > "$tmp/manifest"
}

# run T [ENV...]: run-tests.sh with T, its output in $out, status in $rc.
run() {
	local t=$1
	shift
	rm -rf "$tmp/res" "$tmp/append" "$tmp"/*.args
	out=$(env "$@" T="$t" TMPD="$tmp" VM_SH="$tmp/vm.sh" MANIFEST="$tmp/manifest" \
		SELFTESTS="$tmp/st" OBJ="$tmp/obj" RESULTS="$tmp/res" \
		"$scripts/run-tests.sh" 2>&1)
	rc=$?
}
# ran: what each kselftest got as arguments ("-" if it did not run).
ran() {
	local n
	for n in alpha_test beta_test; do
		if [ -f "$tmp/$n.args" ]; then echo "$n: $(cat "$tmp/$n.args")"; else echo "$n: -"; fi
	done
}
last() { tail -n 1 <<<"$out"; }

echo "TAP version 13"
echo "1..9"
manifest

# One test: only that suite runs, with -t; KUnit is off, nothing else
# runs; the manifest check holds that test alone; the time is kept.
run alpha_test:one
[ $rc = 0 ] && [ "$(ran)" = $'alpha_test: -t one\nbeta_test: -' ] &&
	grep -qx 'kunit.enable=0' "$tmp/append" && [ ! -e "$tmp/res/series.tap" ] &&
	[ ! -e "$tmp/res/qemu-fdp.log" ] && [ -z "$(ls "$tmp/res/host")" ] &&
	grep -q '^PASS manifest: alpha_test: 1 of 1 listed tests reported' <<<"$out" &&
	! grep -q 'kunit\|beta_test' "$tmp/res/manifest.tap" &&
	grep -q '^time: alpha_test [0-9]* s$' "$tmp/res/summary.txt" &&
	[ "$(last)" = "$(tail -n 1 "$tmp/res/summary.txt")" ] &&
	grep -qx '[0-9]* passed, 0 failed, 0 skipped' <<<"$(last)"
result one_test_runs_alone_and_passes $((! $?)) "$out" "$(ran)"

# FIXTURE.VARIANT.TEST (here FIXTURE.TEST) goes to -r.
run alpha_test:f.two
[ $rc = 0 ] && [ "$(ran)" = $'alpha_test: -r f.two\nbeta_test: -' ] &&
	grep -q '^PASS manifest: alpha_test: 1 of 1 listed' <<<"$out"
result fixture_variant_test_runs_with_r $((! $?)) "$out" "$(ran)"

# A whole suite, then KUnit alone with its filter and no kselftest.
run beta_test
[ $rc = 0 ] && [ "$(ran)" = $'alpha_test: -\nbeta_test: ' ] &&
	grep -q '^PASS manifest: beta_test: 2 of 2 listed' <<<"$out"
result one_suite_runs_alone $((! $?)) "$out" "$(ran)"
run kunit:suite_a
[ $rc = 0 ] && [ "$(ran)" = $'alpha_test: -\nbeta_test: -' ] &&
	grep -qx 'kunit.filter_glob=suite_a' "$tmp/append" &&
	grep -q '^PASS manifest: kunit: 1 of 1 listed' <<<"$out" &&
	grep -q '^time: kunit [0-9]* s$' "$tmp/res/summary.txt"
result kunit_runs_alone_with_its_filter $((! $?)) "$out" "$(ran)"

# The selected test fails: the run fails and shows that test's own lines.
run alpha_test:one MODE=fail
[ $rc = 1 ] && grep -q '^FAIL alpha_test: f.one$' <<<"$out" &&
	grep -q '^      stderr of f.one$' <<<"$out" && ! grep -q 'f.two' <<<"$out"
result a_failing_test_fails_with_its_output $((! $?)) "$out"

# The selected test does not exist: its suite plans 1..0, nothing is
# listed for it; both fail.
run alpha_test:nope
[ $rc = 1 ] && grep -q '^FAIL alpha_test # plan 1..0' <<<"$out" &&
	grep -q '^FAIL manifest: alpha_test: reported 0 tests, but the suite is not in' <<<"$out"
result a_test_that_does_not_exist_fails $((! $?)) "$out"

# (c) Every test passes but the kselftest exits 1: the run fails.
run alpha_test MODE=exit1
[ $rc = 1 ] && grep -q '^FAIL alpha_test # exited with status 1' <<<"$out" &&
	grep -q '^FAIL guest: every kselftest exited 0' <<<"$out"
result a_suite_that_exits_non_zero_fails $((! $?)) "$out"

# (a) The suite reports but the manifest does not list it.
grep -v '^beta_test' "$tmp/manifest" > "$tmp/m" && mv "$tmp/m" "$tmp/manifest"
run beta_test
[ $rc = 1 ] && grep -q '^FAIL manifest: beta_test: reported 2 tests, but the suite is not in' <<<"$out"
result an_unlisted_suite_fails $((! $?)) "$out"
manifest

# A suite that is not there: refused before anything runs.
run gamma_test
[ $rc = 1 ] && grep -q 'no kselftest gamma_test' <<<"$out" && [ ! -e "$tmp/res" ]
result an_unknown_suite_is_refused $((! $?)) "$out"
[ $fails = 0 ]
