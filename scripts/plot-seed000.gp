# Plots of the seed-000 reproduction (Section 6 of the paper) from the sweep
# results.  Usage, from anywhere:
#   gnuplot -e "dir='results/seed000'" scripts/plot-seed000.gp
# Reads DIR/fig3.csv, fig4.csv, table1.csv, table2.csv (those present) and
# writes DIR/fig3.png, fig4.png, table1.png, table2.png.  Columns are found by
# name in the CSV header (awk), so the plots survive new columns.  Needs
# gnuplot >= 5 (Debian's gnuplot-nox has the pngcairo and png terminals) and
# awk, sort, tr.

if (!exists("dir")) dir = "results/seed000"

if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
  term_cmd = "set terminal pngcairo enhanced font 'sans,10' size "
} else {
  term_cmd = "set terminal png enhanced size "
}
size_wide = "1400,860"
size_one = "1000,560"

# ---- data access ----
have(file) = system(sprintf("test -s '%s' && echo 1 || echo 0", file)) + 0
# awk prologue: column index by header name, c["name"]
hdr = 'NR==1{for(i=1;i<=NF;i++)c[$i]=i;next}'
# "x y" pairs of the rows satisfying the awk condition cond, sorted by x
rows(file, cond, x, y) = sprintf("< awk -F, '%s (%s) {print %s, %s}' '%s' | sort -g", hdr, cond, x, y, file)
# distinct values of a column, in order of first appearance / numerically sorted
distinct(file, col) = system(sprintf("awk -F, '%s !seen[$c[\"%s\"]]++ {printf \"%%s \", $c[\"%s\"]}' '%s'", hdr, col, col, file))
distinct_num(file, col) = system(sprintf("awk -F, '%s {print $c[\"%s\"]+0}' '%s' | sort -gu | tr '\\n' ' '", hdr, col, file))
max_num(file, col) = system(sprintf("awk -F, '%s {v=$c[\"%s\"]+0; if (v>m) m=v} END {print m+0}' '%s'", hdr, col, file)) + 0
is_algo(a) = sprintf('$c["algo"]=="%s"', a)
col(name) = sprintf('$c["%s"]', name)
ms(name) = sprintf('$c["%s"]*1000', name)

pretty(a) = a eq "centralized" ? "Centralized" : \
            a eq "shrink-balance" ? "Shrink-and-Balance" : \
            a eq "rank-hash" ? "Rank-and-Hash" : \
            a eq "rank-hash-split" ? "Rank-and-Hash, multi-colour" : \
            a eq "comm-split" ? "MPI\\_Comm\\_split" : a

set style data linespoints
set key outside right top vertical Left reverse noopaque nobox samplen 2
set grid
set pointsize 1.2

# ---------------------------------------------------------------- Fig. 3 ----
f3 = dir."/fig3.csv"
if (have(f3)) {
  eval term_cmd.size_wide
  set output dir."/fig3.png"
  fvals = distinct_num(f3, "f")
  algos3 = distinct(f3, "algo")
  nf = words(fvals)
  cols = nf > 1 ? 2 : 1
  rowsn = (nf + 1) / 2
  set multiplot layout rowsn, cols title "Seed 000, Fig. 3: time of the bracketed phase vs n (k = 3, BG/P torus, 4 cores/node)"
  set logscale x 2
  set logscale y 10
  set format x "%.0f"
  set format y "%g"
  set xlabel "processes n"
  set ylabel "simulated time (ms)"
  do for [fv in fvals] {
    set title sprintf("f = %s", fv)
    plot for [a in algos3] rows(f3, is_algo(a).' && '.col("f")."==".fv, col("n"), ms("sim_time_s")) title pretty(a)
  }
  unset multiplot
  unset logscale
  set output
}

