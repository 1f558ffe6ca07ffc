#!/usr/bin/env bash
# How long each reproduction's --quick subset takes (docs/performance.md's table of
# targets): `collsim reproduce TARGET --quick -q --out DIR` under
# /usr/bin/time, one target at a time, each into a fresh folder that is
# removed afterwards; the exit status beside it (0: everything made matches
# the committed rows).
#
#   bench/reproduce-quick.sh > bench/out/reproduce-quick.txt   (a few minutes)
#
# Environment: COLLSIM (default ./collsim).  Run it from the source folder on
# a quiet machine.  Exit status: 0 printed; 2 no collsim.
set -euo pipefail
export LC_ALL=C
collsim=${COLLSIM:-./collsim}
[ -x "$collsim" ] || { echo "bench/reproduce-quick.sh: no collsim at '$collsim' (set COLLSIM)" >&2; exit 2; }
command -v /usr/bin/time > /dev/null || { echo "bench/reproduce-quick.sh: /usr/bin/time not found" >&2; exit 2; }

printf '# machine: %s cores, %s, %s GiB; load before: %s\n' "$(nproc)" \
  "$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)" \
  "$(awk '/MemTotal/ { printf "%.0f", $2 / 1048576 }' /proc/meminfo)" "$(cut -d' ' -f1-3 /proc/loadavg)"
printf '# command: /usr/bin/time -f %%e ./collsim reproduce TARGET --quick -q --out DIR, one target at a time, from the source folder, commit %s\n' \
  "$(git describe --always --dirty 2>/dev/null || echo '?')"
printf '# target wall_s exit_status\n'
for target in seed000 seed001 seed002 seed003-maps seed003 seed004; do
  dir=$(mktemp -d)
  status=0
  /usr/bin/time -f '%e' -o "$dir/time" "$collsim" reproduce "$target" --quick -q --out "$dir/out" > /dev/null 2>&1 ||
    status=$?
  printf '%s %s %s\n' "$target" "$(tail -n 1 "$dir/time")" "$status"
  rm -rf "$dir"
done
printf '# load after: %s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
