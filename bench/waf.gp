# Grouped bars: WAF per workload (rows) under each placement policy
# (columns 2..7). gnuplot because the report needs PNG plots and the
# shell has no way to draw them; bench/report.sh writes the data.
#
#   gnuplot -c bench/waf.gp DATA PNG TITLE
# DATA: a header row of quoted policy names, then one row per workload:
#   "workload" "single" "lifetime (6.12)" ...
#   mixed 1.008 1.000 ...
set terminal pngcairo size 960,480 font ",10" noenhanced
set output ARG2
set title ARG3
set datafile missing "?"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set key top left
set grid ytics
set ylabel "WAF (media / host page writes)"
# Ten workloads with names like rocksdb-nodiscard overlap when level.
set xtics rotate by -20
set bmargin 5
# Bars start at 1, where no data is copied; at least up to 1.05 so that
# a plot of all-1.000 bars still has a scale.
set yrange [1:1.05<*]
plot for [c = 2:7] ARG1 using c:xtic(1) title columnheader(c)
