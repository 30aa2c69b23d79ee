#!/bin/bash
# Issue 15's headline from one command (make bench-headline): the series
# with write_stream_files = rate against every causal rival, with 8
# streams, on the thirteen workloads, as K = 1 to 32 instances share the
# device, for both GC destinations.
#
# One capture (bench/waf.sh: FILES=rate, 8 streams, SCALE 4, pgbench run
# for PG_SECS seconds so that it writes the device several times over),
# then bench/tenants.sh with 2 draws, shared and per-stream GC
# destinations side by side (one core each). pgbench-backup and
# pgbench-swap are the held-out workloads: no rule was tuned on them.
#
#   headline.sh
# Environment: WORKLOADS (the thirteen), PG_SECS (480: pgbench's trace,
# fill included, writes the device about 3.8 times over, as dbwal's (3.6)
# and pgbench with a backup's (3.5) do in their time; 160 s, 1.7), SEEDS
# (2).
# Writes build/bench/waf.{md,tsv} (the capture on the small model),
# build/bench/tenants{,-per-stream}.{tsv,md,png} and the capture's log,
# and prints its wall time.
set -euo pipefail
. "$(dirname "$0")/../scripts/lib.sh"
. "$(dirname "$0")/replay-lib.sh"

workloads=${WORKLOADS:-$workloads_tuned $workloads_held_out}
start=$(date +%s)

STREAMS=8 FILES=rate LARGE=0 CB_STREAMS=0 PG_SECS=${PG_SECS:-480} \
	WORKLOADS="$workloads" "$ROOT/bench/waf.sh" 4
log "capture and small-model replay: $(( $(date +%s) - start )) s"

out=$BUILD/bench
pids=()
for dest in shared per-stream; do
	STREAMS=8 SEEDS=${SEEDS:-2} GC_DEST=$dest WORKLOADS="$workloads" \
		"$ROOT/bench/tenants.sh" > "$out/headline-$dest.log" 2>&1 &
	pids+=($!)
done
rc=0
for pid in "${pids[@]}"; do
	wait "$pid" || rc=1
done
[ $rc = 0 ] || die "tenants.sh failed; see $out/headline-*.log"

cat "$out/tenants.md" "$out/tenants-per-stream.md"
t=$(( $(date +%s) - start ))
echo "make bench-headline: wall time $(( t / 60 )) min $(( t % 60 )) s"
