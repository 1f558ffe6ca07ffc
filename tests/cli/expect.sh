#!/usr/bin/env bash
# --expect-messages / --expect-bytes: a run as a regression test of a
# message-count formula (issue 32).
#  - Rank-and-Hash's exact count over the record's own fields
#    (n - 1 + s + 3m - 2 + ceil((m-1)/k)) passes on several n, f, k: exit 0;
#    the paper's n + 4m + m/k fails: the row is written first (stdout), then
#    one line per mismatch naming the measured and expected values, exit 1;
#  - Centralized's exact count (n - 1 + (1 - root_joins) + m - 1) passes;
#  - messages_expected equals messages on every row of every algorithm that
#    has a count, and the formula text is in the JSON but not in the CSV;
#  - a formula with a character outside the grammar, unbalanced parentheses
#    or a variable the command's records do not have: one line, exit 2,
#    refused before the run (nothing on stdout);
#  - --expect-bytes reads the bytes column;
#  - an experiment's expect: (docs/examples/rank-hash-counts.yaml) passes
#    with the exact form; with the paper's, the sweep writes every row and
#    exits 1 with one line per row; a bad formula there: exit 2, no file.
#   COLLSIM=./collsim tests/cli/expect.sh    (make check sets COLLSIM)
set -u
COLLSIM=${COLLSIM:-./collsim}
. "$(dirname "$0")/../lib/collsim-env.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
# The sanitizer build's notice is not collsim's: drop it before counting lines.
clean_err() { without_asan_notice < "$tmp/err" > "$tmp/err.clean" && mv "$tmp/err.clean" "$tmp/err"; }

exact='n - 1 + s + 3*m - 2 + ceil((m - 1)/k)'
for point in "256 0.3 2" "512 0.7 3" "1000 0.05 4" "300 1 3"; do
  set -- $point
  "$COLLSIM" tree --algo rank-hash -n "$1" -f "$2" -k "$3" -q --format csv --expect-messages "$exact" \
    > "$tmp/out" 2> "$tmp/err" || bad "exact form failed on n=$1 f=$2 k=$3: $(cat "$tmp/err")"
done

"$COLLSIM" tree --algo rank-hash -n 512 -f 0.5 -k 3 -q --format csv --expect-messages 'n + 4*m + m/k' \
  > "$tmp/out" 2> "$tmp/err"
rc=$?
clean_err
[ $rc = 1 ] || bad "paper's form: exit $rc, expected 1"
[ "$(wc -l < "$tmp/out")" = 2 ] || bad "paper's form: the row was not written first"
[ "$(wc -l < "$tmp/err")" = 1 ] || bad "paper's form: not one line on stderr: $(cat "$tmp/err")"
grep -q "expectation failed (row 1): --expect-messages: messages = [0-9]*, 'n + 4\*m + m/k' = " "$tmp/err" ||
  bad "paper's form: message $(cat "$tmp/err")"

"$COLLSIM" tree --algo centralized -n 200 -f 0.4 -q --expect-messages 'n - 1 + (1 - root_joins) + m - 1' \
  > /dev/null 2> "$tmp/err" || bad "centralized exact form: $(cat "$tmp/err")"

for algo in centralized rank-hash rank-hash-split comm-split; do
  "$COLLSIM" tree --algo "$algo" -n 128 -f 0.5 --colors 2 -q --format csv > "$tmp/$algo.csv" 2> /dev/null ||
    "$COLLSIM" tree --algo "$algo" -n 128 -f 0.5 -q --format csv > "$tmp/$algo.csv" 2> /dev/null ||
    bad "$algo did not run"
  awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
           $col["messages"] != $col["messages_expected"] { exit 1 }' "$tmp/$algo.csv" ||
    bad "$algo: messages_expected differs from messages"
  head -1 "$tmp/$algo.csv" | grep -q messages_formula && bad "$algo: the formula is on every CSV row"
done
"$COLLSIM" tree --algo rank-hash -n 64 -f 0.5 -q --format json | grep -q '"messages_formula": "n - 1 + s' ||
  bad "no messages_formula in the JSON"

"$COLLSIM" tree --algo rank-hash -n 64 -f 0.5 -q --expect-bytes 'bytes' > /dev/null 2>&1 || bad "--expect-bytes bytes"
"$COLLSIM" tree --algo rank-hash -n 64 -f 0.5 -q --expect-bytes 'bytes + 1' > /dev/null 2>&1
[ $? = 1 ] || bad "--expect-bytes 'bytes + 1' did not fail"

refused() { # expected-stdout-lines formula
  local want=$1
  shift
  "$COLLSIM" tree --algo rank-hash -n 64 -f 0.5 -q --format csv --expect-messages "$1" > "$tmp/out" 2> "$tmp/err"
  local rc=$?
  clean_err
  [ $rc = 2 ] || bad "'$1': exit $rc, expected 2"
  [ "$(wc -l < "$tmp/err")" = 1 ] || bad "'$1': not one line: $(cat "$tmp/err")"
  [ "$(wc -l < "$tmp/out")" = "$want" ] || bad "'$1': $(wc -l < "$tmp/out") lines on stdout, expected $want"
}
refused 0 'n > 3'
refused 0 'ceil(n/3'
refused 0 'n + zz'
grep -q "no number 'zz'" "$tmp/err" || bad "unknown variable not named: $(cat "$tmp/err")"

# An experiment's expect: the sweep is the test (docs/examples/rank-hash-counts.yaml).
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
yaml=$src/docs/examples/rank-hash-counts.yaml
"$COLLSIM" sweep "$yaml" --out "$tmp/counts.csv" -q 2> "$tmp/err" || bad "exact sweep: $(cat "$tmp/err")"
[ "$(wc -l < "$tmp/counts.csv")" = 9 ] || bad "exact sweep: not 8 rows"
sed 's|"n - 1 + s + 3\*m - 2 + ceil((m - 1)/k)"|"n + 4*m + m/k"|' "$yaml" > "$tmp/paper.yaml"
grep -q 'n + 4\*m' "$tmp/paper.yaml" || bad "could not make the paper's experiment"
"$COLLSIM" sweep "$tmp/paper.yaml" --out "$tmp/paper.csv" -q 2> "$tmp/err"
rc=$?
clean_err
[ $rc = 1 ] || bad "paper's sweep: exit $rc, expected 1"
[ "$(wc -l < "$tmp/paper.csv")" = 9 ] || bad "paper's sweep: its rows were not all written"
[ "$(grep -c "expectation failed" "$tmp/err")" = 8 ] || bad "paper's sweep: not one line per row: $(cat "$tmp/err")"
printf 'name: x\nalgorithms: [rank-hash]\nn: [64]\nexpect: {messages: "n >"}\n' > "$tmp/bad.yaml"
"$COLLSIM" sweep "$tmp/bad.yaml" --out "$tmp/bad.csv" -q 2> "$tmp/err"
rc=$?
clean_err
[ $rc = 2 ] && [ ! -e "$tmp/bad.csv" ] && [ "$(wc -l < "$tmp/err")" = 1 ] || bad "bad expect: exit $rc: $(cat "$tmp/err")"

[ $fail = 0 ] && echo "PASS: --expect-messages and --expect-bytes"
exit $fail
