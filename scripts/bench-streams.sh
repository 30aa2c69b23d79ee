#!/bin/bash
# What the derived write stream costs where it is used, in guest
# instructions per I/O: fio 4 KiB random writes on an nvmet loop namespace
# on a RAM disk (scripts/guest/bench-streams.sh), in one boot of the
# patched kernel under instruction counting, with streams
#   never  (no device with streams yet: the static keys are off),
#   on     (16 streams: every write derives one and carries it),
#   rate   (the same with write_stream_files "rate": files by write rate), and
#   off    (the same namespace, streams turned off at the host).
# Host driver and target run in the same guest, so a figure is the whole
# I/O; the differences between states are what the streams cost.
# Writes build/bench/streams.{txt,tsv,md}.
#
#   bench-streams.sh [REPS]      (default 2; RUNTIME=seconds per fio job)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

reps=${1:-2}
out=$BUILD/bench
mkdir -p "$out"
[ "${NO_BUILD:-0}" = 1 ] || "$ROOT/scripts/build-kernel.sh" >&2

raw=$out/streams.txt
: > "$raw"
for rep in $(seq "$reps"); do
	log "rep $rep/$reps: patched kernel, nvmet loop"
	"$ROOT/scripts/vm.sh" --icount --kernel "$OBJ/arch/x86/boot/bzImage" \
		--out "$out/vm-streams" --timeout 900 -- \
		env RUNTIME="${RUNTIME:-3}" NSTREAMS="${NSTREAMS:-16}" \
		"$ROOT/scripts/guest/bench-streams.sh" > /dev/null ||
		die "benchmark VM failed; see $out/vm-streams/console.log"
	# A state that ran no I/O, or not every state: stop, do not report.
	[ "$(awk 'NF == 5 && $5 > 0' "$out/vm-streams/output.log" | wc -l)" = 16 ] ||
		die "bench-streams: expected 16 results; see $out/vm-streams/output.log"
	sed "s/^/$rep /" "$out/vm-streams/output.log" >> "$raw"
done

# Instructions per I/O from the median IOPS (1 ns per instruction).
tsv=$out/streams.tsv
printf 'engine\trw\tjobs\tnever\ton\toff\ton_minus_off\toff_minus_never\trate\trate_minus_on\n' > "$tsv"
awk '{ print $3, $4, $5 }' "$raw" | sort -u | while read -r e rw j; do
	ipio() {	# state -> instructions per I/O at the median IOPS
		awk -v s="$1" -v e="$e" -v rw="$rw" -v j="$j" \
			'$2 == s && $3 == e && $4 == rw && $5 == j { print $6 }' "$raw" |
			sort -n | awk '{ v[NR] = $1 } END {
				m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
				printf "%.0f\n", 1e9 / m }'
	}
	nv=$(ipio never) on=$(ipio on) off=$(ipio off) rt=$(ipio rate)
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$e" "$rw" "$j" "$nv" "$on" "$off" \
		$((on - off)) $((off - nv)) "$rt" $((rt - on))
done >> "$tsv"

{
	echo "Guest instructions per 4 KiB random write on an nvmet loop namespace on"
	echo "brd (host driver and target in one guest; QEMU -icount, 1 ns per"
	echo "instruction; median of $reps boot(s), RUNTIME=${RUNTIME:-3} s per job, ${NSTREAMS:-16} streams)"
	echo
	echo "| engine | jobs | never | streams on | streams off | on - off | off - never | rate | rate - on |"
	echo "|---|---|---|---|---|---|---|---|---|"
	awk -F'\t' 'NR > 1 { printf "| %s | %s | %s | %s | %s | %+d | %+d | %s | %+d |\n",
		$1, $3, $4, $5, $6, $7, $8, $9, $10 }' "$tsv"
	echo
	echo "never: no device with streams had existed (static keys off);"
	echo "off: the same namespace with /sys/class/nvme/<ctrl>/streams = 0;"
	echo "rate: streams on with write_stream_files = rate."
} > "$out/streams.md"
cat "$out/streams.md"
