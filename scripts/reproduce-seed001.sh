#!/usr/bin/env bash
# seed001: collectives on two-tier direct networks (Jain, Lau, Kale): Tables 2-5
# Duration: about 1.5 min on one core (83 s on a 2-core Intel Xeon, 2026-11-27); --quick about 5 s (bench/out/reproduce-quick.txt)
#
# On the paper's PERCS machine (64 supernodes x 16 nodes x 16 cores), makes in DIR:
#   tables.csv, .cmd   one untimed `collsim collective --links --batch` over
#                      experiments/seed001-tables.batch: the link usage of
#                      Tables 3, 4 and 5, one row per run and tier (~1 s)
#   table2.csv, .cmd   collsim sweep experiments/seed001-table2.yaml: one timed
#                      `collsim collective --timed` per point, the cost-model
#                      Table 2 (23 runs, ~1.5 min)
#   README.md          scripts/compare-seed001.sh: every cell beside the
#                      paper's, the match rule, the reasons for differences
# --quick makes tables.csv, and table2.csv for the 8 cheapest runs: those on
# percs:64,16,1 (p = 1,024) with a binomial or two-tier algorithm
# (quick-table2.yaml: seed001-table2.yaml cut), and README.md from them.

# Run through `collsim reproduce seed001`, which sets the environment of
# scripts/lib-reproduce.sh.
# shellcheck source=lib-reproduce.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib-reproduce.sh"
[ $# -eq 0 ] || die "takes no arguments (got '$*')"

tables() {
  # shellcheck disable=SC2054 # the commas are percs's
  local args=(collective --net percs:64,16,16 --links --batch experiments/seed001-tables.batch --format csv -q)
  (cd "$src" && "$collsim" "${args[@]}" --out "$out/.tables.csv")
  write_cmd tables "" "collsim ${args[*]} --out $(rel "$out")/tables.csv"
  mv "$out/.tables.csv" "$out/tables.csv"
}

readme() {
  need tables.csv
  bash "$here/compare-seed001.sh" "$out"
}

runs=$(grep -cv '^\s*\(#\|$\)' "$src/experiments/seed001-tables.batch")
step tables.csv 5 "collsim collective --links --batch experiments/seed001-tables.batch ($runs untimed runs)" tables
if is_quick; then
  t2=$(quick_yaml table2 "$src/experiments/seed001-table2.yaml" 'platform=percs:64,16,1' 'algo=binomial|two-tier')
  step table2.csv 5 "collsim sweep quick-table2.yaml (p = 1,024, binomial and two-tier)" sweep_csv table2 "$t2"
else
  step table2.csv 90 "collsim sweep experiments/seed001-table2.yaml (23 timed runs)" sweep_csv table2 \
    "$src/experiments/seed001-table2.yaml"
fi
step README.md 5 "scripts/compare-seed001.sh" readme
run_steps
