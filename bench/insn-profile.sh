#!/bin/bash
# Where the series' instructions per I/O go, function by function: each
# kernel (the base and the series, as built by scripts/bench-overhead.sh
# and scripts/build-kernel.sh) runs NR_IOS and then 2 x NR_IOS 4 KiB
# direct writes and as many reads on null_blk, under QEMU 10 with
# bench/insn-profile.c counting every kernel instruction per translation
# block (under -icount, so that boot-time delay loops do not vary). The
# difference between the two boots of one kernel is what
# NR_IOS writes and NR_IOS reads cost, without boot and fio start-up;
# blocks are attributed to functions with the kernel's System.map.
# Writes build/bench/profile.tsv (function, base, patched, delta: guest
# instructions per I/O, writes and reads averaged) and prints the top.
#
# PROFILE=rate profiles the series against itself instead: the same kernel
# writing NR_IOS and 2 x NR_IOS 4 KiB random direct writes on an nvmet loop
# namespace with 16 streams (scripts/guest/fio-count-streams.sh), once with
# the queue's write_stream_files "id" and once "rate", so that the delta is
# what counting each write's file rate costs per write, by function. The
# loop transport's work items make whole-run counts noisy (README, "What
# the mapping costs where it is used"); the I/O path's own functions are
# counted exactly. Writes build/bench/profile-rate.{tsv,md}. PROFILE=derive
# is the same with streams turned off at the host against "id": what the
# derivation of a stream costs a write on a device with streams (writes
# build/bench/profile-derive.{tsv,md}).
#
#   bench/insn-profile.sh        (NR_IOS, default 50000; APPEND for both
#                                 kernels' command line; PROFILE)
set -euo pipefail
export LC_ALL=C	# sort and join must agree on the order
. "$(dirname "$0")/../scripts/lib.sh"

n=${NR_IOS:-50000}
mode=${PROFILE:-series}
case $mode in
series) out=$BUILD/bench/profile name=profile runs="base patched" ;;
rate) out=$BUILD/bench/profile-rate name=profile-rate runs="id rate" ;;
derive) out=$BUILD/bench/profile-derive name=profile-derive runs="off id" ;;
*) die "PROFILE: series, rate or derive" ;;
esac
mkdir -p "$out"
"$ROOT/scripts/qemu.sh" >&2	# plugins need the headers of the QEMU that loads them
plugin=$out/insn-profile.so
# shellcheck disable=SC2046
cc -shared -fPIC -O2 -Wall -I"$BUILD/qemu/src/include/qemu" \
	$(pkg-config --cflags glib-2.0) "$ROOT/bench/insn-profile.c" \
	-o "$plugin" $(pkg-config --libs glib-2.0)

declare -A obj=([base]=$BUILD/obj-base [patched]=$OBJ [id]=$OBJ [rate]=$OBJ [off]=$OBJ)
# What one run does with M times NR_IOS I/Os, in the array cmd.
guest() {	# run M
	case $mode in
	series) cmd=("$ROOT/scripts/guest/fio-count.sh" /dev/nullb0 $(($2 * n))) ;;
	rate|derive) cmd=("$ROOT/scripts/guest/fio-count-streams.sh" "$1" $(($2 * n))) ;;
	esac
}
for k in $runs; do
	[ -f "${obj[$k]}/arch/x86/boot/bzImage" ] ||
		die "no kernel in ${obj[$k]}: run scripts/bench-overhead.sh first"
	for m in 1 2; do
		guest "$k" $m
		log "$k: ${cmd[*]}"
		VM_QEMU=$BUILD/qemu/qemu-system-x86_64 \
		VM_QEMU_ARGS="-L /usr/share/qemu -L /usr/share/seabios -plugin $plugin,out=$out/$k-$m.blocks" \
			"$ROOT/scripts/vm.sh" --icount --kernel "${obj[$k]}/arch/x86/boot/bzImage" \
			--append "${APPEND:-}" --out "$out/vm-$k" --timeout 1200 -- \
			"${cmd[@]}" > /dev/null ||
			die "profile VM failed; see $out/vm-$k/console.log"
	done
done

# Instructions per function: merge the blocks with the symbols by address
# (all 16 hex digits, so string order is address order) and give each
# block to the symbol before it.
per_function() {	# blocks System.map
	{ awk '{ printf "%016s 1 %s %s\n", $1, $2, $3 }' "$1"
	  awk '$2 ~ /^[tTwW]$/ { print $1, 0, $3 }' "$2"; } |
		sort -k1,1 -k2,2n |
		awk '$2 == 0 { fn = $3; next } { c[fn] += $3 * $4 } END { for (f in c) print f, c[f] }' |
		sort
}
# I/Os per run of NR_IOS: writes and reads, or writes only.
per=2
[ "$mode" = series ] || per=1
for k in $runs; do
	for m in 1 2; do
		per_function "$out/$k-$m.blocks" "${obj[$k]}/System.map" > "$out/$k-$m.fn"
	done
	# per I/O: (2n - n boot) / (the n I/Os more: n writes and n reads,
	# or n writes)
	join -a1 -a2 -e0 -o 0,1.2,2.2 "$out/$k-1.fn" "$out/$k-2.fn" |
		awk -v n="$n" -v per=$per '{ printf "%s %.2f\n", $1, ($3 - $2) / (per * n) }' > "$out/$k.perio"
done

set -- $runs
tsv=$BUILD/bench/$name.tsv
printf 'function\t%s\t%s\tdelta\n' "$1" "$2" > "$tsv"
join -a1 -a2 -e0 -o 0,1.2,2.2 "$out/$1.perio" "$out/$2.perio" |
	awk -v OFS='\t' '{ d = $3 - $2; if (d > 0.05 || d < -0.05) print $1, $2, $3, d }' |
	sort -t"$(printf '\t')" -k4,4gr >> "$tsv"
total() { awk '{ s += $2 } END { printf "%.1f", s }' "$1"; }
{
	case $mode in
	series)
	echo "Guest kernel instructions per 4 KiB psync I/O on null_blk (writes and reads"
	echo "averaged; $n and $((2 * n)) of each, difference of two boots; QEMU 10 TCG"
	echo "with bench/insn-profile.c)${APPEND:+; kernel command line: $APPEND}" ;;
	rate|derive)
	echo "Guest kernel instructions per 4 KiB psync random write on an nvmet loop"
	echo "namespace with 16 streams, $1 against $2 (off: streams turned off at the"
	echo "host; id and rate: write_stream_files; the series in both; $n and"
	echo "$((2 * n)) writes, difference of two boots; QEMU 10 TCG with"
	echo "bench/insn-profile.c)${APPEND:+; kernel command line: $APPEND}" ;;
	esac
	echo
	echo "total: $1 $(total "$out/$1.perio"), $2 $(total "$out/$2.perio")"
	echo
	echo "| function | $1 | $2 | delta |"
	echo "|---|---|---|---|"
	awk -F'\t' 'NR > 1 && NR <= 16 { printf "| %s | %s | %s | %+.2f |\n", $1, $2, $3, $4 }' "$tsv"
} > "$BUILD/bench/$name.md"
cat "$BUILD/bench/$name.md"
