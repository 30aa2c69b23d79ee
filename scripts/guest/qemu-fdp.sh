#!/bin/bash
# Inside the VM of scripts/test-qemu-fdp.sh: run the test against QEMU's FDP
# device, record nvme-cli's reading of the same device after the test's
# writes, then run the device benchmark's path for a real SSD
# (scripts/guest/bench-real.sh: bench_real.tap, and its exit status in
# bench_real.rc; the summary counts its failures).
#
#   qemu-fdp.sh BIN      BIN: the compiled tests/qemu-fdp/qemu_fdp_test
# Writes into the current directory (vm.sh: /mnt/results) qemu-fdp.tap, the
# test's TAP (also shown on stdout), and nvme-cli.txt: each NVMe disk's
# serial and max_write_streams, and nvme fdp configs, usage, stats, events
# and status of the controller with serial qemu-fdp; and the kernel log in
# three parts for scripts/kernel-log-check.sh (dmesg-boot.log,
# dmesg-qemu-fdp.log, dmesg-end.log: the last has bench-real.sh's).
# Exit status: the test's.
set -u
[ $# = 1 ] || { echo "usage: qemu-fdp.sh BIN" >&2; exit 2; }
dmesg --notime -c > dmesg-boot.log 2>&1
"$1" > qemu-fdp.tap 2>&1
rc=$?
dmesg --notime -c > dmesg-qemu-fdp.log 2>&1
cat qemu-fdp.tap
{
	for d in /sys/block/nvme*; do
		echo "== ${d##*/}: serial $(cat "$d/device/serial")," \
			"max_write_streams $(cat "$d/queue/max_write_streams")"
	done
	dev=$(grep -l '^qemu-fdp' /sys/block/nvme*/device/serial | head -n1)
	dev=${dev#/sys/block/}; dev=/dev/${dev%%/*}
	for c in configs usage stats events; do
		echo "== nvme fdp $c $dev -e 1"
		nvme fdp "$c" "$dev" -e 1
	done
	echo "== nvme fdp status $dev"
	nvme fdp status "$dev"
} > nvme-cli.txt 2>&1
bash "$(dirname "$0")/bench-real.sh" > bench_real.tap 2>&1
echo $? > bench_real.rc
cat bench_real.tap
dmesg --notime -c > dmesg-end.log 2>&1
exit $rc
