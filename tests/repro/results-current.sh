#!/usr/bin/env bash
# Committed results are what the code produces now.  Every committed row is
# accounted for, re-run or skipped for a stated reason, and an experiment's
# point without its row fails the test, as does a missing file.
#  - seed 000, results/seed000/{fig3,fig4,table1,table2}.csv (135 rows): a
#    row is re-run, and compared on every column but wall_s, when its
#    committed wall_s is under LIMIT_S = 3 seconds (40 rows, n = 4,096 to
#    16,384; 33 runs, as table2.csv repeats 7 of fig3.csv's points, which run
#    once); the others took 3 to 26 s each.  Each file's experiment,
#    experiments/seed000-NAME.yaml, must have no point without a row
#    (collsim sweep --dry-run lists none).
#  - seed 001: tables.csv whole (one untimed batch, about a second);
#    table2.csv: every point of experiments/seed001-table2.yaml must have its
#    row, and the rows with p <= 1,024 and at most MAX_TIMED_MESSAGES =
#    20,000 messages (7 of 23: 1.7 to 2.7 s each here, SimGrid taking about
#    40 us per message) are re-run with the sweep's own command line; the
#    others take 8 to 10 s (p = 16,384), 4 s (35,000 messages) or hours
#    (10^6 messages).
#  - seed 002: every row of sec52.csv (one per point of results/seed002/
#    sec52.yaml, a second each) and of split-2w.csv (the commands of
#    split-2w.cmd, a second each).
#  - issue 31, comm-split/sweep.csv, sweep-large.csv and table1-simgrid.csv:
#    every point of experiments/comm-split.yaml, comm-split-large.yaml and
#    comm-split-table1.yaml has its rows; two native points (n = 4,096,
#    c = 8, 4 s each) are re-run.
# The runs go two at a time (the machine's cores).  JOBS, LIMIT_S and
# MAX_TIMED_MESSAGES may be set in the environment.  Prints,
# per file, the rows re-run and compared and the rows skipped and why.
# Exit status 0 when every re-run row is the same, 1 otherwise (or on a
# missing row or file, or without collsim: tests/lib/collsim-env.sh).
# Cost: about 65 s of CPU (the 33 tree runs 45 s by their committed wall_s,
# the 7 timed collectives about 10 s, the 4 Allreduce runs 10 s); on the
# development machine, shared with other simulations (load average 6 on its
# 2 cores), 2 min 0 s (111 s of CPU).
set -euo pipefail
export LC_ALL=C
. "$(dirname "$0")/../lib/collsim-env.sh"
LIMIT_S=${LIMIT_S:-3}
MAX_TIMED_MESSAGES=${MAX_TIMED_MESSAGES:-20000}
JOBS=${JOBS:-2}
tmpd=$(mktemp -d)
trap 'rm -rf "$tmpd"' EXIT
compared=0 skipped=0 failed=0 runs=0
: > "$tmpd/jobs"   # OUT ARGS...: one run per line (no argument holds a blank)
: > "$tmpd/checks" # WHAT<tab>OUT<tab>FILTER<tab>WANTED: the rows to compare after the runs

# The committed seed-000 files' columns a re-run is compared on: all but
# wall_s (measured) and the configuration columns a sweep adds (config_*,
# collsim_version: the run's settings, not its results).
seed000_compared() {
  head -n 1 "$1" | tr , '\n' | grep -v '^wall_s$\|^config_\|^collsim_version$' | tr '\n' ' '
}

# A re-run tree row (collsim tree --format csv, header and row) on the
# compared columns, by name, in the committed file's order.
seed000_row() {
  awk -F, -v names="$(cat "$tmpd/seed000-compared")" \
    'FNR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
     { n = split(names, want, " "); out = ""
       for (i = 1; i <= n; i++) out = out (i > 1 ? "," : "") (want[i] in col ? $col[want[i]] : "?" want[i])
       print out }'
}

# by_name CSV NAME...: the fields NAME... (comma-separated) of the row on
# stdin, found by CSV's header; a field must not hold a comma (the seed-000
# columns read here never do).
by_name() {
  local csv=$1
  shift
  awk -F, -v names="$*" 'NR == FNR { if (FNR == 1) for (i = 1; i <= NF; i++) col[$i] = i; next }
    { n = split(names, want, " "); out = ""
      for (i = 1; i <= n; i++) out = out (i > 1 ? "," : "") $col[want[i]]
      print out }' "$csv" -
}

# fail MESSAGE: a difference or a missing row.
fail() {
  failed=$((failed + 1))
  printf '%s\n' "$1"
}

# run OUT ARGS...: queue a run whose output goes to OUT (ARGS word-split).
run() {
  runs=$((runs + 1))
  echo "$*" >> "$tmpd/jobs"
}

