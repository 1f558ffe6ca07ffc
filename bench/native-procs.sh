#!/usr/bin/env bash
# Processes on the native engine against issue 29's targets (part 5):
# Rank-and-Hash on 131,072 ranks in at most 10 s and 4 GiB, on 1,048,576
# ranks in at most 3 minutes and 20 GiB; MPICH's MPI_Comm_split and the
# leader split at seed 003's 110,000 proclets (cpm:6875,8,2).  Each run's
# wall time, CPU time and peak RSS (/usr/bin/time -v) is printed beside its
# target, then the SimGrid engine's figures for the same commands where
# SimGrid finishes in a few minutes (SIMGRID=0 skips them; SIMGRID=all
# adds the 110,000-proclet splits under SimGrid, tens of minutes;
# SIMGRID=splits runs those alone).  Every run is niced and runs alone: run
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

# row LABEL TARGET_S TARGET_GIB ARGS...: the native engine's run
row() {
  local label=$1 target_s=$2 target_gib=$3
  shift 3
  read -r wall cpu rss ok < <(run "native-$label" "$@" --engine native)
  printf '%-32s native  %8s s wall %7s s CPU %6s GiB  verified %-5s  target <= %3s s, <= %2s GiB\n' "$label" \
    "$wall" "$cpu" "$rss" "$ok" "$target_s" "$target_gib"
}

# reference LABEL ARGS...: SimGrid's run of the same command
reference() {
  local label=$1
  shift
  read -r wall cpu rss ok < <(run "simgrid-$label" "$@")
  printf '%-32s SimGrid %8s s wall %7s s CPU %6s GiB  verified %-5s\n' "$label" "$wall" "$cpu" "$rss" "$ok"
}

echo "# bench/native-procs.sh: $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# collsim $("$collsim" --version 2>/dev/null | head -1)"
echo "# the native engine's wall time, CPU time (user + system), peak RSS; issue 29's target; then SimGrid's"
echo "# figures for the same commands (SIMGRID=0: none; SIMGRID=all: also the 110,000-proclet splits, whose"
echo "# MPICH run issue 29 measured at 219 s under SimGrid)"
if [ "$simgrid" != splits ]; then
row "tree rank-hash n=16384" - - tree --algo rank-hash -n 16384 -f 0.6 -k 3 --seed 7
row "tree rank-hash n=131072" 10 4 tree --algo rank-hash -n 131072 -f 0.6 -k 3 --seed 7
row "tree rank-hash n=1048576" 180 20 tree --algo rank-hash -n 1048576 -f 0.6 -k 3 --seed 7
row "comm split mpich cpm:6875,8,2" - - comm split --impl mpich --cpm 6875,8,2
row "comm split leader cpm:6875,8,2" - - comm split --impl leader --cpm 6875,8,2
[ "$simgrid" != 0 ] || exit 0
reference "tree rank-hash n=16384" tree --algo rank-hash -n 16384 -f 0.6 -k 3 --seed 7
reference "tree rank-hash n=131072" tree --algo rank-hash -n 131072 -f 0.6 -k 3 --seed 7
fi
[ "$simgrid" = all ] || [ "$simgrid" = splits ] || exit 0
reference "comm split leader cpm:6875,8,2" comm split --impl leader --cpm 6875,8,2
reference "comm split mpich cpm:6875,8,2" comm split --impl mpich --cpm 6875,8,2
