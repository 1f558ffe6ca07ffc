#!/usr/bin/env bash
# Figure 2 and Table 1 of seed 004 (Dinan et al., Section 4.2) from the
# output of `collsim sweep experiments/seed004-fig2*.yaml`.
#
#   scripts/fig2-seed004.sh FIG2.CSV OUTDIR NAME
#
# Writes OUTDIR/NAME.md: the execution time of every mode at every n (with
# the ideal and the baseline), and Table 1, the regroupings per process
# (mean, population sd, min, max) at the largest n of each mode, beside the paper's
# rows; and OUTDIR/NAME.png: time against n (log x), one line per mode.
# Columns are found by name.  Exit 0, 1 if gnuplot fails, 2 on bad input.
set -euo pipefail
export LC_ALL=C

die() { printf 'fig2-seed004: %s\n' "$*" >&2; exit 2; }
[ $# -eq 3 ] || die "usage: fig2-seed004.sh FIG2.CSV OUTDIR NAME"
csv=$1 out=$2 name=$3
[ -r "$csv" ] || die "cannot read $csv"
[ -d "$out" ] || die "no folder $out"
tmpd=$(mktemp -d)
trap 'rm -rf "$tmpd"' EXIT

# mode n time ideal baseline mean sd min max  (mode: none, async, collective-I)
awk -F, '
NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
{ mode = $c["balance"]; if (mode == "collective") mode = mode "-" $c["interval"]
  print mode, $c["n"], $c["time_s"], $c["ideal_s"], $c["baseline_s"], $c["regroupings_mean"], $c["regroupings_sd"],
        $c["regroupings_min"], $c["regroupings_max"] }' "$csv" | sort -k1,1 -k2,2n > "$tmpd/rows"
modes=$(awk '{ print $1 }' "$tmpd/rows" | sort -u | sort -t- -k2,2n)
sizes=$(awk '{ print $2 }' "$tmpd/rows" | sort -un)

{
  echo "# Seed 004 Figure 2 and Table 1 ($name)"
  echo
  echo "Made by scripts/fig2-seed004.sh from $name.csv.  Execution time (s, simulated) of the MCMC benchmark"
  echo "per number of processes; ideal and baseline from the workload (3.5 s and 7 s)."
  echo
  printf '| mode |'; for n in $sizes; do printf ' n = %s |' "$n"; done; echo
  printf '|---|'; for n in $sizes; do printf '%s' '---:|'; done; echo
  for m in $modes; do
    printf '| %s |' "$m"
    for n in $sizes; do awk -v m="$m" -v n="$n" '$1 == m && $2 == n { printf " %.3f |", $3; f = 1 } END { if (!f) printf " - |" }' "$tmpd/rows"; done
    echo
  done
  echo
  echo "Table 1 (regroupings per process: mean, population sd, min, max) at the largest n of each mode, beside the"
  echo "paper's (8,192):"
  echo
  echo "| mode | n | ours | paper |"
  echo "|---|---:|---|---|"
  for m in $modes; do
    case $m in
      none) p="0.00 / 0.00 / 0 / 0" ;;
      async) p="14.38 / 3.54 / 5 / 26" ;;
      collective-64) p="3.75 / 1.20 / 2 / 5" ;;
      collective-128) p="2.62 / 0.48 / 2 / 3" ;;
      collective-*) p="5.38 / 2.12 / 2 / 8" ;;
      *) p="-" ;;
    esac
    awk -v m="$m" -v p="$p" '$1 == m { n = $2; line = sprintf("| %s | %d | %.2f / %.2f / %d / %d | %s |", m, $2, $6, $7, $8, $9, p) }
      END { if (n) print line }' "$tmpd/rows"
  done
} > "$out/$name.md"

plot=""
for m in $modes; do
  awk -v m="$m" '$1 == m { print $2, $3 }' "$tmpd/rows" > "$tmpd/$m.dat"
  plot="$plot\"$tmpd/$m.dat\" using 1:2 with linespoints title \"$m\", "
done
awk '!seen[$2]++ { print $2, $4, $5 }' "$tmpd/rows" > "$tmpd/bounds.dat"
plot="$plot\"$tmpd/bounds.dat\" using 1:2 with lines dashtype 2 title \"ideal\", \"$tmpd/bounds.dat\" using 1:3 with lines dashtype 3 title \"baseline\""
if ! gnuplot <<GP; then
set terminal pngcairo size 900,600 font ",11" noenhanced
set output "$out/$name.png"
set logscale x 2
set xlabel "processes"
set ylabel "execution time (s, simulated)"
set title "Seed 004 Figure 2: MCMC weak scaling (collsim, no timing noise)"
set key outside right
set grid
set yrange [0:8]
plot $plot
GP
  echo "fig2-seed004: gnuplot failed" >&2
  exit 1
fi