# check WHAT OUT FILTER WANTED: after the runs, FILTER (seed000_row or last) of
# OUT must be WANTED.
check() { printf '%s\t%s\t%s\t%s\n' "$@" >> "$tmpd/checks"; }

last() { tail -n 1; }

# A comm compare run's rows without the header and wall_s, on one line
# (rows joined by \034: a check's WANTED is one field of a line).
cs_rows() { without_wall | tail -n +2 | paste -sd "$(printf '\034')"; }

# need FILE: it must exist.
need() {
  [ -f "$1" ] && return 0
  fail "MISSING ${1#"$src"/}"
  return 1
}

# ---- seed 000 ----

# missing_points YAML CSV: the points of YAML (collsim sweep --dry-run into
# a new file lists them all) with no row of CSV, by algo, n, f, k, colors
# and seed.  (The sweep itself refuses the committed files, made before its
# configuration columns, so it cannot say which points they lack.)
missing_points() {
  "$collsim" sweep "$1" --out "$tmpd/all-points.csv" --dry-run | awk '
    NR == FNR {
      a = n = f = k = c = s = ""
      for (i = 1; i <= NF; i++) {
        eq = index($i, "="); name = substr($i, 1, eq - 1); val = substr($i, eq + 1)
        if (name == "--algo") a = val; else if (name == "--n") n = val + 0
        else if (name == "--f") f = sprintf("%g", val + 0); else if (name == "--k") k = val + 0
        else if (name == "--colors") c = val + 0; else if (name == "--seed") s = val
      }
      point[++np] = a " n=" n " f=" f " k=" k " colors=" c " seed=" s
      next
    }
    FNR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    { have[$col["algo"] " n=" $col["n"] + 0 " f=" sprintf("%g", $col["f"] + 0) " k=" $col["k"] + 0 \
           " colors=" $col["colors"] + 0 " seed=" $col["seed"]] = 1 }
    END { for (i = 1; i <= np; i++) if (!(point[i] in have)) print point[i] }' - FS=, "$2"
}

declare -A tree_out=() # one run per point, though two files hold it
seed000_file() {
  local f=$1 name yaml pending line wall rows=0 here=0 over=0
  name=$(basename "$f" .csv)
  if [ ! -e "$tmpd/seed000-header" ]; then
    head -n 1 "$f" > "$tmpd/seed000-header"
    seed000_compared "$f" > "$tmpd/seed000-compared"
  elif [ "$(head -n 1 "$f")" != "$(cat "$tmpd/seed000-header")" ]; then
    fail "seed000/$name.csv: its header differs from the other seed-000 files'"
  fi
  yaml=$src/experiments/seed000-$name.yaml
  need "$yaml" || return 0
  pending=$(missing_points "$yaml" "$f")
  [ -z "$pending" ] || fail "MISSING rows of seed000/$name.csv: $(grep -c . <<< "$pending") points of $yaml have none, e.g. $(head -n 1 <<< "$pending")"
  while IFS= read -r line; do
    case $line in algo,*) continue ;; esac
    rows=$((rows + 1))
    wall=$(by_name "$f" wall_s <<< "$line")
    if ! awk -v w="$wall" -v l="$LIMIT_S" 'BEGIN { exit !(w < l) }'; then
      over=$((over + 1))
      continue
    fi
    # the fields by the header's names (platform is torus:XxYxZ/C)
    local algo n frac k colors seed platform shape cores key
    IFS=, read -r algo n frac k colors seed platform < <(by_name "$f" algo n f k colors seed platform <<< "$line")
    shape=${platform#torus:}; cores=${shape#*/}; shape=${shape%/*}
    key="$algo,$n,$frac,$k,$colors,$seed,$platform"
    if [ -z "${tree_out[$key]+set}" ]; then
      tree_out[$key]=$tmpd/tree-$runs
      run "${tree_out[$key]}" "$collsim" tree --algo "$algo" -n "$n" -f "$frac" -k "$k" --colors "$colors" \
        --seed "$seed" --torus "$shape" --cores "$cores" --format csv --quiet
    fi
    check "seed000/$name.csv" "${tree_out[$key]}" seed000_row "$(by_name "$f" $(cat "$tmpd/seed000-compared") <<< "$line")"
    here=$((here + 1))
  done < "$f"
  skipped=$((skipped + over))
  echo "seed000/$name.csv: $rows rows, $here re-run and compared, $over skipped (committed wall_s >= $LIMIT_S s)"
}

for name in fig3 fig4 table1 table2; do
  f=$src/results/seed000/$name.csv
  need "$f" && seed000_file "$f"
done

# ---- seed 001 ----

