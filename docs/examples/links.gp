# docs/guide.md, task 2: bytes per link of one tier, links sorted from the
# busiest down, from the --per-link CSVs of two runs (links that carried
# nothing are left out).
#   gnuplot -e "a='percs.csv'; b='df.csv'; tier='L2'" docs/examples/links.gp   (writes links.png)
if (!exists("a")) a = 'percs.csv'
if (!exists("b")) b = 'df.csv'
if (!exists("tier")) tier = 'L2'
if (!exists("png")) png = 'links.png'
set terminal pngcairo size 640,400 font ',9' noenhanced
set output png
set logscale y
set xlabel sprintf('links of tier %s that carried data, busiest first', tier)
set ylabel 'bytes (MiB)'
# awk keeps the tier's used links (columns by name), sort orders them by bytes
busiest(csv) = sprintf("< awk -F, -v t=%s 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } " . \
  "$c[\"tier\"] == t && $c[\"bytes\"] > 0 { print $c[\"bytes\"] / 1048576 }' %s | sort -g -r", tier, csv)
plot busiest(a) using 0:1 with steps title a, busiest(b) using 0:1 with steps title b
