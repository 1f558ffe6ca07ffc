#!/usr/bin/env bash
# Issue 31, part 4: results/comm-split/ from experiments/comm-split.yaml,
# comm-split-large.yaml and comm-split-table1.yaml (every split scheme through
# `collsim comm compare` on seed 000's BG/P torus; see the YAMLs' headers).
#
#   experiments/comm-split.sh [--max-n N] [--jobs J]    both sweeps' points with n <= N
#                                                       (default: all, up to 1,048,576),
#                                                       then the CSVs and the plots
#   experiments/comm-split.sh --plots-only              the CSVs and plots from the sweeps
#
# Writes, in results/comm-split/:
#   sweep.csv, sweep-large.csv   the two sweeps' rows (one per scheme and point;
#                      resumable: run again with a larger --max-n and only the
#                      new points run)
#   time.csv           engine, n, colors, key, scheme, sim_time_s, time_vs_mpich
#   messages.csv       engine, n, colors, key, scheme, messages, messages_expected, messages_vs_mpich
#   memory.csv         engine, n, colors, key, scheme, peak_mem_bytes_max, peak_mem_bytes_mean, memory_vs_mpich
#                      (engine: native or simgrid, from the sweeps' model column;
#                      X_vs_mpich: X over MPICH's split at the same point)
#   winners.csv        per point, the fastest scheme, the one with fewest messages,
#                      the one with least peak memory
#   table1.csv         seed 000's Table 1 points (n = 32,768, c = 1-8, key = rank)
#   table1-simgrid.csv MPICH's split on SimGrid at Table 1's c = 1 point
#                      (experiments/comm-split-table1.yaml)
#   tables.md          the README's tables (experiments/comm-split-tables.py)
#   NAME.cmd           the commands that made NAME.csv
#   time.png, messages.png, memory.png   against n, one panel per colour count
#                      (key = rank) and one of random keys at c = 8, one line per
#                      scheme, native solid, SimGrid dashed (gnuplot)
# Runs from the source folder or anywhere ($COLLSIM: the binary, default
# ./collsim of the source folder).  Niced: the machine is shared.
set -euo pipefail
export LC_ALL=C
src=$(cd "$(dirname "$0")/.." && pwd)
collsim=${COLLSIM:-$src/collsim}
out=$src/results/comm-split
max_n=1048576 jobs=1 mode=sweep
while [ $# -gt 0 ]; do
  case $1 in
    --max-n) max_n=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --plots-only) mode=plots; shift ;;
    *) echo "comm-split.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
mkdir -p "$out"
tmpd=$(mktemp -d "${TMPDIR:-/tmp}/comm-split.XXXXXX")
trap 'rm -rf "$tmpd"' EXIT

# Experiment $1 (a file name in experiments/) with the n of at most max_n,
# into $2; 1 when it has none.
experiment_upto() {
  local ns
  ns=$(sed -n 's/^  n: \[\(.*\)\]$/\1/p' "$src/experiments/$1" | tr -d ' ' | tr ',' '\n' |
    awk -v max="$max_n" '$1 <= max' | paste -sd, | sed 's/,/, /g')
  [ -n "$ns" ] || return 1
  sed "s/^  n: \[.*\]$/  n: [$ns]/" "$src/experiments/$1" > "$2"
}

# One sweep: experiment $1 into results/comm-split/$2, and its .cmd.
sweep_one() {
  local yaml=$1 csv=$2
  experiment_upto "$yaml" "$tmpd/$yaml" || return 0
  nice -n 10 "$collsim" sweep "$tmpd/$yaml" --jobs "$jobs" --out "$out/$csv"
  cat > "$out/${csv%.csv}.cmd" << EOF
# The command that made $csv, run from the source folder: the points of
# experiments/$yaml with n <= $max_n (--max-n; the sweep resumes, so a
# larger --max-n adds the missing points).  wall_s is the only column that
# varies between runs.
experiments/comm-split.sh --max-n $max_n
EOF
}

