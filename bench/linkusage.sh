#!/usr/bin/env bash
# Benchmark of the untimed pattern-generator + linkUsage (seed 001; not part
# of the tests).  Prints wall time and peak RSS of:
#   1. all the columns of Tables 3-5 at p = 16,384 (percs:64,16,16) in one
#      process (`collsim collective --links --batch`, the platform loaded
#      once) -- target: 2 s together;
#   2. the same columns one process each (platform loaded every time);
#   3. ring allgather of 64 KiB per rank at p = 1,048,576 (percs:256,32,128)
#      -- target: 60 s, memory well under 24 GiB;
#   4. a binomial scatter of 8 bytes per rank at p = 1,048,576 on every
#      family that reaches it, routed without SimGrid (issue 27) -- target:
#      seconds on each; the reference is the torus before issue 27, which
#      loaded SimGrid for its routes: 22 s of CPU and 1.85 GB
#      (torus:64x64x64/4, measured for the issue).
#   bench/linkusage.sh            Env: COLLSIM (binary, default ./collsim)
set -euo pipefail
COLLSIM=${COLLSIM:-./collsim}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$(dirname "$here")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The paper's eleven columns (Table 3: 4, Table 4: 3, Table 5: 4).
grep -v '^#' "$src/experiments/seed001-paper.csv" | awk -F, '{print $3, $4, $5}' > "$tmp/columns"

measure() { # label, command... -> one line: label wall_s peak_rss_MiB
  local label=$1
  shift
  if [ -x /usr/bin/time ]; then
    /usr/bin/time -f "%e %M" -o "$tmp/time" "$@" > /dev/null
    read -r wall rss < "$tmp/time"
    printf "%-44s %8.2f s %8.0f MiB\n" "$label" "$wall" "$((rss / 1024))"
  else
    local t0 t1
    t0=$(date +%s.%N)
    "$@" > /dev/null
    t1=$(date +%s.%N)
    printf "%-44s %8.2f s %12s\n" "$label" "$(echo "$t1 - $t0" | bc)" "(no /usr/bin/time)"
  fi
}

echo "collsim $("$COLLSIM" --version | cut -d' ' -f2), $(nproc) cores, $(date -u +%Y-%m-%d)"
measure "$(wc -l < "$tmp/columns") columns of Tables 3-5, one process" \
  "$COLLSIM" collective --net percs:64,16,16 --links --batch "$tmp/columns" --format csv -q
total=0
while read -r coll algo size; do
  flag=--block
  case $coll in bcast | reduce) flag=--bytes ;; esac
  measure "  $coll $algo $size" "$COLLSIM" collective --net percs:64,16,16 --coll "$coll" --algo "$algo" \
    "$flag" "$size" --links --format csv -q
done < "$tmp/columns"
measure "ring allgather 64KiB, p = 1,048,576" \
  "$COLLSIM" collective --net percs:256,32,128 --coll allgather --algo ring --block 64KiB --links -q
measure "two-tier allgather 64KiB, p = 1,048,576" \
  "$COLLSIM" collective --net percs:256,32,128 --coll allgather --algo two-tier --block 64KiB --links -q

echo "a million ranks, every family and an XML file (untimed, routes without SimGrid; reference: torus 22 s, 1.85 GB before)"
cat > "$tmp/crossbar.xml" << XML
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <cluster id="bob" prefix="host-" suffix=".example.org" radical="0-65535" speed="1Gf" bw="125MBps" lat="50us"/>
</platform>
XML
for spec in percs:256,32,128 dragonfly:32,16,2,16,128 torus:64x64x64/4 fattree:16,4/16 fattree:32,3/32 \
  "$tmp/crossbar.xml --cores 16"; do
  # shellcheck disable=SC2086 # the file's spec carries its --cores
  measure "  binomial scatter 8B on ${spec#"$tmp/"}" \
    "$COLLSIM" collective --platform $spec --coll scatter --algo binomial --block 8 --links -q
done
