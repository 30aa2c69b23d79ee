#!/bin/bash
# How a log's completing writes were first tried in the simulator (a
# record of bench/results/v12-log-variants.md, not part of make bench):
# on a capture of the 115 patches, a W record on the files range of 8
# streams (5 to 8) that starts less than 64 sectors before the end of its
# file's previous write and runs past it is relabelled:
#   whole X:  the whole record to stream X;
#   split X:  all but its last 16 sectors (PostgreSQL's 8 KiB page, the
#             one the next commit writes again) to X, those stay.
# Records on every files stream, the middle (7) included, are moved; the
# series' patch 116 is "whole 8" without the middle
# (bench/results/v12-log-relabel.sh). "split" would need the block layer
# to split a bio by placement, which it does not.
#
#   bench/results/v12-log-variants.sh MODE X IN OUT
set -euo pipefail
mode=$1 x=$2 in=$3 out=$4
case $mode in whole|split) ;; *) echo "MODE: whole or split" >&2; exit 2 ;; esac
awk -v mode="$mode" -v x="$x" '
$1 != "W" || $7 < 5 { print; next }
{
	f = $6; s = $2; n = $3; e = s + n
	log_completes = (f in end) && s < end[f] && s >= end[f] - 64 &&
		e > end[f]
	end[f] = e
	if (!log_completes) { print; next }
	if (mode == "whole") { $7 = x; print; next }
	if (n <= 16) { print; next }
	print "W", s, n - 16, $4, $5, $6, x
	print "W", e - 16, 16, $4, $5, $6, $7
}' "$in" > "$out"
