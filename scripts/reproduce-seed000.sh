#!/usr/bin/env bash
# Reproduces Section 6 of seed 000 (Langer, Venkataraman, Kale, "Scalable
# Algorithms for Constructing Balanced Spanning Trees on System-ranked Process
# Groups"): Fig. 3, Fig. 4, Table 1 and Table 2.
#
#   scripts/reproduce-seed000.sh [fig3|fig4|table1|table2 ...]   (default: all)
#   collsim reproduce seed000                                      (the same)
#
# Runs one `collsim sweep` per experiment (experiments/seed000-*.yaml) into
# results/seed000/*.csv, writes beside each CSV a .cmd file with the command
# that made it, then draws the plots (scripts/plot-seed000.gp, if gnuplot is
# installed) and writes results/seed000/README.md, our numbers beside the
# paper's (scripts/compare-seed000.sh).  Sweeps resume: run the script again
# after an interruption and only the missing points run.
#
# Environment:
#   COLLSIM   the collsim binary (default ./collsim)
#   OUT       the results folder (default <source folder>/results/seed000)
#   JOBS      points each sweep runs at once (default 1; each point is one
#             process, and at n = 131,072 one needs about 3 GB)
#   QUIET=1   no progress lines
#   REUSE=0   do not copy into fig4.csv and table2.csv the rows of fig3.csv for
#             the points they share (same algorithm, n, f, k, colours, seed and
#             the same platform and extra arguments: the same simulation)
#
# Exit status: 0 all points done; 1 some point failed (the others ran, plots
# and README.md are written from what exists); 2 bad input (stops at once).
# The full reproduction has 135 points up to n = 131,072 (111 run when fig4
# and table2 reuse the rows of fig3): expect hours.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=${COLLSIM_SRCDIR:-$(dirname "$here")}
collsim=${COLLSIM:-./collsim}
out=${OUT:-$src/results/seed000}
jobs=${JOBS:-1}
reuse=${REUSE:-1}
quiet=()
if [ -n "${QUIET:-}" ] && [ "${QUIET:-}" != 0 ]; then quiet=(--quiet); fi

say() { printf 'reproduce-seed000: %s\n' "$*" >&2; }

if ! [ -x "$collsim" ] && ! command -v "$collsim" > /dev/null 2>&1; then
  say "no collsim binary at '$collsim' (set COLLSIM=/path/to/collsim)"
  exit 2
fi

all=(fig3 table2 fig4 table1) # fig3 first: fig4 and table2 reuse its rows
if [ $# -gt 0 ]; then
  targets=("$@")
  for t in "${targets[@]}"; do
    case $t in fig3 | fig4 | table1 | table2) ;; *) say "unknown target '$t' (known: ${all[*]})"; exit 2 ;; esac
  done
else
  targets=("${all[@]}")
fi

mkdir -p "$out"

# A path as written in the .cmd files: relative to the source folder when
# inside it, so the files do not depend on where the tree lives.
rel() {
  case $1 in
    "$src"/*) printf '%s' "${1#"$src"/}" ;;
    *) printf '%s' "$1" ;;
  esac
}

# The arguments that follow "--seed=S" in a dry-run line: platform, output
# format and extra arguments.  Two experiments whose lines agree there run the
# same simulation for the same (algo, n, f, k, colours, seed), and their rows
# carry the same config_key.
tail_args() { sed -n '1{s/.* --seed=[0-9]* //;p;}'; }

# Copy into $2 (new) the rows of $1 whose point belongs to experiment $3;
# sets copied=1 when it copied any.
reuse_rows() {
  local from=$1 to=$2 yaml=$3 points
  points=$(mktemp)
  "$collsim" sweep "$yaml" --dry-run > "$points"
  local theirs ours
  theirs=$("$collsim" sweep "$src/experiments/seed000-fig3.yaml" --dry-run | tail_args)
  ours=$(tail_args < "$points")
  if [ "$theirs" != "$ours" ]; then
    say "not reusing $(rel "$from"): platform or extra arguments differ"
    rm -f "$points"
    return
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
    }' "$points" "$from" > "$to.tmp"
  rm -f "$points"
  local n
  n=$(($(wc -l < "$to.tmp") - 1))
  if [ "$n" -gt 0 ]; then
    mv "$to.tmp" "$to"
    say "$(rel "$to"): $n row(s) copied from $(rel "$from") (points both experiments share)"
    copied=1
  else
    rm -f "$to.tmp"
  fi
}

status=0
for t in "${targets[@]}"; do
  yaml="$src/experiments/seed000-$t.yaml"
  csv="$out/$t.csv"
  copied=0
  if [ "$reuse" != 0 ] && { [ "$t" = fig4 ] || [ "$t" = table2 ]; } && [ ! -s "$csv" ] && [ -s "$out/fig3.csv" ]; then
    reuse_rows "$out/fig3.csv" "$csv" "$yaml"
  fi
  if [ "$copied" = 0 ] && [ -s "$csv" ] && grep -q "were copied from fig3.csv" "$out/$t.cmd" 2> /dev/null; then
    copied=1 # an earlier run copied rows into this file: keep saying so
  fi
  {
    echo "# The command that made $t.csv (--jobs and --quiet do not change the rows;"
    echo "# wall_s and collsim_version are the only columns that vary between runs):"
    echo "collsim sweep $(rel "$yaml") --out $(rel "$csv")"
    if [ "$copied" = 1 ]; then
      echo "# Rows for points that seed000-fig3.yaml also has were copied from fig3.csv"
      echo "# first (the same simulation); scripts/reproduce-seed000.sh does this unless REUSE=0."
    fi
  } > "$out/$t.cmd"
  say "$t: $(rel "$yaml") -> $(rel "$csv")"
  rc=0
  "$collsim" sweep "$yaml" --out "$csv" --jobs "$jobs" ${quiet[@]+"${quiet[@]}"} || rc=$?
  case $rc in
    0) ;;
    1) status=1; say "$t: some points failed (see above); going on" ;;
    *) say "$t: collsim sweep exited $rc; stopping"; exit "$rc" ;;
  esac
done

if command -v gnuplot > /dev/null 2>&1; then
  if gnuplot -e "dir='$out'" "$here/plot-seed000.gp"; then
    say "plots: $(rel "$out")/*.png"
  else
    say "gnuplot failed"
    status=1
  fi
else
  say "gnuplot not installed (apt-get install gnuplot-nox): no plots"
fi

bash "$here/compare-seed000.sh" "$out"
exit "$status"
