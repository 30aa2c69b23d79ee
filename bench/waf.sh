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
# time) and autostream (an in-device policy), with greedy garbage
# collection into one shared GC destination and into one per stream; with
# CB_STREAMS streams (default 8) also under cost-benefit garbage
# collection.
#
#   waf.sh [SCALE]   SCALE 4: the full benchmark, 1: bench-quick
# Writes build/bench/waf.md and build/bench/waf.tsv (one row per workload,
# streams, policy and GC).
set -euo pipefail
. "$(dirname "$0")/../scripts/lib.sh"

scale=${1:-4}
out=$BUILD/bench
traces=$out/traces
streams=${STREAMS:-4 8 16}
workloads=${WORKLOADS:-mixed mixed-nohints varmail dbwal bgcopy swap}
policies="single lifetime kernel oracle autostream"
cb_streams=${CB_STREAMS:-8}
op=${OP:-0.07}
# 256 KiB erase blocks: with 16 streams open on a 256 MiB model, 1 MiB
# blocks would not fit in 7% of spare space.
block_pages=64
mkdir -p "$out" "$traces"

make -s -C "$ROOT/sim"
gcc -O2 -Wall -o "$out/dbwal" "$ROOT/bench/dbwal.c"
gcc -O2 -Wall -o "$out/memhog" "$ROOT/bench/memhog.c"
gcc -O2 -Wall -o "$out/mailsim" "$ROOT/bench/mailsim.c"

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

# The file system's size in 4 KiB pages: the logical space of the model;
# the physical space adds the over-provisioning.
pages=$(( 128 * 256 ))
physical=$(awk -v p=$pages -v op="$op" 'BEGIN { printf "%d", p * (1 + op) }')
tsv=$out/waf.tsv
echo -e "workload\tstreams\tpolicy\twaf\thost_pages\tgc" > "$tsv"

# Mapping variants, replayed with the simulator's copy of the series'
# mapping (--policy map), to show what each part of the table buys:
#   map          the series' table (must match what the kernel did)
#   no-classes   no dedicated class streams
#   no-lifetimes no streams set aside for the lifetime hints
#   no-files     file stream IDs ignored: unhinted data on one stream
#   v2-order     the class order of the series' v2 (transaction,
#                metadata, paging, background, realtime) instead of v3's
#                (transaction, background, metadata, paging, realtime)
variants="map no-classes no-lifetimes no-files v2-order"
variant_args() {
	case $1 in
	map) echo "--policy map" ;;
	no-classes) echo "--policy map --map-classes none" ;;
	no-lifetimes) echo "--policy map --map-lifetimes 0" ;;
	no-files) echo "--policy map --map-files 0" ;;
	v2-order) echo "--policy map --map-classes transaction,metadata,paging,background,realtime" ;;
	*) echo "--policy $1" ;;
	esac
}

