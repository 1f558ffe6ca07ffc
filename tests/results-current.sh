#!/usr/bin/env bash
# Committed results are what the code produces now:
#  - seed 000: re-runs every row of results/seed000/*.csv with n <= 4096
#    (cheap) and compares it with the committed row, all columns but the last
#    (wall_s);
#  - seed 001: re-runs the whole of results/seed001/tables.csv (Tables 3-5,
#    one untimed batch, about a second) and the timed rows of table2.csv on
#    percs:64,16,16 for scatter and gather (a few seconds each), and compares
#    them byte for byte;
#  - seed 002: re-runs the rows of results/seed002/sec52.csv (Section 5.2's
#    configurations, about a second each).
# Exit 77 (skip) when no results are committed yet.
set -euo pipefail
src=${COLLSIM_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
collsim=${COLLSIM:-./collsim}
shopt -s nullglob
files=("$src"/results/seed000/*.csv)
[ ${#files[@]} -gt 0 ] || [ -f "$src/results/seed001/tables.csv" ] || { echo "no committed results: skipped"; exit 77; }
checked=0 failed=0
declare -A seen=()
for f in "${files[@]}"; do
  # algo,n,m,f,k,colors,seed,platform,... ; platform is torus:XxYxZ/C
  while IFS=, read -r algo n _ frac k colors seed platform rest; do
    [ "$algo" = algo ] && continue
    [ "$n" -le 4096 ] || continue
    key="$algo,$n,$frac,$k,$colors,$seed,$platform"
    [ -z "${seen[$key]:-}" ] || continue
    seen[$key]=1
    shape=${platform#torus:}; cores=${shape#*/}; shape=${shape%/*}
    want=$(grep -m1 "^$algo,$n,[0-9]*,$frac,$k,$colors,$seed,$platform," "$f" | sed 's/,[^,]*$//')
    got=$("$collsim" tree --algo "$algo" -n "$n" -f "$frac" -k "$k" --colors "$colors" --seed "$seed" \
            --torus "$shape" --cores "$cores" --format csv --no-header --quiet | sed 's/,[^,]*$//')
    checked=$((checked + 1))
    if [ "$got" != "$want" ]; then
      failed=$((failed + 1))
      printf 'MISMATCH %s\n  committed: %s\n  now:       %s\n' "$(basename "$f")" "$want" "$got"
    fi
  done < "$f"
done

t=$src/results/seed001/tables.csv
if [ -f "$t" ]; then
  got=$(cd "$src" && "$collsim" collective --net percs:64,16,16 --links \
          --batch experiments/seed001-tables.batch --format csv -q)
  checked=$((checked + $(grep -c . "$t") - 1))
  if [ "$got" != "$(cat "$t")" ]; then
    failed=$((failed + 1))
    echo "MISMATCH seed001/tables.csv:"
    diff <(printf '%s\n' "$got") "$t" | head -20 || true
  fi
fi
t2=$src/results/seed001/table2.csv
if [ -f "$t2" ]; then
  for run in "scatter two-tier" "gather binomial"; do
    set -- $run
    want=$(grep -m1 "^\"percs:64,16,16\",$1,$2," "$t2" || true)
    [ -n "$want" ] || continue
    got=$("$collsim" collective --net percs:64,16,16 --coll "$1" --algo "$2" --block 64KiB --timed \
            --format csv --no-header -q)
    checked=$((checked + 1))
    if [ "$got" != "$want" ]; then
      failed=$((failed + 1))
      printf 'MISMATCH seed001/table2.csv\n  committed: %s\n  now:       %s\n' "$want" "$got"
    fi
  done
fi
s52=$src/results/seed002/sec52.csv
if [ -f "$s52" ]; then
  # curve,tree_args,cluster,trees,order,n,iterations,...: re-run each row
  while IFS=, read -r curve args cluster _ _ n iters rest; do
    [ "$curve" = curve ] && continue
    want="$cluster,$(grep -m1 "^$curve,$args,$cluster," "$s52" | cut -d, -f4-)"
    # shellcheck disable=SC2086
    got=$("$collsim" allreduce --cluster "$cluster" $args -n "$n" --iterations "$iters" --format csv -q | tail -n 1)
    checked=$((checked + 1))
    if [ "$got" != "$want" ]; then
      failed=$((failed + 1))
      printf 'MISMATCH seed002/sec52.csv\n  committed: %s\n  now:       %s\n' "$want" "$got"
    fi
  done < "$s52"
fi
echo "results-current: $checked rows re-run, $failed differ"
[ "$checked" -gt 0 ] || exit 77
[ "$failed" -eq 0 ]
