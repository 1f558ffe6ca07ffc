#!/usr/bin/env bash
# The native LogGOPS engine and GOAL in and out (issue 29):
#  1. LogGOPSim's own answers: GOAL files made by its Schedgen
#     (tests/data/goal/, one gzipped) give exactly the finishing time and
#     rank LogGOPSim computed for them (tests/data/goal/expected.txt);
#  2. a closed form: a binomial broadcast (round k: rank r < 2^k sends to
#     r + 2^k), eager and rendezvous, O > 0, takes exactly the LogGP time
#     max over ranks of popcount(r)(2o+L+c) + (hb(r)+1-popcount(r)) gap
#     (+ the tail of a rank's own sends), c = max((s-1)O, (s-1)G);
#  3. round trip: every registered algorithm (but the script ones), on
#     small platforms, eager and rendezvous sizes: --goal then --goal-in
#     gives the same simulated time, messages, bytes and per-link bytes;
#  4. bad input: a malformed GOAL file is refused naming its line, a
#     deadlock naming the first rank and its operation (exit 2, one line);
#  5. the graph on disk (COLLSIM_GOAL_ON_DISK=1, as for a file of more
#     than 1 GiB): the same output as in memory, timed and untimed, plain
#     and gzip, and no temporary file left behind; a GOAL file larger than
#     other inputs' 1 GiB cap is read (streamed);
#  6. traces: --trace on the native engine records every message delivered
#     (as many rows as messages, their bytes the run's, each rank but the
#     root receiving once in a broadcast, t_recv >= t_send, the first one
#     matched at exactly o + L), the same for the schedule's GOAL file run
#     again, hosts the ranks' nodes on a platform, and --timeline draws it.
set -u
. "$(dirname "$0")/../lib/collsim-env.sh"
work=$(mktemp -d "${TMPDIR:-/tmp}/native-goal.XXXXXX")
trap 'rm -rf "$work"' EXIT
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }


# ---- 1. LogGOPSim's answers ----
data=$src/tests/data/goal
n=0
while read -r file model ns host; do
  case $file in '#'*|'') continue ;; esac
  out=$("$collsim" collective --goal-in "$data/$file" --timed --engine native --loggops "$model" --format json -q) ||
    { fail "$file: exit $?"; continue; }
  got_ns=$(field sim_time_ns <<<"$out") got_rank=$(field last_rank <<<"$out")
  [ "$got_ns $got_rank" = "$ns $host" ] || fail "$file $model: native $got_ns ns at rank $got_rank, LogGOPSim $ns at $host"
  n=$((n + 1))
done <"$data/expected.txt"
[ "$n" -ge 10 ] || fail "only $n LogGOPSim cases read"

# ---- 2. closed form: binomial broadcast ----
binomial_goal() { # p size -> GOAL text
  awk -v p="$1" -v s="$2" 'BEGIN {
    print "num_ranks " p
    for (r = 0; r < p; r++) {
      print "rank " r " {"; n = 0; hb = -1
      for (k = 0; (2 ^ k) <= r; k++) hb = k
      if (r > 0) { n++; print "l" n ": recv " s "b from " (r - 2 ^ hb) " tag 0" }
      for (k = hb + 1; r + 2 ^ k < p; k++) {
        n++; print "l" n ": send " s "b to " (r + 2 ^ k) " tag 0"
        if (n > 1) print "l" n " requires l" (n - 1)
      }
      print "}"
    } }'
}
closed_form() { # p size L o g G S O -> ns
  awk -v p="$1" -v s="$2" -v L="$3" -v o="$4" -v g="$5" -v G="$6" -v S="$7" -v O="$8" '
  function max(a, b) { return a > b ? a : b }
  BEGIN {
    c = max((s - 1) * O, (s - 1) * G); gap = max(o + (s - 1) * O, g + (s - 1) * G); tail = o + (s - 1) * O
    if (s > S) { gap = max(gap, o + L); tail = max(tail, o + L) }
    best = 0
    for (r = 0; r < p; r++) {
      hb = -1; pc = 0
      for (k = 0; (2 ^ k) <= r; k++) { hb = k; if (int(r / 2 ^ k) % 2) pc++ }
      ready = pc * (2 * o + L + c) + (hb + 1 - pc) * gap
      sends = 0
      for (k = hb + 1; r + 2 ^ k < p; k++) sends++
      t = sends ? ready + (sends - 1) * gap + tail : ready
      best = max(best, t)
    }
    printf "%d\n", best }'
}
for p in 2 13 64; do
  for s in 1 65535 65536 200000; do
    for m in "2500 1500 1000 6 65535 0" "3000 1200 800 2 65535 3" "100 1000 50 1 4096 7"; do
      read -r L o g G S O <<<"$m"
      binomial_goal "$p" "$s" >"$work/b.goal"
      want=$(closed_form "$p" "$s" $m)
      got=$("$collsim" collective --goal-in "$work/b.goal" --timed --engine native --loggops "$L,$o,$g,$G,$S,$O" \
        --format json -q | field sim_time_ns)
      [ "$got" = "$want" ] || fail "binomial bcast p=$p s=$s LogGOPS $m: native $got ns, closed form $want"
    done
  done
