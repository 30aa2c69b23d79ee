#!/bin/bash
# What the hint path costs: fio 4 KiB random I/O on null_blk, the patched
# kernel against the unpatched 6.12 base built from the same config, booted
# alternately in the same QEMU setup, REPS times each.
# Writes build/bench/overhead.txt (raw) and build/bench/overhead.md (table).
#
#   bench-overhead.sh [REPS]     (default 3; RUNTIME=seconds per fio job)
#
# By default QEMU counts instructions (vm.sh --icount): the guest clock
# advances 1 ns per guest instruction, so the IOPS fio reports are 10^9
# divided by the instructions the guest runs per I/O, whatever else the
# host is doing. Under plain TCG the spread between boots of one kernel
# (+-30 % on these machines) hides a 1 % cost; with instruction counting
# it is a fraction of a percent. ICOUNT=0 measures host time instead.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

reps=${1:-3}
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
		log "rep $rep/$reps: $k kernel"
		"$ROOT/scripts/vm.sh" $icount --kernel "$kern" --out "$out/vm-$k" \
			--timeout 900 -- env RUNTIME="${RUNTIME:-3}" \
			"$ROOT/scripts/guest/bench-nullblk.sh" > /dev/null ||
			die "benchmark VM failed; see $out/vm-$k/console.log"
		sed "s/^/$k $rep /" "$out/vm-$k/output.log" >> "$raw"
	done
done

# Median, min and max per (engine, rw, jobs) and kernel; ratio of medians.
{
	echo "fio 4 KiB random I/O on null_blk, $clock; $reps boot(s) per kernel, alternating; RUNTIME=${RUNTIME:-3} s per job"
	echo
	echo "| engine | rw | jobs | base IOPS median (min-max) | patched IOPS median (min-max) | patched/base |"
	echo "|---|---|---|---|---|---|"
	awk '{ print $3, $4, $5 }' "$raw" | sort -u | while read -r e rw j; do
		stat() {
			awk -v k="$1" -v e="$e" -v rw="$rw" -v j="$j" \
				'$1 == k && $3 == e && $4 == rw && $5 == j { print $6 }' "$raw" |
				sort -n | awk '{ v[NR] = $1 } END {
					m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
					printf "%d %d %d\n", m, v[1], v[NR] }'
		}
		read -r bm bl bh < <(stat base)
		read -r pm pl ph < <(stat patched)
		ratio=$(awk -v p="$pm" -v b="$bm" 'BEGIN { printf "%.4f", b ? p / b : 0 }')
		echo "| $e | $rw | $j | $bm ($bl-$bh) | $pm ($pl-$ph) | $ratio |"
	done
} > "$out/overhead.md"
cat "$out/overhead.md"
