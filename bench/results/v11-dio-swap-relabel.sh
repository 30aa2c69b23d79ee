#!/bin/bash
# What marking direct writes to new blocks did to swap: a record of how
# bench/results/v11-dio-swap-relabel.{tsv,md} were made, not part of make
# bench. The v11-dio capture (make bench-headline, 2026-12-06 08:32) was of
# the series with three more patches, tried and not kept: iomap marked
# direct writes to blocks just allocated or unwritten BIO_NEW_BLOCKS, so
# that "rate" put them in the middle of the files range, uncounted. In
# the swap workload fio writes its 8 MiB data file at random with
# O_DIRECT into the space it fallocated: each block's first write is to
# an unwritten extent, and went to the middle stream, beside the log
# written once; the file's other writes stayed on the first files stream.
# Relabelling the data file's middle-stream writes back onto the first
# stream is about where the series without those patches puts them (the
# file is the hottest either way, and new blocks are not counted), so the
# replay below approximates the same capture without the change. Not
# exactly: without the change, the series also put the first writes of
# the data file on the middle stream while the first level of the files
# range was folded (written too little yet): 1046 of them in the capture
# of the 115 patches (v10-headline), against 2647 here. KEEP=N leaves the
# data file's first N writes where they are, to bound that.
#
#   [KEEP=N] bench/results/v11-dio-swap-relabel.sh TRACES OUT
# TRACES: the v11-dio capture (build/bench/traces-v11); OUT: a directory
# for the relabelled trace and tenants.sh's tables (K = 16 and 32, 8
# draws, shared GC destination). KEEP: 0 unless given.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
traces=$1 out=$2
mkdir -p "$out/traces"
cp "$traces/swap-8.fill.trace" "$out/traces/"
# The data file is the one with writes on stream 5 (the first files
# stream of 8): every other file writes only the middle (7) or a class
# stream.
data=$(awk '$1 == "W" && $7 == 5 { print $6 }' "$traces/swap-8.replay" |
	sort -u)
[ "$(echo "$data" | wc -l)" = 1 ] || { echo "not one data file: $data" >&2; exit 1; }
awk -v f="$data" -v keep="${KEEP:-0}" '
	$1 == "W" && $6 == f && ++n > keep && $7 == 7 { $7 = 5 }
	{ print }' "$traces/swap-8.replay" > "$out/traces/swap-8.replay"
BUILD=$out TRACES=$out/traces WORKLOADS=swap TENANTS="16 32" SEEDS=8 \
	GC_DEST=shared "$here/../tenants.sh"
