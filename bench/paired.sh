#!/bin/bash
# Is the series ahead of its rivals, or level with them? For each
# workload and K of a table of simulator replays (TSV: workload streams
# copies policy seed gc_dest waf; a row per replay of a trace as K copies
# under one policy and one draw, ftl-sim --replicas K --replica-seed
# SEED; policies kernel, single, lifetime, fstream, autostream), the
# series' WAF minus the best causal rival's on the same draw, and minus
# each causal rival's, as a mean over the draws with its standard
# deviation and t = mean / (sd / sqrt(n)):
# with n = 8 draws, |t| above about 2.4 (two-sided 5 %) says the draws
# agree on a sign; below, the difference is within what another draw
# arrangement moves.
#
#   paired.sh TSV...
# Writes a markdown table to standard output, one row per file, workload
# and K.
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: paired.sh TSV..." >&2; exit 2; }
printf '| table | workload | K | draws | series minus best rival, mean (sd) | minus single | minus lifetime | minus fstream | minus autostream |\n'
printf '|---|---|---|---|---|---|---|---|---|\n'
for tsv in "$@"; do
	[ -s "$tsv" ] || { echo "paired.sh: no $tsv" >&2; exit 1; }
	awk -F'\t' -v name="$(basename "$tsv" .tsv)" '
	NR == 1 { next }
	{
		key = $1 SUBSEP $3
		if (!(key in seen)) { seen[key] = 1; order[++n] = key }
		w[$1, $3, $4, $5] = $7
		if ($4 == "kernel") draws[key] = draws[key] " " $5
	}
	function cell(sum, sq, k,    m, sd) {
		m = sum / k
		if (k < 2) return sprintf("%+.4f", m)
		sd = sqrt((sq - k * m * m) / (k - 1))
		if (sd < 1e-9) return sprintf("%+.4f (sd 0)", m)
		return sprintf("%+.4f (%.4f, t %.1f)", m, sd, m / (sd / sqrt(k)))
	}
	END {
		nr = split("single lifetime fstream autostream", rival, " ")
		for (i = 1; i <= n; i++) {
			split(order[i], a, SUBSEP)
			k = split(draws[order[i]], d, " ")
			delete sum; delete sq
			for (j = 1; j <= k; j++) {
				kv = w[a[1], a[2], "kernel", d[j]]; best = ""
				for (r = 1; r <= nr; r++) {
					v = w[a[1], a[2], rival[r], d[j]]
					if (best == "" || v < best) best = v
					sum[r] += kv - v; sq[r] += (kv - v) ^ 2
				}
				sum[0] += kv - best; sq[0] += (kv - best) ^ 2
			}
			printf "| %s | %s | %s | %d |", name, a[1], a[2], k
			for (r = 0; r <= nr; r++)
				printf " %s |", cell(sum[r], sq[r], k)
			printf "\n"
		}
	}' "$tsv"
done
