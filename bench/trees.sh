#!/usr/bin/env bash
# Benchmark of the seed-000 schemes at scale (not part of the tests).
# Prints, per scheme: wall time, peak RSS, simulated messages (with the
# bracket), messages per wall second and wall time per message; then the same
# for a bare SimGrid program sending about as many 8-byte messages over the
# same k-ary tree on the same platform (bench/bare_tree.c): the engine's floor,
# once without software overheads and once with collsim's default 1.5 us per
# send and per receive (the same model as collsim, without collsim's layer).
# The floor for exactly M messages: bare_tree runs 1 and 3 rounds (2(N-1)
# messages each) with overheads; the two runs give its fixed cost F (platform,
# actors) and its cost per message c, and each scheme is compared with
# F + M c for its own M (same model, same message count).
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
# The floor, without and with collsim's default overheads (1.5 us per send and receive).
read -r _ wall rss < <(measure bare "$BUILD/bench/bare_tree" "$tmp/platform.xml" "$N" $K $CORES 3 0)
msgs=$(sed -n 's/messages=\([0-9]*\).*/\1/p' "$tmp/out")
awk -v w="$wall" -v r="$rss" -v m="$msgs" 'BEGIN{printf "%-16s %9.1f %9.0f %12d %14.0f %12.2f   (bare SimGrid, 3 rounds of reduce+bcast, no overhead)\n", "bare-engine", w, r/1024, m, m/w, 1e6*w/m}'
for rounds in 1 3; do
  read -r _ wall rss < <(measure bare "$BUILD/bench/bare_tree" "$tmp/platform.xml" "$N" $K $CORES $rounds 1.5)
  msgs=$(sed -n 's/messages=\([0-9]*\).*/\1/p' "$tmp/out")
  awk -v w="$wall" -v r="$rss" -v m="$msgs" -v k="$rounds" 'BEGIN{printf "%-16s %9.1f %9.0f %12d %14.0f %12.2f   (bare SimGrid, %d round(s) of reduce+bcast, overhead 1.5 us)\n", "bare-engine", w, r/1024, m, m/w, 1e6*w/m, k}'
  echo "$wall $msgs" >> "$tmp/bare"
done
read -r fixed per_msg < <(awk 'NR==1{w1=$1;m1=$2} NR==2{w3=$1;m3=$2} END{c=(w3-w1)/(m3-m1); print w1-c*m1, c}' "$tmp/bare")
awk -v f="$fixed" -v c="$per_msg" 'BEGIN{printf "\nbare engine: fixed cost %.1f s, %.2f us per message (fitted on 1 and 3 rounds)\n", f, 1e6*c}'
while read -r s wall m; do
  awk -v s="$s" -v w="$wall" -v m="$m" -v f="$fixed" -v c="$per_msg" 'BEGIN{fl=f+c*m; printf "%-16s %.1f s vs the bare engine'"'"'s %.1f s for the same %d messages: %.2fx\n", s, w, fl, m, w/fl}'
done < "$tmp/collsim"