done

# ---- 3. round trip: every registered algorithm ----
# (a failure here on the two-tier algorithms was the lowering forgetting to
# reset the loop iteration after a loop: their tags then missed)
platforms=("percs:2,2,2" "torus:2x2x1/3" "percs:3,2,1")
while read -r coll algo; do
    case $coll in scatter|gather|allgather|reduce-scatter|alltoall) opt=--block ;; barrier) opt= ;; *) opt=--bytes ;; esac
    ok=0
    for plat in "${platforms[@]}"; do
      [ "$ok" -ge 2 ] && break
      for size in 64 70000; do
        [ "$opt" = --bytes ] && size=$((size * 4))
        sized=()
        [ -n "$opt" ] && sized=("$opt" "$size")
        a=$("$collsim" collective --platform "$plat" --coll "$coll" --algo "$algo" "${sized[@]}" --timed --engine native \
          --links --per-link "$work/a.csv" --goal "$work/r.goal" --format json -q 2>/dev/null) || continue
        b=$("$collsim" collective --platform "$plat" --goal-in "$work/r.goal" --timed --engine native --links \
          --per-link "$work/b.csv" --format json -q) || { fail "$coll $algo $plat $size: --goal-in refused its own --goal"; continue; }
        for f in sim_time_ns messages bytes last_rank; do
          [ "$(field $f <<<"$a")" = "$(field $f <<<"$b")" ] ||
            fail "$coll $algo $plat $size: $f $(field $f <<<"$a") exported, $(field $f <<<"$b") imported"
        done
        cmp -s "$work/a.csv" "$work/b.csv" || fail "$coll $algo $plat $size: per-link bytes differ after the round trip"
        ok=$((ok + 1))
      done
    done
    [ "$ok" -gt 0 ] || fail "$coll $algo: ran on none of ${platforms[*]}"
    [ "$ok" -gt 0 ] && echo "round trip $coll $algo: $ok cases" >&2
done < <("$collsim" collective --list | awk '/^$/ { exit } NR > 1 && NF >= 2 && $2 != "script" {print $1, $2}')

# ---- 4. bad input ----
refused() { # name expected-substring file
  local err
  "$collsim" collective --goal-in "$3" --timed --engine native >"$work/out" 2>"$work/err"
  local rc=$?
  err=$(cat "$work/err")
  [ $rc = 2 ] || fail "$1: exit $rc (want 2)"
  [ "$(wc -l <"$work/err")" = 1 ] || fail "$1: not one line: $err"
  case $err in *"$2"*) ;; *) fail "$1: message '$err' lacks '$2'" ;; esac
  [ -s "$work/out" ] && fail "$1: output written"
}
printf 'num_ranks 2\nrank 0 {\nl1: send 8b to 1 tag 0\nl2: send 8 to 1\n}\nrank 1 {\n}\n' >"$work/m1.goal"
refused "missing b" "line 4:" "$work/m1.goal"
printf 'num_ranks 2\n\n// comment\nrank 0 {\n/* a\n block */ l1: calc 5\nl2 requires l9\n}\nrank 1 {\n}\n' >"$work/m2.goal"
refused "undefined label" "line 7:" "$work/m2.goal"
printf 'num_ranks 2\nrank 0 {\nl1: send 8b to 2 tag 0\n}\nrank 1 {\n}\n' >"$work/m3.goal"
refused "rank out of range" "line 3:" "$work/m3.goal"
printf 'num_ranks 3\nrank 0 {\n}\nrank 2 {\n}\n' >"$work/m4.goal"
refused "rank out of order" "line 4:" "$work/m4.goal"
printf 'num_ranks 2\nrank 0 {\n}\n' >"$work/m5.goal"
refused "missing rank" "line 4:" "$work/m5.goal"
printf 'num_ranks 2\nrank 0 {\nl1: recv 8b from 1 tag 0\nl2: send 8b to 1 tag 0\nl2 requires l1\n}\nrank 1 {\nl1: recv 8b from 0 tag 0\nl2: send 8b to 0 tag 0\nl2 requires l1\n}\n' >"$work/dl.goal"
refused "deadlock" "rank 0 never completes its operation 1 (recv 8b from 1 tag 0)" "$work/dl.goal"
"$collsim" collective --goal-in "$work/dl.goal" --platform percs:2,2,2 >/dev/null 2>"$work/err"
[ $? = 2 ] && grep -q "has 2 ranks but the platform has 8" "$work/err" || fail "rank count against the platform not refused"

