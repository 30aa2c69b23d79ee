#!/bin/bash
# Runs inside the test VM: first the KUnit results that the kernel printed
# at boot to OUT/kunit.ktap (and the boot log to OUT/dmesg-boot.log); then
# every kselftest binary in DIR, each with a time limit, TAP to
# OUT/<name>.tap, its exit status to OUT/<name>.rc, its wall time in
# seconds to OUT/<name>.time and the kernel log it caused to
# OUT/dmesg-<name>.log; then what the kernel logged after the last one to
# OUT/dmesg-end.log, and all of it to OUT/dmesg.log. The boot's time (KUnit
# runs in it) goes to OUT/kunit.time.
#
#   run-selftests.sh DIR OUT [SUITE [ARG...]]
#
# With SUITE, only that binary, with ARGs (kselftest_harness's -t TEST or
# -r FIXTURE.VARIANT.TEST); SUITE "kunit" runs none (KUnit ran at boot).
# Exit status: 0 if every binary run exited 0, else 1 (make test counts
# it: scripts/run-tests.sh). DMESG replaces dmesg (the host tests'
# stand-in, which must not clear the host's log).
#
# Each read of the log clears it (dmesg -c), so that each part holds only
# its own suite's messages (scripts/kernel-log-check.sh names the suite a
# warning came in) and the buffer never has to hold the whole run.
set -u
dir=$1 out=$2
only=${3:-}
args=("${@:4}")
limit=${SELFTEST_TIMEOUT:-900}
dmesg=${DMESG:-dmesg}
mkdir -p "$out"
if [ -n "$only" ] && [ "$only" != kunit ] && [ ! -x "$dir/$only" ]; then
	echo "run-selftests.sh: no kselftest $only in $dir" >&2
	exit 1
fi

# KUnit ran at boot: take its KTAP now, before the tests fill the log.
cut -d ' ' -f 1 /proc/uptime | cut -d . -f 1 > "$out/kunit.time"
"$dmesg" --notime -c > "$out/dmesg-boot.log" 2>&1
grep -E '^ *(KTAP version|TAP version|[0-9]+\.\.[0-9]+$|ok |not ok |# )' \
	"$out/dmesg-boot.log" > "$out/kunit.ktap"

parts=(boot)
failed=0
for t in "$dir"/*; do
	[ -f "$t" ] && [ -x "$t" ] || continue
	name=$(basename "$t")
	[ -z "$only" ] || [ "$name" = "$only" ] || continue
	echo "# running $name ${args[*]}"
	start=$(date +%s)
	# The tests write scratch files; give them a tmpfs of their own.
	( cd /tmp && timeout -k 5 "$limit" "$t" "${args[@]}" ) > "$out/$name.tap" 2>&1
	rc=$?
	echo $rc > "$out/$name.rc"
	echo $(($(date +%s) - start)) > "$out/$name.time"
	[ $rc = 0 ] || { failed=1; echo "# $name exited $rc"; }
	"$dmesg" --notime -c > "$out/dmesg-$name.log" 2>&1
	parts+=("$name")
	cat "$out/$name.tap"
done

"$dmesg" --notime -c > "$out/dmesg-end.log" 2>&1
parts+=(end)
# A debug kernel's own counters (make test-debug): lockdep still on at
# the end, debugobjects' warnings (also those past its five reports).
[ -r /proc/lockdep_stats ] && cat /proc/lockdep_stats > "$out/lockdep_stats"
[ -r /sys/kernel/debug/debug_objects/stats ] &&
	cat /sys/kernel/debug/debug_objects/stats > "$out/debug_objects_stats"
for p in "${parts[@]}"; do
	echo "=== dmesg-$p.log"
	cat "$out/dmesg-$p.log"
done > "$out/dmesg.log"
exit $failed
