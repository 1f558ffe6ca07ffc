#!/usr/bin/env bash
# Valgrind pass: a small run of each subcommand (timed where the command
# simulates) under memcheck, which sees what the sanitizer build cannot
# (SimGrid's own frees of actor stacks and receives, issue 11's
# use-after-free at the end of timed runs).  Any invalid read or write, use
# of an uninitialised value or bad free fails the pass (--error-exitcode).
# Leaks are not counted: SimGrid keeps global state until exit.  The sweep
# runs with --dry-run (its points re-exec collsim, whose child valgrind's
# launcher environment refuses); the points themselves are the other runs.
#
#   COLLSIM=./collsim tests/cli/valgrind.sh         (.ci/run runs it; default
#                                                ./collsim, tests/lib/collsim-env.sh)
# Skips (exit 0, saying so) when valgrind is not installed.
set -u
. "$(dirname "$0")/../lib/collsim-env.sh"
if ! command -v valgrind > /dev/null 2>&1; then
  echo "valgrind.sh: valgrind not found: skipped"
  exit 0
fi
# The runs are dealt round-robin to VALGRIND_JOBS copies of this script
# (default 2, the machine's cores; each run is serial and slow under
# memcheck), each with its own folder.
jobs=${VALGRIND_JOBS:-2}
if [ -z "${VALGRIND_SHARD:-}" ]; then
  pids=()
  for ((k = 0; k < jobs; k++)); do
    VALGRIND_SHARD=$k bash "$0" &
    pids+=($!)
  done
  status=0
  for pid in "${pids[@]}"; do wait "$pid" || status=1; done
  exit $status
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/valgrind.XXXXXX")
trap 'rm -rf "$work"' EXIT
cat > "$work/exp.yaml" << 'YAML'
name: vg
command: collective
parameters: {platform: "percs:2,2,1", coll: [scatter, gather], algo: binomial, block: 1KiB, timed: true}
YAML

runs=(
  "tree --algo rank-hash -n 16 -f 0.5 -q"
  "tree --algo centralized -n 16 -f 0.5 -q"
  "collective --platform percs:2,2,2 --coll scatter --algo binomial --block 1KiB --timed -q"
  "collective --platform percs:2,2,2 --coll allgather --algo ring --block 64KiB --timed --semantics mpi -q"
  "mcmc --platform percs:2,2,2 --balance async --semantics mpi -q"
  "collective --platform dragonfly:3,2,1,1,2 --coll bcast --algo two-tier --bytes 4KiB --timed -q"
  "allreduce --cluster 2x4@100 -n 8 --iterations 2 -q"
  "tree-script --from lam -n 8 --out $work/lam.yaml"
  "platform --platform torus:2x2x2/1 --out $work/p.xml"
  "sweep $work/exp.yaml -q --out $work/sweep.csv --dry-run"
  "groupmap --world 4096 --members $work/members.txt -q"
  "compare --subset $work/committed.csv $work/now.csv"
  "reproduce seed001 --help"
  "comm compare -n 16 --colors 2 -q"
  # the native engine: coroutine processes (their stacks registered with
  # valgrind) and a schedule on the per-link model
  "tree --algo rank-hash -n 16 -f 0.5 --engine native -q"
  "comm split --cpm 4,3,2 --colors 3 --engine native -q"
  "collective --platform percs:2,2,2 --coll alltoall --algo pairwise --block 1KiB --timed --engine native --model loggops-links -q"
  # a GOAL file whose graph is on disk (mapped temporary files, bigarray.c),
  # on the cut-through model
  "collective --goal-in $work/v.goal --platform torus:2x2x2/2 --timed --engine native --model loggops-cut-through -q"
)
# Issue 25 (comm create died on the first SELECT of a BWT map): comm create
# with every group-map representation, named by the binary
# (tests/cli/comm-every-map.sh --list reads `collsim groupmap --list`), on a
# group every representation holds; then BWT, the representation whose
# SELECT keeps a cache, unshared and through split and create-group (an
# unordered group).
mapfile -t maps < <(bash "$(dirname "$0")/comm-every-map.sh" --list)
if [ ${#maps[@]} = 0 ]; then
  echo "valgrind.sh: FAILED: no group-map representation listed by collsim groupmap --list" >&2
  exit 1
fi
for map in "${maps[@]}"; do
  runs+=("comm create --cpm 4,3,2 --group stride:1,3,7 --map $map -q")
done
runs+=(
  "comm create --cpm 4,3,2 --group stride:1,3,7 --map bwt --no-share -q"
  "comm split --cpm 4,3,2 --colors 3 --map bwt -q"
  "comm create-group --cpm 4,3,2 --group-size 7 --order random --map bwt -q"
)
seq 0 3 4000 > "$work/members.txt"
"$collsim" collective --platform torus:2x2x2/2 --coll allreduce --algo recursive-doubling --bytes 4KiB \
  --goal "$work/v.goal" -q > /dev/null
export COLLSIM_GOAL_ON_DISK=1
printf 'algo,n,x,wall_s\na,4,1,0.1\n"b,c",8,2,0.2\n' > "$work/committed.csv"
printf 'algo,n,x,wall_s\n"b,c",8,2,0.3\n' > "$work/now.csv"
fails=0
index=0
for r in "${runs[@]}"; do
  index=$((index + 1))
  [ $((index % jobs)) = "$VALGRIND_SHARD" ] || continue
  read -ra words <<< "$r"
  [ "${words[0]}" = groupmap ] && ! "$collsim" groupmap --help > /dev/null 2>&1 && continue
  valgrind -q --error-exitcode=99 --log-file="$work/vg.%p.log" "$collsim" "${words[@]}" > /dev/null 2> "$work/stderr"
  rc=$?
  if [ $rc = 0 ]; then
    echo "valgrind.sh: clean: collsim $r"
  else
    fails=$((fails + 1))
    echo "valgrind.sh: FAILED (exit $rc): collsim $r" >&2
    cat "$work"/vg.*.log "$work/stderr" | head -40 >&2
  fi
  rm -f "$work"/vg.*.log
done
[ $fails = 0 ] || { echo "valgrind.sh: $fails run(s) not clean" >&2; exit 1; }
