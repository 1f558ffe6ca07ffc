#!/usr/bin/env bash
# Processes on the native engine against issue 29's targets (part 5):
# Rank-and-Hash on 131,072 ranks in at most 10 s and 4 GiB, on 1,048,576
# ranks in at most 3 minutes and 20 GiB; MPICH's MPI_Comm_split and the
# leader split at seed 003's 110,000 proclets (cpm:6875,8,2).  Each run's
# wall time and peak RSS (/usr/bin/time -v) is printed beside its target
# and beside the SimGrid engine's figure for the same command, where
# SimGrid finishes in a few minutes (SIMGRID=0 skips those runs; the
# others are marked "not run").  Every run is niced and runs alone: run
# this on an otherwise idle machine for figures worth quoting.
#
#   bench/native-procs.sh [COLLSIM]      (output: bench/out/native-procs.txt)
set -euo pipefail
collsim=${1:-${COLLSIM:-./collsim}}
simgrid=${SIMGRID:-1}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/native-procs.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# run NAME ARGS...: "wall_s cpu_s peak_gib verified" of one niced run
# (cpu_s: user + system, the figure to compare on a shared machine)
run() {
  local name=$1
  shift
  if ! nice /usr/bin/time -v "$collsim" "$@" --format json -q >"$tmp/$name.json" 2>"$tmp/$name.time"; then
    echo "failed - - no"
    return
  fi
  local wall cpu rss verified
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {n = split($2, t, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + t[i]; print s}' "$tmp/$name.time")
  cpu=$(awk -F': ' '/User time|System time/ {s += $2} END {printf "%.1f", s}' "$tmp/$name.time")
  rss=$(awk -F': ' '/Maximum resident set size/ {printf "%.2f", $2 / 1048576}' "$tmp/$name.time")
  verified=$(grep -o '"verified": [a-z]*' "$tmp/$name.json" | awk '{print $2}')
  echo "$wall $cpu $rss ${verified:-?}"
}

# row LABEL TARGET_S TARGET_GIB SIMGRID_TOO ARGS...
row() {
  local label=$1 target_s=$2 target_gib=$3 sg_too=$4
  shift 4
  read -r wall cpu rss ok < <(run "native-$label" "$@" --engine native)
  local sg="not run"
  if [ "$sg_too" = 1 ] && [ "$simgrid" = 1 ]; then
    read -r swall scpu srss sok < <(run "simgrid-$label" "$@")
    sg="${swall} s wall, ${scpu} s CPU, ${srss} GiB (verified $sok)"
  fi
  printf '%-32s %8s s wall %7s s CPU %6s GiB  %-5s  target <= %3s s, <= %2s GiB  SimGrid: %s\n' "$label" "$wall" \
    "$cpu" "$rss" "$ok" "$target_s" "$target_gib" "$sg"
}

echo "# bench/native-procs.sh: $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# collsim $("$collsim" --version 2>/dev/null | head -1)"
echo "# case: native engine's wall time, CPU time (user + system), peak RSS, verified; issue 29's target; SimGrid's"
row "tree rank-hash n=131072" 10 4 1 tree --algo rank-hash -n 131072 -f 0.6 -k 3 --seed 7
row "tree rank-hash n=1048576" 180 20 0 tree --algo rank-hash -n 1048576 -f 0.6 -k 3 --seed 7
row "comm split mpich cpm:6875,8,2" 219 - 1 comm split --impl mpich --cpm 6875,8,2
row "comm split leader cpm:6875,8,2" - - 1 comm split --impl leader --cpm 6875,8,2
