# Bars: patched/base IOPS ratio per fio case, with the range the spread
# between boots allows as error bars and the 0.99 target as a line.
# gnuplot because the report needs PNG plots and the shell has no way to
# draw them; bench/report.sh writes the data.
#
#   gnuplot -c bench/overhead.gp DATA PNG TITLE
# DATA: one row per case: "label" ratio ratio_low ratio_high
set terminal pngcairo size 960,480 font ",10" noenhanced
set output ARG2
set title ARG3
set style data histograms
set style histogram errorbars gap 1 lw 1
set style fill solid 0.85 border -1
set key off
set grid ytics
set ylabel "IOPS patched / base"
set xtics rotate by -30
set bmargin 6
# Always show the 0.99 target and 1.0; wider only as far as the data goes
# (QEMU's NVMe rows spread far), within 0.5..2.
set yrange [0.5 < * < 0.985 : 1.005 < * < 2]
set arrow from graph 0, first 0.99 to graph 1, first 0.99 nohead dt 2 lw 2 lc rgb "red"
set label "target 0.99" at graph 0.99, first 0.99 right offset 0, 0.7 tc rgb "red" front
set arrow from graph 0, first 1 to graph 1, first 1 nohead lc rgb "gray40"
plot ARG1 using 2:3:4:xtic(1) lc rgb "steelblue"
