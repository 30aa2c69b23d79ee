#!/bin/bash
# Inside the VM of bench/femu/run.sh: find FEMU's FDP namespace (the
# controller whose model starts with FEMU: FEMU ignores QEMU's serial
# property and calls itself vSSD0), record what the kernel made of it, then either probe
# where writes land (WORKLOAD=probe) or measure one workload's write
# amplification in steady state.
#
#   guest.sh WORKLOAD WARM MEASURE
#     WORKLOAD  probe, or a script bench/femu/workloads/WORKLOAD.sh
#     WARM      device-capacity writes of the workload before measuring
#     MEASURE   device-capacity writes measured (at least 2 for a result)
#
# Writes into the current directory (vm.sh: /mnt/results): device.txt (the
# controller and namespace as nvme-cli and the kernel see them), and
# result.txt: one "key value" per line (phase bytes and wall times, waf).
# FDP statistics (log 22h, endurance group 1): Host Bytes with Metadata
# Written (bytes 15:0) and Media Bytes with Metadata Written (31:16).
set -euo pipefail
[ $# = 3 ] || { echo "usage: guest.sh WORKLOAD WARM MEASURE" >&2; exit 2; }
WL=$1 WARM=$2 MEASURE=$3
HERE=$(cd "$(dirname "$0")" && pwd)
BIN=$BUILD/femu/bin

# BENCH_DEV (bench/femu/real.sh): that namespace, a real SSD's, instead.
# NVMe scans namespaces asynchronously: wait for FEMU's (60 s at most).
ser=
[ -n "${BENCH_DEV:-}" ] && ser=/sys/block/${BENCH_DEV#/dev/}/device/model
for ((i = 0; i < 120 && ${#ser} == 0; i++)); do
	ser=$(grep -ls '^FEMU' /sys/block/nvme*/device/model | head -n1) || true
	[ -n "$ser" ] && break
	sleep 0.5
done
sleep 1
dmesg --notime > dmesg-boot.log 2>&1 || true
if [ -z "$ser" ]; then
	echo "no namespace of a FEMU controller; NVMe controllers:" >&2
	for c in /sys/class/nvme/nvme*; do
		echo "  ${c##*/}: serial '$(cat "$c/serial")', model '$(cat "$c/model")'," \
			"namespaces: $(cd "$c" && echo nvme*n* | tr -d '*')" >&2
	done
	exit 1
fi
disk=${ser#/sys/block/}; disk=${disk%%/*}
DEV=/dev/$disk
CTRL=/dev/$(basename "$(readlink -f "/sys/block/$disk/device")")
# A real SSD's admin commands go through its namespace (real.sh: with
# native multipath the disk's device is the subsystem).
[ -z "${BENCH_DEV:-}" ] || CTRL=$DEV
CAP=$(( $(cat "/sys/block/$disk/size") * 512 ))
export DEV CTRL CAP
# FEMU collects garbage before a command, never inside one: a command
# longer than the free units it keeps (6 here) fails with Capacity
# Exceeded once the device is full. Commands of at most 256 KiB (half a
# reclaim unit), on every kernel, keep within that. A real SSD is left as
# it is.
[ -n "${BENCH_DEV:-}" ] || echo 256 > "/sys/block/$disk/queue/max_sectors_kb"

# Low 64 bits of a 128-bit little-endian field at byte OFF of a raw log.
u64() { od -An -tu8 -j "$2" -N8 "$1" | tr -d ' '; }
fdp_stats() {	# prints "HBMW MBMW"
	nvme get-log "$CTRL" --log-id=0x22 --lsi=1 --log-len=64 -b > /tmp/stats.bin
	echo "$(u64 /tmp/stats.bin 0) $(u64 /tmp/stats.bin 16)"
}
# FEMU's Reclaim Unit Handle Usage log (21h): NRUHU (bytes 1:0), then
# descriptors of 24 bytes (nvme-cli expects the spec's 8 and misreads
# them): attributes (byte 0), 7 reserved, host bytes (8-15), media bytes
# (16-23). Prints one "handle host media" line per handle.
ruh_usage() {
	local n i
	nvme get-log "$CTRL" --log-id=0x21 --lsi=1 --log-len=$((8 + 24 * 64)) -b > /tmp/ruhu.bin
	n=$(od -An -tu2 -N2 /tmp/ruhu.bin | tr -d ' ')
	for ((i = 0; i < n; i++)); do
		echo "$i $(u64 /tmp/ruhu.bin $((8 + 24 * i + 8))) $(u64 /tmp/ruhu.bin $((8 + 24 * i + 16)))"
	done
}
now() { date +%s.%N; }

{
	echo "== $DEV on $CTRL: $(sed 's/ *$//' "/sys/block/$disk/device/model"), $CAP bytes"
	echo "== kernel $(uname -r)"
	q=/sys/block/$disk/queue
	echo "max_sectors_kb $(cat "$q/max_sectors_kb")"
	echo "max_write_streams $(cat "$q/max_write_streams" 2>/dev/null || echo -)"
	echo "write_stream_granularity $(cat "$q/write_stream_granularity" 2>/dev/null || echo -)"
	echo "== debugfs write_stream_map"
	cat "/sys/kernel/debug/block/$disk/write_stream_map" 2>&1 || true
	echo "== nvme id-ctrl (selected)"
	nvme id-ctrl "$CTRL" | grep -E '^(ver|ctratt|oacs|endgidmax|mn|sn) '
	echo "== nvme id-ns (selected)"
	nvme id-ns "$DEV" | grep -E '^(nsze|endgid|nvmsetid) '
	echo "== nvme fdp configs -e 1"
	nvme fdp configs "$CTRL" -e 1 2>&1 || true
	echo "== nvme fdp status"
	nvme fdp status "$DEV" 2>&1 || true
	echo "== dmesg: nvme, FDP, directives"
	grep -iE '^nvme|fdp|directive' dmesg-boot.log || true
} > device.txt 2>&1
cat device.txt

if [ "$WL" = probe ]; then
	# Where writes land: RUH usage before and after each write, by hand.
	# 8 MiB each, at distinct offsets.
	MB=$((1 << 20))
	show() {	# what: the handles whose host bytes grew, and by how much
		join <(echo "$1") <(echo "$2") | awk -v w="$3" '
			{ d = $4 - $2; if (d) s = s sprintf(" ruh%d+%dMiB", $1, d / 1048576) }
			END { printf "%-34s%s\n", w, s ? s : " (no handle grew)" }'
	}
	ns=$(cat "/sys/block/$disk/queue/max_write_streams" 2>/dev/null || echo 0)
	{
		echo "== where writes land (RUH usage log 21h, host bytes per handle)"
		for ((s = 0; s <= ns + 1; s++)); do
			a=$(ruh_usage)
			r=ok
			"$BIN/uring_write" "$DEV" "$s" $(((2 * s + 1) * 8 * MB)) $((8 * MB)) 2>&1 || r=failed
			show "$a" "$(ruh_usage)" "io_uring write_stream=$s ($r)"
		done
		off=$((200 * MB))
		for how in "plain dd" "ionice -c3 dd" "ionice -c1 dd"; do
			a=$(ruh_usage)
			cmd=(dd if=/dev/zero of="$DEV" bs=1M count=8 seek=$((off / MB)) oflag=direct status=none)
			case $how in
			"ionice -c3 dd") cmd=(ionice -c3 "${cmd[@]}") ;;
			"ionice -c1 dd") cmd=(ionice -c1 "${cmd[@]}") ;;
			esac
			"${cmd[@]}"
			show "$a" "$(ruh_usage)" "$how (derived)"
			off=$((off + 16 * MB))
		done
		echo "== nvme fdp stats -e 1"
		nvme fdp stats "$CTRL" -e 1
		echo "== RUH usage, decoded (handle host_bytes media_bytes)"
		ruh_usage
	} > probe.txt 2>&1
	cat probe.txt
	dmesg --notime > dmesg-end.log 2>&1 || true
	exit 0
fi

wl=$HERE/workloads/$WL.sh
[ -x "$wl" ] || { echo "no workload $wl" >&2; exit 2; }
phase() {	# NAME CMD...: run, record bytes and wall time of the phase
	local name=$1 t0 t1 h0 m0 h1 m1
	shift
	read -r h0 m0 < <(fdp_stats)
	t0=$(now)
	"$@"
	sync
	t1=$(now)
	read -r h1 m1 < <(fdp_stats)
	report "$name" "$h0" "$m0" "$t0" "$h1" "$m1" "$t1"
}
report() {	# NAME H0 M0 T0 H1 M1 T1
	echo "$1.host_bytes $(($5 - $2))"
	echo "$1.media_bytes $(($6 - $3))"
	echo "$1.secs $(echo "$7 - $4" | bc)"
	echo "$1.waf $(echo "scale=3; ($6 - $3) / ($5 - $2)" | bc)"
}
# The workload runs once, for WARM + MEASURE device capacities of host
# writes and a quarter more; the statistics are read every half second,
# and the first reading past WARM capacities starts the measured part,
# which ends when the workload has ended and its writes are synced. The
# quarter covers what the workload wrote past WARM before that reading,
# so the measured part is MEASURE capacities at least, or the run fails.
# A workload that keeps state (a file system, a database) thus stays in
# one steady run.
{
	echo "workload $WL"
	echo "capacity_bytes $CAP"
	echo "kernel $(uname -r)"
	echo "max_write_streams $(cat "/sys/block/$disk/queue/max_write_streams" 2>/dev/null || echo 0)"
	# TRACE=1: every request to the namespace from the series'
	# block_rq_hints event (bench/femu/sim-compare.sh replays it).
	T=/sys/kernel/tracing
	if [ "${TRACE:-0}" = 1 ]; then
		[ -e $T/events/block/block_rq_hints ] || { echo "TRACE=1: no block_rq_hints (not the series)" >&2; exit 1; }
		echo "devno $(tr : , < "/sys/block/$disk/dev")"
		echo 65536 > $T/buffer_size_kb
		echo > $T/trace
		echo 1 > $T/events/block/block_rq_hints/enable
	fi
	# The device filled first: one sequential pass over the namespace.
	phase fill fio --name=fill --filename="$DEV" --rw=write --bs=1M --direct=1 \
		--ioengine=io_uring --iodepth=8 --size=100% --output=/dev/null
	read -r h0 m0 < <(fdp_stats)
	t0=$(now)
	"$wl" "$DEV" $(((WARM + MEASURE) * CAP + CAP / 4)) > workload.log 2>&1 &
	pid=$!
	h1="" m1="" t1=""
	while kill -0 $pid 2>/dev/null; do
		if [ -z "$h1" ]; then
			read -r h m < <(fdp_stats)
			if [ $((h - h0)) -ge $((WARM * CAP)) ]; then
				h1=$h m1=$m t1=$(now)
				[ "${TRACE:-0}" = 1 ] && echo "femu: measure starts" > $T/trace_marker
			fi
		fi
		sleep 0.5
	done
	rc=0
	wait $pid || rc=$?
	sync
	t2=$(now)
	read -r h2 m2 < <(fdp_stats)
	if [ $rc != 0 ]; then
		# What the file system and the kernel saw: a full file system
		# and a device error look alike to the application.
		echo "workload_failed $rc"
		tail -n 20 workload.log >&2
		df -k "$DEV" >&2 || true	# the file system mounted from it
		dmesg --notime > dmesg-end.log 2>&1 || true
		exit 1
	fi
	[ -n "$h1" ] || { echo "workload_short: ended before $WARM capacities" >&2; exit 1; }
	[ $((h2 - h1)) -ge $((MEASURE * CAP)) ] || {
		echo "workload_short: measured $((h2 - h1)) bytes, under $MEASURE capacities" >&2
		exit 1
	}
	if [ "${TRACE:-0}" = 1 ]; then
		echo 0 > $T/events/block/block_rq_hints/enable
		cp $T/trace trace.raw
		echo "trace_lost $(cat $T/per_cpu/cpu*/stats | awk '/^(overrun|dropped events):/ { n += $NF } END { print n + 0 }')"
	fi
	report warm "$h0" "$m0" "$t0" "$h1" "$m1" "$t1"
	report measure "$h1" "$m1" "$t1" "$h2" "$m2" "$t2"
	# The spec's descriptor (8 bytes) has no byte counts: only FEMU's do.
	if [ -z "${BENCH_DEV:-}" ]; then
		echo "== RUH usage at the end (handle host_bytes media_bytes)" >&2
		ruh_usage | sed 's/^/ruh /'
	fi
} | tee result.txt
dmesg --notime > dmesg-end.log 2>&1 || true
