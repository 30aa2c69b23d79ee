#!/bin/bash
# The simulator answers to the device: replay the requests of traced FEMU
# runs (bench/femu/run.sh --trace, the series kernel) in sim/ftl-sim with
# FEMU's geometry, and print the simulator's WAF next to FEMU's.
#
#   bench/femu/sim-compare.sh RUN_DIR...     one TSV line per traced run
#
# The geometry: the namespace's pages as the logical space, a reclaim
# unit's pages as the erase block, 8 streams, greedy GC, GC kept per
# stream (FEMU's handles are persistently isolated: RUH type 2h), and as
# physical space the reclaim units FEMU leaves data (run.sh's usable
# units) plus what the simulator itself keeps out of them: its reserve of
# 2 blocks and an open host and GC block per stream the replay uses (the
# trace's distinct streams, or 1 for --policy single). Both then have the
# same room for data. The requests
# before the "measure starts" marker (the fill and the warm-up) are
# replayed but not counted. The simulator replays the series' streams
# (--policy kernel) and, as a stand-in for the unpatched kernel, every
# request on one stream (--policy single); FEMU's columns are the series'
# run itself and, if given with BASE_TSV, the base kernel's mean over the
# device table's runs of that workload and OP.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SIM=$ROOT/sim/ftl-sim
[ -x "$SIM" ] || make -s -C "$ROOT/sim" >&2
echo -e "workload\top_pct\tfemu_series\tsim_series\tseries_diff_pct\tfemu_base_mean\tsim_single\tsingle_diff_pct"
traced=0
for d in "$@"; do
	r=$d/result.txt
	# Untraced runs (another kernel, a later run) are passed over.
	[ -s "$d/trace.raw" ] || continue
	[ -s "$r" ] || { echo "sim-compare: $d: no result.txt" >&2; exit 1; }
	traced=$((traced + 1))
	get() { sed -n "s/^$1 //p" "$r"; }
	[ "$(get trace_lost)" = 0 ] || { echo "sim-compare: $d: the trace lost events" >&2; exit 1; }
	wl=$(get workload) op=$(get op_pct) ru_kb=$(get ru_kb) usable=$(get usable_rus)
	cap=$(get capacity_bytes) devno=$(get devno)
	# trace lines -> simulator records (W sector sectors class hint file
	# stream; D sector sectors), the marker as an M record.
	awk -v dev="block_rq_hints: $devno " '
		index($0, "femu: measure starts") { print "M"; next }
		!index($0, dev) { next }
		{
			for (i = 1; i <= NF; i++) if ($i == "block_rq_hints:") break
			rwbs = $(i + 2); sector = $(i + 3); nr = $(i + 5)
			if (nr == 0) next
			if (rwbs ~ /^D/) { print "D", sector, nr; next }
			if (rwbs !~ /W/) next
			split("", f)
			for (j = i + 6; j <= NF; j++) { split($j, kv, "="); f[kv[1]] = kv[2] }
			print "W", sector, nr, f["class"], f["hint"], 0, f["stream"]
		}' "$d/trace.raw" > "$d/trace.sim"
	warm=$(awk '$1 == "M" { exit } $1 == "W" {
			n += int(($2 + $3 - 1) / 8) - int($2 / 8) + 1 } END { print n + 0 }' "$d/trace.sim")
	grep -v '^M$' "$d/trace.sim" > "$d/trace.replay"
	sim() {	# USED POLICY STREAMS: streams the replay uses and offers
		local blocks=$((usable + 2 + 2 * $1))
		"$SIM" --trace "$d/trace.replay" --logical-pages $((cap / 4096)) \
			--block-pages $((ru_kb / 4)) --streams "$3" --policy "$2" \
			--op "$(echo "scale=6; $blocks * $ru_kb * 1024 / $cap - 1" | bc)" \
			--gc greedy --gc-dest per-stream --warmup-pages "$warm" |
			sed -n 's/^waf //p'
	}
	used=$(awk '$1 == "W" && $7 != 0 && !s[$7]++ { n++ } END { print n ? n : 1 }' "$d/trace.replay")
	s_series=$(sim "$used" kernel 8)
	s_single=$(sim 1 single 1)
	f_series=$(get measure.waf)
	f_base=-
	if [ -n "${BASE_TSV:-}" ]; then
		f_base=$(awk -F'\t' -v w="$wl" -v o="$op" '$3 == w && $2 == o && $4 == "base" { s += $11; n++ }
			END { if (n) printf "%.3f", s / n; else print "-" }' "$BASE_TSV")
	fi
	diff() { [ "$2" = - ] && { echo -; return; }; echo "scale=1; 100 * ($1 - $2) / $2" | bc; }
	echo -e "$wl\t$op\t$f_series\t$s_series\t$(diff "$s_series" "$f_series")\t$f_base\t$s_single\t$(diff "$s_single" "$f_base")"
done
[ "$traced" -gt 0 ] || { echo "sim-compare: no traced run among $*" >&2; exit 1; }
