#!/usr/bin/env bash
# `collsim comm compare` (issue 31): one split through every scheme.
#
# The schemes expected come from the binary's own lists (`comm --list`,
# op split; `tree --list`, colours "any"): nothing here names one, so a
# scheme added to either registry is checked without editing this file.
# Properties, on a grid of n (powers of two and not), colours and layouts:
#  - one row per scheme, in the registries' order (the CSV and the table);
#  - every row verified;
#  - the first row's ratios are 1;
#  - measured messages equal messages_expected wherever a scheme gives it;
#  - the CSV and the JSON carry the same values (wall_s aside);
#  - --engine native: the same schemes, messages, bytes and largest message
#    as SimGrid's, other times, the LogGOPS parameters in the model column;
#  - --key random without --impl runs only the schemes that honour keys and
#    says which were left out on one stderr line (exit 0);
#  - bad input exits 2 with one stderr line and no stdout: a key a named
#    scheme cannot honour (the scheme named), an unknown scheme (the known
#    ones listed), a scheme named twice.
#
#   COLLSIM=./collsim tests/cli/comm-compare.sh        (tests/lib/collsim-env.sh)
# Exit status: 0 all passed; 1 a property failed (each failure printed).
set -u
export LC_ALL=C
. "$(dirname "$0")/../lib/collsim-env.sh"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/comm-compare.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fails=0
bad() {
  echo "comm-compare: $*" >&2
  fails=$((fails + 1))
}

# The schemes, in order: split protocols, then multi-colour constructions.
"$collsim" comm --list | awk '$2 == "split" { print $1 }' > "$tmp/schemes"
"$collsim" tree --list | awk 'NR > 1 && $2 == "any" { print $1 }' >> "$tmp/schemes"
[ "$(wc -l < "$tmp/schemes")" -ge 4 ] || bad "expected at least 4 schemes, the lists give: $(tr '\n' ' ' < "$tmp/schemes")"
keyed=$("$collsim" comm --list | awk '$2 == "split" { print $1 }')

# The value of CSV column $2 in every data line of file $1, one a line.
column() {
  awk -F, -v name="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i; next } { print $c }' "$1"
}

