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
# Every CSV has a .cmd file beside it with the commands that made it.  A row
# of fig*.csv and sec52.csv is "CURVE,TREE_ARGS[,NODES]," followed by the
# result line of one `collsim allreduce ... --format csv -q` run.  Resumable:
# rows already in a CSV (same curve, tree arguments, cluster and n) are not
# run again, so an interrupted run loses only the runs under way.  A row of
# a curve whose tree arguments changed (a new best tree) is dropped and rerun.
# Rows are kept in a fixed order, so the files do not depend on the history.
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
    "$out"/fig[5-8].csv "$out"/fig[5-8].cmd "$out"/fig[5-8].png "$out"/sec52.csv "$out"/sec52.cmd \
    "$out"/fingerprint.txt; do
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
# A plan is one line per run: PREFIX<TAB>CLUSTER<TAB>N<TAB>TREE_ARGS, where
# PREFIX (curve,tree_args[,nodes]) starts the CSV row.

# Brings CSV $1 (prefix header $3) in line with plan $2: rows of the plan in
# plan order, then rows not in it; drops rows of a planned (curve, cluster, n)
# with other tree arguments; writes the plan lines still to run to $4.
normalize() {
  local csv=$1 plan=$2 phdr=$3 pending=$4
  local hdr="$phdr,$ar_header"
  [ -s "$csv" ] || echo "$hdr" > "$csv"
  awk -F'\t' -v hdr="$hdr" -v pending="$pending" -v tmp="$csv.new" -v np="$(($(tr -cd , <<< "$phdr" | wc -c) + 1))" '
    FNR == NR {
      split($1, p, ","); P++; PL[P] = $0
      KEY[P] = $1 SUBSEP $2 SUBSEP $3 + 0; SHORT[p[1] SUBSEP $2 SUBSEP $3 + 0] = 1
      IDX[KEY[P]] = P
      next
    }
    FNR == 1 {
      if ($0 != hdr) { printf "reproduce-seed002: %s: header is not \"%s\"\n", FILENAME, hdr > "/dev/stderr"; bad = 1; exit }
      n = split($0, h, ","); for (i = 1; i <= n; i++) col[h[i]] = i
      next
    }
    NF {
      split($0, f, ",")
      pre = f[1]; for (i = 2; i <= np; i++) pre = pre "," f[i]
      k = pre SUBSEP f[col["cluster"]] SUBSEP f[col["n"]] + 0
      if (k in IDX) { ROW[IDX[k]] = $0; next }
      if ((f[1] SUBSEP f[col["cluster"]] SUBSEP f[col["n"]] + 0) in SHORT) { stale++; next }
      EXTRA[++NE] = $0
    }
    END {
      if (bad) exit 2
      print hdr > tmp
      for (i = 1; i <= P; i++) if (i in ROW) print ROW[i] > tmp; else print PL[i] > pending
      for (i = 1; i <= NE; i++) print EXTRA[i] > tmp
      close(tmp)
      if (stale) printf "reproduce-seed002: %s: dropped %d row(s) made with other tree arguments\n", FILENAME, stale > "/dev/stderr"
    }' "$plan" FS=, "$csv" || return 2
  : >> "$pending"
  mv "$csv.new" "$csv"
}

