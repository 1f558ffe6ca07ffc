#!/usr/bin/env bash
# Committed results are what the code produces now: re-runs every row of
# results/seed000/*.csv with n <= 4096 (cheap) and compares it with the
# committed row, all columns but the last (wall_s).  Exit 77 (skip) when no
# results are committed yet.
set -euo pipefail
src=${COLLSIM_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
collsim=${COLLSIM:-./collsim}
shopt -s nullglob
files=("$src"/results/seed000/*.csv)
[ ${#files[@]} -gt 0 ] || { echo "no committed results: skipped"; exit 77; }
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
echo "results-current: $checked rows re-run, $failed differ"
[ "$checked" -gt 0 ] || exit 77
[ "$failed" -eq 0 ]
