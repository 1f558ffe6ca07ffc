#!/usr/bin/env bash
# The committed results/seed003/maps.csv is what collsim produces now: re-runs
# the cheap groups of it (Table 1 groups 5-8 and Table 2 group 4, 10,000
# members or fewer, a second or two) with
#   collsim groupmap --group t1g5,t1g6,t1g7,t1g8,t2g4-stride --no-times --format csv
# and compares the output byte for byte with the header and those groups'
# lines of maps.csv (sizes, BDD paths, WTR runs, failures, picks: every
# column, as --no-times leaves out only the times).
# Environment: COLLSIM (default ./collsim), COLLSIM_SRCDIR (default this
# script's folder's parent).
# Exit status: 0 same; 1 MISMATCH (a diff is printed) or collsim failed;
# 77 (skipped) when results/seed003/maps.csv does not exist.
set -euo pipefail
export LC_ALL=C
src=${COLLSIM_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
collsim=${COLLSIM:-./collsim}
committed=$src/results/seed003/maps.csv
groups=t1g5,t1g6,t1g7,t1g8,t2g4-stride

[ -f "$committed" ] || { echo "no results/seed003/maps.csv: skipped"; exit 77; }

tmpd=$(mktemp -d)
trap 'rm -rf "$tmpd"' EXIT

# the header and the committed lines of these groups, in the file's order
awk -F, -v groups="$groups" 'BEGIN { n = split(groups, g, ","); for (i = 1; i <= n; i++) want[g[i]] = 1 }
  NR == 1 || ($1 in want)' "$committed" > "$tmpd/want.csv"
if [ "$(wc -l < "$tmpd/want.csv")" -le 1 ]; then
  echo "MISMATCH: results/seed003/maps.csv has no line of the groups $groups"
  exit 1
fi

if ! "$collsim" groupmap --group "$groups" --no-times --format csv --quiet > "$tmpd/got.csv"; then
  echo "collsim groupmap --group $groups --no-times --format csv failed"
  exit 1
fi

if cmp -s "$tmpd/want.csv" "$tmpd/got.csv"; then
  echo "results/seed003/maps.csv: the $(($(wc -l < "$tmpd/got.csv") - 1)) lines of $groups are reproduced"
  exit 0
fi
echo "MISMATCH results/seed003/maps.csv (groups $groups): < committed, > now"
diff "$tmpd/want.csv" "$tmpd/got.csv" | head -n 40 || true
exit 1
