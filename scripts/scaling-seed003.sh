#!/usr/bin/env bash
# The scaling table and plots of seed 003 (issue 13, part 8) from the
# output of `collsim sweep experiments/seed003-scaling.yaml` and of
# `collsim comm space` (Section 3's model).
#
#   scripts/scaling-seed003.sh SCALING.CSV SPACE_MODEL.CSV OUTDIR
#
# Writes OUTDIR/scaling.md (the table: every row of the sweep, by series,
# beside the model's numbers) and three plots:
#   scaling-time.png    simulated creation time against N (100 colours),
#                       leader-based and MPICH's split
#   scaling-memory.png  peak memory per proclet and per OS process against
#                       N for both splits (100 colours), and group-map
#                       bytes in total for
#                       one colour with ARRAY maps shared, unshared, and
#                       ST's compact map (the "space" series)
#   scaling-group.png   creation time and peak memory per proclet against
#                       the group size at N = 110,000, both splits
# Columns are found by name in the CSV header; the CSV's quoted fields
# (the platform spec holds commas) are split correctly.  Needs gnuplot >= 5
# and awk.  Exit 0, 1 if gnuplot fails, 2 on bad input.
set -euo pipefail
export LC_ALL=C

die() { printf 'scaling-seed003: %s\n' "$*" >&2; exit 2; }
[ $# -eq 3 ] || die "usage: scaling-seed003.sh SCALING.CSV SPACE_MODEL.CSV OUTDIR"
csv=$1 model=$2 out=$3
[ -r "$csv" ] || die "cannot read $csv"
[ -r "$model" ] || die "cannot read $model"
[ -d "$out" ] || die "no folder $out"
command -v gnuplot > /dev/null || die "gnuplot not found (scripts/install-deps.sh installs it)"

# shellcheck source=lib-csv.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib-csv.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

csv_tsv "$csv" > "$tmp/s.tsv"
csv_tsv "$model" > "$tmp/m.tsv"

# pick SERIES IMPL MAP SHARED COLORS COLUMNS...: rows as space-separated
# values of COLUMNS, sorted by the first; "*" matches anything.
pick() {
  local series=$1 impl=$2 map=$3 shared=$4 colors=$5
  shift 5
  awk -F'\t' -v s="$series" -v im="$impl" -v mp="$map" -v sh="$shared" -v co="$colors" -v cols="$*" '
    NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; nc = split(cols, want, " "); next }
    (s == "*" || $c["series"] == s) && (im == "*" || $c["impl"] == im) &&
    (mp == "*" || $c["map"] == mp) && (sh == "*" || $c["shared"] == sh) && (co == "*" || $c["colors"] == co) {
      line = ""
      for (k = 1; k <= nc; k++) line = line (k > 1 ? " " : "") $c[want[k]]
      print line
    }' "$tmp/s.tsv" | sort -g
}

for impl in leader mpich; do
  pick by-n "$impl" '*' '*' 100 n create_s peak_mem_bytes_per_proclet_max map_bytes_total \
    peak_mem_bytes_per_process_max > "$tmp/n-$impl.dat"
  { pick by-n "$impl" '*' '*' 100 colors n create_s peak_mem_bytes_per_proclet_max
    pick by-group "$impl" '*' '*' '*' colors n create_s peak_mem_bytes_per_proclet_max; } |
    awk '$2 == 110000 { print 110000 / $1, $3, $4 }' | sort -g > "$tmp/g-$impl.dat"
done
pick space leader array true 1 n map_bytes_total peak_mem_bytes_per_proclet_max > "$tmp/array-shared.dat"
pick space leader array false 1 n map_bytes_total peak_mem_bytes_per_proclet_max > "$tmp/array-unshared.dat"
awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
  $c["series"] == "space" && $c["map"] != "array" { print $c["n"], $c["map_bytes_total"], $c["peak_mem_bytes_per_proclet_max"], $c["map"] }' \
  "$tmp/s.tsv" | sort -g > "$tmp/compact.dat"
for f in n-leader n-mpich g-leader g-mpich array-shared array-unshared compact; do
  [ -s "$tmp/$f.dat" ] || die "$csv has no rows for the plot's '$f' curve"
done

