#!/usr/bin/env bash
# The native LogGOPS engine's speed beside issue 29's targets: wall time
# per message of a whole `collsim collective --timed --engine native` run
# (schedule setup, the untimed pattern it is checked against, the timed
# run, the node-pair check), and peak memory.  One line per case:
#   case, ranks, messages, wall s, us/message, peak MiB, target
# Usage: bench/engines.sh   (COLLSIM: the binary, default ./collsim; FULL=1 adds ring allgather on 16,384 ranks)
set -euo pipefail
COLLSIM=${COLLSIM:-./collsim}
run() { # name target args...
  local name=$1 target=$2 out
  shift 2
  out=$( { /usr/bin/time -f "TIME %e %M" "$COLLSIM" collective "$@" --timed --engine native -q --format json; } 2>&1)
  local msgs=0 wall kib
  [[ $out =~ \"messages\":\ ([0-9]+) ]] && msgs=${BASH_REMATCH[1]}
  read -r wall kib < <(sed -n 's/^TIME //p' <<<"$out")
  awk -v n="$name" -v m="$msgs" -v w="$wall" -v k="$kib" -v t="$target" -v p="$RANKS" \
    'BEGIN { printf "%-34s %8d %11d %8.2f s %7.3f us/msg %7.0f MiB   target: %s\n", n, p, m, w, w * 1e6 / m, k / 1024, t }'
}
echo "case                                  ranks    messages     wall      per message      peak   (issue 29)"
RANKS=1024 run "allgather ring" "<= 2 s" --coll allgather --algo ring --block 1KiB --ranks 1024
RANKS=16384 run "allgather recursive-doubling" "<= 0.3 us/msg" --coll allgather --algo recursive-doubling --block 1KiB --ranks 16384
RANKS=65536 run "allgather recursive-doubling" "<= 0.3 us/msg" --coll allgather --algo recursive-doubling --block 1KiB --ranks 65536
RANKS=2048 run "bcast vandegeijn (p^2 messages)" "<= 0.3 us/msg" --coll bcast --algo vandegeijn --bytes 16MiB --ranks 2048
if [ "${FULL:-0}" = 1 ]; then
  RANKS=16384 run "allgather ring (268 M messages)" "<= 0.3 us/msg" --coll allgather --algo ring --block 1KiB --ranks 16384
fi
