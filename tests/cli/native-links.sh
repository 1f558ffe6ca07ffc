#!/usr/bin/env bash
# The native engine's models loggops-links (store and forward) and
# loggops-cut-through (virtual cut-through), sim/engine/native/links.c:
# LogGOPS plus per-link serialisation along the platform's routes.
# Properties, each with its exact time:
#  1. one message alone takes the LogGOPS time plus the sum over its route
#     of bytes / bandwidth with store and forward, plus the largest of them
#     with cut-through (a torus of uniform links; a PERCS route over L1,
#     L2, L1 links of two bandwidths), the route read from --per-link;
#  2. two messages over one link serialise there: the second leaves the
#     link one serialisation after the first (o + 2d + L + o), while two
#     messages over two disjoint links do not wait (o + d + L + o); two
#     messages over one route of three links: o + 4d + L + o with store and
#     forward, o + 2d + L + o with cut-through (the second follows the
#     first link by link);
#  3. with links of unbounded bandwidth every schedule of a few registered
#     algorithms takes exactly the plain LogGOPS time, under both models;
#  4. bad input: a links model without --platform, and on SimGrid (exit 2).
set -u
. "$(dirname "$0")/../lib/collsim-env.sh"
work=$(mktemp -d "${TMPDIR:-/tmp}/native-links.XXXXXX")
trap 'rm -rf "$work"' EXIT
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }


goal() { # P src:dst:bytes ... -> a GOAL file on stdout (each rank's ops in order, no dependencies)
  local p=$1 m s d b r
  shift
  declare -A ops
  for m in "$@"; do
    IFS=: read -r s d b <<<"$m"
    ops[$s]+="send ${b}b to $d tag 0;"
    ops[$d]+="recv ${b}b from $s tag 0;"
  done
  echo "num_ranks $p"
  for ((r = 0; r < p; r++)); do
    echo "rank $r {"
    IFS=';' read -ra list <<<"${ops[$r]:-}"
    for m in "${list[@]}"; do [ -n "$m" ] && echo "$m"; done
    echo "}"
  done
}

ns() { # platform model goal [loggops] -> sim_time_ns
  "$collsim" collective --goal-in "$3" --platform "$1" --timed --engine native --model "$2" \
    ${4:+--loggops "$4"} --format json -q | field sim_time_ns
}

