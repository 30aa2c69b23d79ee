#!/bin/bash
# Runs inside the test VM: first the KUnit results that the kernel printed
# at boot to OUT/kunit.ktap (and the boot log to OUT/dmesg-boot.log); then
# every kselftest binary in DIR, each with a time limit, TAP to
# OUT/<name>.tap, its exit status to OUT/<name>.rc and the kernel log it
# caused to OUT/dmesg-<name>.log; then what the kernel logged after the
# last one to OUT/dmesg-end.log, and all of it to OUT/dmesg.log.
#
#   run-selftests.sh DIR OUT
#
# Each read of the log clears it (dmesg -c), so that each part holds only
# its own suite's messages (scripts/kernel-log-check.sh names the suite a
# warning came in) and the buffer never has to hold the whole run.
set -u
dir=$1 out=$2
limit=${SELFTEST_TIMEOUT:-900}
mkdir -p "$out"

# KUnit ran at boot: take its KTAP now, before the tests fill the log.
dmesg --notime -c > "$out/dmesg-boot.log" 2>&1
grep -E '^ *(KTAP version|TAP version|[0-9]+\.\.[0-9]+$|ok |not ok |# )' \
	"$out/dmesg-boot.log" > "$out/kunit.ktap"

parts=(boot)
for t in "$dir"/*; do
	[ -f "$t" ] && [ -x "$t" ] || continue
	name=$(basename "$t")
	echo "# running $name"
	# The tests write scratch files; give them a tmpfs of their own.
	( cd /tmp && timeout -k 5 "$limit" "$t" ) > "$out/$name.tap" 2>&1
	echo $? > "$out/$name.rc"
	dmesg --notime -c > "$out/dmesg-$name.log" 2>&1
	parts+=("$name")
	cat "$out/$name.tap"
done

dmesg --notime -c > "$out/dmesg-end.log" 2>&1
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
exit 0