# Runs the pending lines of plan $2 into CSV $1 (prefix header $3), JOBS at a time.
run_plan() {
  local csv=$1 plan=$2 phdr=$3 name
  name=$(basename "$csv" .csv)
  local pending=$tmpd/$name.pending
  rm -f "$pending"
  normalize "$csv" "$plan" "$phdr" "$pending" || die "$(rel "$csv"): unreadable (move it away to start again)"
  local total todo done_=0 failed=0
  total=$(wc -l < "$plan" | tr -d ' ')
  todo=$(wc -l < "$pending" | tr -d ' ')
  say "$name: $((total - todo)) of $total runs already done, $todo to run"
  local t0=$SECONDS
  local lines=()
  mapfile -t lines < "$pending"
  local i=0
  while [ $i -lt ${#lines[@]} ]; do
    local pids=() j
    for ((j = i; j < i + jobs && j < ${#lines[@]}; j++)); do
      local prefix cluster n args
      IFS=$'\t' read -r prefix cluster n args <<< "${lines[j]}"
      local argv
      read -ra argv <<< "$args"
      say "[$((total - todo + j + 1))/$total] $name: ${prefix%%,*} on $cluster, n = $n (elapsed $((SECONDS - t0)) s)"
      "$collsim" allreduce --cluster "$cluster" "${argv[@]}" -n "$n" --iterations "$iters" --format csv -q \
        > "$tmpd/run.$j.out" 2> "$tmpd/run.$j.err" &
      pids+=($!)
    done
    for ((j = i; j < i + ${#pids[@]}; j++)); do
      local prefix cluster n args rc=0
      IFS=$'\t' read -r prefix cluster n args <<< "${lines[j]}"
      wait "${pids[j - i]}" || rc=$?
      if [ "$rc" = 0 ] && [ "$(head -n 1 "$tmpd/run.$j.out")" = "$ar_header" ] && [ "$(wc -l < "$tmpd/run.$j.out")" -eq 2 ]; then
        printf '%s,%s\n' "$prefix" "$(tail -n 1 "$tmpd/run.$j.out")" >> "$csv"
        done_=$((done_ + 1))
      else
        warn "$name: run failed (exit $rc): collsim allreduce --cluster $cluster $args -n $n"
        tail -n 3 "$tmpd/run.$j.err" >&2 || true
        failed=$((failed + 1))
      fi
      rm -f "$tmpd/run.$j.out" "$tmpd/run.$j.err"
    done
    i=$((i + ${#pids[@]}))
  done
  normalize "$csv" "$plan" "$phdr" "$pending.after" || return 1
  [ "$todo" = 0 ] || say "$name: $done_ run(s) done in $((SECONDS - t0)) s"
  [ "$failed" = 0 ]
}

# plan lines of one curve on cluster $2 for n = 1..32: curve $1, tree args $3
plan_curve() {
  local n
  for n in $(seq 1 32); do printf '%s,%s\t%s\t%d\t%s\n' "$1" "$3" "$2" "$n" "$3"; done
}

# the loop that runs one curve, as written in the .cmd files
cmd_curve() {
  # shellcheck disable=SC2016 # written literally into the .cmd file
  printf 'for n in $(seq 1 32); do collsim allreduce --cluster %s %s -n $n --iterations %s --format csv -q | tail -n 1 | sed "s/^/%s,%s,/"; done\n' \
    "$2" "$3" "$iters" "$1" "$3"
}

# the best tree of cluster $1 (runs the search when search.csv lacks it)
need_best() {
  if [ -z "$(search_trees "$1")" ] || ! [ -s "$out/best-$1.yaml" ]; then
    search_one "$1" || return 1
  fi
  best=$(best_args "$1")
  [ -n "$best" ] || { warn "no best tree for $1 in $(rel "$scsv")"; return 1; }
}

# fig5/fig6/fig7: target $1, cluster $2, extra "curve:tree args" pairs
run_fig() {
  local name=$1 c=$2
  shift 2
  local best
  need_best "$c" || return 1
  local curves=("lam:--trees lam" "best:$best" "$@") cv
  local plan=$tmpd/$name.plan
  : > "$plan"
  {
    echo "# $name.csv: the header \"curve,tree_args,\" + collsim's CSV header, then one row"
    echo "# per run: CURVE,TREE_ARGS, followed by the result line of collsim allreduce."
    echo "# Run from the source folder.  The best curve uses the best tree of search.csv"
    echo "# for $c ($(search_trees "$c")), reconfigured for each n."
  } > "$out/$name.cmd"
  for cv in "${curves[@]}"; do
    plan_curve "${cv%%:*}" "$c" "${cv#*:}" >> "$plan"
    cmd_curve "${cv%%:*}" "$c" "${cv#*:}" >> "$out/$name.cmd"
  done
  run_plan "$out/$name.csv" "$plan" "curve,tree_args"
}

# fig8: the 2-way cluster with N = 1..16 nodes, n = 2N
fig8_cluster() { if [ "$1" = 16 ]; then echo 2w; else echo "${1}x2@450"; fi; }
run_fig8() {
  local best
  need_best 2w || return 1
  local plan=$tmpd/fig8.plan cv N
  : > "$plan"
  {
    echo "# fig8.csv: the header \"curve,tree_args,nodes,\" + collsim's CSV header, then"
    echo "# one row per run: CURVE,TREE_ARGS,N, followed by the result line of collsim"
    echo "# allreduce on N nodes of 2 processors (Pentium III 450 MHz; N = 16 is the 2w"
    echo "# preset), n = 2N.  Run from the source folder.  The best curve uses the best"
    echo "# tree of search.csv for 2w ($(search_trees 2w)), reconfigured for each N."
  } > "$out/fig8.cmd"
  for cv in "lam:--trees lam" "best:$best"; do
    for N in $(seq 1 16); do
      printf '%s,%s,%d\t%s\t%d\t%s\n' "${cv%%:*}" "${cv#*:}" "$N" "$(fig8_cluster "$N")" $((2 * N)) "${cv#*:}" >> "$plan"
    done
    # shellcheck disable=SC2016 # written literally into the .cmd file
    printf 'for N in $(seq 1 16); do C=${N}x2@450; [ $N = 16 ] && C=2w; collsim allreduce --cluster $C %s -n $((2 * N)) --iterations %s --format csv -q | tail -n 1 | sed "s/^/%s,%s,$N,/"; done\n' \
      "${cv#*:}" "$iters" "${cv%%:*}" "${cv#*:}" >> "$out/fig8.cmd"
  done
  run_plan "$out/fig8.csv" "$plan" "curve,tree_args,nodes"
}

# sec52: the configurations of Section 5.2 on 8w at n = 32
run_sec52() {
  local plan=$tmpd/sec52.plan cv
  : > "$plan"
  {
    echo "# sec52.csv: the header \"curve,tree_args,\" + collsim's CSV header, then one row"
    echo "# per configuration of Section 5.2 (8w, n = 32): CURVE,TREE_ARGS, followed by the"
    echo "# result line of collsim allreduce.  Run from the source folder."
    echo "#   local-root   a local root per node with 7 children (paper: 1444 us)"
    echo "#   extra-layer  a node root above two sub-groups per node: one more layer (paper: 1534 us)"
    echo "#   two-groups   two groups of 4 per node, each straight to rank 0 (paper: 1322 us)"
    echo "#   lam          LAM-MPI's default trees (paper: 1.98 x the two-groups time)"
  } > "$out/sec52.cmd"
  for cv in "local-root:--trees hierarchical --groups 1" "extra-layer:--trees kary-node --groups 2 --fanout 3" \
    "two-groups:--trees hierarchical --groups 2" "lam:--trees lam"; do
    printf '%s,%s\t8w\t32\t%s\n' "${cv%%:*}" "${cv#*:}" "${cv#*:}" >> "$plan"
    printf 'collsim allreduce --cluster 8w %s -n 32 --iterations %s --format csv -q | tail -n 1 | sed "s/^/%s,%s,/"\n' \
      "${cv#*:}" "$iters" "${cv%%:*}" "${cv#*:}" >> "$out/sec52.cmd"
  done
  run_plan "$out/sec52.csv" "$plan" "curve,tree_args"
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
