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
# The fourth series is a PROTOCOL: seed 000's Rank-and-Hash (processes on
# the engines' coroutines or actors, not a schedule), one run of
#   collsim tree --algo rank-hash -n P -f 0.6 -k 3 --seed 7 [--engine native] -q --format json
# per point (bench/native-procs.sh's command; SimGrid on tree's default
# platform, the native engine on LogGOPS), with the same SimGrid limits.
# SERIES=protocol reruns that series alone, replacing its rows in the CSV;
# SERIES=schedules the three schedules alone.  ENGINES=native (or simgrid)
# reruns that engine's points alone, keeping the other engine's rows of the
# existing CSV (after a change to one engine).
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
SERIES=${SERIES:-all}
ENGINES=${ENGINES:-all}
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

header="schedule,engine,p,messages,wall_s,cpu_s,peak_mib,sim_time_s,note,command"

# After a SimGrid point: stop the SimGrid series if it took more than the limits.
simgrid_over_limit() {
  awk -v w="$last_cpu" -v l="$SIMGRID_LIMIT" -v m="$last_mib" -v lm="$SIMGRID_MAX_MIB" \
    'BEGIN { exit !(w > l || w == 0 || m > lm) }'
}

simgrid_not_run() { # name p
  echo "$1,simgrid,$2,,,,,,not run: the point at p = $stop_p took more than ${SIMGRID_LIMIT} s of CPU or ${SIMGRID_MAX_MIB} MiB (x4 ranks: about x4 both)," >> "$csv"
}

# The row of engine $1 for series $2 at p = $3 in the CSV as it was.
kept_row() { awk -F, -v e="$1" -v s="$2" -v p="$3" '$1 == s && $2 == e && $3 == p' "$tmp/old.csv" >> "$csv"; }

# series NAME NATIVE SIMGRID: for every p, the point of function NATIVE and,
# until the SimGrid series stops, that of SIMGRID (each called with NAME and p;
# with ENGINES set, the other engine's kept row instead).
series() {
  local name=$1 native=$2 simgrid=$3 p
  simgrid_on=true
  for p in $SIZES; do
    if [ "$ENGINES" = simgrid ]; then kept_row native "$name" "$p"; else "$native" "$name" "$p"; fi
    if [ "$ENGINES" = native ]; then
      kept_row simgrid "$name" "$p"
    elif $simgrid_on; then
      "$simgrid" "$name" "$p"
      if simgrid_over_limit; then
        simgrid_on=false
        stop_p=$p
      fi
    else
      simgrid_not_run "$name" "$p"
    fi
  done
}

# The schedule $coll $algo $size (set by measure_schedules) at p ranks.
# shellcheck disable=SC2086
schedule_native() {
  point "$1" native "$2" "$COLLSIM" collective --coll "$coll" --algo "$algo" $size --ranks "$2" --timed \
    --engine native -q --format json
}
# shellcheck disable=SC2086
schedule_simgrid() {
  point "$1" simgrid "$2" "$COLLSIM" collective --coll "$coll" --algo "$algo" $size --platform \
    "$(torus_spec "$2")" --timed --model SMPI --semantics mpi --gamma 0 -q --format json
}

measure_schedules() {
  for s in "${schedules[@]}"; do
    read -r coll algo size <<< "$s"
    series "$coll $algo" schedule_native schedule_simgrid
  done
}

protocol_args=(tree --algo rank-hash -f 0.6 -k 3 --seed 7 -q --format json)
protocol_native() { point "$1" native "$2" "$COLLSIM" "${protocol_args[@]}" -n "$2" --engine native; }
protocol_simgrid() { point "$1" simgrid "$2" "$COLLSIM" "${protocol_args[@]}" -n "$2"; }
measure_protocol() { series "protocol rank-hash" protocol_native protocol_simgrid; }

measure() {
  local keep=$tmp/keep.csv
  : > "$keep"
  if [ -f "$csv" ]; then cp "$csv" "$tmp/old.csv"; else : > "$tmp/old.csv"; fi
  case $ENGINES in
    all | native | simgrid) ;;
    *) echo "engines-scaling: ENGINES must be all, native or simgrid, not '$ENGINES'" >&2; exit 2 ;;
  esac
  case $SERIES in
    all) ;;
    protocol) [ ! -f "$csv" ] || tail -n +2 "$csv" | grep -v '^protocol' > "$keep" || true ;;
    schedules) [ ! -f "$csv" ] || tail -n +2 "$csv" | grep '^protocol' > "$keep" || true ;;
    *) echo "engines-scaling: SERIES must be all, schedules or protocol, not '$SERIES'" >&2; exit 2 ;;
  esac
  echo "$header" > "$csv"
  [ "$SERIES" != protocol ] || cat "$keep" >> "$csv"
  [ "$SERIES" = protocol ] || measure_schedules
  [ "$SERIES" != schedules ] || cat "$keep" >> "$csv"
  [ "$SERIES" = schedules ] || measure_protocol
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
        [ "$s" != protocol ] || echo "set title 'protocol: Rank-and-Hash (f = 0.6, k = 3)'"
        local engine f plots=()
        for engine in native simgrid; do
          f=$tmp/$(tr -c 'a-z\n' _ <<< "$s")-$engine.dat
          awk -F, -v s="$s" -v e="$engine" 'NR > 1 && $2 == e && $5 > 0 &&
            ($1 == s || (s == "protocol" && index($1, "protocol") == 1)) { print $3, $5, $6, $7 }' "$csv" > "$f"
          [ -s "$f" ] || continue
          local title='SimGrid (model SMPI, torus)' lc=2
          [ "$s" != protocol ] || title='SimGrid (LV08, torus:auto/4)'
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
