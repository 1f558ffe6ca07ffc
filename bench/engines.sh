#!/usr/bin/env bash
# The engines side by side, in one run (issue 29's targets): the same
# schedule timed by
#   native    collsim collective ... --ranks P --timed --engine native
#             (LogGOPS, LogGOPSim's defaults; no platform)
#   simgrid   collsim collective ... --platform torus:auto/4 --timed
#             --model SMPI --semantics mpi --gamma 0 (SimGrid's flow model
#             with SMPI's factors on a torus, P ranks, 4 per node: the
#             settings under which it agrees with SMPI, results/smpi/)
#   loggopsim the schedule written by collsim --goal, then LogGOPSim's
#             txt2bin and LogGOPSim (same LogGOPS parameters: its defaults);
#             its finishing time must equal the native engine's exactly
#   smpi      SimGrid SMPI 3.32 (smpirun, bench/smpi/coll.c) on the torus's
#             platform file, SMPI's own version of the algorithm
# each under nice and /usr/bin/time (wall and CPU seconds, peak RSS).  One
# line per case and tool: messages, wall s and us per message, CPU s and us
# per message, peak MiB, the simulated
# time, and the figure's target (issue 29) or what it is compared with;
# the native lines add the engine's own CPU time per message without the
# untimed pattern the run is checked against (COLLSIM_PHASE_TIMES=1), the
# figure to set beside LogGOPSim's event loop (its txt2bin apart).
# A tool is skipped where one point would take far longer than the run
# (the estimate from its measured cost per message is printed).
#
# LogGOPSim is built from its sources when LOGGOPSIM_DIR (default
# /tmp/loggopsim) has no build: `git archive` of /work/.mirror/spcl+LogGOPSim
# into a temporary folder, make (g++, re2c, gengetopt, libcgraph:
# scripts/install-deps.sh --bench installs them).
# Without smpicc/smpirun the SMPI lines say so.
#
# Usage: bench/engines.sh [OUT]   (COLLSIM: the binary, default ./collsim;
#        QUICK=1: the small cases only; TIMEOUT: seconds per tool and case,
#        default 900; REPEAT: runs of each native case in the spread at the
#        end, default 5, 3 for the alltoall).  Output: results/engines/engines-speed.txt.
set -euo pipefail
export LC_ALL=C
COLLSIM=${COLLSIM:-./collsim}
TIMEOUT=${TIMEOUT:-900}
OUT=${1:-/dev/stdout}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/smpi/platform.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# ---- the tools ----
LGS=${LOGGOPSIM_DIR:-/tmp/loggopsim}/src
build_loggopsim() {
  local mirror=/work/.mirror/spcl+LogGOPSim/repo
  [ -d "$mirror" ] || return 1
  mkdir -p "$tmp/loggopsim"
  git --git-dir="$mirror" archive HEAD | tar -x -C "$tmp/loggopsim"
  make -s -C "$tmp/loggopsim/src/LogGOPSim" CXXFLAGS='-std=c++11 -O2 -w' LDFLAGS=-lcgraph >&2 || return 1
  LGS=$tmp/loggopsim/src
}
have_lgs=true
if [[ ! -x $LGS/LogGOPSim/LogGOPSim || ! -x $LGS/LogGOPSim/txt2bin ]]; then
  build_loggopsim || { have_lgs=false; echo "engines.sh: LogGOPSim could not be built: its lines are skipped" >&2; }
fi
have_smpi=false
if command -v smpicc > /dev/null && command -v smpirun > /dev/null; then
  smpicc -O1 -o "$tmp/coll" "$here/smpi/coll.c" 2> "$tmp/smpicc.log" && have_smpi=true
fi

