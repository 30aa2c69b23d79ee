#!/bin/bash
# How far apart in write rate files must be to get streams of their own.
# write_stream_files "rate" puts a file on files stream
# floor(log4(hottest / count)): each fourfold drop in rate one stream
# further. This replays every workload of a bench/waf.sh capture with the
# simulator's copy of that rule (--map-files temp-int) at other steps
# (--map-file-step) beside the causal rivals and the kernel's streams as
# captured, as K copies on K x 128 MiB with erase blocks of K x 256 KiB,
# as bench/tenants.sh does (K = 32 is the large model).
#
#   file-step.sh
# Environment: TRACES (build/bench/traces), WORKLOADS (every
# <workload>-<STREAMS>.replay there), STREAMS (8), TENANTS ("1 4 32"),
# SEEDS (2: draws per K), STEPS ("4 8 16 64"), GC_DEST (shared or
# per-stream; shared), OP (0.07).
# Writes build/bench/file-step[-per-stream].tsv (workload streams copies
# policy seed gc_dest waf; policy step-N for the steps) and .md: per
# workload and K the best causal rival's mean WAF and each policy's, in
# bold where it is at most every causal rival's on every draw, and per K
# on how many workloads each is.
set -euo pipefail
. "$(dirname "$0")/../scripts/lib.sh"
. "$(dirname "$0")/replay-lib.sh"

n=${STREAMS:-8}
replay_settings file-step 2
replay_tenants "1 4 32"
steps=${STEPS:-4 8 16 64}
step_pols=
for s in $steps; do
	if ! [[ $s =~ ^[1-9][0-9]{0,4}$ ]] || [ "$s" -lt 2 ] ||
		[ "$s" -gt 65536 ] || [ $((s & (s - 1))) != 0 ]; then
		die "STEPS: powers of two from 2 to 65536 ('$s')"
	fi
	step_pols+="step-$s "
done
tsv=$out/$name.tsv
rivals="single lifetime fstream autostream"

replay_prepare "$traces" "$n"

# shellcheck disable=SC2086
replay_copies_tsv "$tsv" "$traces" "$n" "$op" "$dest" "$seeds" "$tenants" \
	$rivals kernel $step_pols

awk -F'\t' -v dest="$dest" -v seeds="$seeds" -v ks="$tenants" -v op="$op" \
	-v rivals="$rivals" -v pols="kernel $step_pols" '
	NR == 1 { next }
	{ if (!seen[$1]++) order[++nw] = $1
	  w[$1, $3, $4, $5] = $7; sum[$1, $3, $4] += $7; cnt[$1, $3, $4]++ }
	function mean(wl, c, p) { return sum[wl, c, p] / cnt[wl, c, p] }
	END {
		nk = split(ks, k, " "); nr = split(rivals, rival, " ")
		np = split(pols, pol, " ")
		printf "Files by write rate at several steps (step-N: a stream further for each N-fold drop; the kernel'"'"'s rule is step-4, and kernel its streams as captured) against the best causal rival, K copies of each capture on K x 128 MiB, erase blocks of K x 256 KiB, op %g%%, greedy GC, %s GC destination; mean WAF of %d draw(s), in bold where at most every causal rival on every draw.\n\n", op * 100, dest, seeds
		printf "| workload | K | best causal rival |"
		for (p = 1; p <= np; p++) printf " %s |", pol[p]
		printf "\n|---|---|---|"
		for (p = 1; p <= np; p++) printf "---|"
		printf "\n"
		for (j = 1; j <= nw; j++) for (i = 1; i <= nk; i++) {
			wl = order[j]; c = k[i]; best = ""; bname = ""
			for (r = 1; r <= nr; r++) {
				m = mean(wl, c, rival[r])
				if (best == "" || m < best) { best = m; bname = rival[r] }
			}
			printf "| %s | %s | %.4f (%s) |", wl, c, best, bname
			for (p = 1; p <= np; p++) {
				ok = 1
				for (s = 1; s <= cnt[wl, c, pol[p]]; s++)
					for (r = 1; r <= nr; r++)
						if (w[wl, c, pol[p], s] > w[wl, c, rival[r], s]) ok = 0
				met[c, pol[p]] += ok
				printf " %s%.4f%s |", ok ? "**" : "", mean(wl, c, pol[p]), ok ? "**" : ""
			}
			printf "\n"
		}
		for (i = 1; i <= nk; i++) {
			printf "| **at most every causal rival on every draw** | %s | |", k[i]
			for (p = 1; p <= np; p++) printf " %d of %d |", met[k[i], pol[p]], nw
			printf "\n"
		}
	}' "$tsv" > "$out/$name.md"
cat "$out/$name.md"
