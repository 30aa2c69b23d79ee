#!/bin/bash
# Runs inside the test VM: first the KUnit results that the kernel printed
# at boot to OUT/kunit.ktap (and the boot log to OUT/dmesg-boot.log); then
# every kselftest binary in DIR, each with a time limit, TAP to
# OUT/<name>.tap and its exit status to OUT/<name>.rc; then the kernel log
# to OUT/dmesg.log.
#
#   run-selftests.sh DIR OUT
set -u
dir=$1 out=$2
limit=${SELFTEST_TIMEOUT:-300}
mkdir -p "$out"

# KUnit ran at boot: take its KTAP now, before the tests fill the log.
dmesg --notime > "$out/dmesg-boot.log" 2>&1
grep -E '^ *(KTAP version|TAP version|[0-9]+\.\.[0-9]+$|ok |not ok |# )' \
	"$out/dmesg-boot.log" > "$out/kunit.ktap"

for t in "$dir"/*; do
	[ -f "$t" ] && [ -x "$t" ] || continue
	name=$(basename "$t")
	echo "# running $name"
	# The tests write scratch files; give them a tmpfs of their own.
	( cd /tmp && timeout -k 5 "$limit" "$t" ) > "$out/$name.tap" 2>&1
	echo $? > "$out/$name.rc"
	cat "$out/$name.tap"
done

dmesg --notime > "$out/dmesg.log" 2>&1
exit 0
