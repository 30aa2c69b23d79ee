#!/bin/bash
# The tables of bench/results/v9-sparse-levels.md from v9-sparse-levels.tsv
# (v9-sparse-levels.sh) and the v8-nb tenants tables (the capture as
# placed, and the causal rivals: single, lifetime, fstream, autostream),
# the eleven workloads and the two held out, both GC destinations.
#   bench/results/v9-sparse-levels-md.sh > bench/results/v9-sparse-levels.md
set -euo pipefail
r=$(cd "$(dirname "$0")" && pwd)
echo "# Sparse files levels folded into the middle (capture relabelled)"
echo
echo "The v8-nb capture (112 patches, rate, 8 streams) as placed"
echo "(\`kernel\`) and relabelled by the rule (v9-sparse-levels.sh): a files"
echo "level written less than G in the last window alone (\`window-\`, tried"
echo "first) or with its sectors halved each window below 2 G (\`halved-\`, the"
echo "kernel's form, patch 114), G = 256 KiB (the model's erase block) or"
echo "1 MiB (nvmet's stream granularity, so the capture of patch 114); K"
echo "copies in the large model, two draws, 13 workloads (pgbench-backup and"
echo "pgbench-swap held out)."
echo
{
	for f in "$r"/v8-nb-tenants.tsv "$r"/v8-nb-tenants-per-stream.tsv \
		"$r"/v8-nb-tenants-heldout.tsv \
		"$r"/v8-nb-tenants-heldout-per-stream.tsv; do
		awk -F'\t' 'NR > 1 { print $1 "\t" $3 "\t" $5 "\t" $6 "\t" $4 "\t" $7 }' "$f"
	done
	awk 'NR > 1' "$r"/v9-sparse-levels.tsv
} | awk -F'\t' '
function mean(w, k, d, p) { return (sum[w, k, d, p] / cnt[w, k, d, p]) }
{
	# workload copies seed gc_dest policy waf
	if (!seenw[$1]++) wls[++nw] = $1
	sum[$1, $2, $4, $5] += $6; cnt[$1, $2, $4, $5]++
	if ($5 ~ /^(single|lifetime|fstream|autostream)$/) {
		k = $1 SUBSEP $2 SUBSEP $3 SUBSEP $4
		if (!(k in best) || $6 < best[k]) best[k] = $6
		next
	}
	if ($5 == "oracle") next
	if (!seenp[$5]++) pols[++np] = $5
	w[$1, $2, $3, $4, $5] = $6
}
END {
	nk = split("1 2 4 8 16 32", K, " ")
	nd = split("shared per-stream", D, " ")
	print "Workloads of 13 where the policy is at most every causal rival on both draws:"
	print ""
	print "| policy | GC destination | K=1 | 2 | 4 | 8 | 16 | 32 | lost at K=32 |"
	print "|---|---|---|---|---|---|---|---|---|"
	for (p = 1; p <= np; p++) for (d = 1; d <= nd; d++) {
		printf "| %s | %s |", pols[p], D[d]
		for (i = 1; i <= nk; i++) {
			n = 0; lost = ""
			for (j = 1; j <= nw; j++) {
				ok = 1
				for (s = 1; s <= 2; s++)
					if (w[wls[j], K[i], s, D[d], pols[p]] > best[wls[j], K[i], s, D[d]] + 1e-9)
						ok = 0
				n += ok
				if (!ok) lost = lost (lost == "" ? "" : ", ") wls[j]
			}
			printf " %d |", n
		}
		printf " %s |\n", lost == "" ? "none" : lost
	}
	rv = split("single lifetime fstream autostream", R, " ")
	for (d = 1; d <= nd; d++) {
		print ""
		printf "Mean WAF of the two draws at K = 16 and 32, %s GC destination:\n\n", D[d]
		printf "| workload | K |"
		for (p = 1; p <= np; p++) printf " %s |", pols[p]
		print " best causal rival |"
		printf "|---|---|"
		for (p = 1; p <= np; p++) printf "---|"
		print "---|"
		for (j = 1; j <= nw; j++) for (i = 5; i <= 6; i++) {
			printf "| %s | %s |", wls[j], K[i]
			for (p = 1; p <= np; p++)
				printf " %.4f |", mean(wls[j], K[i], D[d], pols[p])
			b = ""; bn = ""
			for (x = 1; x <= rv; x++) {
				m = mean(wls[j], K[i], D[d], R[x])
				if (b == "" || m < b) { b = m; bn = R[x] }
			}
			printf " %.4f (%s) |\n", b, bn
		}
	}
}'
