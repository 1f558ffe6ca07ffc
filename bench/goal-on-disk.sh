#!/usr/bin/env bash
# A GOAL schedule's graph in memory against on disk (issue 29: "a file
# larger than memory is not loaded whole").  One GOAL file with many
# operations per rank (pairwise alltoall, P ranks: 2 P (P - 1) operations)
# is written by collsim, then run timed on the native engine twice:
# COLLSIM_GOAL_ON_DISK=0 (the graph in memory) and =1 (in unlinked
# temporary files, mapped).  For each: wall and CPU time, and the peaks of
# the process's anonymous memory (RssAnon: what the machine must hold) and
# of its resident file pages (RssFile: pages of the mapped graph that the
# kernel may drop and read again), sampled every 50 ms from /proc.  The
# simulated times must be equal.
#   bench/goal-on-disk.sh [COLLSIM]   (P: default 4096; output: stdout)
set -euo pipefail
collsim=${1:-${COLLSIM:-./collsim}}
p=${P:-4096}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/goal-on-disk.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# peaks PID: "RssAnon_MiB RssFile_MiB" of PID's child (collsim under
# /usr/bin/time) while it runs.
peaks() {
  local pid anon=0 file=0 a f
  while kill -0 "$1" 2>/dev/null && ! pid=$(pgrep -P "$1"); do sleep 0.01; done
  while [ -n "${pid:-}" ] && kill -0 "$pid" 2>/dev/null; do
    a=$(awk '/^RssAnon/ {print $2}' "/proc/$pid/status" 2>/dev/null || true)
    f=$(awk '/^RssFile/ {print $2}' "/proc/$pid/status" 2>/dev/null || true)
    [ -z "$a" ] || [ "$a" -le "$anon" ] || anon=$a
    [ -z "$f" ] || [ "$f" -le "$file" ] || file=$f
    sleep 0.05
  done
  echo "$((anon / 1024)) $((file / 1024))"
}

echo "# bench/goal-on-disk.sh: $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
nice "$collsim" collective --coll alltoall --algo pairwise --block 1KiB --ranks "$p" --goal "$tmp/a.goal" -q >/dev/null
echo "# GOAL file: pairwise alltoall, $p ranks, 1 KiB blocks: $(($(stat -c %s "$tmp/a.goal") / 1048576)) MiB," \
  "$((2 * p * (p - 1))) operations"
for disk in 0 1; do
  COLLSIM_GOAL_ON_DISK=$disk nice /usr/bin/time -f '%e %U %S' -o "$tmp/time" "$collsim" collective \
    --goal-in "$tmp/a.goal" --timed --engine native --format json -q >"$tmp/out" &
  read -r anon file < <(peaks $!)
  wait $!
  read -r wall user sys <"$tmp/time"
  sim=$(grep -o '"sim_time_s": [0-9.e+-]*' "$tmp/out" | awk '{print $2}')
  printf 'graph %-9s %7.1f s wall %7.1f s CPU  RssAnon peak %6d MiB  RssFile peak %6d MiB  sim_time_s %s\n' \
    "$([ $disk = 1 ] && echo 'on disk' || echo 'in memory')" "$wall" "$(awk -v u="$user" -v s="$sys" 'BEGIN {print u + s}')" \
    "$anon" "$file" "$sim"
done
