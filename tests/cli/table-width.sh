#!/usr/bin/env bash
# Tables fit 100 characters by default and --wide shows every column
# (issue 32, item 7), written once in the shared record renderer: a
# groupmap table of every representation, whose columns and failure reasons
# ran to about 220 characters.
#  - default: no line longer than 100; the columns without a value are left
#    out; the failure reason is listed under the table, naming rs; the
#    table says how many columns were cut and how to see them;
#  - --wide: every column of the CSV header is in the table's header line;
#  - CSV and JSON are unchanged by --wide.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib/collsim-env.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

{ seq 0 4999; seq 50000 4 69999; } > "$work/group.txt"
gm() { "$COLLSIM" groupmap --world 100000 --members "$work/group.txt" --no-times -q "$@"; }

gm > "$work/table.txt"
longest=$(awk '{ if (length($0) > n) n = length($0) } END { print n + 0 }' "$work/table.txt")
[ "$longest" -le 100 ] || fail "default table has a line of $longest characters"
grep -q '^  failed:$' "$work/table.txt" || fail "no failure list under the table"
grep -q '^    rs  *no progression' "$work/table.txt" || fail "rs's failure reason is not listed"
grep -q 'permutation_bits' "$work/table.txt" && fail "a column without a value is shown"

gm --wide > "$work/wide.txt"
header=$(grep -m1 ' kind ' "$work/wide.txt")
for col in $(gm --format csv | head -n 1 | tr , ' '); do
  case $col in rep | group | world | m | ordered | runs | picks.*) continue ;; esac # the record's, not the rows'
  grep -qw -- "$col" <<< "$header" || fail "--wide lacks the column $col"
done
[ "$(gm --format csv)" = "$(gm --format csv --wide)" ] || fail "--wide changed the CSV"
[ "$(gm --format json)" = "$(gm --format json --wide)" ] || fail "--wide changed the JSON"

[ "$fails" -eq 0 ] && echo "table-width: all checks passed"
exit $((fails > 0))
