# Plots of the seed-002 reproduction (Section 5 of the paper, Figures 5-8)
# from the CSV files of scripts/reproduce-seed002.sh.  Usage, from anywhere:
#   gnuplot -e "dir='results/seed002'" scripts/plot-seed002.gp
# Reads DIR/fig5.csv, fig6.csv, fig7.csv, fig8.csv (those present) and writes
# DIR/fig5.png ... fig8.png: microseconds per Allreduce against processes (against
# nodes for Figure 8), one line per tree (column "curve").  Columns are found by
# name in the CSV header (awk), so the plots survive new columns.  Needs
# gnuplot >= 5 (pngcairo, else png) and awk, sort, tr.

if (!exists("dir")) dir = "results/seed002"

if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
  term_cmd = "set terminal pngcairo enhanced font 'sans,10' size "
} else {
  term_cmd = "set terminal png enhanced size "
}
size_one = "1000,600"

# ---- data access ----
have(file) = system(sprintf("test -s '%s' && echo 1 || echo 0", file)) + 0
hdr = 'NR==1{for(i=1;i<=NF;i++)c[$i]=i;next}'
# "x y" pairs of the rows of one curve, sorted by x
rows(file, cv, x) = sprintf("< awk -F, '%s $c[\"curve\"]==\"%s\" {print $c[\"%s\"], $c[\"us_per_allreduce\"]}' '%s' | sort -g", hdr, cv, x, file)
# the curves, in order of first appearance
curves(file) = system(sprintf("awk -F, '%s !seen[$c[\"curve\"]]++ {printf \"%%s \", $c[\"curve\"]}' '%s'", hdr, file))
# a value of the first row (of any curve)
first(file, col) = system(sprintf("awk -F, '%s {print $c[\"%s\"]; exit}' '%s'", hdr, col, file))
# the legend of a curve: its tree arguments ("--groups 2" -> "groups=2")
label(file, cv) = system(sprintf("awk -F, '%s $c[\"curve\"]==\"%s\" {n = split($c[\"tree_args\"], w, \" \"); t = \"\"; for (i = 1; i <= n; i++) if (w[i] == \"--trees\") { t = t \" \" w[i + 1]; i++ } else if (w[i] ~ /^--/) { t = t \" \" substr(w[i], 3) \"=\" w[i + 1]; i++ }; l = $c[\"curve\"]; if (l == \"lam\") print \"LAM-MPI default trees (lam)\"; else if (l == \"best\") print \"best tree of the search, reconfigured:\" t; else print substr(t, 2); exit}' '%s'", hdr, cv, file))

set style data linespoints
set key inside left top vertical Left reverse opaque box samplen 2 noenhanced
set grid
set pointsize 1.0
set yrange [0:*]
set format y "%g"

# the paper's only absolute values for Figure 6 (Section 5.2, n = 32): the
# fastest configuration, 1322 us, and LAM-MPI, 1.98 times slower
$paper6 << EOD
32 1322
32 2617.56
EOD

do for [f in "5 6 7"] {
  file = dir."/fig".f.".csv"
  if (have(file)) {
    eval term_cmd.size_one
    set output dir."/fig".f.".png"
    cl = first(file, "cluster")
    it = first(file, "iterations")
    what = cl eq "4w" ? "4-way cluster (8 x 4-way Pentium Pro 166 MHz)" : \
           cl eq "8w" ? "8-way cluster (4 x 8-way Pentium Pro 200 MHz)" : \
           cl eq "2w" ? "2-way cluster (16 x 2-way Pentium III 450 MHz)" : cl
    set title sprintf("Seed 002, Figure %s: Allreduce, %s, %s iterations (simulated)", f, what, it) noenhanced
    set xlabel "processes"
    set ylabel "microseconds per Allreduce"
    set xrange [0:33]
    cvs = curves(file)
    if (f eq "6") {
      plot for [i = 1:words(cvs)] rows(file, word(cvs, i), "n") title label(file, word(cvs, i)) dt i lw 1.5, \
           $paper6 every ::0::0 using 1:2 with points pt 7 ps 2 lc rgb "black" title "paper, n = 32: fastest configuration (1322 us)", \
           $paper6 every ::1::1 using 1:2 with points pt 5 ps 2 lc rgb "black" title "paper, n = 32: LAM-MPI (1322 us x 1.98)"
    } else {
      plot for [i = 1:words(cvs)] rows(file, word(cvs, i), "n") title label(file, word(cvs, i)) dt i lw 1.5
    }
    set output
  }
}

file = dir."/fig8.csv"
if (have(file)) {
  eval term_cmd.size_one
  set output dir."/fig8.png"
  it = first(file, "iterations")
  set title sprintf("Seed 002, Figure 8: Allreduce, 2-way cluster scaled from 1 to 16 nodes, 2 processes per node, %s iterations (simulated)", it) noenhanced
  set xlabel "nodes (processes = 2 x nodes)"
  set ylabel "microseconds per Allreduce"
  set xrange [0:17]
  cvs = curves(file)
  plot for [i = 1:words(cvs)] rows(file, word(cvs, i), "nodes") title label(file, word(cvs, i)) dt i lw 1.5
  set output
}
