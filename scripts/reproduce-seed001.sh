#!/usr/bin/env bash
# Reproduces Section 6 of seed 001 (Jain, Lau, Kale, "Collectives on Two-tier
# Direct Networks"): the link-usage Tables 3, 4 and 5 and the cost-model
# Table 2, on the paper's PERCS machine (64 supernodes x 16 nodes x 16 cores).
#
#   scripts/reproduce-seed001.sh [tables|table2 ...]   (default: both)
#   collsim reproduce seed001                          (the same)
#
# tables  one untimed `collsim collective --links --batch` over
#         experiments/seed001-tables.batch -> results/seed001/tables.csv
#         (one row per run and tier; about 1 s)
# table2  one timed `collsim collective --timed` per line of
#         experiments/seed001-table2.runs -> results/seed001/table2.csv
#         (about 10 minutes; rows already in the CSV are skipped, so an
#         interrupted run resumes and never loses a finished row)
# Then scripts/compare-seed001.sh writes results/seed001/README.md, our
# numbers beside the paper's.  Every CSV has a .cmd file beside it with the
# command that made it.
#
# Environment: COLLSIM (the binary, default ./collsim), OUT (default
# <source>/results/seed001), QUIET=1 (no progress lines).
# Exit status: 0 done; 1 a run failed; 2 bad input.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=${COLLSIM_SRCDIR:-$(dirname "$here")}
collsim=${COLLSIM:-./collsim}
out=${OUT:-$src/results/seed001}
quiet=0
if [ -n "${QUIET:-}" ] && [ "${QUIET:-}" != 0 ]; then quiet=1; fi

say() { [ "$quiet" = 1 ] || printf 'reproduce-seed001: %s\n' "$*" >&2; }
die() { printf 'reproduce-seed001: %s\n' "$*" >&2; exit 2; }

if ! [ -x "$collsim" ] && ! command -v "$collsim" > /dev/null 2>&1; then
  die "no collsim binary at '$collsim' (set COLLSIM=/path/to/collsim)"
fi
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(tables table2)
for t in "${targets[@]}"; do
  case $t in tables | table2) ;; *) die "unknown target '$t' (tables, table2)" ;; esac
done
mkdir -p "$out"

run_tables() {
  local batch=experiments/seed001-tables.batch
  local args=(collective --net percs:64,16,16 --links --batch "$batch" --format csv -q)
  say "tables: $(grep -cv '^\s*\(#\|$\)' "$src/$batch") untimed runs"
  (cd "$src" && "$collsim" "${args[@]}" --out "$out/tables.csv")
  printf 'collsim %s --out results/seed001/tables.csv\n' "${args[*]}" > "$out/tables.cmd"
}

size_flag() { case $1 in bcast | reduce) echo --bytes ;; *) echo --block ;; esac; }

# One timed run per line; a row already present (same net, coll, algo, size)
# is kept and not run again.
run_table2() {
  local runs=$src/experiments/seed001-table2.runs csv=$out/table2.csv
  local header="net,coll,algo,p,size,messages,bytes,tier,links,links_used,min_bytes,max_bytes,total_bytes,sim_time_s,cost_model_s"
  [ -s "$csv" ] || echo "$header" > "$csv"
  {
    echo "# one line per row of table2.csv, run by scripts/reproduce-seed001.sh:"
    echo "# collsim collective --net NET --coll COLL --algo ALGO --block|--bytes SIZE --timed --format csv --no-header -q"
    echo "# over the lines of experiments/seed001-table2.runs (NET COLL ALGO SIZE)"
  } > "$out/table2.cmd"
  local total done=0 net coll algo size
  total=$(grep -cv '^\s*\(#\|$\)' "$runs")
  local t0=$SECONDS
  while read -r net coll algo size; do
    case $net in '' | '#'*) continue ;; esac
    done=$((done + 1))
    local bytes
    bytes=$(awk -v s="$size" 'BEGIN { n = s + 0; u = s; sub(/^[0-9]+/, "", u);
      m = (u == "KiB") ? 1024 : (u == "MiB") ? 1048576 : (u == "GiB") ? 1073741824 : 1; printf "%.0f", n * m }')
    if grep -q "^\"$net\",$coll,$algo,[0-9]*,$bytes," "$csv"; then
      say "[$done/$total] $net $coll $algo $size: already done"
      continue
    fi
    say "[$done/$total] $net $coll $algo $size (elapsed $((SECONDS - t0)) s)"
    local row
    row=$("$collsim" collective --net "$net" --coll "$coll" --algo "$algo" "$(size_flag "$coll")" "$size" \
      --timed --format csv --no-header -q) || { say "run failed: $net $coll $algo $size"; return 1; }
    printf '%s\n' "$row" >> "$csv"
    sync "$csv" 2> /dev/null || true
  done < "$runs"
}

status=0
for t in "${targets[@]}"; do
  case $t in
    tables) run_tables || status=1 ;;
    table2) run_table2 || status=1 ;;
  esac
done
if [ -f "$out/tables.csv" ]; then
  bash "$src/scripts/compare-seed001.sh" "$out" || status=1
fi
exit $status
