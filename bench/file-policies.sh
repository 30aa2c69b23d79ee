#!/bin/bash
# How should file stream IDs be spread over a device's streams? The series
# folds them by value (file ID modulo the streams left for files): fixed,
# but two files written at the same time share a stream whenever their IDs
# fold together, which with four file streams and three such files happens
# more often than not (1 - 4*3*2/4^3 = 62.5 %). Which files fold together
# depends on the file system's UUID and the inodes' generations, so one
# capture shows one draw of that lottery. This replays the traces of the
# last bench/waf.sh run (small model, greedy GC, shared and per-stream GC
# destinations) under the causal rivals, the series' folding (hash), and
# two ways that look at when files write instead of at their IDs
# (ftl-sim --map-files, sim/README.md):
#   lru   a new or idle file takes the file stream least recently written
#   idle  the same, but only a stream idle for a while is free; otherwise
#         the file joins the last new file's stream (bursts of new files
#         stay together, as on one stream)
#   temp-int  by how often a file writes: files on streams by their
#         decayed write count, one stream per fourfold drop from the
#         hottest, in the kernel's arithmetic (write_stream_files "rate")
# each as captured (draw 0) and with the file IDs drawn anew DRAWS times
# (each distinct ID of the trace replaced by a random one of 1..255, as
# another mkfs would give).
#
#   file-policies.sh [DRAWS]   (default 12)
# Environment: WORKLOADS, STREAMS (8), TRACES (build/bench/traces),
# MODEL: small (default), or large: bench/waf.sh's large model, 32 copies
# of each trace on 4 GiB with 8 MiB erase blocks, each copy past the first
# with file IDs of its own (ftl-sim --replica-files distinct: 32 instances
# of the workload, not one whose files are 32 times as large); the copies
# are the draws there, so DRAWS is ignored.
# The idle limit of lru and idle and the half-life of temp-int is an eighth of
# the model's logical space (4096 host pages small, 131072 large).
# Writes build/bench/file-policies[-large].tsv (workload streams policy
# gc_dest draw waf) and .md.
set -euo pipefail
. "$(dirname "$0")/../scripts/lib.sh"
. "$(dirname "$0")/replay-lib.sh"

draws=${1:-12}
n=${STREAMS:-8}
traces=${TRACES:-$BUILD/bench/traces}
out=$BUILD/bench
mkdir -p "$out"
pages=$model_pages	# the small model of bench/waf.sh (one copy)
op=0.07
case ${MODEL:-small} in
small)	k=1 block_pages=64 name=file-policies model_args= ;;
large)	k=32 block_pages=2048 name=file-policies-large draws=0
	model_args="--replicas $k --replica-files distinct" ;;
*)	die "MODEL: small or large" ;;
esac
idle=$(( pages * k / 8 ))
tsv=$out/$name.tsv
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

replay_prepare "$traces" "$n"

policy_args() {
	case $1 in
	hash) echo "--policy map" ;;
	lru) echo "--policy map --map-files lru --map-file-idle $idle" ;;
	idle) echo "--policy map --map-files idle --map-file-idle $idle" ;;
	temp-int) echo "--policy map --map-files temp-int --map-file-idle $idle" ;;
	*) echo "--policy $1" ;;
	esac
}

# Each distinct file ID replaced by a random one (seed $2).
redraw() {
	awk -v seed="$2" 'BEGIN { srand(seed) }
		$1 == "W" && $6 != "0" {
			if (!($6 in m)) m[$6] = sprintf("%x", 1 + int(rand() * 255))
			$6 = m[$6] }
		{ print }' "$1"
}

echo -e "workload\tstreams\tpolicy\tgc_dest\tdraw\twaf" > "$tsv"
for wl in $WORKLOADS; do
	replay_setup "$traces" "$wl" "$n" $op $k
	log "$wl: $draws draws of the file IDs"
	for d in $(seq 0 "$draws"); do
		if [ "$d" = 0 ]; then
			t=$replay
			policies="single lifetime fstream autostream oracle hash lru idle temp-int"
		else
			t=$tmp/draw.replay
			redraw "$replay" "$d" > "$t"
			policies="hash lru idle temp-int"
		fi
		for p in $policies; do
			for dest in shared per-stream; do
				# shellcheck disable=SC2046,SC2086
				waf=$(replay_waf "$t" "$n" $op $block_pages \
					$dest $(policy_args $p) $model_args \
					${model_args:+--replica-head $head})
				[ -n "$waf" ] || die "$wl, $p, $dest, draw $d: the simulator failed"
				echo -e "$wl\t$n\t$p\t$dest\t$d\t$waf" >> "$tsv"
			done
		done
	done
done

# The table: per workload and GC destination, the best causal rival, the
# three ways as captured, and over the draws the mean and the worst.
awk -F'\t' -v draws="$draws" -v idle="$idle" -v model="${MODEL:-small}" '
	NR == 1 { next }
	{ k = $1 " | " $2 " | " $4; if (!seen[k]++) order[++nk] = k }
	$5 == 0 { w0[k, $3] = $6 }
	$5 > 0 { s[k, $3] += $6; c[k, $3]++; if ($6 > mx[k, $3]) mx[k, $3] = $6 }
	function best(k,   p, b, bn, i, r) {
		split("lifetime fstream autostream", r, " ")
		b = w0[k, "single"]; bn = "single"
		for (i = 1; i <= 3; i++)
			if (w0[k, r[i]] < b) { b = w0[k, r[i]]; bn = r[i] }
		return sprintf("%.3f (%s)", b, bn)
	}
	function stat(k, p) {
		return c[k, p] ? sprintf("%.3f / %.3f", s[k, p] / c[k, p], mx[k, p]) : "-"
	}
	END {
		printf "File streams by value (hash, the series), by when files write (lru, idle; idle limit %d host pages) or by how often (temp-int, same half-life), model %s, %d draws of the file IDs\n\n", idle, model, draws
		print "| workload | streams | GC destination | best causal rival | oracle | hash | lru | idle | temp-int | hash over the draws (mean / worst) | lru (mean / worst) | idle (mean / worst) | temp-int (mean / worst) |"
		print "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
		for (i = 1; i <= nk; i++) {
			k = order[i]
			printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", k,
				best(k), w0[k, "oracle"], w0[k, "hash"], w0[k, "lru"],
				w0[k, "idle"], w0[k, "temp-int"], stat(k, "hash"), stat(k, "lru"),
				stat(k, "idle"), stat(k, "temp-int")
		}
	}' "$tsv" > "$out/$name.md"
cat "$out/$name.md"
