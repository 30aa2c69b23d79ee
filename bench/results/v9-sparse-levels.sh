#!/bin/bash
# Sparse files levels folded into the middle: a rule tried on the capture
# of the 112 patches (v8-nb, write_stream_files "rate", 8 streams) before
# the kernel has it; README, "Streams that do not earn their erase unit". Not
# part of make bench: a record of how bench/results/v9-sparse-levels.tsv
# was made.
#
#   bench/results/v9-sparse-levels.sh TRACES > v9-sparse-levels.tsv
# TRACES: the v8-nb capture (build/bench/traces-nb: the eleven workloads
# and the two held out). Each stream a device opens holds an erase block
# (a reclaim unit) until it fills; RocksDB's WAL tail rewrites, a few
# hundred pages a copy, took the first and second files streams and lost
# it its K = 16 and 32 comparisons (README). The rule: a files level
# written less than the stream granularity G per window (the rate
# half-life, an eighth of the capacity rounded down to a power of two: 16
# MiB of writes on the 128 MiB capture) sends rate's writes to the middle
# of the range, where new blocks go, until it is written that much again.
# Two forms (fold() below): the last window alone, tried first, and the
# sectors halved each window, which the kernel took (patch 114) after
# this record showed the first losing pgbench or pgbench-backup (held
# out) at K = 32. Folding does not change the counts, so each form is
# exactly a relabelling of what the kernel placed, copy by copy, before
# the copies are laid side by side. G = 256 KiB is the model's erase
# block on the 128 MiB device (1/512 of it, as at every K); G = 1 MiB is
# what our nvmet states (SWS 32 KiB x SGS 32) and so what the kernel used
# in the capture of patch 114. Each relabelled capture is replayed as
# the "kernel" policy of tenants.sh: K = 1 to 32 copies, draws 1 and 2,
# both GC destinations.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$here/../.." && pwd)
. "$ROOT/scripts/lib.sh"
. "$ROOT/bench/replay-lib.sh"
traces=$1
workloads="bgcopy dbench dbwal mixed mixed-nohints pgbench pgbench-backup pgbench-swap rocksdb rocksdb-nodiscard rocksdb-xfs swap varmail"
make -s -C "$ROOT/sim"

# fold FORM G: a replay (files streams 5..8 of 8, middle 7) relabelled by
# the rule; W records are "W sector sectors class hint file stream". A
# level counts every write that lands on it (those of no file, and the
# lifetime hints that share the range on 8 streams, too) and is folded
# for writes that rate placed by file. FORM "window": a level is sparse
# if it got less than G in the last window alone (tried first); "halved":
# its sectors halved each window stay below 2 G, as the kernel's
# blk_file_rates_slot() keeps them (integer halving included).
fold() {
	awk -v form="$1" -v g="$2" -v win=32768 '
	BEGIN { lo = 5; mid = 7 }
	$1 == "W" {
		w = int(now / win)
		while (cur < w) {
			for (l = 0; l < 4; l++) {
				if (form == "window")
					sparse[l] = cur + 1 < w || sectors[l] < g
				else {
					recent[l] = int(recent[l] / 2) + sectors[l]
					sparse[l] = recent[l] < 2 * g
				}
				sectors[l] = 0
			}
			cur++
		}
		now += $3
		if ($7 >= lo) {
			sectors[$7 - lo] += $3
			if ($5 < 2 && $6 != "00000000" && $7 != mid &&
			    sparse[$7 - lo])
				$7 = mid
		}
	}
	{ print }'
}

echo -e "workload\tcopies\tseed\tgc_dest\tpolicy\twaf"
for form in window halved; do
for g in 512 2048; do
	dir=$ROOT/build/tried-sparse-$form-$g
	rm -rf "$dir" && mkdir -p "$dir"
	for wl in $workloads; do
		cp "$traces/$wl-8.fill.trace" "$dir/"
		fold "$form" "$g" < "$traces/$wl-8.replay" > "$dir/$wl-8.replay"
	done
	for wl in $workloads; do
		for k in 1 2 4 8 16 32; do
			replay_setup "$dir" "$wl" 8 0.07 "$k"
			for s in 1 2; do
				for d in shared per-stream; do
					w=$(replay_copies_waf "$wl" 8 0.07 "$k" \
						"$d" "$s" --policy kernel) || exit 1
					echo -e "$wl\t$k\t$s\t$d\t$form-$((g / 2))k\t$w"
				done
			done
		done
	done
done
done