# ---- measuring ----
# run CMD...: nice, /usr/bin/time under TIMEOUT; sets wall, cpu (user + sys), mib, ok; stdout in $tmp/out.
run() {
  ok=true
  local user sys
  timeout "$TIMEOUT" nice /usr/bin/time -f '%e %U %S %M' -o "$tmp/time" "$@" < /dev/null > "$tmp/out" 2> "$tmp/err" ||
    ok=false
  read -r wall user sys kib < "$tmp/time" 2> /dev/null || { wall=0 user=0 sys=0 kib=0; }
  [[ $wall =~ ^[0-9.]+$ ]] || { wall=0 user=0 sys=0 kib=0 ok=false; }
  cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
  mib=$((kib / 1024))
}
# The native engine's own CPU time per message (COLLSIM_PHASE_TIMES: the
# timed run, without the untimed pattern it is checked against), from $tmp/err.
engine_alone() {
  sed -n 's/.*timed run (native engine) \([0-9.]*\).*/\1/p' "$tmp/err" |
    awk -v m="$1" '{ printf "the engine alone %.3f us", $1 * 1e6 / m }'
}
json() { sed -n "s/.*\"$1\": *\"\{0,1\}\([^,}\"]*\).*/\1/p" "$tmp/out"; }
line() { # case tool ranks messages wall mib sim note (and $cpu)
  awk -v c="$1" -v t="$2" -v p="$3" -v m="$4" -v w="$5" -v k="$6" -v s="$7" -v n="$8" -v u="$cpu" 'BEGIN {
    us = m > 0 && w > 0 ? sprintf("%9.3f", w * 1e6 / m) : "        -"
    cu = m > 0 && u > 0 ? sprintf("%8.3f", u * 1e6 / m) : "       -"
    printf "%-34s %-9s %8d %11d %9.2f s %s us %8.2f s %s us %7s MiB  %-16s %s\n", c, t, p, m, w, us, u, cu, k, s, n }'
}
skip() { # case tool ranks messages why
  printf "%-34s %-9s %8d %11d   skipped: %s\n" "$1" "$2" "$3" "$4" "$5"
}
torus_spec() { "$COLLSIM" platform --platform torus:auto/4 -n "$1" --hierarchy --format csv --no-header | head -1 | cut -d, -f1; }
smpi_algo() { # coll algo -> SMPI's algorithm
  case "$1/$2" in
    allgather/ring) echo NTSLR ;; allgather/recursive-doubling) echo rdb ;;
    barrier/dissemination) echo mvapich2_pair ;; alltoall/pairwise) echo pair ;; *) echo "" ;;
  esac
}