for wl in $workloads; do
	for n in $streams; do
		raw=$traces/$wl-$n.raw
		[ -s "$raw" ] || { echo "no trace for $wl with $n streams" >&2; continue; }
		[ -f "$traces/$wl-$n.fill.raw" ] || : > "$traces/$wl-$n.fill.raw"
		to_sim "$traces/$wl-$n.fill.raw" > "$traces/$wl-$n.fill.trace"
		to_sim "$raw" > "$traces/$wl-$n.trace"
		cat "$traces/$wl-$n.fill.trace" "$traces/$wl-$n.trace" \
			> "$traces/$wl-$n.replay"
		# Counting starts once the device has been written over once
		# (garbage collection runs from then on) and not before the
		# fill has ended.
		warm=$(sim_pages "$traces/$wl-$n.fill.trace")
		[ "$warm" -lt "$physical" ] && warm=$physical
		runs=
		for p in $policies $variants; do runs="$runs $p:greedy"; done
		case " $cb_streams " in
		*" $n "*) for p in $policies; do runs="$runs $p:cost-benefit"; done ;;
		esac
		for p in $policies; do runs="$runs $p:greedy-isolated"; done
		for run in $runs; do
			p=${run%:*} gc=${run#*:}
			report=$traces/$wl-$n.$p.report
			[ "$gc" = greedy ] || report=$traces/$wl-$n.$p.$gc.report
			# greedy-isolated: greedy GC with one GC destination per
			# stream, as FDP's persistently isolated handles have.
			gc_args="--gc $gc"
			[ "$gc" = greedy-isolated ] &&
				gc_args="--gc greedy --gc-dest per-stream"
			# shellcheck disable=SC2046,SC2086
			"$ROOT/sim/ftl-sim" --trace "$traces/$wl-$n.replay" \
				--logical-pages $pages --op "$op" --streams "$n" \
				--block-pages "$block_pages" --warmup-pages "$warm" \
				$gc_args $(variant_args "$p") > "$report"
			read -r waf host differs < <(awk '$1 == "waf" { w = $2 }
				$1 == "host_pages" { h = $2 }
				$1 == "map_differs_from_kernel" { d = $2 }
				END { print w, h, d }' "$report")
			# The simulator's copy of the table must put every write
			# where the kernel did, or the variants mean nothing.
			[ "$p" = map ] && [ "$differs" != 0 ] &&
				die "$wl, $n streams: $differs writes not where the simulator's copy of the mapping puts them"
			echo -e "$wl\t$n\t$p\t$waf\t$host\t$gc" >> "$tsv"
		done
	done
done

# The policy table for one GC ($1): one row per workload and stream count,
# with the fraction of the oracle's gain over single stream that the
# series' mapping achieves: (single - kernel) / (single - oracle).
policy_table() {
	echo "| workload | streams | counted host MiB | single | lifetime (6.12) | kernel (series) | autostream | oracle | series' fraction of the oracle's gain |"
	echo "|---|---|---|---|---|---|---|---|---|"
	awk -F'\t' -v gc="$1" 'NR > 1 && $6 == gc {
			w[$1 FS $2 FS $3] = $4; h[$1 FS $2] = $5
			if (!seen[$1 FS $2]++) order[++n] = $1 FS $2
		}
		END {
			for (i = 1; i <= n; i++) {
				k = order[i]; split(k, a, FS)
				s = w[k FS "single"]; o = w[k FS "oracle"]; ks = w[k FS "kernel"]
				share = (s - o > 0.001) ? sprintf("%.0f%%", 100 * (s - ks) / (s - o)) : "-"
				printf "| %s | %s | %d | %s | %s | %s | %s | %s | %s |\n", a[1], a[2], h[k] / 256,
					s, w[k FS "lifetime"], ks, w[k FS "autostream"], o, share
			}
		}' "$tsv"
}

{
	echo "WAF (media/host page writes), op=$op, logical space 128 MiB, $((block_pages * 4)) KiB erase blocks, greedy GC; counted after the fill and after the first $((physical / 256)) MiB (the device written over once); each trace replayed once"
	echo
	policy_table greedy
	echo
	echo "The last column is (WAF single - WAF kernel) / (WAF single - WAF oracle); \"-\" where the oracle gains less than 0.001. Above 100 %: the oracle's log-scale death-time bins mix data that the series keeps apart."
	if awk -F'\t' '$6 == "cost-benefit" { found = 1 } END { exit !found }' "$tsv"; then
		echo
		echo "The same traces under cost-benefit GC (victim with the highest age x (1 - u) / 2u), $cb_streams streams"
		echo
		policy_table cost-benefit
	fi
	echo
	echo "The same traces with greedy GC that keeps streams apart (one GC destination per stream, as FDP's persistently isolated reclaim unit handles; above, one shared GC destination remixes what the host separated)"
	echo
	policy_table greedy-isolated
	echo
	echo "Mapping variants on the same traces (see bench/waf.sh), greedy GC: what each part of the series' table buys"
	echo
	echo "| workload | streams | series' table | no class streams | no lifetime streams | no file streams | v2 class order |"
	echo "|---|---|---|---|---|---|---|"
	awk -F'\t' 'NR > 1 && $6 == "greedy" { w[$1 FS $2 FS $3] = $4; if (!seen[$1 FS $2]++) order[++n] = $1 FS $2 }
		END {
			for (i = 1; i <= n; i++) {
				k = order[i]; split(k, a, FS)
				printf "| %s | %s | %s | %s | %s | %s | %s |\n", a[1], a[2],
					w[k FS "map"], w[k FS "no-classes"], w[k FS "no-lifetimes"],
					w[k FS "no-files"], w[k FS "v2-order"]
			}
		}' "$tsv"
} > "$out/waf.md"
cat "$out/waf.md"
