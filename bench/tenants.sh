#!/bin/bash
# How the comparison of policies changes with the number of tenants on the
# device. The large model replays a capture as 32 copies side by side: 32
# file systems, each with its own journal and files, writing into 8
# streams. This replays every workload of a bench/waf.sh capture as K
# copies for K in TENANTS, on a device of K times the small model's 128
# MiB with erase blocks of K times its 256 KiB, so that every K has the
# same number of blocks (about 550) and the same over-provisioning, and
# only the number of tenants that share each stream grows. K = 32 is the
# large model (the same replay as bench/spread.sh's draw of the same
# seed); K = 1 is one copy on the small model's device, started at a
# drawn point of its trace as every copy of a draw is.
#
#   tenants.sh
# Environment: TRACES (build/bench/traces), WORKLOADS (every
# <workload>-<STREAMS>.replay there), STREAMS (8), TENANTS ("1 2 4 8 16
# 32"), SEEDS (1: draws per K, ftl-sim --replica-seed 1..SEEDS), GC_DEST
# (shared or per-stream; shared), OP (0.07, as bench/waf.sh).
# Writes build/bench/tenants[-per-stream].tsv (workload streams copies
# policy seed gc_dest waf) and .md: per workload and K the series' mean
# WAF (kernel: the streams as captured), the best causal rival's, and on
# how many draws the series is at most every causal rival's; and .png
# (with gnuplot, from .dat): the series' mean minus the best causal
# rival's against K, a line per workload.
set -euo pipefail
. "$(dirname "$0")/../scripts/lib.sh"
. "$(dirname "$0")/replay-lib.sh"

n=${STREAMS:-8}
replay_settings tenants 1
replay_tenants "1 2 4 8 16 32"
tsv=$out/$name.tsv
policies="single lifetime fstream autostream kernel oracle"

replay_prepare "$traces" "$n"

# shellcheck disable=SC2086
replay_copies_tsv "$tsv" "$traces" "$n" "$op" "$dest" "$seeds" "$tenants" \
	$policies

# The table (.md), and for the plot (.dat) per K the series' mean minus
# the best causal rival's mean, from the same means.
awk -F'\t' -v dest="$dest" -v seeds="$seeds" -v ks="$tenants" \
	-v dat="$out/$name.dat" '
	NR == 1 { next }
	{ if (!seen[$1]++) order[++nw] = $1
	  w[$1, $3, $4, $5] = $7; sum[$1, $3, $4] += $7; cnt[$1, $3, $4]++ }
	function mean(wl, c, p) { return sum[wl, c, p] / cnt[wl, c, p] }
	END {
		nk = split(ks, k, " ")
		nr = split("single lifetime fstream autostream", rival, " ")
		printf "The series (kernel) against the best causal rival (single, lifetime, fstream, autostream) with K copies of each capture on K x 128 MiB, erase blocks of K x 256 KiB (the same ~550 blocks for every K), op 7%%, greedy GC, %s GC destination, copies with file IDs of their own; mean of %d draw(s). Cell: kernel / best rival (its name), and the draws where kernel <= every causal rival. K = 32 is the large model; K = 1 one copy on the small model'"'"'s device, started at a drawn point of its trace.\n\n", dest, seeds
		printf "| workload |"
		for (i = 1; i <= nk; i++) printf " K = %s |", k[i]
		printf "\n|---|"
		for (i = 1; i <= nk; i++) printf "---|"
		printf "\n"
		for (j = 1; j <= nw; j++) {
			wl = order[j]
			printf "| %s |", wl
			for (i = 1; i <= nk; i++) {
				c = k[i]; best = ""; bname = ""
				for (r = 1; r <= nr; r++) {
					m = mean(wl, c, rival[r])
					if (best == "" || m < best) { best = m; bname = rival[r] }
				}
				diff[wl, c] = mean(wl, c, "kernel") - best
				won = 0
				for (s = 1; s <= cnt[wl, c, "kernel"]; s++) {
					ok = 1
					for (r = 1; r <= nr; r++)
						if (w[wl, c, "kernel", s] > w[wl, c, rival[r], s]) ok = 0
					won += ok
				}
				printf " %.3f / %.3f (%s), %d of %d |",
					mean(wl, c, "kernel"), best, bname, won,
					cnt[wl, c, "kernel"]
				if (won == cnt[wl, c, "kernel"]) met[c]++
			}
			printf "\n"
		}
		printf "| **meets the goal on every draw** |"
		for (i = 1; i <= nk; i++) printf " %d of %d |", met[k[i]], nw
		printf "\n"

		printf "\"K\"" > dat
		for (j = 1; j <= nw; j++) printf " \"%s\"", order[j] > dat
		printf "\n" > dat
		for (i = 1; i <= nk; i++) {
			printf "%s", k[i] > dat
			for (j = 1; j <= nw; j++)
				printf " %.4f", diff[order[j], k[i]] > dat
			printf "\n" > dat
		}
	}' "$tsv" > "$out/$name.md"
cat "$out/$name.md"
if command -v gnuplot > /dev/null; then
	gnuplot -c "$ROOT/bench/tenants.gp" "$out/$name.dat" "$out/$name.png" \
		"Series minus best causal rival, K copies on K x 128 MiB, 8 streams, $dest GC destination" ||
		die "gnuplot failed on $out/$name.png"
else
	log "gnuplot not installed: no plot (scripts/deps.sh installs gnuplot-nox)"
fi