t=$src/results/seed001/tables.csv
if need "$t"; then
  got=$(cd "$src" && "$collsim" collective --net percs:64,16,16 --links \
          --batch experiments/seed001-tables.batch --format csv -q)
  runs=$((runs + 1))
  n=$(($(grep -c . "$t") - 1))
  compared=$((compared + n))
  if [ "$got" != "$(cat "$t")" ]; then
    fail "MISMATCH seed001/tables.csv: < now, > committed"
    diff <(printf '%s\n' "$got") "$t" | head -20 || true
  fi
  echo "seed001/tables.csv: $n rows, $n re-run (one batch) and compared"
fi

# The value of --NAME=VALUE in a command line.
opt() { sed -n "s/.* --$1=\([^ ]*\).*/\1/p" <<< "$2"; }

seed001_table2() {
  local t2=$1 cmd row rest p messages rows=0 here=0 big=0
  while IFS= read -r cmd; do
    rows=$((rows + 1))
    row=$(grep -F "\"$(opt platform "$cmd")\",$(opt coll "$cmd"),$(opt algo "$cmd")," "$t2" || true)
    if [ "$(grep -c . <<< "$row")" != 1 ]; then
      fail "MISSING seed001/table2.csv: no single row for $cmd"
      continue
    fi
    rest=${row#\"*\",} # net,coll,algo,p,size,messages,...: the net is quoted
    IFS=, read -r _ _ p _ messages _ <<< "$rest"
    if [ "$p" -gt 1024 ] || [ "$messages" -gt "$MAX_TIMED_MESSAGES" ]; then
      big=$((big + 1))
      continue
    fi
    check seed001/table2.csv "$tmpd/table2-$runs" last "$row"
    run "$tmpd/table2-$runs" "${cmd% --with-config}" # the committed columns only (made before --with-config)
    here=$((here + 1))
  done < <("$collsim" sweep "$src/experiments/seed001-table2.yaml" --out "$tmpd/none.csv" --dry-run)
  skipped=$((skipped + big))
  echo "seed001/table2.csv: $rows points, $here re-run and compared, $big skipped" \
       "(p > 1,024 or more than $MAX_TIMED_MESSAGES messages)"
}
t2=$src/results/seed001/table2.csv
need "$t2" && seed001_table2 "$t2"

# ---- seed 002 ----

s52=$src/results/seed002/sec52.csv
if need "$s52"; then
  points=$("$collsim" sweep "$src/results/seed002/sec52.yaml" --out "$tmpd/none52.csv" --dry-run | grep -c .)
  rows=$(($(grep -c . "$s52") - 1))
  [ "$rows" = "$points" ] || fail "MISSING rows of seed002/sec52.csv: $rows rows for $points points"
  # curve,tree_args,cluster,trees,order,n,iterations,...: re-run each row
  while IFS=, read -r curve args cluster _ _ n iters _; do
    [ "$curve" = curve ] && continue
    want="$cluster,$(grep -m1 "^$curve,$args,$cluster," "$s52" | cut -d, -f4-)"
    check seed002/sec52.csv "$tmpd/sec52-$runs" last "$want"
    run "$tmpd/sec52-$runs" "$collsim" allreduce --cluster "$cluster" "$args" -n "$n" --iterations "$iters" \
      --format csv -q
  done < "$s52"
  echo "seed002/sec52.csv: $rows rows, $rows re-run and compared"
fi
sp=$src/results/seed002/split-2w.csv
if need "$sp" && need "$src/results/seed002/split-2w.cmd"; then
  row=1 # the header; then the result line of each command, in order
  while IFS= read -r cmd; do
    row=$((row + 1))
    check seed002/split-2w.csv "$tmpd/split-$runs" last "$(sed -n "${row}p" "$sp")"
    run "$tmpd/split-$runs" "$collsim" "${cmd#collsim }"
  done < <(grep '^collsim ' "$src/results/seed002/split-2w.cmd")
  [ "$row" = "$(grep -c . "$sp")" ] || fail "MISSING rows of seed002/split-2w.csv: $((row - 1)) commands"
  echo "seed002/split-2w.csv: $((row - 1)) rows re-run and compared"
fi

# ---- issue 31: results/comm-split ----
# Every point of both experiments has its rows (the sweep, asked for the
# points missing from the committed file, lists none); the native points
# at n = 4,096 with 8 colours (sorted and random keys, 4 s each) are re-run
# and their rows compared on every column but wall_s and collsim_version.
without_wall() { # CSV on stdin without its wall_s and collsim_version columns (no quoted commas before them)
  awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "wall_s" || $i == "collsim_version") skip[i] = 1 }
           { line = ""; sep = ""; for (i = 1; i <= NF; i++) if (!(i in skip)) { line = line sep $i; sep = "," }; print line }'
}
comm_split() {
  local yaml=$1 csv=$2 pending cmd key
  pending=$("$collsim" sweep "$src/experiments/$yaml" --out "$csv" --dry-run | grep -c . || true)
  [ "$pending" = 0 ] || fail "MISSING rows of ${csv#"$src"/}: $pending points of experiments/$yaml have none"
}
cs_dir=$src/results/comm-split
if need "$cs_dir/sweep.csv" && need "$cs_dir/sweep-large.csv" && need "$cs_dir/table1-simgrid.csv"; then
  comm_split comm-split.yaml "$cs_dir/sweep.csv"
  comm_split comm-split-large.yaml "$cs_dir/sweep-large.csv"
  comm_split comm-split-table1.yaml "$cs_dir/table1-simgrid.csv"
  # (the dry run into a file: grep -m1 ending a pipe early killed the
  # sweep still writing with SIGPIPE, which pipefail made this script's exit)
  "$collsim" sweep "$src/experiments/comm-split.yaml" --out "$tmpd/none-cs.csv" --dry-run > "$tmpd/cs-points.txt"
  for key in rank random; do
    cmd=$(grep -m1 -- "--engine=native --n=4096 --colors=8 --key=$key " "$tmpd/cs-points.txt")
    want=$( { head -1 "$cs_dir/sweep.csv"; grep -- "--key=$key --n=4096 --op=compare" "$cs_dir/sweep.csv" |
              grep -- "--colors=8 --engine=native"; } | without_wall | tail -n +2)
    [ -n "$want" ] || fail "MISSING rows of comm-split/sweep.csv: n = 4,096, c = 8, key $key"
    check "comm-split/sweep.csv (n = 4,096, c = 8, key $key)" "$tmpd/cs-$key" cs_rows \
      "$(printf '%s\n' "$want" | paste -sd "$(printf '\034')")"
    run "$tmpd/cs-$key" ${cmd}
  done
  echo "comm-split: the three experiments checked for missing points; 2 points re-run and compared"
