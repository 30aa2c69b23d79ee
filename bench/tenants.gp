# The series' WAF minus the best causal rival's (both means over the
# draws) against the number of copies K sharing the streams, one line
# per workload; below zero the series is ahead. bench/tenants.sh writes
# the data.
#
#   gnuplot -c bench/tenants.gp DATA PNG TITLE
# DATA: a header row "K" and the workloads' names, quoted, then one row
# per K: 1 -0.008 0.000 ...
set terminal pngcairo size 960,540 font ",10" noenhanced
set output ARG2
set title ARG3
set datafile missing "?"
set key outside right top
set grid
set logscale x 2
set xlabel "K: copies of the workload on the device (8 streams)"
set ylabel "series minus best causal rival (WAF)"
set xzeroaxis lw 2
stats ARG1 skip 1 nooutput
# Eight colours come round again: the ninth line on is dashed.
plot for [c = 2:STATS_columns] ARG1 using 1:c with linespoints lw 2 \
	dt 1 + (c > 9) title columnheader(c)
