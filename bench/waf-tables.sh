#!/bin/bash
# The WAF tables of the README and of build/bench/waf.md, from a waf.tsv
# that bench/waf.sh wrote (one row per workload, streams, policy, GC and
# model), so that the published numbers can be rebuilt from the committed
# raw table alone (make bench-report).
#
#   waf-tables.sh TSV > waf.md
# TSV columns: workload streams policy waf host_pages gc [model]. Rows
# without a model (captures before the large model) are the small one.
set -euo pipefail

tsv=$1
[ -s "$tsv" ] || { echo "waf-tables: no $tsv" >&2; exit 1; }
# The models in the table, in the order they appear: the small one (the
# captured file system's size) and the large ones (4 GiB). Rows without a
# model (captures before the large model) are the small one at 7 %.
models() { awk -F'\t' -v p="$1" 'NR > 1 { m = $7 == "" ? "128MiB-256KiB-7%" : $7
	if (index(m, p) == 1 && !seen[m]++) print m }' "$tsv"; }
small=$(models 128MiB- | head -n 1)
small=${small:-128MiB-256KiB-7%}
op_of() { awk -v p="${1##*-}" 'BEGIN { sub(/%$/, "", p); printf "%g", p / 100 }'; }

# Rows of one GC ($1) and model ($2), as "workload streams policy waf host".
rows() {
	awk -F'\t' -v gc="$1" -v m="$2" -v small="$small" '
		NR > 1 && $6 == gc && ($7 == "" ? small : $7) == m {
			print $1, $2, $3, $4, $5 }' "$tsv"
}

# The policy table of one GC ($1) and model ($2): one row per workload and
# stream count, the causal baselines, the series, the oracle, and the
# fraction of the oracle's gain over single stream that the series gets.
policy_table() {
	echo "| workload | streams | counted host MiB | single | lifetime (6.12) | fstream | autostream | kernel (series) | oracle | series' fraction of the oracle's gain | series <= every causal rival |"
	echo "|---|---|---|---|---|---|---|---|---|---|---|"
	rows "$1" "$2" | awk '
		{ k = $1 " " $2; w[k, $3] = $4; h[k] = $5
		  if (!seen[k]++) order[++n] = k }
		function v(k, p) { return ((k, p) in w) ? w[k, p] : "-" }
		END {
			for (i = 1; i <= n; i++) {
				k = order[i]; split(k, a, " ")
				# Test before reading: reading w[k, p] creates it.
				hask = (k, "kernel") in w
				whole = hask && ((k, "single") in w) && ((k, "oracle") in w)
				cs = v(k, "single"); ck = v(k, "kernel"); co = v(k, "oracle")
				s = w[k, "single"]; o = w[k, "oracle"]; ks = w[k, "kernel"]
				share = (whole && s - o > 0.001) ? sprintf("%.0f%%", 100 * (s - ks) / (s - o)) : "-"
				best = ""; rivals = 0
				for (j = 1; j <= 3; j++) {
					p = j == 1 ? "lifetime" : j == 2 ? "fstream" : "autostream"
					if (!((k, p) in w)) continue
					rivals++
					if (best == "" || w[k, p] + 0 < best + 0) { best = w[k, p]; bp = p }
				}
				beat = "-"
				if (rivals == 3 && hask)
					beat = ks + 0 <= best + 0 ? "yes" : "no (" bp " " best ")"
				printf "| %s | %s | %d | %s | %s | %s | %s | %s | %s | %s | %s |\n",
					a[1], a[2], h[k] / 256, cs, v(k, "lifetime"),
					v(k, "fstream"), v(k, "autostream"), ck, co, share, beat
			}
		}'
}

has() { [ -n "$(rows "$1" "$2" | head -n 1)" ]; }

