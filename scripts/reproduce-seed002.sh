#!/usr/bin/env bash
# seed002: configurable reduce/broadcast trees in LAM-MPI (Bjørndalen et al.): Figures 5-8, Section 5.2
# Duration: about 1 min on one core (57 s on a 2-core Intel Xeon, 2026-11-27); --quick about 10 s (bench/out/reproduce-quick.txt)
#
# On collsim's simulated SMP clusters (2w = 16 x 2-way, 4w = 8 x 4-way,
# 8w = 4 x 8-way), 1000 timed Allreduce operations per run; makes in DIR:
#   search.csv, .cmd, best-C.yaml, search-C.log   per cluster C (2w, 4w, 8w)
#                  at n = 32: `collsim allreduce --trees best` (every generated
#                  tree family, groups, fan-out and receive order is simulated;
#                  the fastest wins): one row of search.csv per cluster, the
#                  winning script, one line per candidate (~10 s each)
#   fig5.csv, .cmd, .yaml   4w, n = 1..32: LAM's default trees, the 4w best
#                  family reconfigured for each n, linear and hierarchical
#   fig6.csv, fig7.csv (and .cmd, .yaml)   8w and 2w, n = 1..32: LAM and the
#                  cluster's best family
#   fig8.csv, .cmd, .yaml   the 2-way cluster with N = 1..16 nodes ("Nx2@450";
#                  N = 16 is the 2w preset), n = 2N: LAM and the 2w best family
#   sec52.csv, .cmd, .yaml  8w, n = 32: the three configurations of Section 5.2
#                  and LAM
#   fig5.png ... fig8.png   scripts/plot-seed002.gp (gnuplot)
#   README.md      scripts/compare-seed002.sh: our numbers beside the paper's
#   fingerprint.txt  the iteration count and the simulator's answers to tiny
#                  probe runs: when they change between an interrupted run
#                  and --resume, what DIR holds is moved to DIR/stale/ and
#                  everything runs again
# Each figure is an experiment file written here (NAME.yaml: the best curve
# depends on the search) swept by `collsim sweep`: a row is "CURVE,TREE_ARGS
# [,NODES]," (the series' labels) and the result line of one `collsim
# allreduce` run.  The model's calibration (results/seed002/calibration.csv)
# is made by scripts/calibrate-seed002.sh, not here.
# --quick makes the search, the figures for n <= 8 (fig8: N <= 4) and sec52.

# Run through `collsim reproduce seed002`, which sets the environment of
# scripts/lib-reproduce.sh; ITERATIONS=N changes the timed operations per run
# (default 1000, the paper's; other counts give other numbers than the
# committed ones).
# shellcheck source=lib-reproduce.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib-reproduce.sh"
[ $# -eq 0 ] || die "takes no arguments (got '$*')"
iters=${ITERATIONS:-1000}
case $iters in '' | *[!0-9]* | 0) die "ITERATIONS must be a positive integer, got '$iters'" ;; esac
nmax=32 # n of Figures 5-7; Figure 8 has N = n / 2 nodes
is_quick && nmax=8

# ------------------------------------------------------ fingerprint ----
# collsim's CSV header (from a run of no iterations on one process)
ar_header=$("$collsim" allreduce --cluster 2w -n 1 --iterations 0 --format csv -q | head -n 1) ||
  die "collsim allreduce does not run (see above)"
case $ar_header in cluster,*us_per_allreduce*) ;; *) die "unexpected collsim allreduce CSV header: $ar_header" ;; esac

fingerprint() {
  echo "# Made by collsim reproduce seed002: the iteration count and the simulator's"
  echo "# answers to tiny probe runs when the results in this folder were made.  If"
  echo "# they change, the results are moved to stale/ and made again."
  echo "iterations=$iters"
  echo "$ar_header"
  local probe
  for probe in "2w --trees lam" "4w --trees lam" "8w --trees lam" "8w --trees hierarchical --groups 2" \
    "3x2@450 --trees lam" "8w --trees kary-node --groups 2 --fanout 3 --order arrival"; do
    # shellcheck disable=SC2086
    "$collsim" allreduce --cluster $probe --iterations 5 --format csv -q | tail -n 1
  done
}

# Results in OUT made by another simulator (a --resume after a rebuild) go to OUT/stale/.
check_fingerprint() {
  fingerprint > "$out/.fingerprint" || die "a probe run failed (see above)"
  if [ -f "$out/fingerprint.txt" ] && ! cmp -s "$out/.fingerprint" "$out/fingerprint.txt"; then
    warn "the simulator or ITERATIONS changed since the results in $out were made:"
    diff "$out/fingerprint.txt" "$out/.fingerprint" | sed -n 's/^[<>] [^#]/  &/p' >&2 || true
    rm -rf "$out/stale"
    mkdir "$out/stale"
    find "$out" -mindepth 1 -maxdepth 1 ! -name stale ! -name .fingerprint ! -name .reproduce ! -name 'quick-*' \
      -exec mv -t "$out/stale/" {} +
    warn "moved the old files to $out/stale/; running everything again"
  fi
  mv "$out/.fingerprint" "$out/fingerprint.txt"
}
check_fingerprint

