#!/usr/bin/env bash
# `collsim reproduce seed001 --quick` (the cheapest real target, ~10 s of
# CPU) recomputes results/seed001/ and matches it: the table2.csv rows it
# makes equal the committed ones (8 of the 23; the other 15 are not in the
# quick cut) and all 57 rows of tables.csv, and it says MATCH.
# tests/cli/reproduce.c tests the command itself on a fake target.
# Environment: COLLSIM (default ./collsim), COLLSIM_SRCDIR (default the
# repository above tests/): tests/lib/collsim-env.sh.  Exit status 0 it
# matches, 1 otherwise.
set -u
export LC_ALL=C
. "$(dirname "$0")/../lib/collsim-env.sh"
work=$(mktemp -d "${TMPDIR:-/tmp}/reproduce-seed001.XXXXXX")
trap 'rm -rf "$work"' EXIT

status=0
COLLSIM_SRCDIR=$src "$collsim" reproduce seed001 --quick --out "$work/seed001" > "$work/out" 2> "$work/err"
rc=$?
[ $rc = 0 ] || { echo "reproduce seed001 --quick: exit $rc"; status=1; }
expect() { # FILE TEXT
  grep -qF -- "$2" "$work/$1" || { echo "reproduce seed001 --quick: no '$2' in its std$1"; status=1; }
}
expect err "reproduce seed001: step 2/3 table2.csv: collsim sweep quick-table2.yaml"
expect out "table2.csv: 8 rows made, 23 committed: 8 same, 0 differ, 0 only here, 15 only committed"
expect out "tables.csv: 57 rows made, 57 committed: 57 same"
grep -q "^MATCH: " "$work/out" || { echo "reproduce seed001 --quick: its summary is not MATCH"; status=1; }
if [ $status != 0 ]; then
  echo "--- stdout"; cat "$work/out"; echo "--- stderr"; tail -20 "$work/err"
fi
[ $status = 0 ] && echo "reproduce-seed001: results/seed001 (quick) recomputed and matched"
exit $status
