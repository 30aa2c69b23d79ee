#!/bin/bash
# Placement quality: write amplification on a multi-stream SSD model fed
# with the real kernel's commands.
#
# One VM boot runs the workloads on an nvmet namespace offering 4, 8 and 16
# streams (bench/capture.sh) and captures each request from the
# block_rq_hints trace event; each trace is replayed through the FTL
# simulator (sim/) with the same number of streams under five policies:
# single (no streams), lifetime (6.12: lifetime hints only), kernel (this
# series' mapping, as the device received it), oracle (by actual death
# time) and autostream (an in-device policy).
#
#   waf.sh [SCALE]   SCALE 4: the full benchmark, 1: bench-quick
# Writes build/bench/waf.md and build/bench/waf.tsv.
set -euo pipefail
. "$(dirname "$0")/../scripts/lib.sh"

scale=${1:-4}
out=$BUILD/bench
traces=$out/traces
streams="4 8 16"
workloads="mixed mixed-nohints varmail dbwal bgcopy swap"
policies="single lifetime kernel oracle autostream"
op=${OP:-0.07}
# 256 KiB erase blocks: with 16 streams open on a 256 MiB model, 1 MiB
# blocks would not fit in 7% of spare space.
block_pages=64
mkdir -p "$out" "$traces"

make -s -C "$ROOT/sim"
gcc -O2 -Wall -o "$out/dbwal" "$ROOT/bench/dbwal.c"
gcc -O2 -Wall -o "$out/memhog" "$ROOT/bench/memhog.c"

# REUSE_TRACES=1 replays the traces of the last capture again.
if [ "${REUSE_TRACES:-0}" != 1 ]; then
	rm -rf "$traces" "$out/vm-waf/traces"
	log "capturing traces in the VM (streams: $streams; workloads: $workloads)"
	"$ROOT/scripts/vm.sh" --out "$out/vm-waf" --timeout 3000 --mem 3072 -- \
		"$ROOT/bench/capture.sh" /mnt/results/traces "$streams" \
		"$workloads" "$scale" > "$out/capture.log" 2>&1 ||
		die "capture failed; see $out/vm-waf/console.log"
	mkdir -p "$traces"
	cp "$out"/vm-waf/traces/*.raw "$traces"/
fi

# trace_pipe lines -> simulator records (see sim/README.md):
#   ... block_rq_hints: 259,1 WS 2048 + 8 class=data hint=0 file=1a2b stream=3
to_sim() {
	awk '{
		for (i = 1; i <= NF; i++) if ($i == "block_rq_hints:") break
		rwbs = $(i + 2); sector = $(i + 3); nr = $(i + 5)
		if (nr == 0) next
		if (rwbs ~ /^D/) { print "D", sector, nr; next }
		if (rwbs !~ /^W/) next
		for (j = i + 6; j <= NF; j++) { split($j, kv, "="); f[kv[1]] = kv[2] }
		print "W", sector, nr, f["class"], f["hint"], f["file"], f["stream"]
	}' "$1"
}

# Host page writes in a trace.
sim_pages() {
	[ -s "$1" ] || { echo 0; return; }
	"$ROOT/sim/ftl-sim" --trace "$1" --logical-pages "$pages" --op 1 |
		awk '$1 == "host_pages" { print $2 }'
}

# The file system's size in 4 KiB pages: the logical space of the model.
pages=$(( 128 * 256 ))
# Each workload trace is replayed REPLAYS times (default once) after its
# file system's long-lived fill; the fill, and with REPLAYS > 1 the first
# replay, are warm-up. Replaying a trace rewrites all its blocks in lockstep,
# which makes every old block die at once and hides garbage collection:
# longer runs (SCALE) are the better way to steady state.
replays=${REPLAYS:-1}
tsv=$out/waf.tsv
echo -e "workload\tstreams\tpolicy\twaf\thost_pages" > "$tsv"
for wl in $workloads; do
	for n in $streams; do
		raw=$traces/$wl-$n.raw
		[ -s "$raw" ] || { echo "no trace for $wl with $n streams" >&2; continue; }
		[ -f "$traces/$wl-$n.fill.raw" ] || : > "$traces/$wl-$n.fill.raw"
		to_sim "$traces/$wl-$n.fill.raw" > "$traces/$wl-$n.fill.trace"
		to_sim "$raw" > "$traces/$wl-$n.trace"
		# The fill once, then the workload REPLAYS times; the fill and
		# the first replay are warm-up.
		{
			cat "$traces/$wl-$n.fill.trace"
			for _ in $(seq "$replays"); do cat "$traces/$wl-$n.trace"; done
		} > "$traces/$wl-$n.replay"
		warm=$(sim_pages "$traces/$wl-$n.fill.trace")
		[ "$replays" -gt 1 ] && warm=$((warm + $(sim_pages "$traces/$wl-$n.trace")))
		for p in $policies; do
			waf=$("$ROOT/sim/ftl-sim" --trace "$traces/$wl-$n.replay" \
				--logical-pages $pages --op "$op" --streams "$n" \
				--block-pages "$block_pages" --warmup-pages "$warm" \
				--policy "$p" | awk '$1 == "waf" { w = $2 } $1 == "host_pages" { h = $2 } END { print w "\t" h }')
			echo -e "$wl\t$n\t$p\t$waf" >> "$tsv"
		done
	done
done

# Table: one row per workload and stream count; the share of the oracle's
# gain over single stream that the series' mapping achieves.
{
	echo "WAF (media/host page writes), op=$op, logical space 128 MiB, $((block_pages * 4)) KiB erase blocks, greedy GC, fill not counted, trace replayed $replays time(s)"
	echo
	echo "| workload | streams | host MiB | single | lifetime (6.12) | kernel (series) | autostream | oracle | series' share of oracle gain |"
	echo "|---|---|---|---|---|---|---|---|---|"
	awk -F'\t' 'NR > 1 { w[$1 FS $2 FS $3] = $4; h[$1 FS $2] = $5; if (!seen[$1 FS $2]++) order[++n] = $1 FS $2 }
		END {
			for (i = 1; i <= n; i++) {
				k = order[i]; split(k, a, FS)
				s = w[k FS "single"]; o = w[k FS "oracle"]; ks = w[k FS "kernel"]
				share = (s - o > 0.001) ? sprintf("%.0f%%", 100 * (s - ks) / (s - o)) : "-"
				printf "| %s | %s | %d | %s | %s | %s | %s | %s | %s |\n", a[1], a[2], h[k] / 256,
					s, w[k FS "lifetime"], ks, w[k FS "autostream"], o, share
			}
		}' FS='\t' "$tsv"
} > "$out/waf.md"
cat "$out/waf.md"