# -------------------------------------------------------- the search ----
scsv=$out/search.csv
search_order=(2w 4w 8w)

# the trees field of cluster $1's row in search.csv ("" if none)
search_trees() {
  [ -s "$scsv" ] || return 0
  awk -F, -v c="$1" 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    $col["cluster"] == c { t = $col["trees"] } END { print t }' "$scsv"
}

# "best: FAMILY groups=G fanout=K order=O" -> "--trees FAMILY --groups G --fanout K --order O"
best_args() {
  search_trees "$1" | awk '{
    sub(/^best: */, ""); a = "--trees " $1
    for (i = 2; i <= NF; i++) {
      k = $i; v = $i; sub(/=.*/, "", k); sub(/^[^=]*=/, "", v)
      if (k == "groups" || k == "fanout" || k == "order") a = a " --" k " " v
    }
    print a
  }'
}

write_search_cmd() {
  {
    echo "# search.csv: collsim's CSV header, then, for each cluster C, the result line"
    echo "# (the second line) of the command below.  Run from the source folder; each"
    echo "# candidate runs collsim's default --search-iterations (50) Allreduce operations."
    echo "for C in ${search_order[*]}; do collsim allreduce --cluster \$C --trees best -n 32 --iterations $iters --format csv --write-script $(rel "$out")/best-\$C.yaml 2> search-\$C.stderr; done"
    echo "# search-C.log: the lines of search-C.stderr that start with \"search:\" (one per"
    echo "# candidate tree; collsim's progress lines are left out)."
  } > "$out/search.cmd"
}

# search C: cluster C's row of search.csv (rows in the order 2w 4w 8w), best-C.yaml, search-C.log
search() {
  local c=$1 rc=0
  write_search_cmd
  "$collsim" allreduce --cluster "$c" --trees best -n 32 --iterations "$iters" --format csv \
    --write-script "$out/best-$c.yaml" > "$out/.search.out" 2> "$out/.search.err" || rc=$?
  if [ "$rc" != 0 ] || [ "$(head -n 1 "$out/.search.out")" != "$ar_header" ]; then
    warn "the search on $c failed (exit $rc):"
    grep -v '^search:\|^simulated processes' "$out/.search.err" | tail -n 5 >&2 || true
    exit 1
  fi
  {
    echo "$ar_header"
    { [ -s "$scsv" ] && tail -n +2 "$scsv"; tail -n +2 "$out/.search.out"; } |
      awk -F, -v order="${search_order[*]}" '
        BEGIN { n = split(order, o, " "); for (i = 1; i <= n; i++) rank[o[i]] = i }
        NF { row[$1] = $0; if (!($1 in rank)) rank[$1] = 100 + NR }
        END { for (r = 1; r <= 200; r++) for (k in row) if (rank[k] == r) print row[k] }'
  } > "$out/.search.csv"
  mv "$out/.search.csv" "$scsv"
  grep '^search:' "$out/.search.err" > "$out/.search-$c.log" || true
  mv "$out/.search-$c.log" "$out/search-$c.log"
  rm -f "$out/.search.out" "$out/.search.err"
  say "search on $c: $(search_trees "$c")"
}

# ------------------------------------------------------------- runs ----
# "--trees hierarchical --groups 2" -> "{trees: hierarchical, groups: 2}"
yaml_args() {
  awk '{ s = ""; for (i = 1; i < NF; i += 2) { k = $i; sub(/^--/, "", k); s = s (s ? ", " : "") k ": " $(i + 1) }
         print "{" s "}" }' <<< "$1"
}

# the head of an experiment file
exp_head() {
  printf '# %s\n# Written by collsim reproduce seed002; run with\n#   collsim sweep %s --out %s\n' \
    "$2" "$(rel "$out")/$1.yaml" "$(rel "$out")/$1.csv"
  printf 'name: seed002-%s\ncommand: allreduce\ndescription: >\n  %s\n' "$1" "$2"
}

# one series: label columns $1 (a YAML mapping), parameters $2
exp_series() { printf '  - label: %s\n    parameters: %s\n' "$1" "$2"; }

# experiment NAME: sweeps OUT/.NAME.yaml (just written) as OUT/NAME.yaml into
# NAME.csv; a sweep under way of another experiment (a new best tree) is
# dropped.
experiment() {
  local name=$1
  if [ -e "$out/.$name.csv" ] && ! cmp -s "$out/.$name.yaml" "$out/$name.yaml"; then
    rm -f "$out/.$name.csv" "$out/..$name.csv.journal"
  fi
  mv "$out/.$name.yaml" "$out/$name.yaml"
  sweep_csv "$name" "$out/$name.yaml" "$(is_quick && echo "--quick: n <= $nmax")"
}

# best C: sets $best, the tree arguments of cluster C's best tree
best_of() {
  best=$(best_args "$1")
  if [ -z "$best" ] || [ ! -s "$out/best-$1.yaml" ]; then
    warn "no best tree for $1 in search.csv (its search failed)"
    exit 1
  fi
}