# SimGrid's timed runs interpret op lists, not GOAL graphs: refused (it
# crashed before), untimed and native runs of the same file work.
printf 'num_ranks 8\nrank 0 {\nl1: send 8b to 1 tag 0\n}\nrank 1 {\nl1: recv 8b from 0 tag 0\n}\n' >"$work/ping.goal"
for r in 2 3 4 5 6 7; do printf 'rank %d {\n}\n' "$r"; done >>"$work/ping.goal"
"$collsim" collective --goal-in "$work/ping.goal" --platform torus:2x2x2/1 --timed >"$work/out" 2>"$work/err"
rc=$?
[ $rc = 2 ] && [ "$(without_asan_notice <"$work/err" | wc -l)" = 1 ] && grep -q "native engine" "$work/err" &&
  [ ! -s "$work/out" ] || fail "--goal-in with SimGrid's --timed: exit $rc, $(cat "$work/err")"
for e in "" "--timed --engine native"; do
  "$collsim" collective --goal-in "$work/ping.goal" --platform torus:2x2x2/1 $e -q --format csv >"$work/out" ||
    fail "--goal-in on torus:2x2x2/1 $e failed"
done

# ---- 5. the graph on disk ----
mkdir "$work/tmp"
"$collsim" collective --coll allreduce --algo rabenseifner --bytes 70000 --ranks 24 --goal "$work/disk.goal" -q >/dev/null
gzip -c "$work/disk.goal" >"$work/disk.goal.gz"
for f in "$work/disk.goal" "$work/disk.goal.gz" "$data/$(ls "$data" | grep -m1 '\.goal')"; do
  for run in "--timed --engine native" "--links"; do
    mem=$(COLLSIM_GOAL_ON_DISK=0 "$collsim" collective --goal-in "$f" $run --format csv -q 2>&1)
    disk=$(TMPDIR=$work/tmp COLLSIM_GOAL_ON_DISK=1 "$collsim" collective --goal-in "$f" $run --format csv -q 2>&1)
    [ -n "$mem" ] && [ "$mem" = "$disk" ] || fail "$(basename "$f") $run: on disk '$disk', in memory '$mem'"
  done
done
[ -z "$(ls -A "$work/tmp")" ] || fail "temporary files left: $(ls "$work/tmp")"
# A GOAL file is streamed: no 1 GiB cap as for other input files (a sparse
# file of 1.1 GiB, refused by the parser at its first line, not for its size).
truncate -s 1100M "$work/huge.goal"
"$collsim" collective --goal-in "$work/huge.goal" --timed --engine native -q >"$work/out" 2>"$work/err"
rc=$?
[ $rc = 2 ] && grep -q "line 1" "$work/err" && ! grep -q "may hold" "$work/err" ||
  fail "a 1.1 GiB GOAL file: exit $rc, $(cat "$work/err")"
rm -f "$work/huge.goal"
echo "graph on disk: the same answers, nothing left behind" >&2

# ---- 6. traces ----
"$collsim" collective --coll bcast --algo binomial --bytes 1KiB --ranks 8 --timed --engine native --trace "$work/t.csv" \
  --goal "$work/b8.goal" --format json -q >"$work/out" || fail "trace: exit $?"
[ "$(head -1 "$work/t.csv")" = "t_send_s,t_recv_s,src,dst,src_host,dst_host,bytes,tag,ctx,phase" ] ||
  fail "trace header: $(head -1 "$work/t.csv")"
