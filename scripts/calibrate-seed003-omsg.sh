#!/usr/bin/env bash
# The one parameter fitted for seed 003 Section 8.1 (set A,
# experiments/seed003-section8-calibrated.yaml): o_msg, the CPU cost per
# message sent and per message received (platforms/cpm.c, 1 us by default),
# fitted to the paper's one stated time for A1: 10 gathers to group rank 0
# in 1.9 s with BWT maps.
#
# A1's gather time at 1 us is section8.csv's A1 row; one more run gives it
# at 10 us; then the secant through the last two points is solved for
# 1.9 s and A1 is run there (o_msg rounded to whole us), until A1 is within
# 2 % of 1.9 s (at most 5 runs).  The gathers are not linear in o_msg: the
# straight line through 1 and 10 us alone undershoots (it said 77 us, where
# A1 takes 1.12 s).  The last o_msg is the fit; A2 and A3 there are
# predictions.  Prints every point and the fit; the YAML takes it by hand.
#   scripts/calibrate-seed003-omsg.sh [SECTION8.CSV]   Env: COLLSIM (./collsim)
set -euo pipefail
export LC_ALL=C
collsim=${COLLSIM:-./collsim}
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
section8=${1:-$src/results/seed003/section8.csv}
paper_s=1.9

die() { printf 'calibrate-seed003-omsg.sh: %s\n' "$*" >&2; exit 2; }  # bad input
fail() { printf 'calibrate-seed003-omsg.sh: %s\n' "$*" >&2; exit 1; } # a run went wrong
[ -r "$section8" ] || die "cannot read $section8"
command -v "$collsim" > /dev/null 2>&1 || [ -x "$collsim" ] || die "no collsim binary at '$collsim' (set COLLSIM)"

# gather_s of the set A1 row of a comm bench CSV on standard input
a1_gathers() {
  awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $c["set"] == "A1" { print $c["gather_s"] }'
}

# A1's gathers at o_msg US (whole us)
a1_at() {
  "$collsim" comm bench --set A1 --o-send "$1us" --o-recv "$1us" --format csv --quiet | a1_gathers
}

x0=1 y0=$(a1_gathers < "$section8")
[ -n "$y0" ] || die "$section8 has no A1 row"
echo "o_msg ${x0} us: A1 gathers ${y0} s ($section8)"
x1=10 y1=$(a1_at "$x1")
echo "o_msg ${x1} us: A1 gathers ${y1} s"
for run in 2 3 4 5; do
  next=$(awk -v x0="$x0" -v y0="$y0" -v x1="$x1" -v y1="$y1" -v p="$paper_s" \
    'BEGIN { if (y1 == y0) exit 1; printf "%.0f", x1 + (p - y1) * (x1 - x0) / (y1 - y0) }') ||
    fail "A1 did not change between ${x0} and ${x1} us"
  x0=$x1 y0=$y1 x1=$next
  y1=$(a1_at "$x1")
  [ -n "$y1" ] || fail "the run at ${x1} us gave no A1 row"
  echo "o_msg ${x1} us: A1 gathers ${y1} s"
  if awk -v y="$y1" -v p="$paper_s" 'BEGIN { d = (y - p) / p; exit !(d < 0.02 && d > -0.02) }'; then
    echo "fit: o_msg = ${x1} us (A1 within 2 % of ${paper_s} s after ${run} runs)"
    exit 0
  fi
done
fail "A1 not within 2 % of ${paper_s} s after 5 runs; last: ${x1} us"