run_sweep() {
  sweep_one comm-split.yaml sweep.csv
  sweep_one comm-split-large.yaml sweep-large.csv
  sweep_one comm-split-table1.yaml table1-simgrid.csv
}

# Every row of both sweeps, one header.
all_rows() {
  cat "$out/sweep.csv"
  [ ! -f "$out/sweep-large.csv" ] || tail -n +2 "$out/sweep-large.csv"
}

# Columns $3.. of CSV $1 by name, into $2 (rows in the sweep's order);
# "engine" is derived from the model column (loggops ...: native, else
# simgrid).
pick() {
  local in=$1 dest=$2
  shift 2
  awk -F, -v want="$*" '
    NR == 1 { n = split(want, w, " "); for (i = 1; i <= NF; i++) col[$i] = i
              for (j = 1; j <= n; j++) if (!(w[j] in col) && w[j] != "engine") { print "no column " w[j] > "/dev/stderr"; exit 1 } }
    { line = ""
      for (j = 1; j <= n; j++) {
        v = w[j] != "engine" ? $col[w[j]] : NR == 1 ? "engine" : $col["model"] ~ /^loggops/ ? "native" : "simgrid"
        line = line (j > 1 ? "," : "") v
      }
      print line }' "$in" > "$dest"
}

# winners.csv: for every point, the scheme with the least time, the fewest
# messages and the least peak memory (ties: the first in the sweep's order).
winners() {
  pick "$tmpd/all.csv" /dev/stdout engine n colors key scheme sim_time_s messages peak_mem_bytes_max |
    awk -F, 'NR > 1 { k = $1 "," $2 "," $3 "," $4
                      if (!(k in t)) { order[++n] = k; t[k] = $6; ts[k] = $5; m[k] = $7; ms[k] = $5; b[k] = $8; bs[k] = $5 }
                      if ($6 + 0 < t[k] + 0) { t[k] = $6; ts[k] = $5 }
                      if ($7 + 0 < m[k] + 0) { m[k] = $7; ms[k] = $5 }
                      if ($8 + 0 < b[k] + 0) { b[k] = $8; bs[k] = $5 } }
             END { print "engine,n,colors,key,fastest,sim_time_s,fewest_messages,messages,least_memory,peak_mem_bytes_max"
                   for (i = 1; i <= n; i++) { k = order[i]; print k "," ts[k] "," t[k] "," ms[k] "," m[k] "," bs[k] "," b[k] } }' \
    > "$out/winners.csv"
}

# table1.csv: seed 000's Table 1 points (n = 32,768, c = 1, 2, 4, 8, key =
# rank) of the sweep, every scheme, on every engine that ran them.
table1() {
  pick "$tmpd/all.csv" /dev/stdout engine n colors key scheme sim_time_s messages bytes peak_mem_bytes_max |
    awk -F, 'NR == 1 || ($2 == 32768 && $3 <= 8 && $4 == "rank")' > "$out/table1.csv"
}

# Columns engine n colors key scheme $3.. of all.csv into $1, with the last
# column's ratio to MPICH's split at the same point appended as $2.
with_ratio() {
  local dest=$1 ratio=$2
  shift 2
  pick "$tmpd/all.csv" /dev/stdout engine n colors key scheme "$@" |
    awk -F, -v OFS=, -v name="$ratio" '
      NR == 1 { print $0, name; next }
      { line[NR] = $0; k[NR] = $1 "," $2 "," $3 "," $4; v[NR] = $NF; if ($5 == "mpich") base[k[NR]] = $NF }
      END { for (i = 2; i <= NR; i++) print line[i], (base[k[i]] > 0 ? sprintf("%.6g", v[i] / base[k[i]]) : "") }' > "$dest"
}

