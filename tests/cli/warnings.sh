#!/usr/bin/env bash
# Warnings are never silenced by --quiet (issue 32): quiet silences progress.
#  - a timed run estimated to take longer than CS_RUN_WARN_SECONDS
#    (sim/contracts/run_cost.h) says so before it starts, with --quiet too
#    (the run is stopped once the warning is out);
#  - a short timed run with --quiet prints nothing on stderr.
#   COLLSIM=./collsim tests/cli/warnings.sh    (make check sets COLLSIM)
set -u
COLLSIM=${COLLSIM:-./collsim}
. "$(dirname "$0")/../lib/collsim-env.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

# 268 M messages on 16,384 processes: hours.  Wait for the line, then stop it.
"$COLLSIM" collective --platform percs:64,16,16 --coll bcast --algo vandegeijn --bytes 8 --timed --quiet \
  > /dev/null 2> "$tmp/long.err" &
pid=$!
for _ in $(seq 600); do
  grep -q "warning" "$tmp/long.err" && break
  kill -0 "$pid" 2> /dev/null || break
  sleep 0.1
done
kill "$pid" 2> /dev/null
wait "$pid" 2> /dev/null
grep -q "^collsim: warning: this timed run (16384 processes, 268435455 messages) is estimated to take about" \
  "$tmp/long.err" || bad "no long-run warning under --quiet: $(head -c 300 "$tmp/long.err")"

"$COLLSIM" collective --platform percs:2,2,2 --coll bcast --algo vandegeijn --bytes 8 --timed --quiet \
  > /dev/null 2> "$tmp/short.err" || bad "short timed run failed"
without_asan_notice < "$tmp/short.err" > "$tmp/short.clean" # the sanitizer build's notice is not collsim's
[ -s "$tmp/short.clean" ] && bad "a short --quiet run wrote to stderr: $(head -c 300 "$tmp/short.clean")"

[ $fail = 0 ] && echo "PASS: warnings print under --quiet, progress does not"
exit $fail