# ---- one case on the four tools ----
# case NAME P "COLL ALGO SIZE-ARGS" TARGET TOOLS (native simgrid loggopsim smpi: the ones to run)
case_line() {
  local name=$1 p=$2 sched=$3 target=$4 tools=$5 coll algo size msgs native_ns=
  read -r coll algo size <<< "$sched"
  # shellcheck disable=SC2086
  msgs=$("$COLLSIM" collective --coll "$coll" --algo "$algo" $size --ranks "$p" -q --format json | json_m)
  for tool in native simgrid loggopsim smpi; do
    if [[ " $tools " != *" $tool "* ]]; then
      skip "$name" "$tool" "$p" "$msgs" "$(why_not "$tool" "$msgs")"
      continue
    fi
    case $tool in
      native)
        # shellcheck disable=SC2086
        COLLSIM_PHASE_TIMES=1 run "$COLLSIM" collective --coll "$coll" --algo "$algo" $size --ranks "$p" --timed \
          --engine native -q --format json
        native_ns=$(json sim_time_ns)
        $ok && line "$name" native "$p" "$msgs" "$wall" "$mib" "$(json sim_time_s)s" "target: $target; $(engine_alone "$msgs")" ||
          skip "$name" native "$p" "$msgs" "failed or over ${TIMEOUT}s"
        per_msg[native]=$(awk -v w="$cpu" -v m="$msgs" 'BEGIN { print w / m }') ;;
      simgrid)
        local spec
        spec=$(torus_spec "$p")
        # shellcheck disable=SC2086
        run "$COLLSIM" collective --coll "$coll" --algo "$algo" $size --platform "$spec" --timed --model SMPI \
          --semantics mpi --gamma 0 -q --format json
        $ok && line "$name" simgrid "$p" "$msgs" "$wall" "$mib" "$(json sim_time_s)s" "model SMPI on $spec" ||
          skip "$name" simgrid "$p" "$msgs" "failed or over ${TIMEOUT}s"
        if $ok; then per_msg[simgrid]=$(awk -v w="$cpu" -v m="$msgs" 'BEGIN { print w / m }'); fi ;;
      loggopsim)
        $have_lgs || { skip "$name" loggopsim "$p" "$msgs" "LogGOPSim not built"; continue; }
        # shellcheck disable=SC2086
        "$COLLSIM" collective --coll "$coll" --algo "$algo" $size --ranks "$p" --goal "$tmp/s.goal" -q > /dev/null
        run "$LGS/LogGOPSim/txt2bin" -i "$tmp/s.goal" -o "$tmp/s.bin"
        local t2b=$wall
        run "$LGS/LogGOPSim/LogGOPSim" -f "$tmp/s.bin"
        local lns
        lns=$(sed -n 's/^Maximum finishing time at host [0-9]*: \([0-9]*\) .*/\1/p' "$tmp/out")
        local same="differs from native ($native_ns ns)!"
        [ "$lns" = "$native_ns" ] && same="= native's, exactly"
        $ok && line "$name" loggopsim "$p" "$msgs" "$wall" "$mib" "${lns}ns" "event loop; + txt2bin ${t2b} s; $same" ||
          skip "$name" loggopsim "$p" "$msgs" "failed or over ${TIMEOUT}s"
        rm -f "$tmp/s.goal" "$tmp/s.bin" ;;
      smpi)
        $have_smpi || { skip "$name" smpi "$p" "$msgs" "smpicc/smpirun not installed"; continue; }
        local spec salgo bytes
        spec=$(torus_spec "$p")
        salgo=$(smpi_algo "$coll" "$algo")
        bytes=$(awk '{ v = $2; if (v ~ /KiB$/) v = v * 1024; print v + 0 }' <<< "$size")
        smpi_platform "$spec" "$tmp"
        run smpirun -no-privatize -platform "$xml" -hostfile "$hosts" -np "$ranks" --cfg=smpi/"$coll":"$salgo" \
          --cfg=smpi/shared-malloc-blocksize:"$(shared_block "$ranks" "$bytes")" \
          --cfg=network/crosstraffic:0 --cfg=contexts/stack-size:16 --cfg=contexts/guard-size:0 \
          --cfg=smpi/simulate-computation:no --cfg=smpi/wtime:0 --cfg=smpi/display-timing:no \
          --log=root.thres:critical "$tmp/coll" "$coll" "$bytes"
        local ssim
        ssim=$(awk '/^rank=/ { split($3, e, "="); if (n++ == 0 || e[2] + 0 > m) m = e[2] + 0 } END { if (n) printf "%.9g", m }' "$tmp/out")
        $ok && line "$name" smpi "$p" "$msgs" "$wall" "$mib" "${ssim}s" "SMPI $salgo on $spec" ||
          skip "$name" smpi "$p" "$msgs" "failed or over ${TIMEOUT}s: $(failure)"
        if $ok; then per_msg[smpi]=$(awk -v w="$cpu" -v m="$msgs" 'BEGIN { print w / m }'); fi ;;
    esac
  done
  return 0 # a tool that failed has its line; the run goes on
}
failure() { # the last line of the failed tool's stderr, or its time-out
  local last
  last=$(grep -v '^ *$' "$tmp/err" 2> /dev/null | tail -1 | cut -c1-120)
  echo "${last:-no message (timed out?)}"
}
# SMPI_SHARED_MALLOC maps its 1 MiB file block once per MiB of a buffer: with 16,384 ranks each
# holding a 16 MiB receive buffer that is over the kernel's 65,530 mappings (vm.max_map_count)
# and SMPI aborts ("Could not map folded virtual memory").  A block as large as a rank's largest
# buffer (p x bytes, a power of two, at least 1 MiB) maps each buffer once.
shared_block() { # ranks bytes
  awk -v p="$1" -v b="$2" 'BEGIN { need = p * b; s = 1048576; while (s < need) s *= 2; printf "%d", s }'
}
json_m() { sed -n 's/.*"messages": *\([0-9]*\).*/\1/p'; }
declare -A per_msg
why_not() { # tool messages: an estimate from the tool's cost per message measured earlier in this run
  local est=
  [ -n "${per_msg[$1]:-}" ] && est=$(awk -v u="${per_msg[$1]}" -v m="$2" 'BEGIN { printf "; at this run'"'"'s %.1f us of CPU per message: about %.1f h", u * 1e6, u * m / 3600 }')
  case $1 in
    native) echo "not run" ;;
    simgrid) echo "one SimGrid actor per rank, too long or too large here$est" ;;
    loggopsim) echo "its GOAL text and txt2bin (250-500 us per rank) are too large here" ;;
    smpi) echo "too long here$est" ;;
  esac
}

