#!/usr/bin/env bash
# Issue 31, part 4: results/comm-split/ from experiments/comm-split.yaml
# (every split scheme through `collsim comm compare` on seed 000's BG/P
# torus; see the YAML's header).
#
#   experiments/comm-split.sh [--max-n N] [--jobs J]    the sweep's points with n <= N
#                                                       (default: all, up to 131,072),
#                                                       then the CSVs and the plots
#   experiments/comm-split.sh --table1                  seed 000's Table 1 with every
#                                                       scheme (n = 32,768; hours)
#   experiments/comm-split.sh --plots-only              the CSVs and plots from sweep.csv
#
# Writes, in results/comm-split/:
#   sweep.csv          the sweep's rows (one per scheme and point; resumable: run
#                      again with a larger --max-n and only the new points run)
#   time.csv           n, colors, key, scheme, sim_time_s, time_ratio
#   messages.csv       n, colors, key, scheme, messages, messages_expected, messages_ratio
#   memory.csv         n, colors, key, scheme, peak_mem_bytes_max, peak_mem_bytes_mean, memory_ratio
#   NAME.cmd           the commands that made NAME.csv
#   time.png, messages.png, memory.png   against n, one panel per colour count,
#                      one line per scheme and key (gnuplot)
#   table1.csv, table1.cmd   (--table1)
# Runs from the source folder or anywhere ($COLLSIM: the binary, default
# ./collsim of the source folder).  Niced: the machine is shared.
set -euo pipefail
export LC_ALL=C
src=$(cd "$(dirname "$0")/.." && pwd)
collsim=${COLLSIM:-$src/collsim}
out=$src/results/comm-split
max_n=131072 jobs=1 mode=sweep
while [ $# -gt 0 ]; do
  case $1 in
    --max-n) max_n=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --table1) mode=table1; shift ;;
    --plots-only) mode=plots; shift ;;
    *) echo "comm-split.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
mkdir -p "$out"

# The experiment with the n of at most max_n (the file itself when all).
experiment_upto() {
  local ns
  ns=$(sed -n 's/^  n: \[\(.*\)\]$/\1/p' "$src/experiments/comm-split.yaml" | tr -d ' ' | tr ',' '\n' |
    awk -v max="$max_n" '$1 <= max' | paste -sd, | sed 's/,/, /g')
  [ -n "$ns" ] || { echo "comm-split.sh: no n <= $max_n in the experiment" >&2; exit 2; }
  sed "s/^  n: \[.*\]$/  n: [$ns]/" "$src/experiments/comm-split.yaml" > "$1"
}

run_sweep() {
  local tmpd
  tmpd=$(mktemp -d "${TMPDIR:-/tmp}/comm-split.XXXXXX")
  trap 'rm -rf "$tmpd"' EXIT
  experiment_upto "$tmpd/comm-split.yaml"
  nice -n 10 "$collsim" sweep "$tmpd/comm-split.yaml" --jobs "$jobs" --out "$out/sweep.csv"
  cat > "$out/sweep.cmd" << EOF
# The command that made sweep.csv, run from the source folder: the points of
# experiments/comm-split.yaml with n <= $max_n (--max-n; the sweep resumes, so
# a larger --max-n adds the missing points).  wall_s is the only column that
# varies between runs.
experiments/comm-split.sh --max-n $max_n
EOF
}

# Columns $3.. of CSV $1 by name, into $2 (rows in the sweep's order).
pick() {
  local in=$1 dest=$2
  shift 2
  awk -F, -v want="$*" '
    NR == 1 { n = split(want, w, " "); for (i = 1; i <= NF; i++) col[$i] = i
              for (j = 1; j <= n; j++) if (!(w[j] in col)) { print "no column " w[j] > "/dev/stderr"; exit 1 } }
    { line = ""; for (j = 1; j <= n; j++) line = line (j > 1 ? "," : "") $col[w[j]]; print line }' "$in" > "$dest"
}

derived_csvs() {
  local s=$out/sweep.csv
  pick "$s" "$out/time.csv" n colors key scheme sim_time_s time_ratio
  pick "$s" "$out/messages.csv" n colors key scheme messages messages_expected messages_ratio
  pick "$s" "$out/memory.csv" n colors key scheme peak_mem_bytes_max peak_mem_bytes_mean memory_ratio
  local f
  for f in time messages memory; do
    cat > "$out/$f.cmd" << EOF
# $f.csv: columns of sweep.csv (see sweep.cmd for the runs), picked by
# experiments/comm-split.sh --plots-only, which also draws $f.png.
experiments/comm-split.sh --plots-only
EOF
  done
}

# One PNG: column $2 of $1.csv against n, log-log, one panel per colour
# count, one line per (scheme, key).
plot() {
  local name=$1 column=$2 label=$3
  local csv=$out/$name.csv
  local colors keys schemes
  colors=$(tail -n +2 "$csv" | cut -d, -f2 | sort -n -u | paste -sd' ')
  keys=$(tail -n +2 "$csv" | cut -d, -f3 | sort -u | paste -sd' ')
  schemes=$(tail -n +2 "$csv" | cut -d, -f4 | awk '!seen[$0]++' | paste -sd' ')
  gnuplot << EOF
set terminal pngcairo size 1500,900 font ",10" noenhanced
set output "$out/$name.png"
set datafile separator ","
set logscale xy
set key top left font ",8"
set xlabel "n (ranks)"
set ylabel "$label"
set multiplot layout 2,3 title "MPI_Comm_split schemes on seed 000's BG/P torus: $label against n"
do for [c in "$colors"] {
  set title sprintf("%s colours", c)
  plot for [s in "$schemes"] for [k in "$keys"] \
    sprintf("< awk -F, '\$2 == %s && \$3 == \"%s\" && \$4 == \"%s\"' $csv", c, k, s) \
    using 1:$column with linespoints title sprintf("%s, key %s", s, k)
}
unset multiplot
EOF
}

plots() {
  derived_csvs
  plot time 5 "simulated time (s)"
  plot messages 5 "messages"
  plot memory 5 "peak memory per rank, max (bytes)"
}

case $mode in
  sweep) run_sweep; plots ;;
  plots) plots ;;
  table1)
    nice -n 10 "$collsim" sweep "$src/experiments/comm-split-table1.yaml" --jobs "$jobs" --out "$out/table1.csv"
    cat > "$out/table1.cmd" << 'EOF'
# The command that made table1.csv (seed 000's Table 1, every scheme), run
# from the source folder; wall_s is the only column that varies.
collsim sweep experiments/comm-split-table1.yaml --out results/comm-split/table1.csv
EOF
    ;;
esac
