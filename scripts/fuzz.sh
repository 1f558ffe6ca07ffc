#!/usr/bin/env bash
# Runs every libFuzzer harness of tests/fuzz/ (the parsers of experiment
# files, tree scripts, members files, platform specs, platform XML files,
# sizes and CSV; see tests/fuzz/README) for a bounded time each, two at a time.
#
#   scripts/fuzz.sh [SECONDS]       SECONDS per harness (default 60; CI: 10)
#
# Builds the harnesses first (tests/fuzz/build.sh; without clang it says so
# and exits 0).  Each harness runs on a copy of its committed corpus
# (tests/fuzz/corpus/HARNESS) in a temporary folder, so the corpus in the
# repository never changes; -max_len is set per harness.  Prints per
# harness the executions, the executions per second, the corpus growth and
# the result: ok (noting an input that took 5 s or more), or a failure (a
# crash, a leak, a timeout: one input running 20 s, 60 s for experiments, or
# running out of memory), whose input is kept in the build folder as
# HARNESS-crash-SHA1 (-leak-, -timeout-, -oom-), with the harness's output in
# HARNESS.log beside it.
# Exit status 0 when every harness ran clean, 1 otherwise.
#
# Environment: FUZZ_BUILD (build folder, default tests/fuzz/build),
# FUZZ_HARNESSES (a subset, e.g. "fuzz_units fuzz_rank_list"), FUZZ_AT_ONCE
# (harnesses run at once, default 2), and those of
# tests/fuzz/build.sh (FUZZ_CC, FUZZ_JOBS).
set -uo pipefail

secs=${1:-60}
case $secs in
  '' | *[!0-9]* | 0) echo "usage: scripts/fuzz.sh [SECONDS]   (a whole number of seconds >= 1)" >&2; exit 2 ;;
esac

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${FUZZ_BUILD:-$top/tests/fuzz/build}
harnesses=${FUZZ_HARNESSES:-fuzz_experiment fuzz_tree_script fuzz_rank_list fuzz_platform_spec fuzz_platform_xml fuzz_units fuzz_csv}

# Longest input tried: the largest seed with room to grow, no more (long
# inputs only slow the search down).
max_len() {
  case $1 in
    fuzz_experiment | fuzz_tree_script | fuzz_platform_xml) echo 4096 ;;
    fuzz_rank_list) echo 1024 ;;
    fuzz_platform_spec) echo 128 ;;
    fuzz_units) echo 64 ;;
    *) echo 4096 ;;
  esac
}
# An experiment may legitimately expand to a million points (sim/sweep/
# experiment.c's MAX_POINTS): seconds and about 1 GB under ASan.
limits() {
  case $1 in
    fuzz_experiment) echo "-timeout=60 -rss_limit_mb=4096" ;;
    *) echo "-timeout=20 -rss_limit_mb=2048" ;;
  esac
}

bash "$top/tests/fuzz/build.sh" "$build" || { echo "scripts/fuzz.sh: building the harnesses failed" >&2; exit 1; }
missing=0 count=0
for h in $harnesses; do
  count=$((count + 1))
  [ -x "$build/$h" ] || missing=$((missing + 1))
done
if [ "$missing" -gt 0 ]; then
  if ! command -v "${FUZZ_CC:-clang}" >/dev/null 2>&1 || [ "$missing" -eq "$count" ]; then
    echo "scripts/fuzz.sh: the harnesses were not built (see above): nothing fuzzed"
    exit 0
  fi
  echo "scripts/fuzz.sh: $missing harness(es) missing from $build" >&2
  exit 1
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/collsim-fuzz.XXXXXX")
trap 'rm -rf "$work"' EXIT

# The inputs a harness's failures left in the build folder, one a line.
artifacts() {
  local f
  for f in "$build/$1"-crash-* "$build/$1"-leak-* "$build/$1"-timeout-* "$build/$1"-oom-*; do
    [ -e "$f" ] && echo "$f"
  done | sort
}

# The value of a libFuzzer final statistic in a log, or "?".
stat() {
  local v
  v=$(sed -n "s/^stat::$2: *//p" "$1" | tail -n 1)
  echo "${v:-?}"
}

# One harness: its row of the table into $work/$h.row, and $work/$h.failed
# when it found something.
fuzz_one() {
  local h=$1 corpus seeds log before rc after new grown result slowest kind
  corpus="$top/tests/fuzz/corpus/$h"
  mkdir -p "$work/$h"
  [ -d "$corpus" ] && cp -R "$corpus/." "$work/$h/"
  seeds=$(find "$work/$h" -type f | wc -l)
  log="$build/$h.log"
  before=$(artifacts "$h")
  # shellcheck disable=SC2046
  (cd "$work" && "$build/$h" -max_total_time="$secs" -max_len="$(max_len "$h")" $(limits "$h") \
    -print_final_stats=1 -artifact_prefix="$build/$h-" "$work/$h" >"$log" 2>&1)
  rc=$?
  after=$(artifacts "$h")
  new=$(comm -13 <(echo "$before") <(echo "$after") | grep . | tr '\n' ' ')
  grown=$(find "$work/$h" -type f | wc -l)
  if [ "$rc" -eq 0 ] && [ -z "$new" ]; then
    result=ok
    slowest=$(stat "$log" slowest_unit_time_sec)
    case $slowest in
      [0-4]) ;;
      *) result="ok (slowest input: $slowest s)" ;;
    esac
  else
    touch "$work/$h.failed"
    kind=failed
    case $new in
      *-crash-*) kind=CRASH ;; *-leak-*) kind=LEAK ;; *-timeout-*) kind=TIMEOUT ;; *-oom-*) kind=OOM ;;
    esac
    result="$kind (exit $rc): ${new:-no input saved} log $log"
  fi
  printf '%-20s %12s %10s %12s  %s\n' "$h" "$(stat "$log" number_of_executed_units)" \
    "$(stat "$log" average_exec_per_sec)" "$seeds->$grown" "$result" > "$work/$h.row"
}

# FUZZ_AT_ONCE harnesses at once (default 2: each fuzzer is one process on one
# core); the table in the harnesses' order.
jobs=${FUZZ_AT_ONCE:-2}
running=0
for h in $harnesses; do
  fuzz_one "$h" &
  running=$((running + 1))
  if [ "$running" -ge "$jobs" ]; then
    wait -n
    running=$((running - 1))
  fi
done
wait
failed=0
printf '%-20s %12s %10s %12s  %s\n' harness executions exec/s corpus result
for h in $harnesses; do
  cat "$work/$h.row"
  [ -e "$work/$h.failed" ] && failed=1
done
exit "$failed"