# ---- the table ----
{
  echo "# Seed 003: scaling of MPI_Comm_split (issue 13, part 8)"
  echo
  echo "Made by \`scripts/scaling-seed003.sh\` from \`scaling.csv\` (\`collsim sweep"
  echo "experiments/seed003-scaling.yaml\`) and \`space-model.csv\` (\`collsim comm"
  echo "space\`).  Simulated seconds on the default \`cpm\` platform, [C,8,2]"
  echo "worlds; bytes as counted by the simulation (peak per proclet: the most"
  echo "any proclet held at once; group maps: all simulated copies at the end)."
  echo
  awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i
      print "| series | impl | N | colours | map | shared | create s | messages | bytes | peak per proclet | peak per OS process | maps per OS process | maps total | wall s |"
      print "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"; next }
    { printf "| %s | %s | %s | %s | %s | %s | %.4g | %s | %s | %s | %s | %s | %s | %.0f |\n", $c["series"], $c["impl"], $c["n"],
        $c["colors"], $c["map"], $c["shared"], $c["create_s"], $c["messages"], $c["bytes"],
        $c["peak_mem_bytes_per_proclet_max"], $c["peak_mem_bytes_per_process_max"], $c["map_bytes_per_process_max"],
        $c["map_bytes_total"], $c["wall_s"] }' "$tmp/s.tsv"
  echo
  echo "## Section 3's model (\`collsim comm space\`)"
  echo
  awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i
      print "| [C,P,M] | N | bits per rank | map per proclet | unshared total | shared per OS process | shared total |"
      print "|---|---|---|---|---|---|---|"; next }
    { printf "| %s | %s | %s | %s | %s | %s | %s |\n", $c["cpm"], $c["n"], $c["bits_per_rank"], $c["map_bytes_per_proclet"],
        $c["unshared_bytes_total"], $c["shared_bytes_per_process"], $c["shared_bytes_total"] }' "$tmp/m.tsv"
} > "$out/.scaling.md"

# ---- the plots ----
if ! gnuplot > "$tmp/gnuplot.log" 2>&1 <<EOF
if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) { set terminal pngcairo enhanced font 'sans,10' size 1000,600 } else { set terminal png size 1000,600 }
set logscale xy
set grid
set key top left
set format x "10^{%L}"
set format y "10^{%L}"

set output "$out/.scaling-time.png"
set title "MPI\\\\_Comm\\\\_split, 100 colours, [C,8,2]: creation time against N"
set xlabel "N (proclets)"
set ylabel "simulated creation time (s)"
plot "$tmp/n-leader.dat" using 1:2 with linespoints title "leader-based (Procedure 1)", \
     "$tmp/n-mpich.dat" using 1:2 with linespoints title "MPICH (allgather + mask allreduce)"

set output "$out/.scaling-memory.png"
set title "Memory against N, [C,8,2]"
set ylabel "bytes"
plot "$tmp/n-leader.dat" using 1:3 with linespoints title "leader, 100 colours: peak per proclet", \
     "$tmp/n-mpich.dat" using 1:3 with linespoints title "MPICH, 100 colours: peak per proclet", \
     "$tmp/n-leader.dat" using 1:5 with linespoints dashtype 2 title "leader, 100 colours: peak per OS process", \
     "$tmp/n-mpich.dat" using 1:5 with linespoints dashtype 2 title "MPICH, 100 colours: peak per OS process", \
     "$tmp/array-unshared.dat" using 1:2 with linespoints title "1 colour, ARRAY maps, one per proclet: total", \
     "$tmp/array-shared.dat" using 1:2 with linespoints title "1 colour, ARRAY maps shared per OS process: total", \
     "$tmp/compact.dat" using 1:2 with linespoints title "1 colour, ST's map shared: total"

set output "$out/.scaling-group.png"
set title "N = 110,000 ([6875,8,2]): against the group size (N / colours)"
set xlabel "group size (members)"
set ylabel "simulated creation time (s)"
set y2label "peak memory per proclet (bytes)"
set y2tics
set logscale y2
set format y2 "10^{%L}"
plot "$tmp/g-leader.dat" using 1:2 with linespoints title "leader: creation time", \
     "$tmp/g-mpich.dat" using 1:2 with linespoints title "MPICH: creation time", \
     "$tmp/g-leader.dat" using 1:3 axes x1y2 with linespoints dashtype 2 title "leader: peak per proclet", \
     "$tmp/g-mpich.dat" using 1:3 axes x1y2 with linespoints dashtype 2 title "MPICH: peak per proclet"
EOF
then
  cat "$tmp/gnuplot.log" >&2
  rm -f "$out"/.scaling-*.png "$out/.scaling.md"
  exit 1
fi
for f in scaling.md scaling-time.png scaling-memory.png scaling-group.png; do
  mv "$out/.$f" "$out/$f"
done
