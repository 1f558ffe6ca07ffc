#!/usr/bin/env bash
# Procedure 1 at scale (seed 003, issue 13's performance target): wall time
# and peak memory of `collsim comm split` (leader, 100 colours) at N =
# 110,000 (cpm:6875,8,2, the paper's Section 8 world) and N = 262,144
# (cpm:16384,8,2), each beside the target it must beat:
#   wall time   "a few minutes on 2 cores": at most 300 s per run;
#   memory      it fits here: peak RSS at most 16 GiB (of this machine's
#               24 GiB), reported per proclet as well.
#
#   bench/comm_split.sh             (from the top of the built tree)
#
# Takes about 2 minutes.  Run it on a quiet machine.  Prints one line per
# run and one verdict per target.  Environment: COLLSIM (default
# ./collsim).  Exit status: 0 printed (whatever the verdicts); 1 a run
# failed; 2 no collsim.
set -euo pipefail
export LC_ALL=C

collsim=${COLLSIM:-./collsim}
[ -x "$collsim" ] || { echo "bench/comm_split.sh: no collsim at '$collsim' (set COLLSIM)" >&2; exit 2; }
max_wall=300
max_kib=$((16 * 1024 * 1024))

printf '%-16s %8s %10s %10s %12s %14s %9s\n' platform N wall_s peak_MiB B/proclet sim_time_s verified
met_wall=yes met_mem=yes
for shape in 6875,8,2 16384,8,2; do
  tmp=$(mktemp)
  if ! /usr/bin/time -f '%e %M' -o "$tmp.time" "$collsim" comm split --cpm "$shape" --colors 100 -q \
      --format csv --no-header > "$tmp"; then
    echo "bench/comm_split.sh: collsim comm split --cpm $shape failed" >&2
    rm -f "$tmp" "$tmp.time"
    exit 1
  fi
  read -r wall kib < "$tmp.time"
  n=$(cut -d, -f5 "$tmp")
  sim=$(awk -F, '{ print $15 }' "$tmp")
  ver=$(awk -F, '{ print $12 }' "$tmp")
  printf '%-16s %8s %10s %10.0f %12.0f %14s %9s\n' "cpm:$shape" "$n" "$wall" "$((kib / 1024))" \
    "$(awk -v k="$kib" -v n="$n" 'BEGIN { print k * 1024 / n }')" "$sim" "$ver"
  awk -v w="$wall" -v m="$max_wall" 'BEGIN { exit !(w <= m) }' || met_wall=no
  [ "$kib" -le "$max_kib" ] || met_mem=no
  rm -f "$tmp" "$tmp.time"
done
echo "target wall time <= ${max_wall} s per run: $met_wall"
echo "target peak RSS <= 16 GiB per run: $met_mem"
