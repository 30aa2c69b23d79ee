#!/bin/bash
# Traces of real workloads for the FTL simulator (sim/). One VM boot runs
# bench/capture.sh: each workload on an nvmet namespace offering N streams
# for each N of STREAMS, every request issued to it recorded from the
# block_rq_hints trace event and checked against nvmet's own per-stream
# counts. Each trace is then converted to the simulator's records
# (sim/README.md, "Trace format"). block_rq_hints carries no file stream
# ID, so every record has file 0: the kernel policy replays the streams as
# the kernel chose them, the map policy sees no files.
#
#   traces.sh [SCALE]   (default 4; SCALE multiplies the workloads' time)
# Environment: STREAMS ("4 8 16"; the applications, rocksdb*, dbench and
# pgbench*, only with 8), WORKLOADS (default below), EXT4_BLOCK (4096 or
# 1024) and PG_SECS (bench/capture.sh); REUSE_TRACES=1 converts the raw
# traces of the last capture again.
# Writes build/bench/traces/: per workload and stream count WL-N.raw (the
# trace_pipe lines), WL-N.fill.trace and WL-N.trace (the records of the
# long-lived fill and of the workload) and WL-N.replay (both, in order);
# build/bench/traces.tsv (each raw trace's SHA-256, size and requests) and
# build/bench/capture.log.
set -euo pipefail
. "$(dirname "$0")/../scripts/lib.sh"

scale=${1:-4}
out=$BUILD/bench
traces=$out/traces
streams=${STREAMS:-4 8 16}
# fio jobs (mixed, mixed-nohints, bgcopy, swap), small programs in bench/
# (varmail, dbwal), RocksDB's db_bench (on ext4 with and without online
# discard, and on XFS), dbench, PostgreSQL's pgbench alone, next to a
# backup under ionice -c3 and under swap pressure (bench/capture.sh).
workloads=${WORKLOADS:-mixed mixed-nohints varmail dbwal bgcopy swap rocksdb rocksdb-nodiscard rocksdb-xfs dbench pgbench pgbench-backup pgbench-swap}
app_streams=8
ext4_block=${EXT4_BLOCK:-4096}
case $ext4_block in 1024|4096) ;; *) die "EXT4_BLOCK: 1024 or 4096" ;; esac
pg_secs=${PG_SECS:-}
case $pg_secs in *[!0-9]*|0*) die "PG_SECS: seconds, > 0" ;; esac
mkdir -p "$out" "$traces"

if [ "${REUSE_TRACES:-0}" != 1 ]; then
	for p in dbwal memhog mailsim; do
		gcc -O2 -Wall -o "$out/$p" "$ROOT/bench/$p.c"
	done
	rm -rf "$traces" "$out/vm-traces/traces"
	log "capturing traces in the VM (streams: $streams; workloads: $workloads)"
	"$ROOT/scripts/vm.sh" --out "$out/vm-traces" --timeout 4200 --mem 3072 -- \
		"$ROOT/bench/capture.sh" /mnt/results/traces "$streams" \
		"$workloads" "$scale" "$app_streams" "$ext4_block" "$pg_secs" \
		> "$out/capture.log" 2>&1 ||
		die "capture failed; see $out/capture.log and $out/vm-traces/console.log"
	mkdir -p "$traces"
	cp "$out"/vm-traces/traces/*.raw "$traces"/
fi

# trace_pipe lines -> simulator records:
#   ... block_rq_hints: 259,1 WS 2048 + 8 class=data hint=0 stream=3 access=none
# -> W 2048 8 data 0 0 3
to_sim() {
	awk '{
		for (i = 1; i <= NF; i++) if ($i == "block_rq_hints:") break
		rwbs = $(i + 2); sector = $(i + 3); nr = $(i + 5)
		if (nr == 0) next
		if (rwbs ~ /^D/) { print "D", sector, nr; next }
		if (rwbs !~ /^W/) next
		split("", f); f["file"] = 0
		for (j = i + 6; j <= NF; j++) { split($j, kv, "="); f[kv[1]] = kv[2] }
		print "W", sector, nr, f["class"], f["hint"], f["file"], f["stream"]
	}' "$1"
}

for raw in "$traces"/*.raw; do
	case $raw in *.fill.raw) continue ;; esac
	t=${raw%.raw}
	[ -f "$t.fill.raw" ] || : > "$t.fill.raw"
	to_sim "$t.fill.raw" > "$t.fill.trace"
	to_sim "$raw" > "$t.trace"
	cat "$t.fill.trace" "$t.trace" > "$t.replay"
done

# What was captured, for the record next to any table made from it: each
# trace's digest, size and request count (the traces are too large to
# commit).
(cd "$traces" && echo -e "trace\tsha256\tbytes\trequests" &&
	for f in *.raw; do
		printf '%s\t%s\t%s\t%s\n' "$f" "$(sha256sum < "$f" | cut -c1-64)" \
			"$(wc -c < "$f")" "$(wc -l < "$f")"
	done) > "$out/traces.tsv"
replays=("$traces"/*.replay)
log "traces: ${#replays[@]} in $traces (sim/README.md: ftl-sim --trace)"
