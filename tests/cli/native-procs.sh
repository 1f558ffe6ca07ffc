#!/usr/bin/env bash
# Processes on the native engine (issue 29 part 2: --engine native for
# collsim tree and collsim comm):
#  1. every tree algorithm builds a tree that verifies (it spans exactly the
#     members, colour by colour, with the driver's check) and sends exactly
#     the messages and bytes of the SimGrid run of the same command (the
#     protocols' counts do not depend on timing; their times do);
#  2. comm split, create and create-group verify every proclet's
#     communicator on the native engine, with SimGrid's messages and bytes;
#     mcmc's three modes verify (their counts depend on timing);
#  3. the same native run twice gives the same output (wall_s aside);
#  4. --trace records one row per message delivered;
#  5. options the native engine cannot honour, and a model it has not, are
#     refused naming the option (exit 2, one line, no output).
# The closed-form LogGP times and the deadlock report are in tests/unit/coro.c.
set -u
. "$(dirname "$0")/../lib/collsim-env.sh"
work=$(mktemp -d "${TMPDIR:-/tmp}/native-procs.XXXXXX")
trap 'rm -rf "$work"' EXIT
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }


counts() { # the engine-independent fields of a record
  local json=$1 k
  for k in $2; do echo -n "$k=$(field "$k" <<<"$json") "; done
}

# ---- 1. trees ----
tree_keys="m messages messages_bracketed bytes bytes_bracketed max_message_bytes height verified"
for spec in "rank-hash" "centralized" "shrink-balance" "rank-hash-split --colors 3" "comm-split --colors 2"; do
  for n in 40 257; do
    args="tree --algo $spec -n $n --seed 5 --format json -q"
    sg=$($collsim $args) || { fail "$args: SimGrid exit $?"; continue; }
    nat=$($collsim $args --engine native) || { fail "$args --engine native: exit $?"; continue; }
    [ "$(field verified <<<"$nat")" = true ] || fail "$args --engine native: not verified"
    [ "$(field model <<<"$nat")" = loggops ] || fail "$args --engine native: model $(field model <<<"$nat")"
    a=$(counts "$sg" "$tree_keys") b=$(counts "$nat" "$tree_keys")
    [ "$a" = "$b" ] || fail "$args: SimGrid $a, native $b"
  done
done

# ---- 2. communicators ----
comm_keys="messages bytes created maps_built verified"
for args in "split --impl leader --cpm 20,3,2 --colors 4" "split --impl mpich --cpm 20,3,2 --colors 4 --key random" \
  "create --impl leader --cpm 10,2,2 --group-size 13" "create-group --impl intercomm -n 64 --group-size 16 --concurrent 2"; do
  sg=$($collsim comm $args --format json -q) || { fail "comm $args: SimGrid exit $?"; continue; }
  nat=$($collsim comm $args --engine native --format json -q) || { fail "comm $args --engine native: exit $?"; continue; }
  [ "$(field verified <<<"$nat")" = true ] || fail "comm $args --engine native: not verified"
  a=$(counts "$sg" "$comm_keys") b=$(counts "$nat" "$comm_keys")
  [ "$a" = "$b" ] || fail "comm $args: SimGrid $a, native $b"
done

# MCMC's balancing depends on timing (who finishes first): only verified here
for b in none async collective; do
  nat=$($collsim mcmc -n 64 --balance $b --engine native --format json -q) || { fail "mcmc $b --engine native: exit $?"; continue; }
  [ "$(field verified <<<"$nat")" = true ] || fail "mcmc $b --engine native: not verified"
done

# ---- 3. determinism ----
for run in 1 2; do
  $collsim tree --algo rank-hash -n 300 --engine native --format csv -q | sed 's/,[^,]*$//' >"$work/run$run.csv" ||
    fail "determinism run $run: exit $?"
done
cmp -s "$work/run1.csv" "$work/run2.csv" || fail "two native runs differ"

# ---- 4. trace ----
json=$($collsim tree --algo rank-hash -n 50 --engine native --trace "$work/t.csv" --format json -q) ||
  fail "--trace on the native engine: exit $?"
rows=$(($(wc -l <"$work/t.csv") - 1))
[ "$rows" = "$(field messages_bracketed <<<"$json")" ] || fail "--trace: $rows rows for $(field messages_bracketed <<<"$json") messages"

# ---- 5. refusals ----
refused() { # expected word in the message, then the arguments
  local want=$1
  shift
  local out err rc
  out=$($collsim "$@" 2>"$work/err") && rc=0 || rc=$?
  err=$(without_asan_notice <"$work/err")
  [ "$rc" = 2 ] || { fail "$*: exit $rc, expected 2"; return; }
  [ -z "$out" ] || fail "$*: printed output"
  [ "$(wc -l <<<"$err")" = 1 ] || fail "$*: $(wc -l <<<"$err") lines on stderr"
  [[ $err == *"$want"* ]] || fail "$*: message '$err' does not name $want"
}
refused --o-send tree --algo rank-hash -n 20 --engine native --o-send 2
refused --cfg tree --algo rank-hash -n 20 --engine native --cfg network/crosstraffic:1
refused --semantics comm split --cpm 4,2,2 --engine native --semantics mpi
refused --link-bw tree --algo rank-hash -n 20 --engine native --link-bw 100
refused --crosstraffic tree --algo rank-hash -n 20 --engine native --crosstraffic
refused "model LV08" tree --algo rank-hash -n 20 --engine native --model LV08
refused "model loggops" tree --algo rank-hash -n 20 --model loggops
refused --loggops tree --algo rank-hash -n 20 --loggops 1,2,3,4,5,6
refused "--loggops" comm split --cpm 4,2,2 --engine native --loggops 1,2,3
refused --fail-rank mcmc -n 64 --engine native --fail-rank 3
refused --keep-platform tree --algo rank-hash -n 20 --engine native --keep-platform "$work/p.xml"
[ ! -e "$work/p.xml" ] || fail "--keep-platform refused but written"

[ "$fails" = 0 ] || { echo "native-procs: $fails failure(s)" >&2; exit 1; }
echo "native-procs: all passed"
