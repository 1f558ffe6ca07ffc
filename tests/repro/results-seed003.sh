#!/usr/bin/env bash
# The committed results/seed003/maps.csv is what collsim produces now: re-runs
# the cheap groups of it (Table 1 groups 5-8 and Table 2 group 4, 10,000
# members or fewer, a second or two) with
#   collsim groupmap --group t1g5,t1g6,t1g7,t1g8,t2g4-stride --no-times --format csv
# and compares the output byte for byte with the header and those groups'
# lines of maps.csv (sizes, BDD paths, WTR runs, failures, picks: every
# column, as --no-times leaves out only the times).
# Then, when they exist, results/seed003/ids.csv (re-run whole by its sweep,
# whose rows end with the configuration columns: compared on the committed
# file's columns; a second)
# the C1 row of section8.csv (one timed run, ~10 s) and the N = 2,000 rows
# of scaling.csv (both splits): every column but wall_s must be what
# collsim produces now.
# Environment: COLLSIM (default ./collsim), COLLSIM_SRCDIR (default the
# repository above tests/): tests/lib/collsim-env.sh.
# Exit status: 0 same; 1 MISMATCH (a diff is printed), collsim failed or
# missing; 77 (skipped) when results/seed003/maps.csv does not exist.
set -euo pipefail
export LC_ALL=C
. "$(dirname "$0")/../lib/collsim-env.sh"
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

status=0
if cmp -s "$tmpd/want.csv" "$tmpd/got.csv"; then
  echo "results/seed003/maps.csv: the $(($(wc -l < "$tmpd/got.csv") - 1)) lines of $groups are reproduced"
else
  echo "MISMATCH results/seed003/maps.csv (groups $groups): < committed, > now"
  diff "$tmpd/want.csv" "$tmpd/got.csv" | head -n 40 || true
  status=1
fi

# The CSV without the configuration columns a sweep adds at the end
# (config_platform ... config_key; the committed files were made before
# them, so only the columns they have are compared) and without its wall_s
# column (then the last one; the platform column holds quoted commas, so a
# field is a quoted string or a run of non-commas).
no_config() {
  local n
  n=$(head -n 1 "$1" | tr ',' '\n' | sed -n '/^config_platform$/,$p' | wc -l)
  if [ "$n" -gt 0 ]; then
    sed -E 's/(,("([^"]|"")*"|[^,"]*)){'"$n"'}$//' "$1"
  else
    cat "$1"
  fi
}
no_wall() {
  no_config "$1" | head -n 1 | grep -q ',wall_s$' || { echo "no wall_s last in $1" >&2; return 1; }
  no_config "$1" | sed 's/,[^,]*$//'
}

# compare NAME WANT GOT: both without wall_s
compare() {
  if cmp -s <(no_wall "$2") <(no_wall "$3"); then
    echo "results/seed003/$1: reproduced ($(($(wc -l < "$3") - 1)) rows, wall_s aside)"
  else
    echo "MISMATCH results/seed003/$1: < committed, > now"
    diff <(no_wall "$2") <(no_wall "$3") | head -n 20 || true
    status=1
  fi
}

ids=$src/results/seed003/ids.csv
if [ -f "$ids" ]; then
  if "$collsim" sweep "$src/experiments/seed003-ids.yaml" --out "$tmpd/ids.csv" --quiet; then
    compare ids.csv "$ids" "$tmpd/ids.csv"
  else
    echo "collsim sweep experiments/seed003-ids.yaml failed"
    status=1
  fi
fi

s8=$src/results/seed003/section8.csv
if [ -f "$s8" ] && grep -q '^bench,C1,' "$s8"; then
  awk -F, 'NR == 1 || $2 == "C1"' "$s8" > "$tmpd/want8.csv"
  if "$collsim" comm bench --set C1 --format csv --quiet > "$tmpd/got8.csv"; then
    compare "section8.csv (set C1)" "$tmpd/want8.csv" "$tmpd/got8.csv"
  else
    echo "collsim comm bench --set C1 failed"
    status=1
  fi
fi

# The two smallest points of scaling.csv (N = 2,000, both splits, a second
# each), without the series column the sweep adds in front.
sc=$src/results/seed003/scaling.csv
if [ -f "$sc" ] && grep -q '^by-n,split,,leader,125 8 2,' "$sc"; then
  for impl in leader mpich; do
    { head -n 1 "$sc"; grep "^by-n,split,,$impl,125 8 2," "$sc"; } | sed 's/^[^,]*,//' > "$tmpd/want-$impl.csv"
    if "$collsim" comm split --cpm 125,8,2 --colors 100 --impl "$impl" --format csv --quiet > "$tmpd/got-$impl.csv"; then
      compare "scaling.csv ($impl, N = 2,000)" "$tmpd/want-$impl.csv" "$tmpd/got-$impl.csv"
    else
      echo "collsim comm split --cpm 125,8,2 --impl $impl failed"
      status=1
    fi
  done
fi
exit "$status"
