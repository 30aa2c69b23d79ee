#!/bin/bash
# What putting a log's completed blocks on the last files stream (the
# series' patch 116) does to pgbench, tried on captures of the 115 patches
# before the kernel had it: a record of how
# bench/results/v12-log-relabel-*.{tsv,md} were made, not part of make
# bench. PostgreSQL writes its WAL page by page: each commit writes the
# last 8 KiB page again, in place, and the commit that fills it writes it
# once more with the start of the next. The rewrites die at the next
# commit; the page's last version stays until the segment is recycled.
# rate puts both on the first files stream (the WAL is the file written
# most). The patch sends a write that starts in the last 64 sectors of its
# file's previous write and runs past its end to the last stream.
#
# The relabelling: in each W record on the files range of 8 streams (5 to
# 8), such a write placed by rate (stream 5 or 6) goes to stream 8. A
# record on the middle stream (7: new blocks, or a level folded for want of
# writes) stays: the kernel counts the log's writes on the last level,
# and whether that keeps it unfolded a capture without them cannot tell.
# So this approximates a capture of the series with the patch; a capture
# of it is the measurement.
#
# UNDO=1 goes the other way, on a capture of the 117 patches: such a
# write on the last stream (8) goes back to the first files stream (5),
# about where rate put it without the rule (it may have been on 6), for
# bench/results/v12-{headline,pgc2}-undo-8draws.tsv (shared GC
# destination; their K = 8 to 32 rows for the second).
#
# SPLIT=1, on a capture of the 117 patches, does what patch 118 does: such
# a write on the last stream is split where its file's previous write
# ended; the front stays there, the rest goes to the stream of the file's
# previous write that was not such a one (where rate put its rewrites;
# the first files stream, 5, if there was none), for
# bench/results/v13-split-relabel-*.{tsv,md}.
#
#   [UNDO=1 | SPLIT=1] bench/results/v12-log-relabel.sh TRACES OUT
# TRACES: a capture (the pgbench*-8.replay and .fill.trace in it); OUT: a
# directory for the relabelled traces and bench/tenants.sh's tables (K =
# 1 to 32, 8 draws, shared and per-stream GC destinations).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
traces=$1 out=$2
mkdir -p "$out/traces"
workloads=
for replay in "$traces"/pgbench*-8.replay; do
	w=$(basename "$replay" -8.replay)
	workloads+="$w "
	cp "$traces/$w-8.fill.trace" "$out/traces/"
	awk -v undo="${UNDO:-0}" -v split_="${SPLIT:-0}" '
	$1 != "W" || $7 < 5 { print; next }
	{
		f = $6; s = $2; e = $2 + $3
		log_completes = (f in end) && s < end[f] && s + 64 >= end[f] &&
			e > end[f]
		last = end[f]
		end[f] = e
		if (split_ && log_completes && $7 == 8) {
			rest = (f in placed) ? placed[f] : 5
			print "W", s, last - s, $4, $5, $6, 8
			print "W", last, e - last, $4, $5, $6, rest
			next
		}
		if (!log_completes)
			placed[f] = $7
		if (undo && log_completes && $7 == 8)
			$7 = 5
		else if (!undo && !split_ && log_completes &&
			 ($7 == 5 || $7 == 6))
			$7 = 8
		print
	}' "$replay" > "$out/traces/$w-8.replay"
done
for dest in shared per-stream; do
	BUILD=$out TRACES=$out/traces WORKLOADS="$workloads" SEEDS=8 \
		GC_DEST=$dest "$here/../tenants.sh"
done
