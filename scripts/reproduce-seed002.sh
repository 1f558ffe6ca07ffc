#!/usr/bin/env bash
# Reproduces Section 5 of seed 002 (Bjørndalen, Anshus, Vinter, Larsen,
# "Configurable collective communication in LAM-MPI"): Figures 5-8 and the
# three 8-way configurations of Section 5.2, on collsim's simulated SMP
# clusters (2w = 16 x 2-way, 4w = 8 x 4-way, 8w = 4 x 8-way).
#
#   scripts/reproduce-seed002.sh [search|fig5|fig6|fig7|fig8|sec52 ...]
#                                                      (default: all of them)
#   collsim reproduce seed002                          (the same)
#
# search  per cluster (2w, 4w, 8w) at n = 32: `collsim allreduce --trees best`
#         (every generated tree family, groups, fan-out and receive order is
#         simulated; the fastest wins) -> search.csv (one row per cluster),
#         best-C.yaml (the winning script), search-C.log (one line per
#         candidate: the "search:" lines collsim prints on stderr)
# fig5    4w, n = 1..32: LAM's default trees, the 4w best family reconfigured
#         for each n, linear and hierarchical (Section 5.1) -> fig5.csv
# fig6    8w, n = 1..32: LAM and the 8w best family -> fig6.csv
# fig7    2w, n = 1..32: LAM and the 2w best family -> fig7.csv
# fig8    the 2-way cluster with N = 1..16 nodes ("Nx2@450"; N = 16 is the
#         2w preset), n = 2N: LAM and the 2w best family -> fig8.csv
# sec52   8w, n = 32: the three configurations of Section 5.2 and LAM
#         -> sec52.csv
# A figure whose cluster has no row in search.csv runs that search first.
# Then the plots (scripts/plot-seed002.gp, if gnuplot is installed) and
# README.md, our numbers beside the paper's (scripts/compare-seed002.sh).
#
# Every CSV has a .cmd file beside it with the command that made it.  Each
# figure is an experiment file written here (NAME.yaml, since the best curve
# depends on the search) and swept by `collsim sweep`: a row of fig*.csv and
# sec52.csv is "CURVE,TREE_ARGS[,NODES]," (the series' labels) followed by
# the result line of one `collsim allreduce` run.  Resumable: an interrupted
# sweep loses only the runs under way; an experiment that changed (a new best
# tree) starts afresh.  Rows are in the experiment's order, whatever the
# history.
#
# fingerprint.txt records the iteration count and the simulator's answer to a
# few tiny probe runs.  When either changes (a new calibration, another
# ITERATIONS), the results already in OUT were made by a different simulator:
# they are moved to OUT/stale/ (replacing what was there) and everything is
# run again.
#
# Environment:
#   COLLSIM     the collsim binary (default ./collsim)
#   OUT         the results folder (default <source>/results/seed002)
#   ITERATIONS  timed Allreduce operations per run (default 1000, the
#               paper's; e.g. ITERATIONS=50 for a quick trial run)
#   JOBS        runs at once (default 1); rows are written in the same order
#   QUIET=1     no progress lines
#
# Exit status: 0 all runs done; 1 some run failed (the others ran; plots and
# README.md are written from what exists); 2 bad input (stops at once).
# About 6 minutes with JOBS=1 at 1000 iterations (JOBS=2 runs two at once).
set -euo pipefail
export LC_ALL=C

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=${COLLSIM_SRCDIR:-$(dirname "$here")}
collsim=${COLLSIM:-./collsim}
out=${OUT:-$src/results/seed002}
iters=${ITERATIONS:-1000}
jobs=${JOBS:-1}
quiet=0
if [ -n "${QUIET:-}" ] && [ "${QUIET:-}" != 0 ]; then quiet=1; fi

say() { [ "$quiet" = 1 ] || printf 'reproduce-seed002: %s\n' "$*" >&2; }
warn() { printf 'reproduce-seed002: %s\n' "$*" >&2; }
die() { printf 'reproduce-seed002: %s\n' "$*" >&2; exit 2; }

