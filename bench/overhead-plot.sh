#!/bin/bash
# The overhead table as a plot: per null_blk case, the series' IOPS over
# the base's (medians) with the range the boots allow, and the 0.998 line
# the series must stay above. Reads and writes build/bench/ (or DIR).
#
#   bench/overhead-plot.sh [DIR]      -> DIR/overhead.png
set -euo pipefail
dir=${1:-$(cd "$(dirname "$0")/.." && pwd)/build/bench}
tsv=$dir/overhead.tsv
[ -s "$tsv" ] || { echo "overhead-plot: no $tsv (run make bench)" >&2; exit 1; }
command -v gnuplot >/dev/null || { echo "overhead-plot: gnuplot missing (make deps)" >&2; exit 1; }

# One line per case: index, label, ratio, low, high.
awk -F'\t' 'NR > 1 {
	dev = $1; sub(/nullb-streams-elsewhere/, "elsewhere", dev)
	printf "%d \"%s %s %s %sj\" %s %s %s\n", NR - 2, dev, $2, $3, $4, $11, $12, $13
}' "$tsv" > "$dir/overhead.plot.dat"

n=$(wc -l < "$dir/overhead.plot.dat")
gnuplot <<GP
set terminal pngcairo size 900,460 font ",9" noenhanced
set output "$dir/overhead.png"
set xrange [-0.5:$n - 0.5]
set bmargin 12
set title "series / unpatched 7.3, guest instructions per I/O (null_blk, QEMU icount)"
set ylabel "IOPS ratio (median; bar: range over boots)"
set yrange [0.99:1.01]
set xtics rotate by 45 right
set grid ytics
set key off
plot "$dir/overhead.plot.dat" using 1:3:4:5:xticlabels(2) with yerrorbars pt 7 ps 0.6, \
     0.998 with lines dt 2
GP
rm -f "$dir/overhead.plot.dat"
echo "overhead-plot: $dir/overhead.png"