# spread NAME P "COLL ALGO SIZE-ARGS" TARGET N: the native engine's wall time per message over
# N runs of the case (least, median, largest): on this shared machine one run's wall time
# moves with the load and with the kernel's huge pages (a run that waits for the kernel to
# compact memory into huge pages spent 2.9 s of its 7.9 s in the kernel, the next 0.3 s).
spread() {
  local name=$1 p=$2 sched=$3 target=$4 n=$5 coll algo size msgs walls=()
  read -r coll algo size <<< "$sched"
  # shellcheck disable=SC2086
  msgs=$("$COLLSIM" collective --coll "$coll" --algo "$algo" $size --ranks "$p" -q --format json | json_m)
  for ((i = 0; i < n; i++)); do
    # shellcheck disable=SC2086
    run "$COLLSIM" collective --coll "$coll" --algo "$algo" $size --ranks "$p" --timed --engine native -q --format json
    $ok || { skip "$name" native "$p" "$msgs" "failed or over ${TIMEOUT}s"; return; }
    walls+=("$wall")
  done
  printf '%s\n' "${walls[@]}" | sort -g | awk -v c="$name" -v p="$p" -v m="$msgs" -v n="$n" -v t="$target" '
    { w[NR] = $1 } END {
      med = n % 2 ? w[(n + 1) / 2] : (w[n / 2] + w[n / 2 + 1]) / 2
      printf "%-34s %-9s %8d %11d   %d runs, wall per message: least %.3f us, median %.3f us, largest %.3f us   target: %s\n",
        c, "native", p, m, n, w[1] * 1e6 / m, med * 1e6 / m, w[n] * 1e6 / m, t }'
}

{
  echo "# bench/engines.sh: $(date -u +%Y-%m-%d), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), load $(cut -d' ' -f1 /proc/loadavg) before"
  echo "# wall time (/usr/bin/time %e) of the whole command, niced, and its CPU time (user + sys: the machine is shared, so"
  echo "# wall time depends on its load); us = time / messages; peak RSS; LogGOPS = LogGOPSim's defaults"
  printf "%-34s %-9s %8s %11s %11s %12s %10s %11s %11s  %-16s %s\n" case tool ranks messages wall per-message cpu \
    per-message peak sim-time "target / compared with"
  start=$(date +%s)
  case_line "allgather ring 1 KiB" 1024 "allgather ring --block 1KiB" "<= 2 s" "native simgrid loggopsim smpi"
  case_line "allgather recursive-doubling 1 KiB" 16384 "allgather recursive-doubling --block 1KiB" \
    "<= 0.3 us/msg" "native simgrid loggopsim smpi"
  if [ "${QUICK:-0}" != 1 ]; then
    case_line "barrier dissemination" 1048576 "barrier dissemination" "<= 0.3 us/msg" "native"
    case_line "alltoall pairwise 8 B" 16384 "alltoall pairwise --block 8" "<= 180 s, <= 0.3 us/msg" "native"
    # a GOAL file of 1,048,576 ranks, streamed, on the native engine
    "$COLLSIM" collective --coll bcast --algo binomial --bytes 1KiB --ranks 1048576 --goal "$tmp/big.goal" -q > /dev/null
    run "$COLLSIM" collective --goal-in "$tmp/big.goal" --timed --engine native -q --format json
    $ok && line "GOAL in: bcast binomial ($(du -m "$tmp/big.goal" | cut -f1) MB)" native 1048576 "$(json messages)" \
      "$wall" "$mib" "$(json sim_time_s)s" "target: <= 4096 MiB" ||
      skip "GOAL in: bcast binomial" native 1048576 0 "failed or over ${TIMEOUT}s"
    rm -f "$tmp/big.goal"
    echo "# the spread of the native engine's wall time per message over several runs (REPEAT, default 5; 3 for alltoall)"
    spread "allgather recursive-doubling 1 KiB" 16384 "allgather recursive-doubling --block 1KiB" "<= 0.3 us/msg" \
      "${REPEAT:-5}"
    spread "barrier dissemination" 1048576 "barrier dissemination" "<= 0.3 us/msg" "${REPEAT:-5}"
    spread "alltoall pairwise 8 B" 16384 "alltoall pairwise --block 8" "<= 0.3 us/msg" "${REPEAT:-3}"
  fi
  echo "# $(($(date +%s) - start)) s of wall time; load $(cut -d' ' -f1 /proc/loadavg) after"
} > "$OUT"
