#!/bin/bash
# The table of bench/results/v7-4k-new-blocks.md from v7-4k-new-blocks.tsv
# (v7-4k-new-blocks.sh) and the causal rivals of the eleven workloads in
# v7-4k-tenants*.tsv (FILES=rate capture) and v7-4k-id-tenants*.tsv
# (FILES=id): per capture, policy and GC destination, the workloads where
# the policy's WAF is at most every causal rival's (single, lifetime,
# fstream, autostream) on both draws, for K = 1 to 32 copies.
#   bench/results/v7-4k-new-blocks-md.sh > bench/results/v7-4k-new-blocks.md
set -euo pipefail
r=$(cd "$(dirname "$0")" && pwd)
echo "# Writes to new blocks in the middle of the files range (simulator)"
echo
echo "Workloads (of 13 on the FILES=rate capture: the eleven and two held"
echo "out; of 11 on the FILES=id capture) where the policy's WAF is at most"
echo "every causal rival's on both of two draws; K copies in the large model."
echo "\`rate\`: the simulator's copy of write_stream_files rate (temp-int);"
echo "\`new-blocks\`: with --map-new-blocks 1 (middle of four files streams);"
echo "\`new-blocks-L\`: new blocks on files stream L instead (scratch diff)."
echo
echo "| capture | policy | GC destination | K=1 | 2 | 4 | 8 | 16 | 32 | lost at K=32 |"
echo "|---|---|---|---|---|---|---|---|---|---|"
{
	for f in "$r"/v7-4k-tenants.tsv "$r"/v7-4k-tenants-per-stream.tsv; do
		awk -F'\t' 'NR > 1 { print "rate\t" $1 "\t" $3 "\t" $5 "\t" $6 "\t" $4 "\t" $7 }' "$f"
	done
	for f in "$r"/v7-4k-id-tenants.tsv "$r"/v7-4k-id-tenants-per-stream.tsv; do
		awk -F'\t' 'NR > 1 { print "id\t" $1 "\t" $3 "\t" $5 "\t" $6 "\t" $4 "\t" $7 }' "$f"
	done
	awk 'NR > 1' "$r"/v7-4k-new-blocks.tsv
} | awk -F'\t' '
$6 ~ /^(single|lifetime|fstream|autostream)$/ {
	k = $1 SUBSEP $2 SUBSEP $3 SUBSEP $4 SUBSEP $5
	if (!(k in best) || $7 < best[k]) best[k] = $7
	next
}
$6 ~ /^(rate|new-blocks)/ { row[NR] = $0 }
END {
	for (i in row) {
		split(row[i], f, "\t")
		k = f[1] SUBSEP f[2] SUBSEP f[3] SUBSEP f[4] SUBSEP f[5]
		c = f[1] SUBSEP f[6] SUBSEP f[5]
		cand[c] = 1
		w = c SUBSEP f[3] SUBSEP f[2]
		seen[w] = 1
		if (!(k in best)) { print "no rivals for " f[1] " " f[2] > "/dev/stderr"; exit 1 }
		if (f[7] > best[k] + 1e-9) lose[w] = 1
	}
	for (c in cand) {
		split(c, a, SUBSEP)
		line = "| " a[1] " | " a[2] " | " a[3]
		for (j = 0; j <= 5; j++) {
			K = 2 ^ j; n = 0
			for (w in seen) {
				split(w, b, SUBSEP)
				if (b[1] == a[1] && b[2] == a[2] && b[3] == a[3] && b[4] == K && !(w in lose)) n++
			}
			line = line " | " n
		}
		m = 0
		for (w in seen) {
			split(w, b, SUBSEP)
			if (b[1] == a[1] && b[2] == a[2] && b[3] == a[3] && b[4] == 32 && (w in lose)) name[++m] = b[5]
		}
		for (x = 2; x <= m; x++)	# insertion sort: mawk has no asort
			for (y = x; y > 1 && name[y - 1] > name[y]; y--) {
				t = name[y]; name[y] = name[y - 1]; name[y - 1] = t
			}
		lost = ""
		for (x = 1; x <= m; x++) lost = lost " " name[x]
		print line " |" lost " |"
	}
}' | sort