# ---- 1. one message: LogGOPS + the route's serialisation ----
one() { # platform p src dst bytes {tier=ns_per_byte ...}
  local plat=$1 p=$2 s=$3 d=$4 b=$5
  shift 5
  goal "$p" "$s:$d:$b" >"$work/one.goal"
  local plain links cut want=0 widest=0 tier used
  plain=$(ns "$plat" loggops "$work/one.goal") links=$(ns "$plat" loggops-links "$work/one.goal")
  cut=$(ns "$plat" loggops-cut-through "$work/one.goal")
  "$collsim" collective --goal-in "$work/one.goal" --platform "$plat" --per-link "$work/pl.csv" -q >/dev/null
  used=$(awk -F, 'NR > 1 && $7 > 0 { print $3 }' "$work/pl.csv")
  [ -n "$used" ] || fail "$plat: no link used"
  for tier in $used; do
    local rate=
    for kv in "$@"; do [ "${kv%%=*}" = "$tier" ] && rate=${kv#*=}; done
    [ -n "$rate" ] || { fail "$plat: tier $tier has no rate in the test"; continue; }
    want=$((want + b * rate))
    [ $((b * rate)) -le "$widest" ] || widest=$((b * rate))
  done
  [ "$((links - plain))" = "$want" ] ||
    fail "$plat $s->$d $b bytes: loggops-links $links ns, loggops $plain ns, want a difference of $want"
  [ "$((cut - plain))" = "$widest" ] ||
    fail "$plat $s->$d $b bytes: loggops-cut-through $cut ns, loggops $plain ns, want a difference of $widest"
  echo "one message on $plat ($s -> $d, $(wc -w <<<"$used") links): +$want ns, cut-through +$widest ns" >&2
}
one "torus:2x2x2/1,bw=1GBps" 8 0 1 1000 X=1 Y=1 Z=1
one "torus:2x2x2/1,bw=1GBps" 8 0 7 3000 X=1 Y=1 Z=1
one "percs:2,2,1/l1=1GBps,l2=500MBps" 4 0 3 4000 L1=1 L2=2
one "percs:2,2,2/l1=1GBps,l2=500MBps,loopback=250MBps" 8 0 1 1000 L1=1 L2=2 intra=4

# ---- 2. two messages over one link serialise ----
# o 1500, L 2500, g = G = O = 0, S above the size (eager); d = 100000 ns.
model=2500,1500,0,0,1000000,0
plat="torus:2x2x2/1,bw=1GBps"
goal 8 0:1:100000 0:1:100000 >"$work/shared.goal"
got=$(ns "$plat" loggops-links "$work/shared.goal" "$model")
[ "$got" = $((1500 + 2 * 100000 + 2500 + 1500)) ] || fail "two messages on one link: $got ns, want o + 2d + L + o"
"$collsim" collective --goal-in "$work/shared.goal" --platform "$plat" --per-link "$work/pl.csv" -q >/dev/null
[ "$(awk -F, 'NR > 1 && $7 > 0' "$work/pl.csv" | wc -l)" = 1 ] || fail "0 -> 1 is not one link on $plat"
goal 8 0:1:100000 2:3:100000 >"$work/apart.goal"
got=$(ns "$plat" loggops-links "$work/apart.goal" "$model")
[ "$got" = $((1500 + 100000 + 2500 + 1500)) ] || fail "two messages on two links: $got ns, want o + d + L + o"
goal 8 0:7:100000 0:7:100000 >"$work/route.goal"
"$collsim" collective --goal-in "$work/route.goal" --platform "$plat" --per-link "$work/pl.csv" -q >/dev/null
[ "$(awk -F, 'NR > 1 && $7 > 0' "$work/pl.csv" | wc -l)" = 3 ] || fail "0 -> 7 is not three links on $plat"
got=$(ns "$plat" loggops-links "$work/route.goal" "$model")
[ "$got" = $((1500 + 4 * 100000 + 2500 + 1500)) ] || fail "two messages on three links, store and forward: $got ns, want o + 4d + L + o"
got=$(ns "$plat" loggops-cut-through "$work/route.goal" "$model")
[ "$got" = $((1500 + 2 * 100000 + 2500 + 1500)) ] || fail "two messages on three links, cut-through: $got ns, want o + 2d + L + o"
echo "two messages: serialised on a shared link, not on two links; on a shared route as each model says" >&2

# ---- 3. unbounded bandwidth: plain LogGOPS ----
fast="torus:2x2x2/2,bw=1000TBps,loopback=1000TBps" # 1e15 B/s: d rounds to 0 below 500 KB
for case in "bcast binomial --bytes 256KiB" "allreduce recursive-doubling --bytes 64KiB" \
            "allgather ring --block 4KiB" "alltoall pairwise --block 100KiB" "barrier dissemination"; do
  read -r coll algo rest <<<"$case"
  a=$("$collsim" collective --coll "$coll" --algo "$algo" $rest --platform "$fast" --timed --engine native \
      --model loggops --format json -q | field sim_time_ns)
  for links_model in loggops-links loggops-cut-through; do
    b=$("$collsim" collective --coll "$coll" --algo "$algo" $rest --platform "$fast" --timed --engine native \
        --model $links_model --format json -q | field sim_time_ns)
    [ -n "$a" ] && [ "$a" = "$b" ] || fail "$coll $algo on unbounded links: $links_model $b ns, loggops $a ns"
  done
done
# and finite links make a contended schedule slower
a=$("$collsim" collective --coll alltoall --algo linear --block 100KiB --platform "torus:2x2x2/2" --timed \
    --engine native --model loggops --format json -q | field sim_time_ns)
b=$("$collsim" collective --coll alltoall --algo linear --block 100KiB --platform "torus:2x2x2/2" --timed \
    --engine native --model loggops-links --format json -q | field sim_time_ns)
[ "$b" -gt "$a" ] || fail "alltoall linear on 425 MB/s links: loggops-links $b ns not above loggops $a ns"
echo "unbounded links: LogGOPS exactly" >&2

# ---- 4. bad input ----
refused() { # name expected-substring args...
  local name=$1 want=$2 rc err
  shift 2
  "$collsim" collective "$@" >"$work/out" 2>"$work/err"
  rc=$?
  err=$(cat "$work/err")
  [ $rc = 2 ] || fail "$name: exit $rc (want 2)"
  [ "$(wc -l <"$work/err")" = 1 ] || fail "$name: not one line: $err"
  case $err in *"$want"*) ;; *) fail "$name: message '$err' lacks '$want'" ;; esac
  [ -s "$work/out" ] && fail "$name: output written"
}
refused "no platform" "give --platform" --coll barrier --algo dissemination --ranks 8 --timed --engine native \
  --model loggops-links
refused "no platform, cut-through" "give --platform" --coll barrier --algo dissemination --ranks 8 --timed \
  --engine native --model loggops-cut-through
"$collsim" tree --algo rank-hash -n 64 --engine native --model loggops-cut-through >"$work/out" 2>"$work/err"
[ $? = 2 ] && grep -q "runs schedules only" "$work/err" && [ ! -s "$work/out" ] ||
  fail "tree on loggops-cut-through: not refused with exit 2 ($(cat "$work/err"))"
refused "SimGrid" "native engine's model" --coll barrier --algo dissemination --platform torus:2x2x2/1 --timed \
  --model loggops-links
refused "unknown model" "has no model" --coll barrier --algo dissemination --ranks 8 --timed --engine native \
  --model LV08

[ "$fails" = 0 ] || { echo "native-links: $fails failures" >&2; exit 1; }
echo "native-links: all passed" >&2
