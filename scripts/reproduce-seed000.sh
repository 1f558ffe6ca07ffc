#!/usr/bin/env bash
# seed000: balanced spanning trees on BG/P (Langer, Venkataraman, Kale): Figures 3-4, Tables 1-2
# Duration: about 50 min on one core (135 points up to n = 131,072, 3 GB each at the largest); --quick about 20 s (bench/out/reproduce-quick.txt)
#
# Makes in DIR, one `collsim sweep` per experiment (experiments/seed000-*.yaml):
#   fig3.csv, .cmd     Figure 3: centralized, Shrink-and-Balance and Rank-and-Hash,
#                      n = 4,096 .. 131,072, f in {0.01, 0.1, 0.6, 0.99} (~13 min)
#   table2.csv, .cmd   Table 2: growth with n at f = 0.6, comm-split too (~2 min)
#   fig4.csv, .cmd     Figure 4: messages at n = 131,072 for f = 0.01 .. 0.99 (~20 min)
#   table1.csv, .cmd   Table 1: comm-split vs rank-hash-split, 1-8 colours (~10 min)
#   fig3.png, fig4.png, table1.png, table2.png   scripts/plot-seed000.gp (gnuplot)
#   README.md          scripts/compare-seed000.sh: every number beside the paper's
# table2.csv and fig4.csv start with the rows of fig3.csv for the points they
# share (the same simulation; their .cmd says so).
# --quick makes fig3.csv and table2.csv for n <= 8,192 (quick-fig3.yaml,
# quick-table2.yaml: the experiments cut; 26 points), their plots and README.md.

# Run through `collsim reproduce seed000`, which sets the environment of
# scripts/lib-reproduce.sh; REUSE=0 runs the shared points again instead of
# copying fig3.csv's rows.
# shellcheck source=lib-reproduce.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib-reproduce.sh"
[ $# -eq 0 ] || die "takes no arguments (got '$*')"
reuse=${REUSE:-1}

# The arguments that follow "--seed=S" in a dry-run line: platform, output
# format and extra arguments.  Two experiments whose lines agree there run the
# same simulation for the same (algo, n, f, k, colours, seed), and their rows
# carry the same config_key.
tail_args() { sed -n '1{s/.* --seed=[0-9]* //;p;}'; }

# copy_shared FROM_YAML TO_YAML WORK: copies into WORK (new) the rows of
# OUT/fig3.csv whose point belongs to TO_YAML; true when it copied any.
copy_shared() {
  local from=$1 to=$2 work=$3 points theirs ours
  points=$("$collsim" sweep "$to" --dry-run)
  theirs=$("$collsim" sweep "$from" --dry-run | tail_args)
  ours=$(tail_args <<< "$points")
  if [ "$theirs" != "$ours" ]; then
    say "not reusing fig3.csv for $(basename "$work"): platform or extra arguments differ"
    return 1
  fi
  awk '
    NR == FNR {
      nw = split($0, w, " "); a = n = f = k = c = s = ""
      for (i = 1; i <= nw; i++) {
        eq = index(w[i], "="); name = substr(w[i], 1, eq - 1); val = substr(w[i], eq + 1)
        if (name == "--algo") a = val
        else if (name == "--n") n = val + 0
        else if (name == "--f") f = sprintf("%g", val + 0)
        else if (name == "--k") k = val + 0
        else if (name == "--colors") c = val + 0
        else if (name == "--seed") s = val
      }
      want[a SUBSEP n SUBSEP f SUBSEP k SUBSEP c SUBSEP s] = 1
      next
    }
    FNR == 1 { nh = split($0, h, ","); for (i = 1; i <= nh; i++) col[h[i]] = i; print; next }
    NF {
      split($0, v, ",")
      key = v[col["algo"]] SUBSEP v[col["n"]] + 0 SUBSEP sprintf("%g", v[col["f"]] + 0) SUBSEP \
            v[col["k"]] + 0 SUBSEP v[col["colors"]] + 0 SUBSEP v[col["seed"]]
      if (key in want) print
    }' <(printf '%s\n' "$points") "$out/fig3.csv" > "$work.tmp"
  local n
  n=$(($(wc -l < "$work.tmp") - 1))
  if [ "$n" -le 0 ]; then
    rm -f "$work.tmp"
    return 1
  fi
  mv "$work.tmp" "$work"
  say "$(basename "$work"): $n row(s) copied from fig3.csv (points both experiments share)"
}

# sweep_sharing NAME YAML: sweep_csv NAME YAML, starting from fig3.csv's rows
# for the points they share (unless REUSE=0 or a sweep of NAME is under way).
sweep_sharing() {
  local name=$1 yaml=$2 note=""
  if [ "$reuse" != 0 ] && [ ! -e "$out/.$name.csv" ] && [ -s "$out/fig3.csv" ] &&
    copy_shared "$fig3" "$yaml" "$out/.$name.csv"; then
    note="rows for the points $(rel "$fig3") also has were copied from fig3.csv first (the same simulation)"
  fi
  sweep_csv "$name" "$yaml" "$note"
}

plots() {
  if ! command -v gnuplot > /dev/null 2>&1; then
    warn "gnuplot not installed (apt-get install gnuplot-nox): no plots"
    return 0
  fi
  gnuplot -e "dir='$out'" "$here/plot-seed000.gp"
}

exp=$src/experiments
if is_quick; then
  fig3=$(quick_yaml fig3 "$exp/seed000-fig3.yaml" 'n<=8192')
  table2=$(quick_yaml table2 "$exp/seed000-table2.yaml" 'n<=8192')
  step fig3.csv 25 "collsim sweep quick-fig3.yaml (n <= 8,192)" sweep_csv fig3 "$fig3"
  step table2.csv 10 "collsim sweep quick-table2.yaml (n <= 8,192)" sweep_sharing table2 "$table2"
else
  fig3=$exp/seed000-fig3.yaml
  step fig3.csv 780 "collsim sweep experiments/seed000-fig3.yaml (72 points)" sweep_csv fig3 "$fig3"
  step table2.csv 120 "collsim sweep experiments/seed000-table2.yaml (22 points, 18 from fig3.csv)" \
    sweep_sharing table2 "$exp/seed000-table2.yaml"
  step fig4.csv 1200 "collsim sweep experiments/seed000-fig4.yaml (33 points at n = 131,072, 4 from fig3.csv)" \
    sweep_sharing fig4 "$exp/seed000-fig4.yaml"
  step table1.csv 600 "collsim sweep experiments/seed000-table1.yaml (8 points at n = 32,768)" sweep_csv table1 \
    "$exp/seed000-table1.yaml"
fi
step - 5 "the plots (scripts/plot-seed000.gp)" plots
step README.md 5 "scripts/compare-seed000.sh" bash "$here/compare-seed000.sh" "$out"
run_steps
