#!/bin/bash
# The benchmark report: build/bench/report.md with the tables that
# scripts/bench-overhead.sh and bench/waf.sh wrote (overhead.md, waf.md)
# and PNG plots drawn from their machine-readable results (overhead.tsv,
# waf.tsv):
#   overhead-<device>.png   patched/base IOPS per fio case, 0.99 target
#   waf-<N>.png             WAF per workload and policy, N streams, greedy GC
#   waf-cb-<N>.png          the same under cost-benefit GC
#   waf-large-<OP>-<shared|isolated>-<N>.png
#                           the large model (4 GiB, 8 MiB erase blocks)
# Without gnuplot the plots are skipped with a message; the tables stay.
# BENCH_OUT: the folder to read and write (default build/bench).
set -euo pipefail
. "$(dirname "$0")/../scripts/lib.sh"

out=${BENCH_OUT:-$BUILD/bench}
data=$out/plot-data
mkdir -p "$data"
plot=1
if ! command -v gnuplot > /dev/null; then
	echo "report: gnuplot not installed, plots skipped (scripts/deps.sh installs gnuplot-nox)" >&2
	plot=0
fi
pngs=()

# $1 data, $2 png (in $out), $3 title; via the gnuplot script $4.
draw() {
	[ $plot = 1 ] || return 0
	if gnuplot -c "$ROOT/bench/$4" "$1" "$out/$2" "$3" 2> "$data/$2.log"; then
		pngs+=("$2")
	else
		echo "report: gnuplot failed on $2; see $data/$2.log" >&2
		rm -f "$out/$2"
	fi
}

if [ -s "$out/overhead.tsv" ]; then
	for dev in $(awk -F'\t' 'NR > 1 { print $1 }' "$out/overhead.tsv" | sort -u); do
		awk -F'\t' -v d="$dev" 'NR > 1 && $1 == d {
			printf "\"%s %s %sj\" %s %s %s\n", $2, $3, $4, $11, $12, $13 }' \
			"$out/overhead.tsv" > "$data/overhead-$dev.dat"
		draw "$data/overhead-$dev.dat" "overhead-$dev.png" \
			"fio 4 KiB on $dev: IOPS patched/base (bars: median ratio; error bars: range over boots)" \
			overhead.gp
	done
fi

if [ -s "$out/waf.tsv" ]; then
	# One plot per model, GC and stream count: workloads along, policies
	# side by side. Rows without a model column are of the small model.
	# $1 png name, $2 title, $3 awk condition on a row.
	waf_plot() {
		awk -F'\t' '
			BEGIN { print "\"workload\" \"single\" \"lifetime (6.12)\" \"fstream\" \"autostream\" \"kernel (series)\" \"oracle\"" }
			NR > 1 && '"$3"' { w[$1, $3] = $4; if (!seen[$1]++) order[++k] = $1 }
			function v(x, p) { return ((x, p) in w) ? w[x, p] : "?" }
			END { for (i = 1; i <= k; i++) { x = order[i]
				print x, v(x, "single"), v(x, "lifetime"), v(x, "fstream"),
					v(x, "autostream"), v(x, "kernel"), v(x, "oracle") } }' \
			"$out/waf.tsv" > "$data/$1.dat"
		draw "$data/$1.dat" "$1.png" "$2" waf.gp
	}
	small='($7 == "" || $7 == "128MiB-256KiB-7%")'
	for gc in greedy cost-benefit; do
		for n in $(awk -F'\t' -v gc=$gc "NR > 1 && \$6 == gc && $small { print \$2 }" "$out/waf.tsv" | sort -nu); do
			name=waf-$n
			[ $gc = greedy ] || name=waf-cb-$n
			waf_plot "$name" "WAF with $n streams, $gc GC" \
				"\$6 == \"$gc\" && \$2 == $n && $small"
		done
	done
	# The large model (4 GiB, 8 MiB erase blocks; 32 copies of each
	# trace): waf-large-<OP>-<GC>-<N>.png, GC shared or isolated.
	while read -r model gc n; do
		op=${model##*-} op=${op%\%}
		dest=shared
		[ "$gc" = greedy-isolated ] && dest=isolated
		waf_plot "waf-large-$op-$dest-$n" \
			"WAF, 4 GiB with 8 MiB erase blocks, $op % OP, $n streams, greedy GC into $dest destinations" \
			"\$7 == \"$model\" && \$6 == \"$gc\" && \$2 == $n"
	done < <(awk -F'\t' 'NR > 1 && $7 ~ /^4GiB-/ { print $7, $6, $2 }' "$out/waf.tsv" | sort -u)
fi

{
	echo "# Benchmark report"
	echo
	echo "Written by bench/report.sh from the results in this folder; see the README's Benchmarks section."
	for t in overhead waf; do
		[ -s "$out/$t.md" ] || continue
		echo
		echo "## ${t/waf/Placement (WAF)}"
		echo
		cat "$out/$t.md"
		for p in "${pngs[@]}"; do
			case $p in "$t"-*) echo; echo "![$p]($p)" ;; esac
		done
	done
} > "$out/report.md"
log "report: $out/report.md${pngs:+ and ${#pngs[@]} plots}"