summary=$(awk -F, 'NR > 1 { n++; b += $7; if ($2 < $1) bad++; seen[$4]++ }
  END { for (r = 1; r < 8; r++) if (seen[r] != 1) bad++; print n, b, bad + 0, seen[0] + 0 }' "$work/t.csv")
[ "$summary" = "$(field messages <"$work/out") $(field bytes <"$work/out") 0 0" ] ||
  fail "trace rows, bytes, order, receivers: $summary against $(field messages <"$work/out") messages"
# LogGOPSim's defaults: the root's first send (to rank 4) is matched at o + L = 4000 ns
[ "$(sed -n 2p "$work/t.csv")" = "0,4e-06,0,4,0,4,1024,2,0,algo" ] || fail "first message: $(sed -n 2p "$work/t.csv")"
"$collsim" collective --goal-in "$work/b8.goal" --timed --engine native --trace "$work/t-goal.csv" -q >/dev/null &&
  cmp -s "$work/t.csv" "$work/t-goal.csv" || fail "the GOAL file's trace differs from the schedule's"
"$collsim" collective --coll allgather --algo ring --block 1KiB --platform torus:2x2x2/2 --timed --engine native \
  --model loggops-links --trace "$work/t-links.csv" -q >/dev/null || fail "trace on a platform: exit $?"
bad=$(awk -F, 'NR > 1 && ($5 != int($3 / 2) || $6 != int($4 / 2))' "$work/t-links.csv" | head -1)
[ -z "$bad" ] && [ "$(($(wc -l <"$work/t-links.csv") - 1))" = 240 ] ||
  fail "trace on torus:2x2x2/2: $(($(wc -l <"$work/t-links.csv") - 1)) rows, hosts not the ranks' nodes: $bad"
if command -v gnuplot >/dev/null; then
  "$collsim" collective --coll bcast --algo binomial --bytes 1KiB --ranks 8 --timed --engine native \
    --timeline "$work/t.png" -q >/dev/null && [ -s "$work/t.png" ] || fail "--timeline on the native engine"
fi
echo "traces: every message, the GOAL file's the same" >&2

# ---- 7. huge pages (sim/contracts/hugepages.h) ----
# A run of 16,384 ranks or more continues in a new image asking malloc for
# transparent huge pages (where glibc and the kernel offer them); the output
# is the same byte for byte, a smaller run or COLLSIM_HUGEPAGES=0 stays as it
# is, and a user's own GLIBC_TUNABLES are kept.
huge() { COLLSIM_PHASE_TIMES=1 "$collsim" collective --coll barrier --algo dissemination --ranks "$1" --timed \
  --engine native --format json -q 2>"$work/err"; }
huge 65536 >"$work/h1" || fail "huge pages: exit $?"
asks=$(sed -n 's/.*malloc huge pages: \([a-z]*\).*/\1/p' "$work/err")
COLLSIM_HUGEPAGES=0 huge 65536 >"$work/h0" || fail "COLLSIM_HUGEPAGES=0: exit $?"
[ "$(sed -n 's/.*malloc huge pages: \([a-z]*\).*/\1/p' "$work/err")" = no ] || fail "COLLSIM_HUGEPAGES=0 asked for huge pages"
cmp -s "$work/h1" "$work/h0" || fail "huge pages changed the output"
huge 1024 >/dev/null && [ "$(sed -n 's/.*malloc huge pages: \([a-z]*\).*/\1/p' "$work/err")" = no ] ||
  fail "a run of 1,024 ranks asked for huge pages"
glibc=$(getconf GNU_LIBC_VERSION | awk '{ split($2, v, "."); print (v[1] > 2 || v[2] >= 35) ? "new" : "old" }')
# a sanitizer build (libasan linked) never asks: its allocator ignores glibc's tunable
sanitized=$( (ldd "$collsim" 2>/dev/null | grep -q libasan) && echo yes || echo no)
if [ "$sanitized" = yes ]; then
  [ "$asks" = no ] || fail "a sanitizer build asked for huge pages"
elif [ "$glibc" = new ] && [ -r /sys/kernel/mm/transparent_hugepage/enabled ] &&
  ! grep -q '\[never\]' /sys/kernel/mm/transparent_hugepage/enabled && [ -z "${GLIBC_TUNABLES:-}" ] &&
  [ "${COLLSIM_HUGEPAGES:-}" != 0 ]; then
  [ "$asks" = yes ] || fail "a run of 65,536 ranks did not ask for huge pages"
  GLIBC_TUNABLES=glibc.malloc.check=0 COLLSIM_PHASE_TIMES=1 "$collsim" collective --coll barrier --algo dissemination \
    --ranks 65536 --timed --engine native -q 2>"$work/err" >/dev/null
  grep -q "malloc huge pages: yes" "$work/err" || fail "huge pages with a user's GLIBC_TUNABLES: $(cat "$work/err")"
  # a GOAL file's num_ranks is read before the file: a large one asks before it is parsed
  "$collsim" collective --coll bcast --algo binomial --bytes 8 --ranks 65536 --goal "$work/big.goal" -q >/dev/null
  COLLSIM_PHASE_TIMES=1 "$collsim" collective --goal-in "$work/big.goal" --timed --engine native --format json -q \
    >"$work/g1" 2>"$work/err" && grep -q "malloc huge pages: yes" "$work/err" ||
    fail "a GOAL file of 65,536 ranks did not ask for huge pages: $(cat "$work/err")"
  COLLSIM_HUGEPAGES=0 "$collsim" collective --goal-in "$work/big.goal" --timed --engine native --format json -q \
    >"$work/g0" && cmp -s "$work/g1" "$work/g0" || fail "huge pages changed a GOAL file's output"
  rm -f "$work/big.goal"
fi
echo "huge pages: asked for at 65,536 ranks, the same output" >&2

[ "$fails" = 0 ] || { echo "native-goal: $fails failures" >&2; exit 1; }
echo "native-goal: all passed" >&2
