# docs/guide.md, task 1: the algorithm's simulated time against n, one line
# per (f, k), from the CSV of `collsim sweep docs/examples/tree-nfk.yaml`.
#   gnuplot -e "csv='tree-nfk.csv'" docs/examples/tree-nfk.gp   (writes tree-nfk.png)
if (!exists("csv")) csv = 'tree-nfk.csv'
if (!exists("png")) png = 'tree-nfk.png'
set terminal pngcairo size 640,400 font ',9' noenhanced
set output png
set logscale x 2
set xlabel 'n (processes)'
set ylabel 'sim_time_alg_s (us)'
set key top left
# awk picks the rows of one (f, k) by column name and prints n and the time in us
rows(f, k) = sprintf("< awk -F, -v f=%s -v k=%s 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } " . \
  "$c[\"f\"] == f && $c[\"k\"] == k { print $c[\"n\"], $c[\"sim_time_alg_s\"] * 1e6 }' %s", f, k, csv)
plot for [f in '0.1 0.6'] for [k in '2 3 4'] rows(f, k) using 1:2 with linespoints title sprintf('f = %s, k = %s', f, k)