# ---------------------------------------------------------------- Fig. 4 ----
# Messages of the algorithm alone (column `messages`), divided by the
# centralized scheme's at the same f.
f4 = dir."/fig4.csv"
norm4(file, a) = sprintf("< awk -F, 'NR==FNR {if (FNR==1) {for(i=1;i<=NF;i++)c[$i]=i; next} if ($c[\"algo\"]==\"centralized\") base[$c[\"f\"]+0]=$c[\"messages\"]; next} FNR>1 && $c[\"algo\"]==\"%s\" && base[$c[\"f\"]+0]>0 {print $c[\"f\"], $c[\"messages\"]/base[$c[\"f\"]+0]}' '%s' '%s' | sort -g", a, file, file)
# the paper's only numbers: at f = 0.6, 2.1, 2.6 and 4.9 x 10^5
$paper4 << EOD
0.6 1.0 1.2381 2.3333
EOD
if (have(f4)) {
  eval term_cmd.size_one
  set output dir."/fig4.png"
  n4 = max_num(f4, "n")
  algos4 = distinct(f4, "algo")
  set title sprintf("Seed 000, Fig. 4: messages normalised to Centralized at the same f (n = %d, k = 3)", n4)
  set xlabel "participation fraction f"
  set ylabel "messages / Centralized's messages"
  set xrange [0:1]
  set format x "%g"
  set format y "%g"
  set yrange [0:*]
  plot for [a in algos4] norm4(f4, a) title pretty(a), \
       $paper4 using 1:3 with points pt 7 ps 2 lc rgb "black" title "paper (f = 0.6): Shrink-and-Balance", \
       $paper4 using 1:4 with points pt 5 ps 2 lc rgb "black" title "paper (f = 0.6): Rank-and-Hash"
  set autoscale
  set output
}

# --------------------------------------------------------------- Table 1 ----
t1 = dir."/table1.csv"
$paper1 << EOD
# colours  MPI_Comm_split(ms)  Rank-and-Hash(ms)   (paper, Table 1, 32K cores of BG/P)
1 134.968 0.708
2 106.573 0.713
4 96.989 0.760
8 93.536 0.785
EOD
if (have(t1)) {
  eval term_cmd.size_one
  set output dir."/table1.png"
  n1 = max_num(t1, "n")
  set title sprintf("Seed 000, Table 1: comm-split vs multi-colour Rank-and-Hash, n = %d, f = 1", n1)
  set logscale x 2
  set logscale y 10
  set format x "%.0f"
  set format y "%g"
  set xlabel "colours (splits) c"
  set ylabel "time of the bracketed phase (ms)"
  plot rows(t1, is_algo("comm-split"), col("colors"), ms("sim_time_s")) title "ours: comm-split", \
       rows(t1, is_algo("rank-hash-split"), col("colors"), ms("sim_time_s")) title "ours: rank-hash-split", \
       $paper1 using 1:2 dashtype 2 title "paper: MPI\\_Comm\\_split (BG/P)", \
       $paper1 using 1:3 dashtype 2 title "paper: Rank-and-Hash (BG/P)"
  unset logscale
  set output
}

# --------------------------------------------------------------- Table 2 ----
t2 = dir."/table2.csv"
if (have(t2)) {
  eval term_cmd.size_wide
  set output dir."/table2.png"
  algos2 = distinct(t2, "algo")
  f2 = distinct_num(t2, "f")
  f2 = words(f2) == 1 ? word(f2, 1) : f2
  set multiplot layout 2,2 title sprintf("Seed 000, Table 2: growth with n (f = %s, k = 3)", f2)
  set logscale x 2
  set logscale y 10
  set format x "%.0f"
  set format y "%g"
  set xlabel "processes n"
  set title "space: peak memory of the largest process (words)"
  set ylabel "words"
  plot for [a in algos2] rows(t2, is_algo(a), col("n"), col("peak_mem_words_max")) title pretty(a)
  set title "time of the bracketed phase"
  set ylabel "ms"
  plot for [a in algos2] rows(t2, is_algo(a), col("n"), ms("sim_time_s")) title pretty(a)
  set title "message count (algorithm alone)"
  set ylabel "messages"
  plot for [a in algos2] rows(t2, is_algo(a), col("n"), col("messages")) title pretty(a)
  set title "largest message"
  set ylabel "bytes"
  plot for [a in algos2] rows(t2, is_algo(a), col("n"), col("max_message_bytes")) title pretty(a)
  unset multiplot
  unset logscale
  set output
}