fi

# ---- engines: contention.csv (experiments/engines-contention.sh) ----
# contention.md must be the table of contention.csv, and the five models'
# rows of the ring allgather on 64 ranks are re-run (their command column)
# and their sim_time_s compared.
sim_time() { python3 -c 'import csv, sys; print(next(csv.DictReader(sys.stdin))["sim_time_s"])' 2>/dev/null; }
en_dir=$src/results/engines
if ! command -v python3 >/dev/null; then
  skipped=$((skipped + 5))
  echo "engines/contention.csv: 5 rows skipped (python3, which reads its quoted CSV, is not installed)"
elif need "$en_dir/contention.csv" && need "$en_dir/contention.md"; then
  python3 "$src/experiments/engines-contention-table.py" "$en_dir/contention.csv" "$tmpd/contention.md"
  cmp -s "$tmpd/contention.md" "$en_dir/contention.md" ||
    fail "MISMATCH engines/contention.md is not the table of contention.csv (experiments/engines-contention-table.py)"
  en=0
  while IFS=$'\t' read -r t cmd; do
    en=$((en + 1))
    check "engines/contention.csv ($cmd)" "$tmpd/en-$en" sim_time "$t"
    run "$tmpd/en-$en" "$collsim" ${cmd#collsim }
  done < <(python3 -c 'import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    if r["schedule"] == "allgather ring" and r["p"] == "64": print(r["sim_time_s"] + "\t" + r["command"])' \
    "$en_dir/contention.csv")
  [ "$en" = 5 ] || fail "MISSING rows of engines/contention.csv: $en of the ring allgather's 5 on 64 ranks"
  echo "engines: contention.md checked against contention.csv; $en rows re-run and compared"
fi

# ---- the runs, JOBS at a time, then the comparisons ----

# shellcheck disable=SC2016
xargs -P "$JOBS" -L 1 sh -c 'out=$1; shift; "$@" > "$out" 2> "$out.err" || : > "$out.failed"' sh < "$tmpd/jobs"
while IFS=$'\t' read -r what out filter wanted; do
  compared=$((compared + 1))
  if [ -e "$out.failed" ]; then
    fail "FAILED $what: $(grep -m1 "$out" "$tmpd/jobs" | cut -d' ' -f2-): $(head -c 500 "$out.err")"
  elif [ "$($filter < "$out")" != "$wanted" ]; then
    fail "MISMATCH $what"$'\n'"  committed: $wanted"$'\n'"  now:       $($filter < "$out")"
  fi
done < "$tmpd/checks"

echo "results-current: $compared rows re-run and compared ($runs runs), $skipped skipped (reasons above), $failed" \
     "differ or are missing"
[ "$failed" -eq 0 ]
