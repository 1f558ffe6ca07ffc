#!/usr/bin/env bash
# Figure 1 of seed 004 (Dinan et al., Section 4.1) from the output of
# `collsim sweep experiments/seed004-fig1.yaml`: creation cost against the
# output group size for the three methods, and the crossover sizes.
#
#   scripts/fig1-seed004.sh FIG1.CSV OUTDIR
#
# Writes OUTDIR/fig1.md (one row per group size: each method's creation
# time in microseconds and messages; then the crossovers: the smallest
# group size from which Algorithm 1, and the direct creation, cost at least
# as much as MPI_Comm_create) and OUTDIR/fig1.png (log-log, gnuplot).
# Columns are found by name; the quoted platform field is split correctly.
# Exit 0, 1 if gnuplot fails, 2 on bad input.
set -euo pipefail
export LC_ALL=C

die() { printf 'fig1-seed004: %s\n' "$*" >&2; exit 2; }
[ $# -eq 2 ] || die "usage: fig1-seed004.sh FIG1.CSV OUTDIR"
csv=$1 out=$2
[ -r "$csv" ] || die "cannot read $csv"
[ -d "$out" ] || die "no folder $out"
tmpd=$(mktemp -d)
trap 'rm -rf "$tmpd"' EXIT

# method group_size create_us messages, one line per row
awk '
function split_csv(line, f,    n, i, c, field, inq) {
  n = 0; field = ""; inq = 0
  for (i = 1; i <= length(line); i++) {
    c = substr(line, i, 1)
    if (c == "\"") { inq = !inq; continue }
    if (c == "," && !inq) { f[++n] = field; field = ""; continue }
    field = field c
  }
  f[++n] = field
  return n
}
NR == 1 { n = split_csv($0, h); for (i = 1; i <= n; i++) col[h[i]] = i; next }
{ split_csv($0, f); printf "%s %s %.3f %s\n", f[col["method"]], f[col["group_size"]], f[col["create_s"]] * 1e6, f[col["messages"]] }
' "$csv" | sort -k2,2n > "$tmpd/rows"

for m in group-intercomm group-direct parent-collective; do
  awk -v m="$m" '$1 == m { print $2, $3 }' "$tmpd/rows" > "$tmpd/$m.dat"
done

{
  echo "# Seed 004 Figure 1: communicator creation cost on 8,192 BG/P cores"
  echo
  echo "Made by scripts/fig1-seed004.sh from fig1.csv (\`collsim sweep experiments/seed004-fig1.yaml\`)."
  echo "Simulated creation time (the last member's end of the creation, all starting at 0) in microseconds,"
  echo "and messages, per output group size (ranks 0 .. g-1 of MPI_COMM_WORLD, in rank order)."
  echo
  echo "| g | Algorithm 1 (us) | msgs | direct (us) | msgs | MPI_Comm_create (us) | msgs |"
  echo "|---:|---:|---:|---:|---:|---:|---:|"
  join <(awk '$1 == "group-intercomm" { print $2, $3, $4 }' "$tmpd/rows") \
       <(awk '$1 == "group-direct" { print $2, $3, $4 }' "$tmpd/rows") |
    join - <(awk '$1 == "parent-collective" { print $2, $3, $4 }' "$tmpd/rows") |
    awk '{ printf "| %s | %s | %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5, $6, $7 }'
  echo
  for m in group-intercomm group-direct; do
    join <(awk -v m="$m" '$1 == m { print $2, $3 }' "$tmpd/rows") \
         <(awk '$1 == "parent-collective" { print $2, $3 }' "$tmpd/rows") |
      awk -v m="$m" 'BEGIN { x = "" } x == "" && $2 >= $3 { x = $1 }
        END { if (x == "") printf "- %s is cheaper than MPI_Comm_create at every size measured.\n", m;
              else printf "- %s costs at least as much as MPI_Comm_create from g = %s on.\n", m, x }'
  done
} > "$out/fig1.md"

if ! gnuplot <<GP; then
set terminal pngcairo size 900,600 font ",11" noenhanced
set output "$out/fig1.png"
set logscale xy
# g = 1 costs nothing (a duplicate of MPI_COMM_SELF, no message): off the scale
set yrange [1:*]
set xlabel "output group size g"
set ylabel "creation time (us, simulated)"
set title "Seed 004 Figure 1: communicator creation on 8,192 BG/P cores (collsim)"
set key top left
set grid
plot "$tmpd/group-intercomm.dat" using 1:2 with linespoints title "Algorithm 1 (group-collective)", \
     "$tmpd/group-direct.dat" using 1:2 with linespoints title "direct group-collective (Section 5.1)", \
     "$tmpd/parent-collective.dat" using 1:2 with linespoints title "MPI_Comm_create (parent-collective)"
GP
  echo "fig1-seed004: gnuplot failed" >&2
  exit 1
fi
