#!/bin/bash
# What the hint path costs: fio 4 KiB random I/O on null_blk, the patched
# kernel against the unpatched 7.3 base built from the same config, booted
# alternately in the same QEMU setup, REPS times each.
# Writes build/bench/overhead.txt (raw), overhead.tsv (per case: medians,
# spread, ratio) and overhead.md (table).
#
#   bench-overhead.sh [REPS]     (default 3; RUNTIME=seconds per fio job)
#
# By default QEMU counts instructions (vm.sh --icount): the guest clock
# advances 1 ns per guest instruction, so the IOPS fio reports are 10^9
# divided by the instructions the guest runs per I/O, whatever else the
# host is doing. Under plain TCG the spread between boots of one kernel
# (+-30 % on these machines) hides a 1 % cost; with instruction counting
# it is a fraction of a percent on null_blk, which completes every request
# in the guest. Not QEMU's NVMe by default: it completes requests in
# QEMU's own threads, in host time, so while the guest waits the clock
# jumps to the next guest timer (sleep=off), and its figures count timer
# ticks more than instructions (BENCH_DEVICES="nvme=/dev/nvme0n1" measures
# it anyway). ICOUNT=0 measures host time instead; BENCH_TIMEOUT (default
# 1800 s) limits one boot.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

reps=${1:-3}
# Two settings by default, each a boot of each kernel per rep. Where no
# device has write streams (scsi_debug.perm_streams=0), the series' code
# on the I/O path sits behind static keys that stay off: rows "nullb".
# Once one device has streams (scsi_debug's disk has five by
# default, as in 7.3), a device without them pays the inline tests of its
# own limit: rows "nullb-streams-elsewhere".
settings=("scsi_debug.perm_streams=0|nullb=/dev/nullb0"
	  "|nullb-streams-elsewhere=/dev/nullb0")
# BENCH_DEVICES="nullb=/dev/nullb0" and/or BENCH_APPEND (more kernel
# command line for both kernels) measure one setting instead: those
# devices, with 7.3's scsi_debug unless BENCH_APPEND says otherwise.
if [ -n "${BENCH_DEVICES:-}${BENCH_APPEND:-}" ]; then
	settings=("${BENCH_APPEND:-}|${BENCH_DEVICES:-nullb=/dev/nullb0}")
fi
out=$BUILD/bench
base_tree=$BUILD/linux-base
base_obj=$BUILD/obj-base
mkdir -p "$out"

# The base: the same tree at tag "base", same fragment less what the series
# adds to Kconfig.
if [ ! -d "$base_tree" ]; then
	git -C "$TREE" worktree add -q --detach "$base_tree" base
fi
frag=$out/base.config
fragment_for_tree "$base_tree" "$ROOT/kernel/streams.config" "$frag"
TREE=$base_tree FRAGMENT=$frag "$ROOT/scripts/build-kernel.sh" "$base_obj" >&2
# NO_BUILD=1: measure the patched kernel as built (while someone else may be
# building in the same tree).
[ "${NO_BUILD:-0}" = 1 ] || "$ROOT/scripts/build-kernel.sh" >&2

icount=--icount
clock="guest IOPS with 1 ns per instruction (vm.sh --icount)"
if [ "${ICOUNT:-1}" = 0 ]; then
	icount=
	clock="IOPS in host time (plain TCG)"
fi

raw=$out/overhead.txt
: > "$raw"
for rep in $(seq "$reps"); do
	for k in base patched; do
		kern=$OBJ/arch/x86/boot/bzImage
		[ $k = base ] && kern=$base_obj/arch/x86/boot/bzImage
		for setting in "${settings[@]}"; do
			append=${setting%%|*} devices=${setting#*|}
			log "rep $rep/$reps: $k kernel${append:+, $append}"
			# shellcheck disable=SC2086	# devices: one word each
			"$ROOT/scripts/vm.sh" $icount --kernel "$kern" --out "$out/vm-$k" \
				--append "$append" --timeout "${BENCH_TIMEOUT:-1800}" -- env RUNTIME="${RUNTIME:-3}" \
				"$ROOT/scripts/guest/bench-fio.sh" $devices > /dev/null ||
				die "benchmark VM failed; see $out/vm-$k/console.log"
			sed "s/^/$k $rep /" "$out/vm-$k/output.log" >> "$raw"
		done
	done
done

# Median, min and max per (device, engine, rw, jobs) and kernel; ratio of
# medians, and the range of ratios the spread allows (worst patched over
# best base to best patched over worst base).
tsv=$out/overhead.tsv
printf 'device\tengine\trw\tjobs\tbase_median\tbase_min\tbase_max\tpatched_median\tpatched_min\tpatched_max\tratio\tratio_low\tratio_high\n' > "$tsv"
awk '{ print $3, $4, $5, $6 }' "$raw" | sort -u | while read -r d e rw j; do
	stat() {
		awk -v k="$1" -v d="$d" -v e="$e" -v rw="$rw" -v j="$j" \
			'$1 == k && $3 == d && $4 == e && $5 == rw && $6 == j { print $7 }' "$raw" |
			sort -n | awk '{ v[NR] = $1 } END {
				m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
				printf "%d %d %d\n", m, v[1], v[NR] }'
	}
	read -r bm bl bh < <(stat base)
	read -r pm pl ph < <(stat patched)
	awk -v OFS='\t' -v d="$d" -v e="$e" -v rw="$rw" -v j="$j" \
		-v bm="$bm" -v bl="$bl" -v bh="$bh" -v pm="$pm" -v pl="$pl" -v ph="$ph" \
		'function r(a, b) { return b ? sprintf("%.4f", a / b) : 0 }
		BEGIN { print d, e, rw, j, bm, bl, bh, pm, pl, ph, r(pm, bm), r(pl, bh), r(ph, bl) }'
done >> "$tsv"

{
	echo "fio 4 KiB random I/O, $clock; $reps boot(s) per kernel and setting, alternating; RUNTIME=${RUNTIME:-3} s per job"
	for setting in "${settings[@]}"; do
		echo "- ${setting#*|}: kernel command line '${setting%%|*}'"
	done
	echo
	echo "| device | engine | rw | jobs | base IOPS median (min-max) | patched IOPS median (min-max) | patched/base | range |"
	echo "|---|---|---|---|---|---|---|---|"
	awk -F'\t' 'NR > 1 { printf "| %s | %s | %s | %s | %d (%d-%d) | %d (%d-%d) | %s | %s-%s |\n",
		$1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13 }' "$tsv"
	echo
	echo "range: worst patched over best base to best patched over worst base."
} > "$out/overhead.md"
cat "$out/overhead.md"
