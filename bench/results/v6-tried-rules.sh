#!/bin/bash
# The placement rules tried on the large model on 2026-12-05 (evening) and
# not kept; README, "Rules tried on the large model". Not part of make
# bench: a record of how bench/results/v6-tried-rules.tsv was made.
#
#   [WORKLOADS=...] bench/results/v6-tried-rules.sh TRACES > v6-tried-rules.tsv
# TRACES: a bench/waf.sh capture (STREAMS=8 FILES=rate). Builds the
# simulator with v6-tried-rules.diff in build/tried-sim (environment
# switches, scratch code), then replays each workload as the large model
# (32 copies, draws 1 and 2, both GC destinations) under the causal
# rivals, the kernel's streams as captured, the simulator's copy of
# "rate" (temp-int) and the rules tried:
#   journal-in-files    the journal as one more file (an ID per copy's
#                       journal), placed by rate in the files range; the
#                       class streams are background, metadata, paging,
#                       realtime
#   no-files            class and lifetime streams, all other data on one
#   by-tenant           a stream per copy (copy modulo the streams)
#   files-by-tenant     class and lifetime streams, files by copy
#   classes+autostream  journal, metadata and paging on streams of their
#                       own, the rest by AutoStream over the other five
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$here/../.." && pwd)
. "$ROOT/scripts/lib.sh"
. "$ROOT/bench/replay-lib.sh"
traces=$1
sim=$ROOT/build/tried-sim
# The diff is against the simulator of e386ac7, with which it ran.
tried_sim "$sim" "$here/v6-tried-rules.diff" e386ac7
jtraces=$ROOT/build/tried-traces
mkdir -p "$jtraces"

run() {	# TRACES WL SEED DEST [ftl-sim options]: one WAF
	local t=$1 wl=$2 s=$3 d=$4

	shift 4
	replay_setup "$t" "$wl" 8 0.07 32
	"$sim/ftl-sim" --trace "$replay" --logical-pages "$model_pages" \
		--op 0.07 --streams 8 --block-pages 2048 \
		--warmup-pages "$warm" --gc greedy --gc-dest "$d" \
		--replicas 32 --replica-head "$head" --replica-files distinct \
		--replica-seed "$s" "$@" | awk '$1 == "waf" { print $2 }'
}

echo -e "workload\tseed\tgc_dest\tpolicy\twaf"
for wl in ${WORKLOADS:-$(replay_workloads "$traces" 8)}; do
	# The journal's writes with a file ID of their own (copies draw
	# theirs from it, as for every file).
	awk '$1 == "W" && $4 == "transaction" { $6 = "0000ffff" } { print }' \
		"$traces/$wl-8.replay" > "$jtraces/$wl-8.replay"
	cp "$traces/$wl-8.fill.trace" "$jtraces/$wl-8.fill.trace"
	for s in 1 2; do
		for d in shared per-stream; do
			for p in single lifetime fstream autostream kernel oracle; do
				echo -e "$wl\t$s\t$d\t$p\t$(run "$traces" "$wl" "$s" "$d" --policy "$p")"
			done
			echo -e "$wl\t$s\t$d\ttemp-int\t$(run "$traces" "$wl" "$s" "$d" --policy map --map-files temp-int)"
			echo -e "$wl\t$s\t$d\tjournal-in-files\t$(run "$jtraces" "$wl" "$s" "$d" --policy map --map-files temp-int --map-classes background,metadata,paging,realtime)"
			echo -e "$wl\t$s\t$d\tno-files\t$(run "$traces" "$wl" "$s" "$d" --policy map --map-files none)"
			echo -e "$wl\t$s\t$d\tby-tenant\t$(TENANT=1 run "$traces" "$wl" "$s" "$d" --policy map)"
			echo -e "$wl\t$s\t$d\tfiles-by-tenant\t$(TENANT=2 run "$traces" "$wl" "$s" "$d" --policy map)"
			echo -e "$wl\t$s\t$d\tclasses+autostream\t$(CLASSAS=1 run "$traces" "$wl" "$s" "$d" --policy autostream)"
		done
	done
done
