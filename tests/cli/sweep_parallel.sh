#!/bin/bash
# collsim sweep --plan DIR --runner parallel (GNU parallel), on a generic
# experiment whose labels need CSV quoting:
#  - the plan is deterministic: planned twice, tasks.txt, estimates and
#    manifest are the same bytes; each task line is a complete command;
#  - a run killed part way (SIGTERM to the sweep while parallel runs its
#    tasks, one at a time) exits 143, leaves no output and no task running;
#    the same command again resumes: exit 0, every task in the joblog
#    exactly once (the tasks done before were not run again), and the CSV
#    is a local sweep's byte for byte but for wall_s;
#  - bad input: an unknown runner, a parallel option that does not exist,
#    parallel not installed, a plan folder that is a file, --gather on a
#    folder without a plan or with another experiment's: one line, exit 2,
#    nothing written.
set -u
. "$(dirname "$0")/../lib/collsim-env.sh"
collsim=$(cd "$(dirname "$collsim")" && pwd)/$(basename "$collsim")

fail() {
  echo "FAIL: sweep_parallel.sh: $*" >&2
  exit 1
}
command -v parallel >/dev/null 2>&1 || {
  echo "SKIP: sweep_parallel.sh: GNU parallel is not installed (scripts/install-deps.sh installs it)"
  exit 77
}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/collsim-parallel.XXXXXX")
sweep_pid=
cleanup() {
  [ -n "$sweep_pid" ] && kill "$sweep_pid" 2>/dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT
cd "$tmp" || exit 1

cat >exp.yaml <<'EOF'
name: parallel-test
command: tree
parameters:
  torus: auto
  cores: 4
  f: 1
  k: 3
  n: [4096, 64]
  algo: [rank-hash, centralized]
series:
  - label: {curve: "a, \"quoted\""}
    parameters: {seed: 1}
  - label: {curve: plain}
    parameters: {seed: 2}
EOF
other_experiment other.yaml

"$collsim" sweep exp.yaml --out local.csv --quiet || fail "the local sweep failed"

# deterministic plan
"$collsim" sweep exp.yaml --plan plan --quiet || fail "--plan: exit $?"
for f in tasks.txt estimates manifest; do cp "plan/$f" "first.$f"; done
"$collsim" sweep exp.yaml --plan plan --quiet || fail "--plan again: exit $?"
for f in tasks.txt estimates manifest; do
  cmp -s "plan/$f" "first.$f" || fail "planned twice, $f differs"
done
[ "$(wc -l <plan/tasks.txt)" = 8 ] && [ "$(wc -l <plan/estimates)" = 9 ] ||
  fail "8 points: tasks.txt has $(wc -l <plan/tasks.txt) lines, estimates $(wc -l <plan/estimates)"
grep -q "^experiment_hash	[0-9a-f]\{16\}$" plan/manifest || fail "no experiment_hash in the manifest: $(cat plan/manifest)"
# a task line runs alone and writes its point's output
(cd / && sh -c "$(sed -n 8p "$tmp/plan/tasks.txt")") && [ -s plan/rows/000007.csv ] ||
  fail "task 7's line did not write plan/rows/000007.csv: $(cat plan/logs/000007.log 2>&1)"
rm -rf plan

# interrupted part way, then resumed
"$collsim" sweep exp.yaml --plan plan --runner parallel --jobs 1 --out par.csv --quiet 2>run1.err &
sweep_pid=$!
for _ in $(seq 1200); do # up to a minute: a loaded machine is slow to write two rows
  [ "$(ls plan/rows 2>/dev/null | wc -l)" -ge 2 ] && break
  sleep 0.05
done
kill -TERM "$sweep_pid"
wait "$sweep_pid"
status=$?
sweep_pid=
done_before=$(ls plan/rows | wc -l)
[ "$status" = 143 ] || fail "the interrupted run: exit $status, expected 143 ($(cat run1.err))"
[ "$done_before" -ge 2 ] && [ "$done_before" -lt 8 ] || fail "the run was not interrupted part way ($done_before of 8 rows)"
[ ! -e par.csv ] || fail "the interrupted run left par.csv"
sleep 0.2
! pgrep -f "$tmp/plan/rows" >/dev/null || fail "tasks still run after the interruption: $(pgrep -af "$tmp/plan/rows")"
logged_before=$(($(wc -l <plan/joblog) - 1))

"$collsim" sweep exp.yaml --plan plan --runner parallel --jobs 2 --out par.csv --quiet 2>run2.err ||
  fail "the resumed run: exit $? ($(cat run2.err))"
seqs=$(tail -n +2 plan/joblog | cut -f 1 | sort -n | tr '\n' ' ')
[ "$seqs" = "1 2 3 4 5 6 7 8 " ] ||
  fail "the joblog should hold each task once (the $logged_before done before not run again): $seqs"

without_wall() { # the CSV without its wall_s column, found from the end of each row (only the label
  # before it holds a comma)
  awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "wall_s") from_end = NF - i }
           { k = NF - from_end; out = ""
             for (i = 1; i <= NF; i++) if (i != k) out = out (i == 1 || (i == 2 && k == 1) ? "" : ",") $i
             print out }' "$1"
}
cmp <(without_wall local.csv) <(without_wall par.csv) ||
  fail "the CSV differs from the local sweep's: $(diff <(without_wall local.csv) <(without_wall par.csv) | head -n 5)"
cmp -s <(head -n 1 local.csv) <(head -n 1 par.csv) || fail "headers differ"

# gathering again adds nothing
"$collsim" sweep exp.yaml --gather plan --out par.csv --quiet || fail "gathering again: exit $?"
cmp <(without_wall local.csv) <(without_wall par.csv) || fail "gathering again changed the CSV"

# bad input: one line, exit 2, nothing written
expect_bad() { # what, then the command
  local what=$1
  shift
  "$@" >bad.out 2>bad.err
  local status=$?
  [ "$status" = 2 ] && [ "$(wc -l <bad.err)" = 1 ] && [ ! -s bad.out ] ||
    fail "$what: exit $status, stderr: $(cat bad.err)"
}
expect_bad "an unknown runner" "$collsim" sweep exp.yaml --plan p1 --runner nosuch --out x.csv
expect_bad "an unknown parallel option" "$collsim" sweep exp.yaml --plan p1 --runner parallel \
  --runner-arg=--no-such-option --out x.csv
grep -q "no-such-option" bad.err || fail "the message does not name the option: $(cat bad.err)"
expect_bad "parallel not installed" env PATH=/nonexistent "$collsim" sweep exp.yaml --plan p1 --runner parallel \
  --out x.csv
grep -q "not installed" bad.err || fail "the message does not say parallel is missing: $(cat bad.err)"
touch afile
expect_bad "a plan folder that is a file" "$collsim" sweep exp.yaml --plan afile
expect_bad "--gather without a plan" "$collsim" sweep exp.yaml --gather nowhere --out x.csv
expect_bad "--gather of another experiment's plan" "$collsim" sweep other.yaml --gather plan --out x.csv
grep -q "another experiment" bad.err || fail "the message does not say another experiment: $(cat bad.err)"
[ ! -e p1 ] && [ ! -e nowhere ] && [ ! -e x.csv ] || fail "bad input left files: $(ls)"
echo "sweep_parallel.sh: ok (interrupted after $done_before of 8 rows, resumed, CSV equal to a local sweep's)"
