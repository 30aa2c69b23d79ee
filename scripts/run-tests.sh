#!/bin/bash
# Run every test and print the closing count. Expects a built kernel and
# selftests (the Makefile's "test" target builds them first).
#  1. the series check (applies, checkpatch --strict, matches the tree);
#  2. host-side tests (tests/host/*.sh, TAP), under mawk and under gawk;
#  3. one VM boot: the streams kselftests, the KUnit suites that ran at
#     boot, and a check of the kernel log of the boot and of each suite
#     (scripts/kernel-log-check.sh);
#  4. not with GUEST_ONLY=1: a second VM, on QEMU 10 (built once per
#     machine by scripts/qemu.sh), against QEMU's own FDP device
#     (scripts/test-qemu-fdp.sh), and in it the device benchmark on a
#     user's SSD (scripts/guest/bench-real.sh), with the same kernel log
#     check;
#  5. the run against tests/manifest and tests/skip-allowlist
#     (scripts/manifest-check.sh): a suite or test that did not report, or
#     a skip nobody allowed, fails the run.
# Each suite's wall time is printed and heads build/test-results/summary.txt
# (lines "time: SUITE N s"; kunit's is the boot's).
#
# Environment (make test-debug sets them; the defaults are make test's):
#   T=SUITE[:TEST]   only SUITE: a kselftest (its TEST: kselftest_harness's
#                    -t TEST, or -r FIXTURE[.VARIANT].TEST if TEST has a
#                    dot), kunit (TEST: a kunit.filter_glob) or qemu_fdp;
#                    none of 1., 2. and the other suites, and the manifest
#                    check holds only SUITE's file against SUITE's entries
#                    (those TEST names, if given; qemu_fdp's VM also
#                    reports bench_real)
#   OBJ, SELFTESTS   the kernel build and the kselftests (scripts/lib.sh)
#   RESULTS          results folder (default build/test-results)
#   GUEST_ONLY=1     skip 1. and 2.; the manifest check then leaves out the
#                    suites of the series check and the host tests
#   VM_TIMEOUT, VM_ARGS   vm.sh's time limit, more vm.sh options
#   SELFTEST_TIMEOUT      the guest's limit per kselftest binary (900 s)
#   VM_SH, MANIFEST  what boots the VM (default scripts/vm.sh), the
#                    manifest (default tests/manifest): the host test of
#                    this script (tests/host/run_tests_test.sh) runs the
#                    guest's command on the host against a manifest of its own
# If OBJ's kernel has KASAN, lockdep or debugobjects, a 6th check
# (scripts/debug-kernel-check.sh) asserts that the boot log shows them on.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

res=${RESULTS:-$BUILD/test-results}
vm=${VM_SH:-$ROOT/scripts/vm.sh}
manifest_file=${MANIFEST:-$ROOT/tests/manifest}

# T=SUITE[:TEST]: what to run, checked before anything runs.
T=${T:-}
sel=${T%%:*} sel_test=
[ "$sel" = "$T" ] || sel_test=${T#*:}
[ "$sel" != qemu_fdp ] || sel=qemu-fdp
if [ -n "$T" ]; then
	case $sel in
	kunit) ;;
	qemu-fdp) [ -z "$sel_test" ] || die "T=$T: qemu_fdp runs as a whole" ;;
	*)	[ -x "$SELFTESTS/streams/$sel" ] ||
			die "T=$T: no kselftest $sel in $SELFTESTS/streams; a suite is one of: kunit qemu_fdp $(cd "$SELFTESTS/streams" 2>/dev/null && ls)" ;;
	esac
fi

rm -rf "$res"
mkdir -p "$res/host"

# The awks the host tests run under (scripts/deps.sh installs both), and
# the suite name of host test $1 under awk $2.
HOST_AWKS="mawk gawk"
host_suite() {
	local name
	name=$(basename "$1" .sh)
	[ "$2" = mawk ] && echo "$name" || echo "$name-$2"
}

# timed NAME OUTPUT COMMAND...: run it, its output to OUTPUT, and print
# and keep its wall time.
timed() {
	local name=$1 output=$2 start rc
	shift 2
	start=$(date +%s)
	"$@" > "$output" 2>&1; rc=$?
	took "$name" $(($(date +%s) - start))
	return $rc
}
took() { echo "time: $1 $2 s" >> "$res/times.txt"; log "$1: $2 s"; }

