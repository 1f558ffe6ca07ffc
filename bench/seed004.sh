#!/usr/bin/env bash
# Seed 004's performance targets (issue 14): wall time of the largest
# Figure 1 points on 8,192 ranks (torus:8x16x16/4, g = 8,192, each method)
# beside "under a minute", and, with --mcmc, of one MCMC run per mode on
# 8,192 processes beside "a few minutes" (read as 300 s).
#
#   bench/seed004.sh            Figure 1 points (about 2 minutes)
#   bench/seed004.sh --mcmc     also the MCMC modes, collective at i = 16 and
#                               at i = 1, its slowest (about 10 minutes)
#
# Prints one line per run (wall seconds, peak RSS, simulated time, the
# target) and one verdict per target.  Run it on a quiet machine.
# Environment: COLLSIM (default ./collsim).  Exit status: 0 printed
# (whatever the verdicts); 1 a run failed; 2 bad arguments or no collsim.
set -euo pipefail
export LC_ALL=C

collsim=${COLLSIM:-./collsim}
[ -x "$collsim" ] || { echo "bench/seed004.sh: no collsim at '$collsim' (set COLLSIM)" >&2; exit 2; }
mcmc=0
case "${1:-}" in
  "") ;;
  --mcmc) mcmc=1 ;;
  *) echo "bench/seed004.sh: unknown argument '$1' (--mcmc or nothing)" >&2; exit 2 ;;
esac

printf '%-58s %8s %9s %13s %s\n' run wall_s peak_MiB sim_time_s target
fails=0
# run TARGET_S LABEL ARGS...: one timed run, its line, and the verdict count
run() {
  local target=$1 label=$2
  shift 2
  local tmp
  tmp=$(mktemp)
  if ! /usr/bin/time -f '%e %M' -o "$tmp.time" "$collsim" "$@" --format json -q > "$tmp"; then
    echo "bench/seed004.sh: collsim $* failed" >&2
    rm -f "$tmp" "$tmp.time"
    exit 1
  fi
  read -r wall kib < "$tmp.time"
  local sim
  sim=$(sed -n 's/.*"sim_time_s": \([0-9.e+-]*\).*/\1/p' "$tmp")
  local verdict="<= ${target} s: met"
  if awk -v w="$wall" -v t="$target" 'BEGIN { exit !(w > t) }'; then
    verdict="<= ${target} s: NOT met"
    fails=$((fails + 1))
  fi
  printf '%-58s %8.1f %9.0f %13s %s\n' "$label" "$wall" "$((kib / 1024))" "$sim" "$verdict"
  rm -f "$tmp" "$tmp.time"
}

fig1=(--platform torus:8x16x16/4 -n 8192 --group-size 8192)
run 60 "comm create-group --impl intercomm, g = 8192" comm create-group --impl intercomm "${fig1[@]}"
run 60 "comm create-group --impl direct, g = 8192" comm create-group --impl direct "${fig1[@]}"
run 60 "comm create --impl mpich, g = 8192" comm create --impl mpich "${fig1[@]}"
if [ "$mcmc" = 1 ]; then
  run 300 "mcmc -n 8192 --balance none" mcmc -n 8192 --balance none
  run 300 "mcmc -n 8192 --balance async" mcmc -n 8192 --balance async
  run 300 "mcmc -n 8192 --balance collective --interval 16" mcmc -n 8192 --balance collective --interval 16
  run 300 "mcmc -n 8192 --balance collective --interval 1" mcmc -n 8192 --balance collective --interval 1
fi
echo "runs beyond their target: $fails"
