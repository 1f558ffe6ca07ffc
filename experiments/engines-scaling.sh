#!/usr/bin/env bash
# Scaling of the two engines as data (issue 29): wall time, CPU time
# (user + sys: the machine is shared, so wall time depends on its load) and
# peak memory of a whole timed run against the number of ranks p = 1,024 .. 1,048,576
# (x4 steps), for three schedules,
#   bcast binomial 1 KiB, allreduce recursive-doubling 1 KiB, barrier dissemination,
# on the native engine (LogGOPS, no platform) and on SimGrid (model SMPI,
# --semantics mpi --gamma 0, on torus:auto/4 resolved for p: 4 ranks per
# node).  Each point is one run of
#   native:  collsim collective --coll C --algo A [SIZE] --ranks P --timed --engine native -q --format json
#   simgrid: collsim collective --coll C --algo A [SIZE] --platform SPEC --timed --model SMPI \
#              --semantics mpi --gamma 0 -q --format json
# under nice and /usr/bin/time (one at a time: the machine is shared).
# SimGrid's series of a schedule stops after the first point that took more
# than SIMGRID_LIMIT seconds of CPU (default 60) or SIMGRID_MAX_MIB MiB of
# memory (default 4096): the next point, 4x the ranks, would take about 4x
# both (a 1,048,576-rank SimGrid run needs more than 20 GiB); the CSV says
# so in a row with engine "simgrid" and a note.
#
# The fourth schedule slot is a PROTOCOL on the native engine's coroutines
# (issue 29, h-coro's work): rows with schedule "protocol ..." are plotted
# in the fourth column of the figure when the CSV has them; this script
# does not make them yet.
#
# Output: results/engines/scaling.csv (one row per point, with the command)
# and results/engines/scaling.png (gnuplot: wall time and peak memory
# against p, log-log, one column per schedule).
#   experiments/engines-scaling.sh [OUTDIR]   (COLLSIM: default ./collsim;
#   SIZES: default "1024 4096 16384 65536 262144 1048576"; PLOT_ONLY=1:
#   redraw the PNG from the CSV)
set -euo pipefail
export LC_ALL=C
COLLSIM=${COLLSIM:-./collsim}
OUTDIR=${1:-results/engines}
SIZES=${SIZES:-1024 4096 16384 65536 262144 1048576}
SIMGRID_LIMIT=${SIMGRID_LIMIT:-60}
SIMGRID_MAX_MIB=${SIMGRID_MAX_MIB:-4096}
csv=$OUTDIR/scaling.csv
png=$OUTDIR/scaling.png
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
schedules=("bcast binomial --bytes 1KiB" "allreduce recursive-doubling --bytes 1KiB" "barrier dissemination")

json() { sed -n "s/.*\"$1\": *\"\{0,1\}\([^,}\"]*\).*/\1/p" "$tmp/out"; }
torus_spec() { "$COLLSIM" platform --platform torus:auto/4 -n "$1" --hierarchy --format csv --no-header | head -1 | cut -d, -f1; }

point() { # schedule engine p cmd... -> a CSV row
  local sched=$1 engine=$2 p=$3 wall kib
  shift 3
  local wall=0 cpu=0 kib user sys
  if nice /usr/bin/time -f '%e %U %S %M' -o "$tmp/time" "$@" < /dev/null > "$tmp/out" 2> "$tmp/err"; then
    read -r wall user sys kib < "$tmp/time"
    cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
    echo "$sched,$engine,$p,$(json messages),$wall,$cpu,$((kib / 1024)),$(json sim_time_s),,$*" >> "$csv"
  else
    echo "$sched,$engine,$p,,,,,,failed: $(tail -1 "$tmp/err" | tr ',' ';'),$*" >> "$csv"
  fi
  last_cpu=$cpu last_mib=$((${kib:-0} / 1024))
}

measure() {
  echo "schedule,engine,p,messages,wall_s,cpu_s,peak_mib,sim_time_s,note,command" > "$csv"
  for s in "${schedules[@]}"; do
    read -r coll algo size <<< "$s"
    name="$coll $algo"
    simgrid_on=true
    for p in $SIZES; do
      # shellcheck disable=SC2086
      point "$name" native "$p" "$COLLSIM" collective --coll "$coll" --algo "$algo" $size --ranks "$p" --timed \
        --engine native -q --format json
      if $simgrid_on; then
        # shellcheck disable=SC2086
        point "$name" simgrid "$p" "$COLLSIM" collective --coll "$coll" --algo "$algo" $size --platform \
          "$(torus_spec "$p")" --timed --model SMPI --semantics mpi --gamma 0 -q --format json
        if awk -v w="$last_cpu" -v l="$SIMGRID_LIMIT" -v m="$last_mib" -v lm="$SIMGRID_MAX_MIB" \
          'BEGIN { exit !(w > l || w == 0 || m > lm) }'; then
          simgrid_on=false
          stop_p=$p
        fi
      else
        echo "$name,simgrid,$p,,,,,,not run: the point at p = $stop_p took more than ${SIMGRID_LIMIT} s of CPU or ${SIMGRID_MAX_MIB} MiB (x4 ranks: about x4 both)," >> "$csv"
      fi
    done
  done
}

plot() {
  command -v gnuplot > /dev/null || { echo "engines-scaling: gnuplot not installed: no PNG" >&2; return 0; }
  local panels=("bcast binomial" "allreduce recursive-doubling" "barrier dissemination" "protocol")
  {
    echo "set terminal pngcairo size 1600,800 font ',10'"
    echo "set output '$png'"
    echo "set logscale xy; set grid; set key top left"
    echo "set multiplot layout 2,4 title 'collsim engines: whole timed run against p (experiments/engines-scaling.sh)'"
    for what in wall mem; do
      for s in "${panels[@]}"; do
        local ylabel="time (s): CPU solid, wall dashed"
        [ $what = mem ] && ylabel="peak memory (MiB)"
        echo "set title '$s'; set xlabel 'ranks p'; set ylabel '$ylabel'"
        if [ "$s" = protocol ] && ! grep -q '^protocol' "$csv"; then
          echo "set label 1 'slot for a protocol on the native engine (h-coro)' at graph 0.05,0.5; unset logscale y"
          echo "plot [1000:1100000] [0:1] NaN notitle; unset label 1; set logscale y"
          continue
        fi
        local engine f plots=()
        for engine in native simgrid; do
          f=$tmp/$(tr -c 'a-z\n' _ <<< "$s")-$engine.dat
          awk -F, -v s="$s" -v e="$engine" 'NR > 1 && $2 == e && $5 > 0 &&
            ($1 == s || (s == "protocol" && index($1, "protocol") == 1)) { print $3, $5, $6, $7 }' "$csv" > "$f"
          [ -s "$f" ] || continue
          local title='SimGrid (model SMPI, torus)' lc=2
          [ $engine = native ] && title='native (LogGOPS)' lc=1
          if [ $what = wall ]; then
            plots+=("'$f' using 1:3 with linespoints lc $lc dt 1 title '$title'")
            plots+=("'$f' using 1:2 with linespoints lc $lc dt 2 notitle")
          else
            plots+=("'$f' using 1:4 with linespoints lc $lc title '$title'")
          fi
        done
        local joined
        joined=$(printf '%s, ' "${plots[@]}")
        echo "plot ${joined%, }"
      done
    done
    echo "unset multiplot"
  } > "$tmp/plot.gp"
  gnuplot "$tmp/plot.gp"
}

mkdir -p "$OUTDIR"
[ "${PLOT_ONLY:-0}" = 1 ] || measure
plot