# CSV file $1 against JSON file $2, field by field (wall_s aside): the
# split's fields at the top of the JSON object, the schemes' in theirs.
same_as_json() {
  local csv=$1 json=$2 header scheme name value got obj
  header=$(head -1 "$csv")
  local top
  top=$(sed 's/"schemes": {.*//' "$json")
  tail -n +2 "$csv" | while IFS= read -r line; do
    IFS=, read -r -a vals <<< "$line"
    IFS=, read -r -a names <<< "$header"
    for i in "${!names[@]}"; do [ "${names[$i]}" = scheme ] && scheme=${vals[$i]}; done
    obj=$(grep -o "\"$scheme\": {[^}]*}" "$json")
    [ -n "$obj" ] || { echo "no JSON object for $scheme"; continue; }
    for i in "${!names[@]}"; do
      name=${names[$i]} value=${vals[$i]}
      [ "$name" = wall_s ] || [ "$name" = scheme ] && continue
      got=$(grep -o "\"$name\": [^,}]*" <<< "$obj" | head -1)
      [ -n "$got" ] || got=$(grep -o "\"$name\": [^,}]*" <<< "$top" | head -1)
      got=${got#*: }
      got=${got#\"}
      got=${got%\"}
      [ -z "$value" ] && [ "$got" = null ] && continue
      [ "$got" = "$value" ] || echo "$scheme $name: CSV '$value', JSON '$got'"
    done
  done
}

# One point of the grid: every property above.
check_point() {
  local args="$*" csv=$tmp/out.csv json=$tmp/out.json
  if ! "$collsim" comm compare $args -q --format csv > "$csv" 2> "$tmp/err"; then
    bad "comm compare $args failed: $(head -3 "$tmp/err")"
    return
  fi
  [ -n "$(without_asan_notice < "$tmp/err")" ] && bad "comm compare $args wrote on stderr: $(without_asan_notice < "$tmp/err" | head -3)"
  column "$csv" scheme > "$tmp/got"
  cmp -s "$tmp/got" "$tmp/schemes" || bad "$args: schemes $(tr '\n' ' ' < "$tmp/got"), expected $(tr '\n' ' ' < "$tmp/schemes")"
  column "$csv" verified | grep -vqx true && bad "$args: a row not verified: $(column "$csv" verified | tr '\n' ' ')"
  local r
  for r in time_ratio messages_ratio bytes_ratio memory_ratio; do
    [ "$(column "$csv" "$r" | head -1)" = 1 ] || bad "$args: first row's $r is $(column "$csv" "$r" | head -1), not 1"
  done
  paste -d' ' <(column "$csv" scheme) <(column "$csv" messages) <(column "$csv" messages_expected) |
    while read -r s m e; do
      [ -z "$e" ] || [ "$m" = "$e" ] || echo "$s: messages $m, messages_expected $e"
    done > "$tmp/mismatch"
  [ -s "$tmp/mismatch" ] && bad "$args: $(tr '\n' ';' < "$tmp/mismatch")"
  [ "$(column "$csv" messages_expected | grep -c .)" -ge 4 ] || bad "$args: fewer than 4 schemes give messages_expected"
  "$collsim" comm compare $args -q --format json > "$json" || bad "$args --format json failed"
  same_as_json "$csv" "$json" > "$tmp/diff"
  [ -s "$tmp/diff" ] && bad "$args: CSV and JSON differ: $(head -5 "$tmp/diff" | tr '\n' ';')"
  "$collsim" comm compare $args -q > "$tmp/table" || bad "$args (table) failed"
  local rows
  rows=$(awk '/^  schemes:/ { on = 1; getline; next } on && /^  [^ ]/ { on = 0 } on && /^    [^ (]/ { n++ } END { print n + 0 }' "$tmp/table")
  [ "$rows" = "$(wc -l < "$tmp/schemes")" ] || bad "$args: the table has $rows rows, expected $(wc -l < "$tmp/schemes")"
}

check_point -n 64 --colors 1
check_point -n 100 --colors 3
check_point -n 256 --colors 8 --layout block
check_point -n 200 --colors 7 --seed 5 --tree-k 2
check_point -n 200 --colors 7 --seed 5 --tree-k 2 --engine native

# The native engine times the same protocols: every scheme sends exactly
# SimGrid's messages and bytes and keeps the same largest message; only
# the times (and the model column) differ.
for e in simgrid native; do
  "$collsim" comm compare -n 96 --colors 5 -q --format csv --engine "$e" > "$tmp/$e.csv" ||
    bad "comm compare --engine $e failed"
done
for col in scheme messages bytes max_message_bytes verified; do
  cmp -s <(column "$tmp/simgrid.csv" $col) <(column "$tmp/native.csv" $col) ||
    bad "--engine native: column $col differs from SimGrid's: $(column "$tmp/native.csv" $col | tr '\n' ' ')"
done
column "$tmp/native.csv" model | grep -vq '^loggops L=2500 o=1500 g=1000 G=6 S=65535 O=0$' &&
  bad "--engine native: model column $(column "$tmp/native.csv" model | head -1)"
cmp -s <(column "$tmp/simgrid.csv" sim_time_s) <(column "$tmp/native.csv" sim_time_s) &&
  bad "--engine native: the same times as SimGrid's (not the native engine?)"

# --key random without --impl: the schemes that honour keys, one note.
if "$collsim" comm compare -n 64 --colors 2 --key random -q --format csv > "$tmp/keyed.csv" 2> "$tmp/err"; then
  column "$tmp/keyed.csv" scheme > "$tmp/got"
  [ "$(cat "$tmp/got")" = "$keyed" ] || bad "--key random ran $(tr '\n' ' ' < "$tmp/got"), expected $keyed"
  [ "$(without_asan_notice < "$tmp/err" | wc -l)" = 1 ] || bad "--key random: $(without_asan_notice < "$tmp/err" | wc -l) stderr lines, expected 1"
  grep -q "left out" "$tmp/err" || bad "--key random: no 'left out' note: $(cat "$tmp/err")"
  column "$tmp/keyed.csv" verified | grep -vqx true && bad "--key random: a row not verified"
else
  bad "--key random without --impl failed: $(cat "$tmp/err")"
fi

# Bad input: exit 2, one line naming the problem, nothing on stdout.
refused() {
  local want=$1
  shift
  "$collsim" comm compare "$@" > "$tmp/out" 2> "$tmp/err"
  local rc=$?
  [ $rc = 2 ] || bad "comm compare $*: exit $rc, expected 2"
  [ "$(without_asan_notice < "$tmp/err" | wc -l)" = 1 ] || bad "comm compare $*: $(wc -l < "$tmp/err") stderr lines"
  [ -s "$tmp/out" ] && bad "comm compare $*: wrote on stdout"
  grep -q -- "$want" "$tmp/err" || bad "comm compare $*: the message does not say '$want': $(cat "$tmp/err")"
}
tree_scheme=$(tail -1 "$tmp/schemes")
refused "$tree_scheme" -n 16 --key reverse --impl mpich,"$tree_scheme" -q
refused "$tree_scheme" -n 16 --key random --impl "$tree_scheme" -q
refused "known: .*$tree_scheme" -n 16 --impl no-such-scheme -q
refused "twice" -n 16 --impl mpich,mpich -q
refused "exceeds" -n 16 --colors 17 -q
refused "unknown map" -n 16 --map nosuchmap -q
refused "trace" -n 16 --trace "$tmp/t.csv" -q
refused "loggops" -n 16 --loggops 1,2,3 --engine native -q
refused "engine" -n 16 --loggops 1,2,3,4,5,6 -q

# The progress log (COLLSIM_PROGRESS_LOG, read by collsim sweep for its ETA)
# follows the whole comparison: its fraction done never goes back when the
# next scheme starts, and it ends at 1.
rm -f "$tmp/progress.log"
COLLSIM_PROGRESS_LOG="$tmp/progress.log" "$collsim" comm --op compare -n 4096 --engine native \
  --impl mpich,hash,smpi -q >/dev/null || bad "comm compare with a progress log: exit $?"
verdict=$(awk '{ f = $6 > 0 ? $5 / $6 : 0; if (f < last) back++; last = f; n++ }
  END { print ((n > 3 && !back && last == 1) ? "ok" : "lines " n ", went back " back + 0 ", last " last) }' "$tmp/progress.log")
[ "$verdict" = ok ] || bad "progress log of comm compare: $verdict"

# collsim sweep's planning (COLLSIM_PLAN): the whole comparison's processes
# and messages, the sum of the schemes' closed forms, before any scheme runs.
COLLSIM_PLAN="$tmp/plan.txt" "$collsim" comm --op compare -n 4096 --engine native --impl mpich,hash,smpi -q \
  >"$tmp/plan.out" || bad "comm compare's plan: exit $?"
"$collsim" comm --op compare -n 4096 --engine native --impl mpich,hash,smpi -q --format csv >"$tmp/three.csv"
want=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "messages_expected") col = i; next }
  { sum += $col } END { print 4096, sum, 0, 0 }' "$tmp/three.csv")
[ "$(cat "$tmp/plan.txt")" = "$want" ] && [ ! -s "$tmp/plan.out" ] ||
  bad "comm compare's plan: '$(cat "$tmp/plan.txt")', want '$want' and no rows"

[ $fails = 0 ] || exit 1
echo "comm-compare: all passed"