if ! [ -x "$collsim" ] && ! command -v "$collsim" > /dev/null 2>&1; then
  die "no collsim binary at '$collsim' (set COLLSIM=/path/to/collsim)"
fi
case $iters in '' | *[!0-9]* | 0) die "ITERATIONS must be a positive integer, got '$iters'" ;; esac
case $jobs in '' | *[!0-9]* | 0) die "JOBS must be a positive integer, got '$jobs'" ;; esac

all=(search fig5 fig6 fig7 fig8 sec52)
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=("${all[@]}")
for t in "${targets[@]}"; do
  case $t in search | fig5 | fig6 | fig7 | fig8 | sec52) ;; *) die "unknown target '$t' (known: ${all[*]})" ;; esac
done

mkdir -p "$out"
tmpd=$(mktemp -d "$out/.tmp.XXXXXX")
trap 'rm -rf "$tmpd"' EXIT

# A path as written in the .cmd files: relative to the source folder when
# inside it, so the files do not depend on where the tree lives.
rel() {
  case $1 in
    "$src"/*) printf '%s' "${1#"$src"/}" ;;
    *) printf '%s' "$1" ;;
  esac
}

# ------------------------------------------------------ fingerprint ----
# collsim's CSV header (from a run of no iterations on one process)
ar_header=$("$collsim" allreduce --cluster 2w -n 1 --iterations 0 --format csv -q | head -n 1) ||
  die "collsim allreduce does not run (see above)"
case $ar_header in cluster,*us_per_allreduce*) ;; *) die "unexpected collsim allreduce CSV header: $ar_header" ;; esac

fingerprint() {
  echo "# Made by scripts/reproduce-seed002.sh: the iteration count and the simulator's"
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

produced() {
  # the files this script makes (not README.md, not calibration.md)
  local f
  for f in "$out"/search.csv "$out"/search.cmd "$out"/search-*.log "$out"/best-*.yaml \
    "$out"/fig[5-8].csv "$out"/fig[5-8].cmd "$out"/fig[5-8].yaml "$out"/fig[5-8].png "$out"/sec52.csv \
    "$out"/sec52.cmd "$out"/sec52.yaml "$out"/fingerprint.txt; do
    [ -e "$f" ] && printf '%s\n' "$f"
  done
  return 0
}

fingerprint > "$tmpd/fingerprint" || die "a probe run failed (see above)"
if ! cmp -s "$tmpd/fingerprint" "$out/fingerprint.txt"; then
  mapfile -t old < <(produced)
  if [ ${#old[@]} -gt 0 ]; then
    if [ -f "$out/fingerprint.txt" ]; then
      warn "the simulator or ITERATIONS changed since the results in $(rel "$out") were made:"
      diff "$out/fingerprint.txt" "$tmpd/fingerprint" | sed -n 's/^[<>] [^#]/  &/p' >&2 || true
    else
      warn "results in $(rel "$out") have no fingerprint.txt: cannot tell how they were made"
    fi
    rm -rf "$out/stale"
    mkdir -p "$out/stale"
    mv "${old[@]}" "$out/stale/"
    warn "moved ${#old[@]} old files to $(rel "$out")/stale/; running everything again"
  fi
  cp "$tmpd/fingerprint" "$out/fingerprint.txt"
fi

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

search_one() {
  local c=$1
  if [ -n "$(search_trees "$c")" ] && [ -s "$out/best-$c.yaml" ] && [ -s "$out/search-$c.log" ]; then
    say "search $c: already done ($(search_trees "$c"))"
    return 0
  fi
  write_search_cmd
  say "search $c: n = 32, every candidate tree (about 10 s)"
  local rc=0
  "$collsim" allreduce --cluster "$c" --trees best -n 32 --iterations "$iters" --format csv \
    --write-script "$out/best-$c.yaml" > "$tmpd/search.out" 2> "$tmpd/search.err" || rc=$?
  if [ "$rc" != 0 ] || [ "$(head -n 1 "$tmpd/search.out")" != "$ar_header" ]; then
    warn "search $c failed (exit $rc):"
    grep -v '^search:\|^simulated processes' "$tmpd/search.err" | tail -n 5 >&2 || true
    return 1
  fi
  grep '^search:' "$tmpd/search.err" > "$out/search-$c.log" || true
  # search.csv: the header, then one row per cluster in the order 2w 4w 8w
  {
    echo "$ar_header"
    { [ -s "$scsv" ] && tail -n +2 "$scsv"; tail -n +2 "$tmpd/search.out"; } |
      awk -F, -v order="${search_order[*]}" '
        BEGIN { n = split(order, o, " "); for (i = 1; i <= n; i++) rank[o[i]] = i }
        NF { row[$1] = $0; if (!($1 in rank)) rank[$1] = 100 + NR }
        END { for (r = 1; r <= 200; r++) for (k in row) if (rank[k] == r) print row[k] }'
  } > "$tmpd/search.csv"
  mv "$tmpd/search.csv" "$scsv"
  say "search $c: $(search_trees "$c")"
}

# ------------------------------------------------------------- runs ----
# Each figure is an experiment file (written here, because the best curve
# depends on the search): $out/NAME.yaml, swept by `collsim sweep` into
# NAME.csv.  The sweep resumes after an interruption (its journal sits beside
# the working file NAME.csv.sweep) and writes the rows in the experiment's
# order; NAME.csv is replaced when every run is done.

# "--trees hierarchical --groups 2" -> "{trees: hierarchical, groups: 2}"
yaml_args() {
  awk '{ s = ""; for (i = 1; i < NF; i += 2) { k = $i; sub(/^--/, "", k); s = s (s ? ", " : "") k ": " $(i + 1) }
         print "{" s "}" }' <<< "$1"
}

# the head of an experiment file
exp_head() {
  printf '# %s\n# Written by scripts/reproduce-seed002.sh; run with\n#   collsim sweep %s --out %s\n' \
    "$2" "$(rel "$out")/$1.yaml" "$(rel "$out")/$1.csv"
  printf 'name: seed002-%s\ncommand: allreduce\ndescription: >\n  %s\n' "$1" "$2"
}

# one series: label columns $1 (a YAML mapping), parameters $2
exp_series() { printf '  - label: %s\n    parameters: %s\n' "$1" "$2"; }

# Sweeps experiment $2 (a file in $tmpd) into $out/$1.csv.
run_experiment() {
  local name=$1 exp=$2 work=$out/$1.csv.sweep
  local q=(--quiet)
  [ "$quiet" = 1 ] || q=()
  if [ -e "$work" ] && ! cmp -s "$exp" "$out/$name.yaml"; then
    rm -f "$work" "$out/.$name.csv.sweep.journal" # another experiment (a new best tree): start afresh
  fi
  cp "$exp" "$out/$name.yaml"
  printf 'collsim sweep %s --out %s\n' "$(rel "$out")/$name.yaml" "$(rel "$out")/$name.csv" > "$out/$name.cmd"
  say "$name: $("$collsim" sweep "$out/$name.yaml" --out "$work" --dry-run | wc -l) runs to do"
  (cd "$src" && "$collsim" sweep "$out/$name.yaml" --out "$work" --jobs "$jobs" "${q[@]}") || return 1
  mv "$work" "$out/$name.csv"
  rm -f "$out/.$name.csv.sweep.journal"
}

# the best tree of cluster $1 (runs the search when search.csv lacks it)
need_best() {
  if [ -z "$(search_trees "$1")" ] || ! [ -s "$out/best-$1.yaml" ]; then
    search_one "$1" || return 1
  fi
  best=$(best_args "$1")
  [ -n "$best" ] || { warn "no best tree for $1 in $(rel "$scsv")"; return 1; }
}

# fig5/fig6/fig7: target $1, cluster $2, extra "curve:tree args" pairs; n = 1..32
run_fig() {
  local name=$1 c=$2
  shift 2
  local best
  need_best "$c" || return 1
  local curves=("lam:--trees lam" "best:$best" "$@") cv exp=$tmpd/$name.yaml
  {
    exp_head "$name" "$c, n = 1..32, one series per curve; the best curve is the best tree of search.csv for $c ($(search_trees "$c")), reconfigured for each n."
    printf 'parameters:\n  cluster: %s\n  n: {from: 1, to: 32}\n  iterations: %s\nseries:\n' "$c" "$iters"
    for cv in "${curves[@]}"; do
      exp_series "{curve: ${cv%%:*}, tree_args: \"${cv#*:}\"}" "$(yaml_args "${cv#*:}")"
    done
  } > "$exp"
  run_experiment "$name" "$exp"
}

# fig8: the 2-way cluster with N = 1..16 nodes, n = 2N (N = 16 is the 2w preset)
fig8_cluster() { if [ "$1" = 16 ]; then echo 2w; else echo "${1}x2@450"; fi; }
run_fig8() {
  local best
  need_best 2w || return 1
  local cv N exp=$tmpd/fig8.yaml
  {
    exp_head fig8 "the 2-way cluster with N = 1..16 nodes of Pentium III 450 MHz (N = 16: the 2w preset), n = 2N; LAM and the best tree of search.csv for 2w ($(search_trees 2w)), reconfigured for each N."
    printf 'parameters:\n  iterations: %s\nseries:\n' "$iters"
    for cv in "lam:--trees lam" "best:$best"; do
      for N in $(seq 1 16); do
        local p
        p=$(yaml_args "--cluster $(fig8_cluster "$N") --n $((2 * N)) ${cv#*:}")
        exp_series "{curve: ${cv%%:*}, tree_args: \"${cv#*:}\", nodes: $N}" "$p"
      done
    done
  } > "$exp"
  run_experiment fig8 "$exp"
}

# sec52: the configurations of Section 5.2 on 8w at n = 32
run_sec52() {
  local cv exp=$tmpd/sec52.yaml
  {
    exp_head sec52 "the configurations of Section 5.2 on 8w, n = 32: local-root, a local root per node with 7 children (paper: 1444 us); extra-layer, a node root above two sub-groups per node (paper: 1534 us); two-groups, two groups of 4 per node, each straight to rank 0 (paper: 1322 us); lam, LAM-MPI's default trees (paper: 1.98 x the two-groups time)."
    printf 'parameters:\n  cluster: 8w\n  n: 32\n  iterations: %s\nseries:\n' "$iters"
    for cv in "local-root:--trees hierarchical --groups 1" "extra-layer:--trees kary-node --groups 2 --fanout 3" \
      "two-groups:--trees hierarchical --groups 2" "lam:--trees lam"; do
      exp_series "{curve: ${cv%%:*}, tree_args: \"${cv#*:}\"}" "$(yaml_args "${cv#*:}")"
    done
  } > "$exp"
  run_experiment sec52 "$exp"
}

# Did collsim's answers change while this ran (a rebuilt binary)?
simulator_changed() {
  if fingerprint > "$tmpd/fingerprint.now" 2> /dev/null && cmp -s "$tmpd/fingerprint.now" "$out/fingerprint.txt"; then
    return 1
  fi
  return 0
}

status=0
t_start=$SECONDS
for t in "${targets[@]}"; do
  case $t in
    search) for c in "${search_order[@]}"; do search_one "$c" || status=1; done ;;
    fig5) run_fig fig5 4w "linear:--trees linear" "hierarchical:--trees hierarchical" || status=1 ;;
    fig6) run_fig fig6 8w || status=1 ;;
    fig7) run_fig fig7 2w || status=1 ;;
    fig8) run_fig8 || status=1 ;;
    sec52) run_sec52 || status=1 ;;
  esac
  if simulator_changed; then
    warn "collsim's answers to the probe runs changed while this script ran (was $collsim rebuilt?):"
    warn "the results in $(rel "$out") may mix two simulators.  Run the script again: it starts afresh."
    status=1
    break
  fi
done
say "runs finished in $((SECONDS - t_start)) s"

if command -v gnuplot > /dev/null 2>&1; then
  if gnuplot -e "dir='$out'" "$here/plot-seed002.gp"; then
    say "plots: $(rel "$out")/fig*.png"
  else
    warn "gnuplot failed"
    status=1
  fi
else
  warn "gnuplot not installed (apt-get install gnuplot-nox): no plots"
fi

bash "$here/compare-seed002.sh" "$out" || status=1
exit "$status"
