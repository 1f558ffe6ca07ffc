#!/usr/bin/env bash
# The two engines side by side on contended schedules (issue 29, part 4):
# the same schedule on the same torus timed by SimGrid's flow models (CM02:
# max-min sharing of every link's bandwidth, latency the sum of the hops';
# LV08, SimGrid's default: CM02 with its latency x 13.01 and bandwidth
# x 0.97 factors) and by the native engine (loggops-links: LogGOPS plus
# store-and-forward serialisation on every link of the route, first come
# first served; loggops-cut-through: the same with virtual cut-through;
# loggops: LogGOPS alone, no links; sim/engine/native/links.c).
#
# Machine: torus:4x4x4/1 and torus:8x8x8/1 (one rank per node, so every
# message crosses links), links of 500 MB/s (2 ns per byte exactly: LogGOPS's
# G is a whole number of ns) and 100 ns per hop.
#
# Calibration, fitted on ONE point: a binomial broadcast of 1 byte on
# torus:2x2x2/1 (three rounds of one-hop messages) under SimGrid CM02; its
# time t gives the native engine's L = t / 3 - 2 ns (the byte's 2 ns on its
# link).  Every other row is a prediction.  The native engine gets
# o = g = O = 0 (collsim's SimGrid runs charge no software overhead unless
# --o-send/--o-recv; SimGrid has no gap), S = 2^30 (every message eager, as
# collsim's default --semantics eager on SimGrid), G = 0 with links (their
# bandwidth is the per-byte cost) and G = 2 ns/B without.  --gamma 0: no
# reduction compute on either engine.
#
# The linear alltoall (every message posted at once) runs on 4x4x4 only:
# on 8x8x8 (261,632 flows at once) SimGrid CM02 had not finished after
# 5 minutes.
#
# Output: results/engines/contention.csv, one row per schedule, platform and
# model: the simulated time, the most loaded link's bytes and its bound
# (max_link_bytes / 500 MB/s: no model that respects the links' bandwidth
# can finish sooner), the ratio to SimGrid CM02, and the command.
#   experiments/engines-contention.sh [OUTDIR]     (COLLSIM: default ./collsim)
set -euo pipefail
export LC_ALL=C
COLLSIM=${COLLSIM:-./collsim}
OUTDIR=${1:-results/engines}
csv=$OUTDIR/contention.csv
tmp=$(mktemp -d "${TMPDIR:-/tmp}/engines-contention.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
link=bw=500MBps,lat=100ns
ns_per_byte=2
shapes=(4x4x4 8x8x8)
schedules=(
  "allgather ring --block 64KiB"
  "allgather recursive-doubling --block 64KiB"
  "alltoall pairwise --block 64KiB"
  "alltoall linear --block 64KiB"
  "allreduce recursive-doubling --bytes 1MiB"
  "bcast binomial --bytes 1MiB"
)

# Column $2 of the CSV (with header, quoted fields) in file $1, every data row.
column() {
  python3 -c 'import csv, sys
for row in csv.DictReader(open(sys.argv[1])): print(row[sys.argv[2]])' "$1" "$2"
}

# run OUT ARGS...: one collsim collective run, CSV with --links into OUT.
run() {
  local out=$1
  shift
  nice "$COLLSIM" collective "$@" --timed --gamma 0 --links -q --format csv > "$out"
}

calibrate_L() {
  run "$tmp/cal.csv" -c bcast -a binomial --bytes 1 --platform "torus:2x2x2/1,$link" --model CM02
  local t
  t=$(column "$tmp/cal.csv" sim_time_s | sed -n 1p)
  awk -v t="$t" -v d="$ns_per_byte" 'BEGIN { printf "%d", t * 1e9 / 3 - d + 0.5 }'
}

# row SCHEDULE SIZE PLATFORM ENGINE MODEL PARAMS ARGS...
row() {
  local sched=$1 size=$2 platform=$3 engine=$4 model=$5 params=$6
  shift 6
  run "$tmp/row.csv" "$@"
  local p messages time maxb bound
  p=$(column "$tmp/row.csv" p | sed -n 1p)
  messages=$(column "$tmp/row.csv" messages | sed -n 1p)
  time=$(column "$tmp/row.csv" sim_time_s | sed -n 1p)
  maxb=$(column "$tmp/row.csv" max_bytes | sort -n | tail -1)
  bound=$(awk -v b="$maxb" -v d="$ns_per_byte" 'BEGIN { printf "%.6g", b * d * 1e-9 }')
  echo "$sched|$size|$platform|$p|$engine|$model|$params|$messages|$maxb|$bound|$time|collsim collective $* --timed --gamma 0 --links -q --format csv" >> "$tmp/rows.csv"
}

measure() {
  local L
  L=$(calibrate_L)
  local links_params="$L,0,0,0,1073741824,0" plain_params="$L,0,0,$ns_per_byte,1073741824,0"
  : > "$tmp/rows.csv"
  for shape in "${shapes[@]}"; do
    local platform="torus:$shape/1,$link"
    for s in "${schedules[@]}"; do
      read -r coll algo sizeopt size <<< "$s"
      # 261,632 flows at once: SimGrid had not finished after 5 minutes.
      [ "$shape $coll $algo" != "8x8x8 alltoall linear" ] || continue
      local base=(-c "$coll" -a "$algo" "$sizeopt" "$size" --platform "$platform")
      row "$coll $algo" "$size" "$platform" simgrid CM02 "" "${base[@]}" --model CM02
      row "$coll $algo" "$size" "$platform" simgrid LV08 "" "${base[@]}" --model LV08
      row "$coll $algo" "$size" "$platform" native loggops-links "L=$L o=0 g=0 G=0 S=2^30 O=0" "${base[@]}" \
        --engine native --model loggops-links --loggops "$links_params"
      row "$coll $algo" "$size" "$platform" native loggops-cut-through "L=$L o=0 g=0 G=0 S=2^30 O=0" "${base[@]}" \
        --engine native --model loggops-cut-through --loggops "$links_params"
      row "$coll $algo" "$size" "$platform" native loggops "L=$L o=0 g=0 G=$ns_per_byte S=2^30 O=0" "${base[@]}" \
        --engine native --model loggops --loggops "$plain_params"
      echo "engines-contention: $shape $coll $algo done" >&2
    done
  done
  # The ratios to the CM02 row of the same schedule and platform (the
  # first of each group of five) and to the link bound; fields with a
  # comma quoted.
  {
    echo "schedule,size,platform,p,engine,model,params,messages,max_link_bytes,link_bound_s,sim_time_s,vs_cm02,vs_bound,command"
    awk -F'|' '{ if ($6 == "CM02") ref = $11
      line = ""
      for (i = 1; i <= 13; i++) {
        f = i == 12 ? sprintf("%.3f", $11 / ref) : i == 13 ? sprintf("%.3f", $11 / $10) : $(i < 12 ? i : 12)
        if (i == 13) f = f "," q($12)
        line = line (i > 1 ? "," : "") (i < 12 ? q(f) : f)
      }
      print line }
      function q(x) { return index(x, ",") ? "\"" x "\"" : x }' "$tmp/rows.csv"
  } > "$tmp/contention.csv"
  mkdir -p "$OUTDIR"
  mv "$tmp/contention.csv" "$csv"
}

measure
echo "engines-contention: wrote $csv" >&2
