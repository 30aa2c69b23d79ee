#!/bin/bash
# How much of a difference between two policies in the large model is the
# arrangement's. The large model replays a capture as 32 copies, each
# starting at its own point of the trace; which lifetimes meet in an erase
# block depends on where the copies start, so one replay is one draw. This
# replays every workload of a bench/waf.sh capture under SEEDS draws
# (ftl-sim --replica-seed 1..SEEDS: other starting points, and other file
# IDs for the copies) and compares the policies draw by draw: the same
# draw is the same workload for every policy, so the comparison is paired.
# The draws' starting points are independent, so a draw may put two copies
# close together (for pgbench's trace, two on the same record in about one
# draw in fifty), nearer lockstep than bench/waf.sh's even spacing.
#
#   spread.sh
# Environment: TRACES (build/bench/traces), WORKLOADS (every
# <workload>-<STREAMS>.replay there), STREAMS (8), SEEDS (8), GC_DEST
# (shared or per-stream; shared), OP (0.07, as bench/waf.sh).
# Writes build/bench/spread[-per-stream].tsv (workload streams policy seed
# gc_dest waf) and .md: per workload and policy the mean WAF over the
# draws with its lowest and highest, and on how many draws the series
# (kernel: the streams as captured) is at most every causal rival's.
set -euo pipefail
. "$(dirname "$0")/../scripts/lib.sh"
. "$(dirname "$0")/replay-lib.sh"

n=${STREAMS:-8}
replay_settings spread 8
k=32			# bench/waf.sh's large model: 32 copies, 8 MiB blocks
block_pages=2048
tsv=$out/$name.tsv
# id: the folding by file ID with each copy's IDs its own, next to the
# kernel's streams as captured (with FILES=rate: by rate).
policies="single lifetime fstream autostream kernel id oracle"

replay_prepare "$traces" "$n"

# One replay: the WAF of POLICY under draw SEED.
waf() {
	local p=$1 seed=$2 args

	case $p in
	id) args="--policy map" ;;
	*) args="--policy $p" ;;
	esac
	# shellcheck disable=SC2086
	replay_waf "$replay" "$n" "$op" $block_pages "$dest" $args \
		--replicas $k --replica-head "$head" \
		--replica-files distinct --replica-seed "$seed"
}

echo -e "workload\tstreams\tpolicy\tseed\tgc_dest\twaf" > "$tsv"
for wl in $WORKLOADS; do
	replay_setup "$traces" "$wl" "$n" "$op" $k
	log "$wl: $seeds draws, GC destination $dest"
	for s in $(seq 1 "$seeds"); do
		for p in $policies; do
			w=$(waf "$p" "$s")
			[ -n "$w" ] || die "$wl, $p, seed $s: the simulator failed"
			echo -e "$wl\t$n\t$p\t$s\t$dest\t$w" >> "$tsv"
		done
	done
done

awk -F'\t' -v pols="$policies" -v dest="$dest" -v seeds="$seeds" '
	NR == 1 { next }
	{ if (!seen[$1]++) order[++nw] = $1
	  w[$1, $3, $4] = $6; sum[$1, $3] += $6; cnt[$1, $3]++
	  if (!(($1, $3) in lo) || $6 < lo[$1, $3]) lo[$1, $3] = $6
	  if (!(($1, $3) in hi) || $6 > hi[$1, $3]) hi[$1, $3] = $6 }
	function cell(wl, p) {
		return sprintf("%.3f (%.3f-%.3f)", sum[wl, p] / cnt[wl, p],
			       lo[wl, p], hi[wl, p])
	}
	END {
		np = split(pols, p, " ")
		nr = split("single lifetime fstream autostream", rival, " ")
		printf "WAF over %d draws of the large model (32 copies, 4 GiB, 8 MiB blocks, op 7%%, greedy GC, %s GC destination, copies with file IDs of their own): mean (lowest-highest)\n\n", seeds, dest
		printf "| workload |"
		for (i = 1; i <= np; i++) printf " %s |", p[i]
		printf " draws where kernel <= every causal rival | kernel minus the best causal rival, mean (lowest-highest) |\n|---|"
		for (i = 1; i <= np; i++) printf "---|"
		printf "---|---|\n"
		for (j = 1; j <= nw; j++) {
			wl = order[j]
			printf "| %s |", wl
			for (i = 1; i <= np; i++) printf " %s |", cell(wl, p[i])
			won = 0; dsum = 0; dlo = ""; dhi = ""
			for (s = 1; s <= cnt[wl, "kernel"]; s++) {
				best = ""
				for (r = 1; r <= nr; r++)
					if (best == "" || w[wl, rival[r], s] < best)
						best = w[wl, rival[r], s]
				d = w[wl, "kernel", s] - best
				if (d <= 0) won++
				dsum += d
				if (dlo == "" || d < dlo) dlo = d
				if (dhi == "" || d > dhi) dhi = d
			}
			printf " %d of %d | %+.3f (%+.3f to %+.3f) |\n", won,
				cnt[wl, "kernel"], dsum / cnt[wl, "kernel"], dlo, dhi
		}
	}' "$tsv" > "$out/$name.md"
cat "$out/$name.md"
