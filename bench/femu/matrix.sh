#!/bin/bash
# Every cell of the device benchmark, side by side in one go: for each run
# index, each over-provisioning level and each workload, every kernel on a
# fresh FEMU device and a fresh boot (bench/femu/run.sh), kernels in turn
# so that a slower or busier stretch of the host falls on all of them.
# Each run appends one line to the raw table; a cell already in it (same
# run, OP, workload, kernel) is not run again, so an interrupted matrix
# goes on where it stopped. Then bench/femu/summary.sh.
#
#   bench/femu/matrix.sh [-o TSV] [-r RUNS] [-k "KERNELS"] [-p "OPS"]
#                        [-w "WORKLOADS"] [-n NS_MB] [-t]
#
# -t: the series' first run of each cell is traced (run.sh --trace), for
# bench/femu/sim-compare.sh; the trace stays in the guest's memory until
# the end, so the device sees the same writes.
#
# Defaults: build/femu/device.tsv, 3 runs, kernels "base series-off
# series", OP "7 28", workloads: every bench/femu/workloads/*.sh but lib.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../../scripts/lib.sh"
# shellcheck source=bench/femu/lib.sh
. "$ROOT/bench/femu/lib.sh"

tsv=$BUILD/femu/device.tsv
runs=3
kernels="base series-off series"
ops="7 28"
workloads=
ns=109
trace=0
while getopts o:r:k:p:w:n:t o; do
	case $o in
	o) tsv=$OPTARG ;;
	r) runs=$OPTARG ;;
	k) kernels=$OPTARG ;;
	p) ops=$OPTARG ;;
	w) workloads=$OPTARG ;;
	n) ns=$OPTARG ;;
	t) trace=1 ;;
	*) die "usage: matrix.sh [-o TSV] [-r RUNS] [-k KERNELS] [-p OPS] [-w WORKLOADS] [-n NS_MB] [-t]" ;;
	esac
done
[ -n "$workloads" ] || workloads=$(femu_workloads)
header=$FEMU_TSV_HEADER
mkdir -p "$(dirname "$tsv")"
[ -s "$tsv" ] || echo "$header" > "$tsv"
[ "$(head -n1 "$tsv")" = "$header" ] || die "$tsv: not a device table"

start=$(date +%s)
failed=0
for ((r = 1; r <= runs; r++)); do
	for op in $ops; do
		for w in $workloads; do
			for k in $kernels; do
				if awk -F'\t' -v r=$r -v o="$op" -v w="$w" -v k="$k" \
					'$1 == r && $2 == o && $3 == w && $4 == k { f = 1 } END { exit !f }' "$tsv"; then
					continue
				fi
				out=$BUILD/femu/runs/matrix/$k-$w-op$op-run$r
				rm -rf "$out"
				mkdir -p "$(dirname "$out")"
				topt=()
				[ "$trace" = 1 ] && [ "$k" = series ] && [ "$r" = 1 ] && topt=(--trace)
				if ! "$ROOT/bench/femu/run.sh" --kernel "$k" --op "$op" --workload "$w" \
					--ns-mb "$ns" --out "$out" "${topt[@]}" > "$out.log" 2>&1; then
					log "femu matrix: run $r, OP $op %, $w, $k failed (see $out.log)"
					failed=$((failed + 1))
					continue
				fi
				awk -v r=$r -v o="$op" -v w="$w" -v k="$k" '
					{ v[$1] = $2 }
					END {
						printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%.4f\t%.0f\n", r, o, w, k,
							v["flash_mb"], v["namespace_mb"],
							v["warm.host_bytes"], v["warm.media_bytes"],
							v["measure.host_bytes"], v["measure.media_bytes"],
							v["measure.media_bytes"] / v["measure.host_bytes"],
							v["measure.secs"]
					}' "$out/result.txt" >> "$tsv"
				log "femu matrix: run $r, OP $op %, $w, $k: WAF $(tail -n1 "$tsv" | cut -f11)"
			done
		done
	done
done
log "femu matrix: $failed failed, wall time $(( ($(date +%s) - start) / 60 )) min"
[ "$failed" = 0 ]
