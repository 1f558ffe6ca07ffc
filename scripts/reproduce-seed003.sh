#!/usr/bin/env bash
# Reproduces seed 003 (Kamal, Mirtaheri, Wagner, "Scalability of
# Communicators and Groups in MPI"): the group maps of Tables 1-2
# (scripts/reproduce-seed003-maps.sh) and the communicators of Section 8.
#
#   scripts/reproduce-seed003.sh          (no arguments)
#   collsim reproduce seed003             (the same)
#
# Writes into OUT, besides what reproduce-seed003-maps.sh writes:
#   section8.csv   collsim sweep experiments/seed003-section8.yaml: sets
#                  A1-C3, leader split on [C,P,M] worlds of up to 110,000
#                  proclets (creation, messaging and gather times, space)
#   ids.csv        collsim sweep experiments/seed003-ids.yaml: context ids
#                  until exhaustion per shape, layout and scheme (Section 8.2)
#   scaling.csv    collsim sweep experiments/seed003-scaling.yaml: split
#                  creation time and memory against N (2,000 - 262,144)
#                  and the group size, both implementations, and map
#                  memory shared / unshared / compact (part 8)
#   space-model.csv  collsim comm space for [1000,100,10] (Section 3's
#                  example) and [6875,8,2] (the simulated world)
#   scaling.md, scaling-time.png, scaling-memory.png, scaling-group.png
#                  scripts/scaling-seed003.sh: the table and plots
#   section8-calibrated.csv  collsim sweep
#                  experiments/seed003-section8-calibrated.yaml: set A with
#                  o_msg fitted to A1's gathers (135 us); A2, A3 predicted
#   section8.cmd, ids.cmd, scaling.cmd, space-model.cmd,
#   section8-calibrated.cmd   the exact commands
#   section8.md    scripts/compare-seed003-comm.sh: every number beside the
#                  paper's (the paper's figure values are not in its text:
#                  only what the text states is compared)
# README.md is written by hand.  Sweeps resume: an interrupted run keeps
# its finished rows (OUT/.section8.csv and its journal) and the next run
# continues from there.  About 30 minutes (section8: 9 timed runs of
# 10-330 s each, 2.5-3.5 GB of memory each; scaling: 37 runs, the
# largest 5.4 GB).
#
# Environment: COLLSIM, COLLSIM_SRCDIR, OUT, QUIET=1 as in
# reproduce-seed003-maps.sh; SKIP_MAPS=1 leaves Tables 1-2 alone.
# Exit status: 0 done; 1 a run failed; 2 bad input.
set -euo pipefail
export LC_ALL=C

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=${COLLSIM_SRCDIR:-$(dirname "$here")}
collsim=${COLLSIM:-./collsim}
out=${OUT:-$src/results/seed003}
quiet=0
if [ -n "${QUIET:-}" ] && [ "${QUIET:-}" != 0 ]; then quiet=1; fi

say() { [ "$quiet" = 1 ] || printf 'reproduce-seed003: %s\n' "$*" >&2; }
warn() { printf 'reproduce-seed003: %s\n' "$*" >&2; }
die() { printf 'reproduce-seed003: %s\n' "$*" >&2; exit 2; }

[ $# -eq 0 ] || die "takes no arguments (got '$*'); see the header of $0"
if ! [ -x "$collsim" ] && ! command -v "$collsim" > /dev/null 2>&1; then
  die "no collsim binary at '$collsim' (set COLLSIM=/path/to/collsim)"
fi
mkdir -p "$out"

rel() {
  case $1 in
    "$src"/*) printf '%s' "${1#"$src"/}" ;;
    *) printf '%s' "$1" ;;
  esac
}

status=0
if [ "${SKIP_MAPS:-0}" = 0 ]; then
  COLLSIM=$collsim COLLSIM_SRCDIR=$src OUT=$out bash "$here/reproduce-seed003-maps.sh" || status=1
fi

# sweep NAME: the experiment into OUT/NAME.csv (resumable through the
# hidden working copy OUT/.NAME.csv), and NAME.cmd.
sweep() {
  local name=$1 exp="$src/experiments/seed003-$1.yaml" work="$out/.$1.csv" q=()
  [ "$quiet" = 1 ] && q=(--quiet)
  say "$name.csv: collsim sweep $(rel "$exp")"
  if ! "$collsim" sweep "$exp" --out "$work" "${q[@]}"; then
    warn "collsim sweep $(rel "$exp") failed; finished rows are kept in $(rel "$work")"
    return 1
  fi
  {
    echo "# $name.csv is the output of this command (collsim = the binary built from this"
    echo "# tree).  Made by scripts/reproduce-seed003.sh."
    echo "collsim sweep $(rel "$exp") --out $(rel "$out")/$name.csv"
  } > "$out/.$name.cmd"
  mv "$work" "$out/$name.csv"
  mv "$out/.$name.cmd" "$out/$name.cmd"
  rm -f "$out/.$(basename "$work").journal"
  say "$name.csv: $(($(wc -l < "$out/$name.csv") - 1)) rows"
}

sweep ids || status=1
sweep section8 || status=1
sweep section8-calibrated || status=1
sweep scaling || status=1

# Section 3's space model, for the paper's example and the simulated world.
say "space-model.csv: collsim comm space"
if "$collsim" comm space --cpm 1000,100,10 --format csv > "$out/.space-model.csv" &&
  "$collsim" comm space --cpm 6875,8,2 --format csv --no-header >> "$out/.space-model.csv"; then
  mv "$out/.space-model.csv" "$out/space-model.csv"
  {
    echo "# space-model.csv is the output of these commands (collsim = the binary built from"
    echo "# this tree).  Made by scripts/reproduce-seed003.sh."
    echo "collsim comm space --cpm 1000,100,10 --format csv"
    echo "collsim comm space --cpm 6875,8,2 --format csv --no-header"
  } > "$out/space-model.cmd"
else
  rm -f "$out/.space-model.csv"
  warn "collsim comm space failed"
  status=1
fi
if [ -s "$out/scaling.csv" ] && [ -s "$out/space-model.csv" ]; then
  if bash "$here/scaling-seed003.sh" "$out/scaling.csv" "$out/space-model.csv" "$out"; then
    say "scaling.md and its plots written"
  else
    warn "scripts/scaling-seed003.sh failed"
    status=1
  fi
fi

if [ -s "$out/section8.csv" ] && [ -s "$out/ids.csv" ]; then
  calibrated=()
  [ -s "$out/section8-calibrated.csv" ] && calibrated=("$out/section8-calibrated.csv")
  if bash "$here/compare-seed003-comm.sh" "$out/section8.csv" "$out/ids.csv" "${calibrated[@]}" > "$out/.section8.md"; then
    mv "$out/.section8.md" "$out/section8.md"
    say "section8.md written"
  else
    rm -f "$out/.section8.md"
    warn "scripts/compare-seed003-comm.sh failed"
    status=1
  fi
fi
say "results in $(rel "$out")/"
exit "$status"