# fig NAME C "curve:tree args"...: cluster C, n = 1..nmax, LAM, C's best, the other curves
fig() {
  local name=$1 c=$2 cv
  shift 2
  best_of "$c"
  {
    exp_head "$name" "$c, n = 1..$nmax, one series per curve; the best curve is the best tree of search.csv for $c ($(search_trees "$c")), reconfigured for each n."
    printf 'parameters:\n  cluster: %s\n  n: {from: 1, to: %s}\n  iterations: %s\nseries:\n' "$c" "$nmax" "$iters"
    for cv in "lam:--trees lam" "best:$best" "$@"; do
      exp_series "{curve: ${cv%%:*}, tree_args: \"${cv#*:}\"}" "$(yaml_args "${cv#*:}")"
    done
  } > "$out/.$name.yaml"
  experiment "$name"
}

# fig8: the 2-way cluster with N = 1..nmax/2 nodes, n = 2N (N = 16 is the 2w preset)
fig8_cluster() { if [ "$1" = 16 ]; then echo 2w; else echo "${1}x2@450"; fi; }
fig8() {
  local cv N
  best_of 2w
  {
    exp_head fig8 "the 2-way cluster with N = 1..$((nmax / 2)) nodes of Pentium III 450 MHz (N = 16: the 2w preset), n = 2N; LAM and the best tree of search.csv for 2w ($(search_trees 2w)), reconfigured for each N."
    printf 'parameters:\n  iterations: %s\nseries:\n' "$iters"
    for cv in "lam:--trees lam" "best:$best"; do
      for N in $(seq 1 $((nmax / 2))); do
        exp_series "{curve: ${cv%%:*}, tree_args: \"${cv#*:}\", nodes: $N}" \
          "$(yaml_args "--cluster $(fig8_cluster "$N") --n $((2 * N)) ${cv#*:}")"
      done
    done
  } > "$out/.fig8.yaml"
  experiment fig8
}

# sec52: the configurations of Section 5.2 on 8w at n = 32
sec52() {
  local cv
  {
    exp_head sec52 "the configurations of Section 5.2 on 8w, n = 32: local-root, a local root per node with 7 children (paper: 1444 us); extra-layer, a node root above two sub-groups per node (paper: 1534 us); two-groups, two groups of 4 per node, each straight to rank 0 (paper: 1322 us); lam, LAM-MPI's default trees (paper: 1.98 x the two-groups time)."
    printf 'parameters:\n  cluster: 8w\n  n: 32\n  iterations: %s\nseries:\n' "$iters"
    for cv in "local-root:--trees hierarchical --groups 1" "extra-layer:--trees kary-node --groups 2 --fanout 3" \
      "two-groups:--trees hierarchical --groups 2" "lam:--trees lam"; do
      exp_series "{curve: ${cv%%:*}, tree_args: \"${cv#*:}\"}" "$(yaml_args "${cv#*:}")"
    done
  } > "$out/.sec52.yaml"
  experiment sec52
}

# Did collsim's answers change while this ran (a rebuilt binary)?
same_simulator() {
  if ! fingerprint 2> /dev/null | cmp -s - "$out/fingerprint.txt"; then
    warn "collsim's answers to the probe runs changed while this ran (was $collsim rebuilt?):"
    warn "the results in $out may mix two simulators: run again into a new folder"
    exit 1
  fi
}

plots() {
  if ! command -v gnuplot > /dev/null 2>&1; then
    warn "gnuplot not installed (apt-get install gnuplot-nox): no plots"
    return 0
  fi
  gnuplot -e "dir='$out'" "$here/plot-seed002.gp"
}

# Seconds on one core: a search ~10 s; a run at n = 32 ~0.5 s
scale=$(is_quick && echo 1 || echo 4)
for c in "${search_order[@]}"; do
  step "search-$c.log" 10 "collsim allreduce --cluster $c --trees best -n 32 (every candidate tree)" search "$c"
done
step fig5.csv $((20 * scale)) "collsim sweep fig5.yaml (4w, n = 1..$nmax, 4 curves)" \
  fig fig5 4w "linear:--trees linear" "hierarchical:--trees hierarchical"
step fig6.csv $((10 * scale)) "collsim sweep fig6.yaml (8w, n = 1..$nmax, 2 curves)" fig fig6 8w
step fig7.csv $((10 * scale)) "collsim sweep fig7.yaml (2w, n = 1..$nmax, 2 curves)" fig fig7 2w
step fig8.csv $((5 * scale)) "collsim sweep fig8.yaml (N = 1..$((nmax / 2)) 2-way nodes, 2 curves)" fig8
step sec52.csv 5 "collsim sweep sec52.yaml (8w, n = 32, 4 configurations)" sec52
step - 5 "the simulator did not change while this ran" same_simulator
step - 5 "the plots (scripts/plot-seed002.gp)" plots
step README.md 5 "scripts/compare-seed002.sh" bash "$here/compare-seed002.sh" "$out"
run_steps
