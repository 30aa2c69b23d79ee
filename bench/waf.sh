#!/bin/bash
# Placement quality: write amplification on a multi-stream SSD model fed
# with the real kernel's commands.
#
# One VM boot runs the workloads on an nvmet namespace offering 4, 8 and 16
# streams (bench/capture.sh) and captures each request from the
# block_rq_hints trace event; each trace is replayed through the FTL
# simulator (sim/) with the same number of streams under six policies:
# single (no streams), lifetime (6.12: lifetime hints only), fstream (one
# stream per kind of file-system structure), autostream (an in-device
# policy), kernel (this series' mapping, as the device received it) and
# oracle (by actual death time), with greedy garbage collection into one
# shared GC destination and into one per stream; with CB_STREAMS streams
# (default 8) also under cost-benefit garbage collection, and on a large
# model: each trace as 32 copies side by side on 4 GiB with 8 MiB erase
# blocks, at 7 % and 28 % over-provisioning (LARGE=0 leaves it out).
#
#   waf.sh [SCALE]   SCALE 4: the full benchmark, 1: bench-quick
# FILES=rate captures with the namespace's write_stream_files set to rate
# (Documentation/block/io-hints.rst): the kernel policy is then the
# series with files spread by write rate, and the map variants stay the
# simulator's copy of the default table (files by ID), for comparison
# on the same trace. EXT4_BLOCK: the block size of the ext4 file systems
# the workloads run on, 4096 (the default) or 1024 (bench/capture.sh).
# PG_SECS: how long the pgbench workload runs pgbench, in seconds
# (default 2 x 20 x SCALE; bench/capture.sh).
# Writes build/bench/waf.md (bench/waf-tables.sh) and build/bench/waf.tsv
# (one row per workload, streams, policy, GC and model).
set -euo pipefail
. "$(dirname "$0")/../scripts/lib.sh"
. "$(dirname "$0")/replay-lib.sh"

scale=${1:-4}
out=$BUILD/bench
traces=$out/traces
streams=${STREAMS:-4 8 16}
workloads=${WORKLOADS:-$workloads_tuned}
policies="single lifetime fstream autostream kernel oracle"
cb_streams=${CB_STREAMS:-8}
files=${FILES:-id}
case $files in id|rate) ;; *) die "FILES: id or rate" ;; esac
ext4_block=${EXT4_BLOCK:-4096}
case $ext4_block in 1024|4096) ;; *) die "EXT4_BLOCK: 1024 or 4096" ;; esac
pg_secs=${PG_SECS:-}
case $pg_secs in *[!0-9]*|0*) die "PG_SECS: seconds, > 0" ;; esac
# The real applications are captured with this many streams only (their
# capture at every count took the run past an hour); capture.sh skips
# them otherwise, and so does the replay below.
app_streams=8
op=${OP:-0.07}
# 256 KiB erase blocks: with 16 streams open on a 256 MiB model, 1 MiB
# blocks would not fit in 7% of spare space.
block_pages=64
# Model names: logical space, erase block, over-provisioning (OP).
pct=$(awk -v op="$op" 'BEGIN { printf "%g", op * 100 }')
small="128MiB-256KiB-$pct%"
large_op="4GiB-8MiB-$pct%"
# The large model: 32 copies of a trace on 32 x 128 MiB = 4 GiB, with
# 8 MiB erase blocks (2048 pages), for CB_STREAMS streams.
large=${LARGE:-1}
replicas=32
large_block_pages=2048
mkdir -p "$out" "$traces"

make -s -C "$ROOT/sim"
gcc -O2 -Wall -o "$out/dbwal" "$ROOT/bench/dbwal.c"
gcc -O2 -Wall -o "$out/memhog" "$ROOT/bench/memhog.c"
gcc -O2 -Wall -o "$out/mailsim" "$ROOT/bench/mailsim.c"

# REUSE_TRACES=1 replays the traces of the last capture again.
if [ "${REUSE_TRACES:-0}" != 1 ]; then
	rm -rf "$traces" "$out/vm-waf/traces"
	log "capturing traces in the VM (streams: $streams; workloads: $workloads)"
	"$ROOT/scripts/vm.sh" --out "$out/vm-waf" --timeout 4200 --mem 3072 -- \
		"$ROOT/bench/capture.sh" /mnt/results/traces "$streams" \
		"$workloads" "$scale" "$app_streams" "$files" "$ext4_block" \
		"$pg_secs" \
		> "$out/capture.log" 2>&1 ||
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

pages=$model_pages
tsv=$out/waf.tsv
echo -e "workload\tstreams\tpolicy\twaf\thost_pages\tgc\tmodel" > "$tsv"

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

