#!/bin/bash
# Writes to new blocks in the middle of the files range (patch 111,
# BIO_NEW_BLOCKS), tried in the simulator on the 4 KiB-block captures of
# 2026-12-05 (night) before the kernel had it; README, "New blocks in the
# middle". Not part of make bench: a record of how
# bench/results/v7-4k-new-blocks.tsv was made.
#
#   bench/results/v7-4k-new-blocks.sh RATE_TRACES ID_TRACES > v7-4k-new-blocks.tsv
# RATE_TRACES: the bench/waf.sh capture with FILES=rate (the eleven
# workloads and the two held out, pgbench-backup and pgbench-swap);
# ID_TRACES: the one with FILES=id (the eleven). Each workload is replayed
# as K = 1, 2, 4, 8, 16 and 32 copies (tenants.sh's large model, draws 1
# and 2, both GC destinations) under the simulator's "rate" (temp-int)
# and "rate" with --map-new-blocks 1; on RATE_TRACES also with new blocks
# on the first, second or last files stream instead of the middle (third
# of four), built from v7-4k-new-blocks-levels.diff (scratch, environment
# switches, in build/tried-sim-v7-levels), and the causal rivals of the
# held-out workloads (those of the eleven are in v7-4k-tenants*.tsv and
# v7-4k-id-tenants*.tsv).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$here/../.." && pwd)
. "$ROOT/scripts/lib.sh"
. "$ROOT/bench/replay-lib.sh"
rate_traces=$1 id_traces=$2
eleven="bgcopy dbench dbwal mixed mixed-nohints pgbench rocksdb rocksdb-nodiscard rocksdb-xfs swap varmail"
heldout="pgbench-backup pgbench-swap"
make -s -C "$ROOT/sim"
tried=$ROOT/build/tried-sim-v7-levels
# The scratch diff is against the simulator of 963f21a (before
# --map-new-blocks), the levels through OVW=0|1|3 (middle: 2).
tried_sim "$tried" "$here/v7-4k-new-blocks-levels.diff" 963f21a

sweep() {	# CAPTURE TRACES WORKLOADS POLICY [ftl-sim options]
	local cap=$1 traces=$2 wls=$3 name=$4 wl k s d w

	shift 4
	for wl in $wls; do
		for k in 1 2 4 8 16 32; do
			replay_setup "$traces" "$wl" 8 0.07 "$k"
			for s in 1 2; do
				for d in shared per-stream; do
					w=$(replay_copies_waf "$wl" 8 0.07 "$k" \
						"$d" "$s" "$@") || exit 1
					echo -e "$cap\t$wl\t$k\t$s\t$d\t$name\t$w"
				done
			done
		done
	done
}

rate=(--policy map --map-files temp-int)
echo -e "capture\tworkload\tcopies\tseed\tgc_dest\tpolicy\twaf"
for p in single lifetime fstream autostream; do
	sweep rate "$rate_traces" "$heldout" "$p" --policy "$p"
done
sweep rate "$rate_traces" "$eleven $heldout" rate "${rate[@]}"
sweep rate "$rate_traces" "$eleven $heldout" new-blocks "${rate[@]}" \
	--map-new-blocks 1
for lv in 0 1 3; do
	OVW=$lv FTL_SIM=$tried/ftl-sim sweep rate "$rate_traces" \
		"$eleven $heldout" "new-blocks-$lv" "${rate[@]}"
done
sweep id "$id_traces" "$eleven" rate "${rate[@]}"
sweep id "$id_traces" "$eleven" new-blocks "${rate[@]}" --map-new-blocks 1
