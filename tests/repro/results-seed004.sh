#!/usr/bin/env bash
# The committed results/seed004/ is what collsim produces now: re-runs the
# rows of fig1.csv with g <= 64 for Algorithm 1 and the direct creation,
# and g = 1 for MPI_Comm_create, the rows of fig2.csv with n <= 64 (every
# mode), and the three rows of failure.csv (about 30 s in all), and compares
# every column but wall_s.
# Environment: COLLSIM (default ./collsim), COLLSIM_SRCDIR (default the
# repository above tests/): tests/lib/collsim-env.sh.  Exit status: 0 same; 1
# MISMATCH (both lines printed), collsim failed or missing; 77 (skipped)
# when results/seed004/fig1.csv does not exist.
set -euo pipefail
export LC_ALL=C
. "$(dirname "$0")/../lib/collsim-env.sh"
fig1=$src/results/seed004/fig1.csv
failure=$src/results/seed004/failure.csv
[ -f "$fig1" ] || { echo "no results/seed004/fig1.csv: skipped"; exit 77; }

status=0
rows=0
no_wall() { sed 's/,[^,]*$//'; }
# check WANT_LINE ARGS...: the command's CSV row (no header) against WANT_LINE
check() {
  local want=$1
  shift
  local got
  if ! got=$("$collsim" "$@" --format csv --no-header --quiet); then
    echo "collsim $* failed"
    status=1
    return
  fi
  rows=$((rows + 1))
  if [ "$(no_wall <<< "$want")" != "$(no_wall <<< "$got")" ]; then
    echo "MISMATCH collsim $*"
    echo "  committed: $want"
    echo "  now:       $got"
    status=1
  fi
}

while IFS= read -r line; do
  IFS=, read -r op impl _ _ n _ g _ <<< "$line"
  case $op,$impl in
    create-group,intercomm | create-group,direct) [ "$g" -le 64 ] || continue ;;
    create,mpich) [ "$g" -eq 1 ] || continue ;;
    *) continue ;;
  esac
  check "$line" comm "$op" --impl "$impl" --platform torus:8x16x16/4 -n "$n" --group-size "$g"
done < <(tail -n +2 "$fig1")

fig2=$src/results/seed004/fig2.csv
[ -f "$fig2" ] || { echo "MISMATCH: no results/seed004/fig2.csv"; status=1; }
while IFS= read -r line; do
  IFS=, read -r n _ balance interval _ <<< "$line"
  [ "$n" -le 64 ] || continue
  check "$line" mcmc --n="$n" --balance="$balance" ${interval:+--interval="$interval"}
done < <([ -f "$fig2" ] && tail -n +2 "$fig2")

if [ -f "$failure" ]; then
  for how in intercomm direct parent; do
    line=$(awk -F, -v h="$how" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "rebuild") c = i; next }
      $c == h' "$failure")
    [ -n "$line" ] || { echo "MISMATCH: failure.csv has no $how row"; status=1; continue; }
    check "$line" mcmc -n 1024 --balance none --fail-rank 37 --fail-at 1.5 --rebuild "$how"
  done
fi
[ "$status" = 0 ] && echo "results/seed004: $rows rows reproduced (wall_s aside)"
exit "$status"
