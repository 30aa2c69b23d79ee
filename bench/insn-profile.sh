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
#   bench/insn-profile.sh        (NR_IOS, default 50000; APPEND for both
#                                 kernels' command line)
set -euo pipefail
export LC_ALL=C	# sort and join must agree on the order
. "$(dirname "$0")/../scripts/lib.sh"

n=${NR_IOS:-50000}
out=$BUILD/bench/profile
mkdir -p "$out"
"$ROOT/scripts/qemu.sh" >&2	# plugins need the headers of the QEMU that loads them
plugin=$out/insn-profile.so
# shellcheck disable=SC2046
cc -shared -fPIC -O2 -Wall -I"$BUILD/qemu/src/include/qemu" \
	$(pkg-config --cflags glib-2.0) "$ROOT/bench/insn-profile.c" \
	-o "$plugin" $(pkg-config --libs glib-2.0)

declare -A obj=([base]=$BUILD/obj-base [patched]=$OBJ)
for k in base patched; do
	[ -f "${obj[$k]}/arch/x86/boot/bzImage" ] ||
		die "no $k kernel in ${obj[$k]}: run scripts/bench-overhead.sh first"
	for m in 1 2; do
		log "$k kernel, $((m * n)) writes and reads"
		VM_QEMU=$BUILD/qemu/qemu-system-x86_64 \
		VM_QEMU_ARGS="-L /usr/share/qemu -L /usr/share/seabios -plugin $plugin,out=$out/$k-$m.blocks" \
			"$ROOT/scripts/vm.sh" --icount --kernel "${obj[$k]}/arch/x86/boot/bzImage" \
			--append "${APPEND:-}" --out "$out/vm-$k" --timeout 1200 -- \
			"$ROOT/scripts/guest/fio-count.sh" /dev/nullb0 $((m * n)) > /dev/null ||
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
for k in base patched; do
	for m in 1 2; do
		per_function "$out/$k-$m.blocks" "${obj[$k]}/System.map" > "$out/$k-$m.fn"
	done
	# per I/O: (2n - n boot) / (2n I/Os: n writes and n reads)
	join -a1 -a2 -e0 -o 0,1.2,2.2 "$out/$k-1.fn" "$out/$k-2.fn" |
		awk -v n="$n" '{ printf "%s %.2f\n", $1, ($3 - $2) / (2 * n) }' > "$out/$k.perio"
done

tsv=$BUILD/bench/profile.tsv
printf 'function\tbase\tpatched\tdelta\n' > "$tsv"
join -a1 -a2 -e0 -o 0,1.2,2.2 "$out/base.perio" "$out/patched.perio" |
	awk -v OFS='\t' '{ d = $3 - $2; if (d > 0.05 || d < -0.05) print $1, $2, $3, d }' |
	sort -t"$(printf '\t')" -k4,4gr >> "$tsv"
total() { awk '{ s += $2 } END { printf "%.1f", s }' "$1"; }
{
	echo "Guest kernel instructions per 4 KiB psync I/O on null_blk (writes and reads"
	echo "averaged; $n and $((2 * n)) of each, difference of two boots; QEMU 10 TCG"
	echo "with bench/insn-profile.c)${APPEND:+; kernel command line: $APPEND}"
	echo
	echo "total: base $(total "$out/base.perio"), patched $(total "$out/patched.perio")"
	echo
	echo "| function | base | patched | delta |"
	echo "|---|---|---|---|"
	awk -F'\t' 'NR > 1 && NR <= 16 { printf "| %s | %s | %s | %+.2f |\n", $1, $2, $3, $4 }' "$tsv"
} > "$BUILD/bench/profile.md"
cat "$BUILD/bench/profile.md"