echo "WAF (media/host page writes): small model, op=$(op_of "$small"), logical space 128 MiB, 256 KiB erase blocks, greedy GC into one shared GC destination; counted after the fill and after the device has been written over once; each trace replayed once"
echo
policy_table greedy "$small"
echo
echo "The fraction is (WAF single - WAF kernel) / (WAF single - WAF oracle); \"-\" where the oracle gains less than 0.001. Above 100 %: the oracle's log-scale death-time bins mix data that the series keeps apart. Causal rivals: 6.12's lifetime hints alone, fstream (one stream per kind of file-system structure, after FStream, FAST 2018) and autostream (in the device, from LBAs, after AutoStream, SYSTOR 2017); the oracle knows the future and is not one."
if has cost-benefit "$small"; then
	echo
	echo "The same traces under cost-benefit GC (victim with the highest age x (1 - u) / 2u)"
	echo
	policy_table cost-benefit "$small"
fi
if has greedy-isolated "$small"; then
	echo
	echo "The same traces with greedy GC that keeps streams apart (one GC destination per stream, as FDP's persistently isolated reclaim unit handles; above, one shared GC destination remixes what the host separated, as initially isolated handles may)"
	echo
	policy_table greedy-isolated "$small"
fi

for m in $(models 4GiB-); do
	for gc in greedy greedy-isolated; do
		has "$gc" "$m" || continue
		echo
		echo "Large model $m (logical 4 GiB, 8 MiB erase blocks, op ${m##*-}): each trace replayed as 32 copies side by side (sim/README.md, --replicas), $gc GC$([ "$gc" = greedy ] && echo ", one shared GC destination" || echo ", one GC destination per stream")"
		echo
		policy_table "$gc" "$m"
	done
done

large=4GiB-8MiB-${small##*-}
if has greedy "$large"; then
	echo
	echo "Single-stream WAF of each trace as captured (128 MiB, 256 KiB blocks) and in the large model (32 copies on 4 GiB, 8 MiB blocks), both op $(op_of "$small") with greedy GC. Copies in lockstep reproduce the small model (each 8 MiB block holds 32 repeats of one 256 KiB block: 1.118 and 1.209 against 1.116 and 1.208 for mixed and dbwal with 8 streams when tried); the difference is the mixing of 32 instances at different phases of their workload, which the large model adds: it is a harder workload, not the same one at a larger scale. Compare policies within a model, not the models."
	echo
	echo "| workload | streams | 128 MiB, 256 KiB | 4 GiB, 8 MiB, 32 copies |"
	echo "|---|---|---|---|"
	{ rows greedy "$small" | awk '$3 == "single" { print "s", $1, $2, $4 }'
	  rows greedy "$large" | awk '$3 == "single" { print "l", $1, $2, $4 }'; } |
		awk '{ k = $2 " " $3; v[$1, k] = $4; if ($1 == "l") order[++n] = k }
		END { for (i = 1; i <= n; i++) { k = order[i]; split(k, a, " ")
			printf "| %s | %s | %s | %s |\n", a[1], a[2], v["s", k], v["l", k] } }'
fi

if rows greedy "$small" | awk '$3 == "map" { f = 1 } END { exit !f }'; then
	echo
	echo "Mapping variants on the same traces (see bench/waf.sh), small model, greedy GC: what each part of the series' table buys"
	echo
	echo "| workload | streams | series' table | no class streams | no lifetime streams | no file streams | v2 class order |"
	echo "|---|---|---|---|---|---|---|"
	rows greedy "$small" | awk '
		{ k = $1 " " $2; w[k, $3] = $4; if (!seen[k]++) order[++n] = k }
		END {
			for (i = 1; i <= n; i++) {
				k = order[i]; split(k, a, " ")
				printf "| %s | %s | %s | %s | %s | %s | %s |\n", a[1], a[2],
					w[k, "map"], w[k, "no-classes"], w[k, "no-lifetimes"],
					w[k, "no-files"], w[k, "v2-order"]
			}
		}'
fi
