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
# table2  `collsim sweep experiments/seed001-table2.yaml`: one timed
#         `collsim collective --timed` per point -> results/seed001/table2.csv
#         (about 10 minutes; an interrupted sweep resumes where it stopped and
#         never loses a finished row)
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

# The timed runs of experiments/seed001-table2.yaml, swept into a working
# file beside the table (resumable: run again after an interruption), which
# replaces table2.csv when every point is done.
run_table2() {
  local exp=experiments/seed001-table2.yaml work=$out/table2.csv.sweep
  local q=()
  [ "$quiet" = 1 ] && q=(--quiet)
  say "table2: $("$collsim" sweep "$src/$exp" --dry-run --out "$work" | wc -l) timed runs to do (about 10 minutes)"
  (cd "$src" && "$collsim" sweep "$exp" --out "$work" "${q[@]}") || return 1
  mv "$work" "$out/table2.csv"
  rm -f "$out/.table2.csv.sweep.journal"
  printf 'collsim sweep %s --out results/seed001/table2.csv\n' "$exp" > "$out/table2.cmd"
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
