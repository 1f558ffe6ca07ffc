#!/usr/bin/env bash
# collsim collective --algo auto --selector mpich|ompi (issue 30):
#  - the chosen algorithm runs (the same messages as naming it) and the
#    record carries selector and selected_by (JSON), the rule citing the
#    source; the CSV's columns do not change;
#  - a point the library would serve with an algorithm collsim lacks is
#    refused: one line naming that algorithm and the rule, exit 2, nothing on
#    stdout;
#  - --algo auto without --selector, an unknown selector, --selector without
#    --algo auto or with --batch: one line, exit 2;
#  - --list --selector NAME prints the decision table.
# (Both selectors cover every collective collsim has, so the refusal of an
# uncovered collective is tested in tests/unit/selectors.c's coverage only.)
#   COLLSIM=./collsim tests/cli/selectors.sh    (make check sets COLLSIM)
set -u
. "$(dirname "$0")/../lib/collsim-env.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
net=percs:4,4,4 # p = 64

"$collsim" collective --platform $net --coll bcast --algo auto --selector mpich --bytes 64KiB --format json \
  > "$tmp/auto.json" 2> "$tmp/err" || bad "mpich bcast auto failed: $(cat "$tmp/err")"
grep -q '"algo": "scatter-rdb"' "$tmp/auto.json" || bad "mpich bcast 64 KiB on 64 ranks: not scatter-rdb"
grep -q '"selector": "mpich"' "$tmp/auto.json" || bad "no selector field"
grep -q '"selected_by": "MPICH 4.2.3 maint/tuning/coll/mpir/generic.json bcast: comm_size is a power of two, avg_msg_size<=524288 -> MPIR_Bcast_intra_scatter_recursive_doubling_allgather' \
  "$tmp/auto.json" || bad "selected_by: $(cat "$tmp/auto.json")"
"$collsim" collective --platform $net --coll bcast --algo scatter-rdb --bytes 64KiB --format csv > "$tmp/named.csv"
"$collsim" collective --platform $net --coll bcast --algo auto --selector mpich --bytes 64KiB --format csv > "$tmp/auto.csv"
cmp -s "$tmp/named.csv" "$tmp/auto.csv" || bad "auto's CSV differs from naming the algorithm"
grep -q selector "$tmp/auto.csv" && bad "the CSV gained a selector column"

"$collsim" collective --platform $net --coll alltoall --algo auto --selector ompi --block 8 --format json \
  > "$tmp/a2a.json" 2> "$tmp/err" || bad "ompi alltoall auto failed: $(cat "$tmp/err")"
grep -q '"algo": "bruck"' "$tmp/a2a.json" || bad "ompi alltoall 8 B on 64 ranks: not bruck (modified_bruck)"
grep -q 'communicator_size<128, total_dsize<1024 -> modified_bruck' "$tmp/a2a.json" || bad "ompi rule text"

# refused: MPICH serves an 8-byte-block reduce-scatter with recursive halving
"$collsim" collective --platform $net --coll reduce-scatter --algo auto --selector mpich --block 8 \
  > "$tmp/out" 2> "$tmp/err"
rc=$?
[ $rc = 2 ] || bad "lacking algorithm: exit $rc, expected 2"
[ -s "$tmp/out" ] && bad "lacking algorithm: something on stdout"
[ "$(wc -l < "$tmp/err")" = 1 ] || bad "lacking algorithm: not one line: $(cat "$tmp/err")"
grep -q "would run MPIR_Reduce_scatter_intra_recursive_halving, which collsim lacks (.*total_msg_size<524288" \
  "$tmp/err" || bad "lacking algorithm message: $(cat "$tmp/err")"
# refused: Open MPI's knomial bcast
"$collsim" collective --platform $net --coll bcast --algo auto --selector ompi --bytes 8 > "$tmp/out" 2> "$tmp/err"
rc=$?
[ $rc = 2 ] && grep -q "would run knomial" "$tmp/err" || bad "ompi knomial: exit $rc, $(cat "$tmp/err")"

refused() { # expected-text args...
  local want=$1
  shift
  "$collsim" collective "$@" > "$tmp/out" 2> "$tmp/err"
  local rc=$?
  [ $rc = 2 ] || bad "$*: exit $rc, expected 2"
  [ "$(wc -l < "$tmp/err")" = 1 ] || bad "$*: not one line: $(cat "$tmp/err")"
  grep -q -- "$want" "$tmp/err" || bad "$*: message $(cat "$tmp/err")"
}
refused "--algo auto needs --selector NAME (one of: mpich, ompi)" --platform $net --coll bcast --algo auto --bytes 8
refused "unknown selector 'intel' (known: mpich, ompi)" --platform $net --coll bcast --algo auto --selector intel \
  --bytes 8
refused "selector" --platform $net --coll bcast --algo binomial --selector mpich --bytes 8
printf 'bcast binomial 8\n' > "$tmp/batch"
refused "selector" --platform $net --batch "$tmp/batch" --selector mpich

"$collsim" collective --list --selector mpich > "$tmp/table" || bad "--list --selector mpich failed"
grep -q '| comm_size is a power of two, avg_msg_size<=524288 | MPIR_Bcast_intra_scatter_recursive_doubling_allgather |' \
  "$tmp/table" || bad "decision table lacks the bcast row"
grep -q '| MPIR_Alltoall_intra_scattered | any | (lacks it: refused) |' "$tmp/table" || bad "table lacks the map"
refused "unknown selector 'x'" --list --selector x
exit $fail