# replay WORKLOAD STREAMS POLICY GC MODEL FILL [ftl-sim options]: one
# simulator run, one row of the table. MODEL names the logical space, the
# erase block and the over-provisioning; the replicated models get
# --replicas, which scales the logical space and the warm-up with it.
# FILL: the page writes of the trace's fill. Counting starts once the
# device has been written over once (garbage collection runs from then on)
# and not before the fill has ended.
replay() {
	local wl=$1 n=$2 p=$3 gc=$4 m=$5 fill=$6 report gc_args bp=$block_pages
	local mop=$op k=1 warm waf host differs
	shift 6
	case $m in
	"$small") ;;
	"$large_op") k=$replicas bp=$large_block_pages ;;
	4GiB-8MiB-28%) k=$replicas bp=$large_block_pages mop=0.28 ;;
	*) die "unknown model $m" ;;
	esac
	warm=$(warmup_pages $pages "$mop" "$fill" $k)
	report=$traces/$wl-$n.$p.$gc.${m//%/}.report
	# greedy-isolated: greedy GC with one GC destination per stream, as
	# FDP's persistently isolated handles have.
	gc_args="--gc $gc"
	[ "$gc" = greedy-isolated ] && gc_args="--gc greedy --gc-dest per-stream"
	# shellcheck disable=SC2046,SC2086
	replay_sim "$traces/$wl-$n.replay" "$n" "$mop" "$bp" \
		$gc_args $(variant_args "$p") "$@" > "$report" ||
		die "$wl, $n streams, $p, $gc, $m: the simulator failed"
	read -r waf host differs < <(awk '$1 == "waf" { w = $2 }
		$1 == "host_pages" { h = $2 }
		$1 == "map_differs_from_kernel" { d = $2 }
		END { print w, h, d }' "$report")
	# The simulator's copy of the table must put every write where the
	# kernel did, or the variants mean nothing. With FILES=rate the
	# kernel spread files by rate, and map is what ID would have done.
	[ "$p" = map ] && [ "$files" = id ] && [ "$differs" != 0 ] &&
		die "$wl, $n streams: $differs writes not where the simulator's copy of the mapping puts them"
	echo -e "$wl\t$n\t$p\t$waf\t$host\t$gc\t$m" >> "$tsv"
}

for wl in $workloads; do
	for n in $streams; do
		raw=$traces/$wl-$n.raw
		# The applications: only with app_streams streams (above).
		case $wl in rocksdb*|dbench|pgbench*) [ "$n" = "$app_streams" ] || continue ;; esac
		[ -s "$raw" ] || { echo "no trace for $wl with $n streams" >&2; continue; }
		[ -f "$traces/$wl-$n.fill.raw" ] || : > "$traces/$wl-$n.fill.raw"
		to_sim "$traces/$wl-$n.fill.raw" > "$traces/$wl-$n.fill.trace"
		to_sim "$raw" > "$traces/$wl-$n.trace"
		cat "$traces/$wl-$n.fill.trace" "$traces/$wl-$n.trace" \
			> "$traces/$wl-$n.replay"
		fill=$(sim_pages "$traces/$wl-$n.fill.trace" $pages)
		runs=
		for p in $policies $variants; do runs="$runs $p:greedy"; done
		case " $cb_streams " in
		*" $n "*) for p in $policies; do runs="$runs $p:cost-benefit"; done ;;
		esac
		for p in $policies; do runs="$runs $p:greedy-isolated"; done
		for run in $runs; do
			p=${run%:*} gc=${run#*:}
			replay "$wl" "$n" "$p" "$gc" "$small" "$fill"
		done
		[ "$large" = 1 ] && [ "$n" = "$cb_streams" ] || continue
		head=$(wc -l < "$traces/$wl-$n.fill.trace")
		for m in "$large_op" "4GiB-8MiB-28%"; do
			for gc in greedy greedy-isolated; do
				# 28 %: the FDP-like isolated GC only.
				[ "$m" = "4GiB-8MiB-28%" ] && [ $gc = greedy ] && continue
				for p in $policies; do
					replay "$wl" "$n" "$p" "$gc" "$m" "$fill" \
						--replicas $replicas --replica-head "$head"
				done
			done
		done
	done
done

# What was replayed, for the record next to the table: each trace's
# digest, size and request count (the traces are too large to commit).
(cd "$traces" && echo -e "trace\tsha256\tbytes\trequests" &&
	for f in *.raw; do
		printf '%s\t%s\t%s\t%s\n' "$f" "$(sha256sum < "$f" | cut -c1-64)" \
			"$(wc -c < "$f")" "$(wc -l < "$f")"
	done) > "$out/traces.tsv"
"$ROOT/bench/waf-tables.sh" "$tsv" > "$out/waf.md"
cat "$out/waf.md"
