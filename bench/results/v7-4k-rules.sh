#!/bin/bash
# Placement rules replayed on the 4 KiB-block capture of 2026-12-05
# (night) in the large model; README, "ext4 on 4 KiB blocks". Not part of
# make bench: a record of how bench/results/v7-4k-rules.tsv was made.
#
#   [WORKLOADS=...] bench/results/v7-4k-rules.sh TRACES > v7-4k-rules.tsv
# TRACES: a bench/waf.sh capture (STREAMS=8 FILES=rate). Each workload is
# replayed as 32 copies (draws 1 and 2, both GC destinations) under the
# causal rivals, the kernel's streams as captured, the oracle, the
# simulator's copy of "rate" (temp-int) and the rules tried:
#   no-files       class and lifetime streams, all other data on one
#   jhot           the journal with the hottest files (no stream of its
#                  own; background, metadata, paging, realtime keep theirs)
#   new-alloc-hot, new-alloc-cold
#                  a write to a page that its file did not write last (a
#                  new allocation, as the file system knows it) on the
#                  first or the last stream of the files range, outside
#                  the rate counts; overwrites by rate
#   new-file-mid   a file with no count yet starts a level below the
#                  hottest instead of at the coldest
#   overwriters    only files seen overwriting a page they wrote are
#                  spread by rate; the others share the first files
#                  stream, as no-files puts all of them
# The last four need v7-4k-rules.diff (scratch, environment switches),
# built in build/tried-sim-v7.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$here/../.." && pwd)
. "$ROOT/scripts/lib.sh"
. "$ROOT/bench/replay-lib.sh"
traces=$1
make -s -C "$ROOT/sim"
sim=$ROOT/build/tried-sim-v7
# The diff is against the simulator of b269d52, with which it ran.
tried_sim "$sim" "$here/v7-4k-rules.diff" b269d52

run() {	# BINARY WL SEED DEST [ftl-sim options]: one WAF
	local bin=$1 wl=$2 s=$3 d=$4

	shift 4
	"$bin" --trace "$replay" --logical-pages "$model_pages" \
		--op 0.07 --streams 8 --block-pages 2048 \
		--warmup-pages "$warm" --gc greedy --gc-dest "$d" \
		--replicas 32 --replica-head "$head" --replica-files distinct \
		--replica-seed "$s" "$@" | awk '$1 == "waf" { print $2 }'
}

stock=$ROOT/sim/ftl-sim
rate=(--policy map --map-files temp-int)
echo -e "workload\tseed\tgc_dest\tpolicy\twaf"
for wl in ${WORKLOADS:-$(replay_workloads "$traces" 8)}; do
	replay_setup "$traces" "$wl" 8 0.07 32
	for s in 1 2; do
		for d in shared per-stream; do
			for p in single lifetime fstream autostream kernel oracle; do
				echo -e "$wl\t$s\t$d\t$p\t$(run "$stock" "$wl" "$s" "$d" --policy "$p")"
			done
			echo -e "$wl\t$s\t$d\ttemp-int\t$(run "$stock" "$wl" "$s" "$d" "${rate[@]}")"
			echo -e "$wl\t$s\t$d\tno-files\t$(run "$stock" "$wl" "$s" "$d" --policy map --map-files none)"
			echo -e "$wl\t$s\t$d\tjhot\t$(run "$stock" "$wl" "$s" "$d" "${rate[@]}" --map-classes background,metadata,paging,realtime)"
			echo -e "$wl\t$s\t$d\tnew-alloc-hot\t$(OVW=0 run "$sim/ftl-sim" "$wl" "$s" "$d" "${rate[@]}")"
			echo -e "$wl\t$s\t$d\tnew-alloc-cold\t$(OVW=3 run "$sim/ftl-sim" "$wl" "$s" "$d" "${rate[@]}")"
			echo -e "$wl\t$s\t$d\tnew-file-mid\t$(NEWLVL=1 run "$sim/ftl-sim" "$wl" "$s" "$d" "${rate[@]}")"
			echo -e "$wl\t$s\t$d\toverwriters\t$(OVWF=0 run "$sim/ftl-sim" "$wl" "$s" "$d" "${rate[@]}")"
		done
	done
done
