#!/bin/bash
# Inside the VM of scripts/test-qemu-fdp.sh: the device benchmark's path
# for a user's SSD (make bench-device DEV=..., bench/femu/real.sh) against
# an FDP device we did not write: the namespace of QEMU's controller with
# serial qemu-bench, alone in its subsystem, so that its endurance group's
# FDP statistics (log 22h) count its writes only.
#
# QEMU collects no garbage: it adds each write to both Host and Media Bytes
# with Metadata Written, and to media bytes alone what it takes for the
# rest of a reclaim unit when it swaps one (hw/nvme/ctrl.c,
# nvme_update_ruh(): on an I/O Management Send, or when a write fills the
# unit). Its reclaim units here (1 GiB) are larger than all this run
# writes (the 128 MiB namespace four times), and nothing sends I/O
# Management, so no unit is swapped: write amplification is exactly 1, and
# the run's row must say so.
#
#   bench-real.sh     TAP on stdout; state in ./bench-real (vm.sh's results)
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
# shellcheck source=tests/host/lib/tap.sh
. "$root/tests/host/lib/tap.sh"
work=$PWD/bench-real
rm -rf "$work"
mkdir -p "$work"

# The namespace disk of the controller with serial $1.
disk_of() {
	local s
	s=$(grep -l "^$1 *$" /sys/block/nvme*/device/serial 2>/dev/null | head -n1)
	[ -n "$s" ] || return 1
	s=${s#/sys/block/}
	echo "/dev/${s%%/*}"
}
# Host and media bytes (log 22h, endurance group 1, bytes 15:0 and 31:16;
# the low 64 bits of each), read here, apart from real.sh's own reading.
stats() {
	nvme get-log "$1" --log-id=0x22 --lsi=1 --log-len=64 -b > "$work/stats.bin" &&
		echo "$(od -An -tu8 -j0 -N8 "$work/stats.bin" | tr -d ' ')" \
			"$(od -An -tu8 -j16 -N8 "$work/stats.bin" | tr -d ' ')"
}
real() { "$root/bench/femu/real.sh" "$@" > "$work/out" 2>&1; }

echo "1..7"
dev=$(disk_of qemu-bench) || dev=
plain=$(disk_of qemu-plain) || plain=
ctrl=
[ -z "$dev" ] || ctrl=/dev/$(basename "$(readlink -f "/sys/block/${dev#/dev/}/device")")
if [ -z "$dev" ] || [ -z "$plain" ] || ! before=$(stats "$ctrl"); then
	echo "Bail out! no namespace of qemu-bench ($dev) or qemu-plain ($plain), or no FDP statistics"
	exit 1
fi
export BUILD=$work/build

# Nothing is written unless the user says the data may go.
WIPE='' real -r 1 -w fio-randwrite "$dev"
rc=$?
ok=0
[ $rc != 0 ] && grep -q 'WIPE=yes' "$work/out" && [ "$(stats "$ctrl")" = "$before" ] && ok=1
result "refuses_without_wipe_yes" $ok "exit $rc, statistics $before -> $(stats "$ctrl")" "$(cat "$work/out")"

# vm.sh's scsi_debug disk (a disk with a device, as a namespace has).
other=/dev/ram0
[ -b /dev/sda ] && other=/dev/sda
WIPE=yes real -r 1 -w fio-randwrite "$other"
rc=$?
ok=0
[ $rc != 0 ] && grep -q 'not an NVMe namespace' "$work/out" && ok=1
result "refuses_a_disk_that_is_not_nvme" $ok "$other: exit $rc" "$(cat "$work/out")"

# A namespace without FDP has no statistics to divide: refused, not a
# row of zeros.
WIPE=yes real -r 1 -w fio-randwrite "$plain"
rc=$?
ok=0
[ $rc != 0 ] && grep -q 'no FDP statistics log page' "$work/out" && ok=1
result "refuses_a_namespace_without_fdp" $ok "exit $rc" "$(cat "$work/out")"

tsv=$work/real.tsv
WIPE=yes KERNEL_LABEL=smoke real -r 1 -w fio-randwrite -o "$tsv" "$dev"
rc=$?
after=$(stats "$ctrl")
result "runs_a_workload_to_the_end" $((rc == 0)) "exit $rc" "$(tail -n 30 "$work/out")"

# One row: run 1, fio-randwrite, the label, and the bytes of the measured
# part, which the device's own counters must cover.
row=$(awk -F'\t' 'NR > 1' "$tsv" 2>/dev/null)
IFS=$'\t' read -r r _ w k _ _ _ _ host media waf _ <<<"$row"
ok=0
[ "$(grep -c . <<<"$row")" = 1 ] && [ "$r" = 1 ] && [ "$w" = fio-randwrite ] &&
	[ "$k" = smoke ] && ok=1
result "records_one_row_per_run" $ok "table:" "$(cat "$tsv" 2>/dev/null)"

# Steady state as the benchmark defines it: the device filled, then a
# capacity of the workload's writes before the measured part, which is
# two capacities at least.
read -r h0 m0 <<<"$before"
read -r h1 m1 <<<"$after"
cap=$(($(cat "/sys/block/${dev#/dev/}/size") * 512))
ok=0
[ -n "$host" ] && [ "$host" -ge $((2 * cap)) ] &&
	[ "$host" -le $((h1 - h0 - 2 * cap)) ] && ok=1
result "measures_two_capacities_after_a_fill_and_a_warm_up" $ok \
	"capacity $cap, measured host bytes '$host', device host bytes $h0 -> $h1"

ok=0
[ -n "$after" ] && [ $((h1 - h0)) -gt 0 ] && [ $((m1 - m0)) = $((h1 - h0)) ] &&
	[ "$media" = "$host" ] && [ "$waf" = 1.0000 ] && ok=1
result "waf_is_1_on_a_device_without_garbage_collection" $ok \
	"device: host $h0 -> $h1, media $m0 -> $m1; row: host '$host' media '$media' waf '$waf'"
[ "$fails" = 0 ]
