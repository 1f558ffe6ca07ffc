#!/usr/bin/env bash
# Reproduces Tables 1 and 2 of seed 003 (Kamal, Mirtaheri, Wagner,
# "Scalability of Communicators and Groups in MPI", Section 6): every group
# map representation of the paper's groups, measured by `collsim groupmap`,
# beside the paper's cells.
#
#   scripts/reproduce-seed003-maps.sh          (no arguments)
#   collsim reproduce seed003-maps             (the same)
#
# Writes into OUT:
#   maps.csv       collsim groupmap --paper-groups --no-times --format csv:
#                  sizes, paths, runs, failures and the strategies' picks of
#                  every representation of every paper group; no times, so
#                  byte-for-byte the same on every machine and run
#                  (tests/results-seed003.sh checks it)
#   times.csv      the same with this machine's times (create, S-All, S-One)
#   maps.cmd, times.cmd   the exact command that made each CSV
#   comparison.md  scripts/compare-seed003.sh times.csv: every cell beside
#                  the paper's (experiments/seed003-paper.csv), the picks,
#                  and what Elias-Fano and Roaring add
# README.md in OUT is written by hand (how each row was read, why each cell
# differs) and is left alone.  Each file is written to a temporary file in
# OUT and moved into place, so an interrupted run leaves the old file.
# The columns of times.csv other than the times must equal maps.csv's (a
# check that the run is deterministic); a difference is reported and the
# exit status is 1.
#
# Environment:
#   COLLSIM         the collsim binary (default ./collsim)
#   COLLSIM_SRCDIR  the source folder (default: this script's folder's parent)
#   OUT             the results folder (default <source>/results/seed003)
#   QUIET=1         no progress lines
#
# Exit status: 0 done; 1 a run failed or the check above failed; 2 bad input
# (an argument, no collsim binary).  About a minute (two runs of ~25 s).
set -euo pipefail
export LC_ALL=C

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=${COLLSIM_SRCDIR:-$(dirname "$here")}
collsim=${COLLSIM:-./collsim}
out=${OUT:-$src/results/seed003}
quiet=0
if [ -n "${QUIET:-}" ] && [ "${QUIET:-}" != 0 ]; then quiet=1; fi

say() { [ "$quiet" = 1 ] || printf 'reproduce-seed003-maps: %s\n' "$*" >&2; }
warn() { printf 'reproduce-seed003-maps: %s\n' "$*" >&2; }
die() { printf 'reproduce-seed003-maps: %s\n' "$*" >&2; exit 2; }

[ $# -eq 0 ] || die "takes no arguments (got '$*'); see the header of $0"
if ! [ -x "$collsim" ] && ! command -v "$collsim" > /dev/null 2>&1; then
  die "no collsim binary at '$collsim' (set COLLSIM=/path/to/collsim)"
fi
[ -r "$src/experiments/seed003-paper.csv" ] || die "no $src/experiments/seed003-paper.csv (set COLLSIM_SRCDIR)"

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

# run NAME ARGS...: collsim groupmap ARGS > OUT/NAME.csv, and NAME.cmd
run() {
  local name=$1
  shift
  local t0=$SECONDS rc=0
  say "$name.csv: collsim groupmap $* (about 25 s)"
  "$collsim" groupmap "$@" --quiet > "$tmpd/$name.csv" 2> "$tmpd/$name.err" || rc=$?
  if [ "$rc" != 0 ]; then
    warn "collsim groupmap $* failed (exit $rc):"
    tail -n 5 "$tmpd/$name.err" >&2
    return 1
  fi
  case $(head -n 1 "$tmpd/$name.csv") in
    group,world,m,ordered,*) ;;
    *) warn "collsim groupmap $*: unexpected CSV header: $(head -n 1 "$tmpd/$name.csv")"; return 1 ;;
  esac
  {
    echo "# $name.csv is the standard output of this command (run anywhere; collsim = the"
    echo "# binary built from this tree).  Made by scripts/reproduce-seed003-maps.sh."
    echo "collsim groupmap $* --quiet > $(rel "$out")/$name.csv"
  } > "$tmpd/$name.cmd"
  mv "$tmpd/$name.csv" "$out/$name.csv"
  mv "$tmpd/$name.cmd" "$out/$name.cmd"
  say "$name.csv: $(($(wc -l < "$out/$name.csv") - 1)) rows in $((SECONDS - t0)) s"
}

# times.csv with its time columns emptied: must be maps.csv.  The columns
# before "failed" hold no quoted commas, so fields split on commas.
without_times() {
  awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i ~ /^(create_ms|select_all_ms|select_one_us)$/) t[i] = 1 }
    NR > 1 { for (i in t) $i = "" } { print }' OFS=, "$1"
}

status=0
run maps --paper-groups --no-times --format csv || status=1
run times --paper-groups --format csv || status=1

if [ "$status" = 0 ]; then
  if ! without_times "$out/times.csv" | cmp -s - "$out/maps.csv"; then
    warn "times.csv and maps.csv differ in more than the times (a nondeterministic column?):"
    without_times "$out/times.csv" | diff "$out/maps.csv" - | head -n 10 >&2 || true
    status=1
  fi
fi

if [ -s "$out/times.csv" ]; then
  if bash "$here/compare-seed003.sh" "$out/times.csv" "$src/experiments/seed003-paper.csv" > "$tmpd/comparison.md"; then
    mv "$tmpd/comparison.md" "$out/comparison.md"
    say "comparison.md written"
  else
    warn "scripts/compare-seed003.sh failed"
    status=1
  fi
fi
[ -e "$out/README.md" ] || warn "$(rel "$out")/README.md does not exist (it is written by hand)"
say "results in $(rel "$out")/"
exit "$status"
