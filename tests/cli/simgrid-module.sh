#!/usr/bin/env bash
# SimGrid on demand (sim/engine/sg_lazy.c): the collsim binary loads its
# SimGrid module (collsim-simgrid.so) only for a run that uses SimGrid.
#  1. with COLLSIM_SIMGRID_MODULE naming no file, every run that needs no
#     SimGrid works and prints what it prints with the module: untimed runs
#     (a collective, a tree, a split), native-engine runs (a collective, a
#     split, a GOAL file), a platform's description, an XML platform file
#     read and routed by collsim itself;
#  2. a run that needs SimGrid then fails as an installation fault: exit 1,
#     one line naming the module's path, no usage;
#  3. with the module, the same SimGrid run works (and the binary itself
#     does not link libsimgrid: ldd lists no libsimgrid).
set -u
. "$(dirname "$0")/../lib/collsim-env.sh"
work=$(mktemp -d "${TMPDIR:-/tmp}/simgrid-module.XXXXXX")
trap 'rm -rf "$work"' EXIT
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }
missing=$work/no-such-module.so
xml=$src/tests/fuzz/corpus/fuzz_platform_xml/two-clusters.xml

# ---- 1. runs without SimGrid ----
without=(
  "collective --coll bcast --algo binomial --bytes 1KiB --ranks 64"
  "collective --coll allgather --algo ring --block 1KiB --ranks 32 --timed --engine native"
  "collective --coll barrier --algo dissemination --platform torus:4x4x4/1 --timed --engine native --model loggops-links"
  "tree --algo rank-hash -n 300 --engine native"
  "comm split --impl mpich --cpm 20,3,2 --colors 4 --engine native"
  "platform --platform percs:2,2,3 --hierarchy"
  "collective --coll bcast --algo binomial --bytes 1KiB --platform $xml --per-link $work/links.csv"
)
# JSON without wall_s (the only field that differs between runs)
stable() { sed -E 's/"wall_s": *[0-9.e+-]+,? *//g'; }
for args in "${without[@]}"; do
  rm -f "$work/links.csv"
  # shellcheck disable=SC2086
  with_out=$("$collsim" $args --format json -q 2> "$work/err1" | stable; cat "$work/links.csv" 2> /dev/null)
  rm -f "$work/links.csv"
  # shellcheck disable=SC2086
  COLLSIM_SIMGRID_MODULE=$missing "$collsim" $args --format json -q > "$work/out2" 2> "$work/err2"
  status=$?
  bare_out=$(stable < "$work/out2"; cat "$work/links.csv" 2> /dev/null)
  [ "$status" -eq 0 ] || fail "without the module: '$args' exits $status: $(head -1 "$work/err2")"
  [ -n "$with_out" ] && [ "$with_out" = "$bare_out" ] ||
    fail "'$args' prints otherwise without the module:" "$(diff <(echo "$with_out") <(echo "$bare_out") | head -4)"
done
goal=$work/bcast.goal
"$collsim" collective --coll bcast --algo binomial --bytes 1KiB --ranks 16 --goal "$goal" -q > /dev/null ||
  fail "cannot write a GOAL file"
COLLSIM_SIMGRID_MODULE=$missing "$collsim" collective --goal-in "$goal" --timed --engine native --model loggops -q \
  > /dev/null 2> "$work/err" || fail "a GOAL file on the native engine needs the module: $(head -1 "$work/err")"

# ---- 2. a SimGrid run without its module ----
COLLSIM_SIMGRID_MODULE=$missing "$collsim" collective --coll bcast --algo binomial --bytes 1KiB \
  --platform torus:2x2x2/1 --timed > "$work/out" 2> "$work/err"
status=$?
[ "$status" -eq 1 ] || fail "a SimGrid run without its module exits $status, not 1"
[ "$(wc -l < "$work/err")" -eq 1 ] || fail "not one line: $(cat "$work/err")"
grep -q "cannot load SimGrid's engine: $missing" "$work/err" || fail "the message names no module: $(cat "$work/err")"

# ---- 3. with it ----
"$collsim" collective --coll bcast --algo binomial --bytes 1KiB --platform torus:2x2x2/1 --timed -q --format json \
  > "$work/out" 2> "$work/err" || fail "a SimGrid run with the module fails: $(head -1 "$work/err")"
grep -q '"sim_time_s"' "$work/out" || fail "the SimGrid run prints no simulated time"
if command -v ldd > /dev/null && ldd "$collsim" | grep -q libsimgrid; then
  fail "the binary links libsimgrid itself"
fi

[ "$fails" -eq 0 ] && echo "simgrid-module: every run without SimGrid works without its module; SimGrid runs load it"
exit $((fails > 0))