derived_csvs() {
  all_rows > "$tmpd/all.csv"
  with_ratio "$out/time.csv" time_vs_mpich sim_time_s
  with_ratio "$out/messages.csv" messages_vs_mpich messages_expected messages
  with_ratio "$out/memory.csv" memory_vs_mpich peak_mem_bytes_mean peak_mem_bytes_max
  winners
  table1
  local f
  for f in time messages memory winners table1; do
    cat > "$out/$f.cmd" << EOF
# $f.csv: from the rows of sweep.csv and sweep-large.csv (see their .cmd
# files for the runs), made by
# experiments/comm-split.sh --plots-only, which also draws the PNGs.
experiments/comm-split.sh --plots-only
EOF
  done
}

# One PNG: column $2 of $1.csv (engine, n, colors, key, scheme, values ...)
# against n, log-log, one panel per colour count with sorted keys and a
# last one with random keys at 8 colours; one colour per scheme, the native
# engine solid, SimGrid (n <= 8,192) dashed with open points.
plot() {
  local name=$1 col=$2 label=$3
  local csv=$out/$name.csv
  local colors schemes
  colors=$(tail -n +2 "$csv" | cut -d, -f3 | sort -n -u | head -5 | paste -sd' ')
  schemes=$(tail -n +2 "$csv" | cut -d, -f5 | awk '!seen[$0]++' | paste -sd' ')
  gnuplot 2> >(grep -v "no valid points\|empty x range\|^ *line 0\|^\s*$" >&2) << EOF
set terminal pngcairo size 1500,900 font ",10" noenhanced
set output "$out/$name.png"
set datafile separator ","
set logscale xy
set key top left font ",7"
set xlabel "n (ranks)"
set ylabel "$label"
schemes = "$schemes"
colours = "#1f77b4 #ff7f0e #2ca02c #d62728 #9467bd #8c564b #e377c2 #7f7f7f #bcbd22 #17becf #000000"
do for [i = 1:words(colours)] { set linetype i lc rgb word(colours, i) lw 1.5 }
set multiplot layout 2,3 title "MPI_Comm_split schemes, torus:auto/4: $label against n (solid: native engine, LogGOPS; dashed: SimGrid on the torus)"
do for [c in "$colors"] {
  set title sprintf("c = %s colours, key = rank", c)
  plot for [i = 1:words(schemes)] \
    sprintf("< awk -F, '\$1 == \"native\" && \$3 == %s && \$4 == \"rank\" && \$5 == \"%s\"' $csv", c, word(schemes, i)) \
    using 2:$col with linespoints lt i pt 7 ps 0.5 title word(schemes, i), \
    for [i = 1:words(schemes)] \
    sprintf("< awk -F, '\$1 == \"simgrid\" && \$3 == %s && \$4 == \"rank\" && \$5 == \"%s\"' $csv", c, word(schemes, i)) \
    using 2:$col with linespoints lt i dt 2 pt 6 notitle
}
set title "c = 8 colours, key = random (keyed schemes only)"
plot for [i = 1:words(schemes)] \
  sprintf("< awk -F, '\$1 == \"native\" && \$3 == 8 && \$4 == \"random\" && \$5 == \"%s\"' $csv", word(schemes, i)) \
  using 2:$col with linespoints lt i pt 7 ps 0.5 title word(schemes, i), \
  for [i = 1:words(schemes)] \
  sprintf("< awk -F, '\$1 == \"simgrid\" && \$3 == 8 && \$4 == \"random\" && \$5 == \"%s\"' $csv", word(schemes, i)) \
  using 2:$col with linespoints lt i dt 2 pt 6 notitle
unset multiplot
EOF
}

plots() {
  derived_csvs
  python3 "$src/experiments/comm-split-tables.py" "$out"
  plot time 6 "simulated time (s)"
  plot messages 7 "messages"
  plot memory 7 "peak memory per rank, max (bytes)"
}

case $mode in
  sweep) run_sweep; plots ;;
  plots) plots ;;
esac
