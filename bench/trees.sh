#!/usr/bin/env bash
# Benchmark of the seed-000 schemes at scale (not part of the tests).
# Prints, per scheme: wall time, peak RSS, simulated messages (with the
# bracket), messages per wall second and wall time per message; then the same
# for a bare SimGrid program sending about as many 8-byte messages over the
# same k-ary tree on the same platform (bench/bare_tree.c): the engine's floor,
# once without software overheads and once with collsim's default 1.5 us per
# send and per receive (the same model as collsim, without collsim's layer).
# Cost ratios are given against the floor with overheads.
# Targets (issue 2): rank-hash <= 60 s and <= 4 GiB at n = 131,072, f = 0.6,
# k = 3; collsim's cost per message within 1.3x of the bare engine's.
#   bench/trees.sh [N] [SCHEMES...]      (default 131072, all three schemes)
# Env: COLLSIM (binary, default ./collsim), BUILD (dir holding bench/bare_tree,
# default: the directory of COLLSIM).
set -euo pipefail
N=${1:-131072}
shift || true
SCHEMES=("${@:-centralized shrink-balance rank-hash}")
read -r -a SCHEMES <<< "${SCHEMES[*]}"
COLLSIM=${COLLSIM:-./collsim}
BUILD=${BUILD:-$(dirname "$COLLSIM")}
F=0.6 K=3 CORES=4
( cd "$BUILD" && make -s bench/bare_tree ) >&2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$COLLSIM" platform --torus auto -n "$N" --cores $CORES --out "$tmp/platform.xml"

measure() { # label, command...  -> "label wall_s rss_kb" and the command's stdout in $tmp/out
  local label=$1; shift
  /usr/bin/time -f "%e %M" -o "$tmp/time" "$@" > "$tmp/out"
  read -r wall rss < "$tmp/time"
  echo "$label $wall $rss"
}

printf "%-16s %9s %9s %12s %14s %12s\n" scheme wall_s rss_MiB messages msgs_per_wall_s us_per_msg
for s in "${SCHEMES[@]}"; do
  read -r _ wall rss < <(measure "$s" "$COLLSIM" tree --algo "$s" -n "$N" -f $F -k $K --seed 1 -q --format csv --no-header)
  msgs=$(cut -d, -f13 "$tmp/out")
  awk -v s="$s" -v w="$wall" -v r="$rss" -v m="$msgs" 'BEGIN{printf "%-16s %9.1f %9.0f %12d %14.0f %12.2f\n", s, w, r/1024, m, m/w, 1e6*w/m}'
  echo "$s $wall $msgs" >> "$tmp/collsim"
done
# The floor: rounds of reduce + broadcast, 2(N-1) messages each, matching the largest count above.
max_msgs=$(sort -k3 -n "$tmp/collsim" | tail -1 | cut -d' ' -f3)
rounds=$(( (max_msgs + 2 * (N - 1) - 1) / (2 * (N - 1)) ))
for o in 0 1.5; do
  read -r _ wall rss < <(measure bare "$BUILD/bench/bare_tree" "$tmp/platform.xml" "$N" $K $CORES $rounds $o)
  msgs=$(sed -n 's/messages=\([0-9]*\).*/\1/p' "$tmp/out")
  awk -v w="$wall" -v r="$rss" -v m="$msgs" -v k="$rounds" -v o="$o" 'BEGIN{printf "%-16s %9.1f %9.0f %12d %14.0f %12.2f   (bare SimGrid, %d rounds of reduce+bcast, overhead %s us)\n", "bare-engine", w, r/1024, m, m/w, 1e6*w/m, k, o}'
done
bare_us=$(awk -v w="$wall" -v m="$msgs" 'BEGIN{print 1e6*w/m}')
echo
while read -r s wall m; do
  awk -v s="$s" -v w="$wall" -v m="$m" -v b="$bare_us" 'BEGIN{printf "%-16s cost per message = %.2fx the bare engine'"'"'s (same overheads)\n", s, (1e6*w/m)/b}'
done < "$tmp/collsim"