if [ -z "$T" ] && [ "${GUEST_ONLY:-0}" != 1 ]; then
	log "series check"
	timed series "$res/series.tap" "$ROOT/scripts/check-series.sh"
	echo $? > "$res/series.rc"

	# The scripts run wherever users run them, and "awk" is mawk on a
	# plain Debian, gawk where something pulled it in (mariadb-server
	# does) and on most other distributions: the host tests run under
	# each, gawk's suites named NAME-gawk.
	log "host tests"
	for a in $HOST_AWKS; do
		if ! path=$(command -v "$a"); then
			# Counted, not fatal: the run still ends with its count line.
			log "no $a: make deps installs it"
			printf '1..1\nnot ok 1 - %s is installed # make deps installs it\n' \
				"$a" > "$res/host/awk-$a.tap"
			continue
		fi
		mkdir -p "$res/host/awk-$a"
		ln -sf "$path" "$res/host/awk-$a/awk"
		for t in "$ROOT"/tests/host/*.sh; do
			[ -f "$t" ] || continue
			name=$(host_suite "$t" "$a")
			PATH=$res/host/awk-$a:$PATH \
				timed "$name" "$res/host/$name.tap" bash "$t"
			echo $? > "$res/host/$name.rc"
		done
	done
fi

files=()
[ -n "$T" ] || [ "${GUEST_ONLY:-0}" = 1 ] || files=("$res/series.tap")
shopt -s nullglob
files+=("$res"/host/*.tap)
shopt -u nullglob

# The main VM: every kselftest and KUnit, or what T selects of them.
if [ "$sel" != qemu-fdp ] || [ -z "$T" ]; then
	guest=("$ROOT/scripts/guest/run-selftests.sh" "$SELFTESTS/streams" /mnt/results/guest)
	read -ra vm_args <<<"${VM_ARGS:-}"
	if [ -n "$T" ]; then
		guest+=("$sel")
		if [ "$sel" = kunit ]; then
			[ -z "$sel_test" ] || vm_args+=(--append "kunit.filter_glob=$sel_test")
		else
			# KUnit is not what T selects: do not spend the boot on it.
			vm_args+=(--append kunit.enable=0)
			case $sel_test in
			'') ;;
			*.*) guest+=(-r "$sel_test") ;;
			*) guest+=(-t "$sel_test") ;;
			esac
		fi
	fi
	[ -z "${SELFTEST_TIMEOUT:-}" ] || guest=(env SELFTEST_TIMEOUT="$SELFTEST_TIMEOUT" "${guest[@]}")
	log "guest tests (${T:-kselftests + KUnit}), console log: $res/vm/console.log"
	"$vm" --out "$res/vm" --timeout "${VM_TIMEOUT:-2700}" "${vm_args[@]}" -- \
		"${guest[@]}" > "$res/vm.log" 2>&1
	vm_rc=$?

	# Every selftest that was built (or the one selected) must have
	# reported (and the manifest check catches one that was not built).
	suites=()
	for t in "$SELFTESTS"/streams/*; do
		[ -x "$t" ] || continue
		[ -z "$T" ] || [ "$(basename "$t")" = "$sel" ] || continue
		suites+=("$(basename "$t")")
		files+=("$res/vm/guest/$(basename "$t").tap")
	done
	[ -n "$T" ] && [ "$sel" != kunit ] || files+=("$res/vm/guest/kunit.ktap")
	# The boot's time is KUnit's, unless T turned KUnit off.
	f=$res/vm/guest/kunit.time
	[ ! -f "$f" ] || took "$([ -n "$T" ] && [ "$sel" != kunit ] && echo boot || echo kunit)" "$(cat "$f")"
	for s in "${suites[@]}"; do
		f=$res/vm/guest/$s.time
		[ ! -f "$f" ] || took "$s" "$(cat "$f")"
	done

	# 125 and 124: the guest died or ran out of time (vm.sh); anything
	# else is run-selftests.sh's own status: a binary exited non-zero.
	{
		echo "1..2"
		if [ $vm_rc != 124 ] && [ $vm_rc != 125 ]; then echo "ok 1 ran to the end"
		else sed 's/^/# /' "$res/vm.log" | tail -n 30; echo "# vm.sh exit $vm_rc"; echo "not ok 1 ran to the end"; fi
		if [ $vm_rc = 0 ]; then echo "ok 2 every kselftest exited 0"
		else grep -H . "$res"/vm/guest/*.rc 2>/dev/null | grep -v ':0$' | sed 's/^/# /'; echo "not ok 2 every kselftest exited 0"; fi
	} > "$res/guest.tap"
	"$ROOT/scripts/kernel-log-check.sh" "$res/vm/guest" "${suites[@]}" > "$res/kernel.tap"
	echo $? > "$res/kernel.rc"
	files+=("$res/guest.tap" "$res/kernel.tap")
fi

if { [ -z "$T" ] && [ "${GUEST_ONLY:-0}" != 1 ]; } || [ "$sel" = qemu-fdp ]; then
	# An FDP device we did not write. Its TAP is missing if QEMU did not
	# build or the VM died, and the manifest check then fails the run.
	log "QEMU FDP device (QEMU 10; the first run builds it), log: $res/qemu-fdp.log"
	timed qemu-fdp "$res/qemu-fdp.log" "$ROOT/scripts/test-qemu-fdp.sh" --out "$res/qemu-fdp"
	rc=$?
	# The guest's own status, or else the script's (QEMU did not build...).
	[ -f "$res/qemu-fdp/qemu-fdp.rc" ] || { mkdir -p "$res/qemu-fdp"; echo $rc > "$res/qemu-fdp/qemu-fdp.rc"; }
	# The same VM runs the device benchmark's real-SSD path on a third
	# controller (scripts/guest/bench-real.sh).
	files+=("$res/qemu-fdp/qemu-fdp.tap" "$res/qemu-fdp/bench_real.tap")
	"$ROOT/scripts/kernel-log-check.sh" "$res/qemu-fdp" qemu-fdp \
		> "$res/kernel-qemu-fdp.tap"
	echo $? > "$res/kernel-qemu-fdp.rc"
	files+=("$res/kernel-qemu-fdp.tap")
fi
manifest=(-m "$manifest_file")
checked=("${files[@]}")
if [ -n "$T" ]; then
	# Only what T selects: SUITE's entries (TEST's: the name itself, its
	# parameters, or a -t name's fixtures and variants) against SUITE's
	# file alone. None listed, or none reported, still fails.
	manifest=(-m "$res/manifest")
	awk -F'\t' -v s="$sel" -v t="$sel_test" '/^[ \t]*(#|$)/ { print; next }
		($1 == s || s == "qemu-fdp" && $1 == "bench_real") &&
		(t == "" || $2 == t || index($2, t ".") == 1 ||
			substr($2, length($2) - length(t)) == "." t)' \
		"$manifest_file" > "$res/manifest"
	case $sel in
	kunit) checked=("$res/vm/guest/kunit.ktap") ;;
	qemu-fdp) checked=("$res/qemu-fdp/qemu-fdp.tap" "$res/qemu-fdp/bench_real.tap") ;;
	*) checked=("$res/vm/guest/$sel.tap") ;;
	esac
elif [ "${GUEST_ONLY:-0}" = 1 ]; then
	# Only what the VM reports: not the series check, not the host tests.
	manifest=(-m "$res/manifest")
	skip="series qemu-fdp bench_real kernel-qemu-fdp"
	for a in $HOST_AWKS; do
		for t in "$ROOT"/tests/host/*.sh; do skip+=" $(host_suite "$t" "$a")"; done
	done
	awk -F'\t' -v skip="$skip" 'BEGIN { n = split(skip, s, " "); for (i = 1; i <= n; i++) drop[s[i]] = 1 }
		/^#/ || !($1 in drop)' "$manifest_file" > "$res/manifest"
fi
"$ROOT/scripts/manifest-check.sh" "${manifest[@]}" "${checked[@]}" > "$res/manifest.tap"
echo $? > "$res/manifest.rc"
files+=("$res/manifest.tap")
if [ -d "$res/vm/guest" ] &&
	grep -Eqx 'CONFIG_(KASAN|PROVE_LOCKING|DEBUG_OBJECTS)=y' "$OBJ/.config" 2>/dev/null; then
	"$ROOT/scripts/debug-kernel-check.sh" "$OBJ/.config" "$res/vm/guest" > "$res/debug_kernel.tap"
	echo $? > "$res/debug_kernel.rc"
	files+=("$res/debug_kernel.tap")
fi

echo
{ cat "$res/times.txt" 2>/dev/null; "$ROOT/scripts/tap-summary.sh" "${files[@]}"; } |
	tee "$res/summary.txt"
exit "${PIPESTATUS[0]}"
