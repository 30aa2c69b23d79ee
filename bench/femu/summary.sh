#!/bin/bash
# The device table of bench/femu/matrix.sh as results: per OP level, a
# Markdown table (workload x kernel: mean WAF, sample standard deviation,
# min-max over the runs, n) and a plot, and a verdict for the series
# against the unpatched base: "lower" or "higher" only when the two
# kernels' min-max ranges do not overlap, else "tie".
#
#   bench/femu/summary.sh DIR/NAME.tsv OUTDIR   -> OUTDIR/NAME.md, NAME-opN.png
set -euo pipefail
[ $# = 2 ] || { echo "usage: summary.sh TSV OUTDIR" >&2; exit 2; }
tsv=$1 dir=$2
name=$(basename "$tsv" .tsv)
[ -s "$tsv" ] || { echo "summary: no $tsv" >&2; exit 1; }
mkdir -p "$dir"

# One line per cell: op workload kernel n mean sd min max.
cells() {
	awk -F'\t' 'NR > 1 {
		k = $2 SUBSEP $3 SUBSEP $4
		n[k]++; s[k] += $11; ss[k] += $11 * $11
		if (!(k in lo) || $11 < lo[k]) lo[k] = $11
		if (!(k in hi) || $11 > hi[k]) hi[k] = $11
	} END {
		for (k in n) {
			split(k, f, SUBSEP)
			m = s[k] / n[k]
			v = n[k] > 1 ? (ss[k] - n[k] * m * m) / (n[k] - 1) : 0
			printf "%s %s %s %d %.3f %.3f %.3f %.3f\n", f[1], f[2], f[3],
				n[k], m, (v > 0 ? sqrt(v) : 0), lo[k], hi[k]
		}
	}' "$tsv" | sort -k1,1n -k2,2 -k3,3
}
cells > "$dir/$name.cells"
kernels=$(awk -F'\t' 'NR > 1 && !s[$4]++ { print $4 }' "$tsv" | tr '\n' ' ')

# bench/femu/real.sh's table: a real SSD, OP "-" (its own, unknown).
real=0
[ "$(cut -d' ' -f1 "$dir/$name.cells" | sort -u)" = - ] && real=1
device="FEMU's FDP SSD" fresh="fresh device, fresh boot each"
[ $real = 0 ] || device="a real FDP SSD" fresh="the namespace filled anew each"
{
	echo "# Write amplification on $device"
	echo
	echo "Raw runs: \`$name.tsv\`. WAF = media bytes / host bytes (FDP"
	echo "statistics log 22h) of the measured part; mean ± sample standard"
	echo "deviation [min-max] over n runs ($fresh)."
	echo "series vs base: lower or higher only where the two min-max ranges"
	echo "do not overlap, else tie."
	for op in $(cut -d' ' -f1 "$dir/$name.cells" | sort -un); do
		echo
		if [ "$op" = - ]; then echo "## The SSD's own over-provisioning"
		else echo "## OP $op %"; fi
		echo
		printf "| workload |"
		for k in $kernels; do printf " %s |" "$k"; done
		echo " series / base | series vs base |"
		printf "|---|"
		for k in $kernels; do printf -- "---|"; done
		echo "---|---|"
		awk -v op="$op" -v ks="$kernels" '
			$1 == op {
				w[$2] = 1; c[$2, $3] = sprintf("%.2f ± %.2f [%.2f-%.2f] n=%d", $5, $6, $7, $8, $4)
				m[$2, $3] = $5; lo[$2, $3] = $7; hi[$2, $3] = $8; n[$2, $3] = $4
			} END {
				nk = split(ks, K, " ")
				for (x in w) names[++nw] = x
				for (i = 1; i <= nw; i++) for (j = i + 1; j <= nw; j++)
					if (names[j] < names[i]) { t = names[i]; names[i] = names[j]; names[j] = t }
				for (i = 1; i <= nw; i++) {
					x = names[i]
					printf "| %s |", x
					for (j = 1; j <= nk; j++)
						printf " %s |", ((x, K[j]) in c) ? c[x, K[j]] : "-"
					if (((x, "series") in m) && ((x, "base") in m)) {
						v = "tie"
						if (hi[x, "series"] < lo[x, "base"]) v = "lower"
						if (lo[x, "series"] > hi[x, "base"]) v = "higher"
						if (n[x, "series"] < 2 || n[x, "base"] < 2) v = "no spread (n < 2)"
						printf " %.3f | %s |\n", m[x, "series"] / m[x, "base"], v
					} else
						printf " - | - |\n"
				}
			}' "$dir/$name.cells"
	done
} > "$dir/$name.md"

command -v gnuplot >/dev/null || { echo "summary: gnuplot missing, no plot" >&2; exit 0; }
for op in $(cut -d' ' -f1 "$dir/$name.cells" | sort -un); do
	# One line per workload: index, name, then mean, min, max per kernel.
	awk -v op="$op" -v ks="$kernels" '
		$1 == op { w[$2] = 1; v[$2, $3] = $5 " " $7 " " $8 }
		END {
			nk = split(ks, K, " ")
			for (x in w) names[++nw] = x
			for (i = 1; i <= nw; i++) for (j = i + 1; j <= nw; j++)
				if (names[j] < names[i]) { t = names[i]; names[i] = names[j]; names[j] = t }
			for (i = 1; i <= nw; i++) {
				printf "%d %s", i - 1, names[i]
				for (j = 1; j <= nk; j++)
					printf " %s", ((names[i], K[j]) in v) ? v[names[i], K[j]] : "NaN NaN NaN"
				printf "\n"
			}
		}' "$dir/$name.cells" > "$dir/$name-op$op.dat"
	nk=$(echo "$kernels" | wc -w)
	plots=
	i=0
	for k in $kernels; do
		c=$((3 + 3 * i))
		plots="$plots${plots:+, }'$dir/$name-op$op.dat' using (\$1 + ($i - ($nk - 1) / 2.0) * 0.25):$c:$((c + 1)):$((c + 2)) with yerrorbars pt 7 title '$k'"
		i=$((i + 1))
	done
	gnuplot <<GP
set terminal pngcairo size 900,460 font ",9" noenhanced
set output "$dir/$name-op$op.png"
set title "$([ $real = 1 ] && echo "FDP SSD" || echo "FEMU FDP SSD, OP $op %"): write amplification (mean; bar: min-max over runs)"
set ylabel "WAF (media / host bytes)"
set yrange [0:*]
set xrange [-0.5:$(wc -l < "$dir/$name-op$op.dat") - 0.5]
set xtics rotate by 30 right
set grid ytics
set key top right
set xtics ($(awk '{ printf "%s\"%s\" %d", (NR > 1 ? ", " : ""), $2, $1 }' "$dir/$name-op$op.dat"))
plot $plots
GP
done
rm -f "$dir/$name"-op*.dat "$dir/$name.cells"
