#!/usr/bin/env bash
# Bad input, every option of every subcommand (each comm operation on its
# own): each option that takes a value (read from `collsim CMD --help`) is
# given non-finite, negative, zero, overflowing, empty and malformed values,
# and every option that names a file (inputs and every output option) is
# given a device, a folder, a path under a missing folder and a path under a
# regular file (an option table read by several subcommands gets them all
# in one, see "Every value of an option" below).  A refusal is exit 2 with
# exactly one line on stderr, no output file left behind and no temporary
# file left behind.  Every value but 0 (and, for a file, a path under a
# missing folder, which an output may make) must be refused: exit 0 on
# those fails the test.  Any other exit (1,
# a crash, a hang past 60 s) fails the test whatever the case.  Flags given a
# value, unknown options, extra arguments, unknown subcommands, malformed
# files and the combinations issue 25 listed (two outputs on one file,
# options that have no effect, ...) must be refused the same way.
#
#   COLLSIM=./collsim tests/cli/bad-input.sh        (make check sets COLLSIM;
#                                                default ./collsim, see
#                                                tests/lib/collsim-env.sh)
set -u
. "$(dirname "$0")/../lib/collsim-env.sh"

# The runs are dealt round-robin to BAD_INPUT_JOBS copies of this script
# (default 2, the machine's cores), each with its own folders.
jobs=${BAD_INPUT_JOBS:-2}
if [ -z "${BAD_INPUT_SHARD:-}" ]; then
  pids=()
  for ((k = 0; k < jobs; k++)); do
    BAD_INPUT_SHARD=$k bash "$0" &
    pids+=($!)
  done
  status=0
  for pid in "${pids[@]}"; do wait "$pid" || status=1; done
  exit $status
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/bad-input.XXXXXX")
export TMPDIR=$work/tmp # collsim's own temporary folders land here, to be counted
mkdir -p "$TMPDIR"
trap 'rm -rf "$work"' EXIT

cat > "$work/exp.yaml" << 'EOF'
name: tiny
command: collective
parameters: {platform: "percs:2,2,1", coll: scatter, algo: binomial, block: 1KiB}
EOF
printf '0 3 5 7 11 13\n' > "$work/members.txt"
printf 'n,x\n1,2\n' > "$work/rows.csv"
out=$work/out/result.txt
mkdir -p "$work/out"

# Base command lines: small and fast; --out is where a result would go.
declare -A base=(
  [tree]="tree --algo rank-hash -n 16 -f 0.5 -q --out $out"
  [collective]="collective --platform percs:2,2,2 --coll scatter --algo binomial --block 1KiB -q --out $out"
  [allreduce]="allreduce --cluster 2x2@100 -n 4 --iterations 2 -q --out $out"
  [tree-script]="tree-script --from lam -n 4 --out $out"
  [platform]="platform --platform torus:2x2x2/1 --out $out"
  [sweep]="sweep $work/exp.yaml -q --out $out"
  [demo]="demo -n 16 -q"
  [groupmap]="groupmap --world 64 --members $work/members.txt --no-times --samples 10 -q --out $out"
  [compare]="compare $work/rows.csv $work/rows.csv"
  [comm-create-group]="comm create-group -n 16 --group-size 4 -q --out $out"
  [comm-create]="comm create --cpm 2,2,2 --group-size 4 -q --out $out"
  [comm-split]="comm split --cpm 2,2,1 --colors 2 -q --out $out"
  [comm-ids]="comm ids --cpm 2,2,1 --split 2 -q --out $out"
  [comm-space]="comm space --cpm 2,2,1 -q --out $out"
  [comm-bench]="comm bench --set C1 -q --out $out"
  [comm-compare]="comm compare -n 16 --colors 2 -q --out $out"
  [mcmc]="mcmc --platform torus:2x2x2/2 -n 16 --balance none -q --out $out"
  [reproduce]="reproduce --list"
)
numbers=(nan inf -1 0 1e999 99999999999999999999 "" abc " 3")
paths=(/dev/null / "$work/missing/x" /etc/hostname/x "")

fails=0 runs=0
fail() {
  fails=$((fails + 1))
  [ $fails -le 30 ] && printf 'bad-input: %s\n' "$*" >&2
}

# Runs collsim with the given words; checks the rules above (with
# must_refuse=1, exit 0 breaks them too).
case_index=0
must_refuse=0
expect_option=0
# The entries of folder $1 (not recursive: a folder counts as one), in the
# array `entries`, without starting a process (thousands of runs).
entries_of() {
  shopt -s nullglob dotglob
  entries=("$1"/*)
  shopt -u nullglob dotglob
}
check() {
  case_index=$((case_index + 1))
  [ $((case_index % jobs)) = "$BAD_INPUT_SHARD" ] || return 0
  local -a entries
  entries_of "$work/out"
  local out_count=${#entries[@]}
  entries_of "$TMPDIR"
  [ "$out_count" = 0 ] && [ ${#entries[@]} = 0 ] || find "$work/out" "$TMPDIR" -mindepth 1 -delete
  [ -e "$work/missing" ] && rm -rf "$work/missing" # a folder a run made there (--plan): not the next run's
  local err=$work/stderr rc
  runs=$((runs + 1))
  timeout 60 "$collsim" "$@" > /dev/null 2> "$err"
  rc=$?
  if [ $rc = 0 ]; then
    [ "$must_refuse" = 1 ] && fail "accepted (expected exit 2): collsim $*"
    return
  fi
  local lines leftover temp text='' newlines
  IFS= read -r -d '' text < "$err" # the whole of stderr
  newlines=${text//[!$'\n']/}
  lines=${#newlines} # as wc -l counts
  entries_of "$work/out"
  leftover=${entries[*]:0:3}
  entries_of "$TMPDIR"
  temp=${entries[*]:0:3}
  if [ $rc = 1 ] && [ "$expect_option" = 1 ] && [[ $text == *"expectation failed"* ]]; then
    return # --expect-messages 0: a formula the run does not meet, exit 1 by design (sim/cli/expect.h)
  elif [ $rc != 2 ]; then
    fail "exit $rc (expected 0 or 2): collsim $* :: $(head -c 300 "$err" | tr '\n' '|')"
  elif [ "$lines" != 1 ]; then
    fail "$lines lines on stderr (expected 1): collsim $* :: $(head -c 300 "$err" | tr '\n' '|')"
  elif [ -n "$leftover" ]; then
    fail "left $leftover: collsim $*"
  elif [ -n "$temp" ]; then
    fail "left temporary $temp: collsim $*"
  fi
}

# The options of a subcommand that take a value: "name metavar" per line.
options_of() {
  "$collsim" "$1" --help 2> /dev/null | sed -n 's/^ *\(-[a-zA-Z], \)\{0,1\}--\([a-z0-9-]*\)=\([A-Z:_]*\).*/\2 \3/p'
}
flags_of() {
  "$collsim" "$1" --help 2> /dev/null | sed -n 's/^ *\(-[a-zA-Z], \)\{0,1\}--\([a-z0-9-]*\)  .*/\2/p' | grep -v '^help$'
}

# The base words with option --name set to value (replaced if the base has it).
with_option() {
  local cmd=$1 name=$2 value=$3
  local -a words
  read -ra words <<< "${base[$cmd]}"
  local -a outw=()
  local i=0 replaced=0
  while [ $i -lt ${#words[@]} ]; do
    local w=${words[$i]}
    if [ "$w" = "--$name" ] || { [ ${#name} = 1 ] && [ "$w" = "-$name" ]; }; then
      outw+=("--$name=$value")
      i=$((i + 2))
      replaced=1
      continue
    fi
    outw+=("$w")
    i=$((i + 1))
  done
  [ $replaced = 1 ] || outw+=("--$name=$value")
  printf '%s\0' "${outw[@]}"
}

# May the value be accepted?  0 may be a valid number; a path under a
# missing folder is a valid output (its folders are made).
may_accept() { [ "$1" = 0 ] || [ "$1" = "$work/missing/x" ]; }

# Every value of an option is read by the same code wherever it is given:
# the common options (output, engine, platform, seed, trace: those tree,
# mcmc and allreduce all take) are one table of sim/cli/frontend.c, and
# comm's options one table for its six operations, each with its bounds.
# So the common options get every bad value in tree and comm create-group,
# and a malformed, an empty and a non-finite one in the other subcommands
# and comm operations; comm's own options get every bad value in comm
# create-group and those three plus 0 (which an operation may run with) in
# the other operations; every other option gets every value.
common=$(comm -12 <(options_of tree | cut -d' ' -f1 | sort) <(options_of mcmc | cut -d' ' -f1 | sort) |
  comm -12 - <(options_of allreduce | cut -d' ' -f1 | sort))
few_numbers=(abc "" nan)
few_paths=(/ "")
few_comm_numbers=(abc "" nan 0)

# Whether the next check() is this copy's (then it builds the words).
mine_next() { [ $(((case_index + 1) % jobs)) = "$BAD_INPUT_SHARD" ]; }

for key in "${!base[@]}"; do
  cmd=${key%%-*}
  [ "$key" = tree-script ] && cmd=tree-script
  while read -r name meta; do
    [ -n "$name" ] || continue
    case $meta in
      FILE | FILE.png | DIR) values=("${paths[@]}") ;;
      *) values=("${numbers[@]}") ;;
    esac
    if [ "$key" != tree ] && [ "$key" != comm-create-group ] && grep -qx "$name" <<< "$common"; then
      case $meta in
        FILE | FILE.png | DIR) values=("${few_paths[@]}") ;;
        *) values=("${few_numbers[@]}") ;;
      esac
    elif [ "$cmd" = comm ] && [ "$key" != comm-create-group ]; then
      case $meta in
        FILE | FILE.png | DIR) values=("${few_paths[@]}") ;;
        *) values=("${few_comm_numbers[@]}") ;;
      esac
    fi
    expect_option=0
    case $name in expect-*) expect_option=1 ;; esac
    for v in "${values[@]}"; do
      if may_accept "$v"; then
        [ "$key" = comm-bench ] && continue # a run of its own (16 s): the refusals are what is tested here
        must_refuse=0
      else
        must_refuse=1
      fi
      if mine_next; then
        mapfile -d '' -t words < <(with_option "$key" "$name" "$v")
        check "${words[@]}"
      else
        case_index=$((case_index + 1))
      fi
    done
  done < <(options_of "$cmd")
  expect_option=0
  must_refuse=1
  while read -r flag; do
    [ -n "$flag" ] || continue
    if mine_next; then
      mapfile -d '' -t words < <(with_option "$key" "$flag" "x")
      check "${words[@]}"
    else
      case_index=$((case_index + 1))
    fi
  done < <(flags_of "$cmd")
  read -ra words <<< "${base[$key]}"
  check "${words[@]}" --no-such-option
  check "${words[@]}" unexpected-argument
  must_refuse=0
done
must_refuse=1
check no-such-command
check
check reproduce no-such-target
check sweep "$work/missing.yaml" --out "$out"
cp "$work/exp.yaml" "$work/exp-as-out.yaml"
check sweep "$work/exp-as-out.yaml" -q --out "$work/exp-as-out.yaml" # the experiment is the output

# a repeated single-valued option, in every subcommand: refused
must_refuse=1
check tree --algo rank-hash -n 16 -n 32 -q
check tree --algo rank-hash -n 16 --seed 1 --seed=2 -q
check collective --platform percs:2,2,2 --coll scatter --coll gather --algo binomial --block 1KiB -q
check allreduce --cluster 2x2@100 -n 4 -n 8 --iterations 2 -q
check tree-script --from lam --from linear -n 4
check platform --platform torus:2x2x2/1 --platform torus:2x2x2/2
check sweep "$work/exp.yaml" -q --out "$out" --jobs 1 --jobs 2
check demo -n 16 -n 32 -q
check groupmap --world 64 --world 128 --members "$work/members.txt" -q
check comm split --cpm 2,2,1 --cpm 2,2,2 -q
check mcmc -n 8 -n 16 -q
check reproduce seed000 seed001
check tree --algo rank-hash -n 16 -q --out "$out" --out "$out.2"
# an unreadable, an empty and a malformed input file
: > "$work/empty.yaml"
printf 'name: [unclosed\n' > "$work/bad.yaml"
check sweep "$work/empty.yaml" --out "$out"
check sweep "$work/bad.yaml" --out "$out"
check allreduce --cluster 2x2@100 -n 4 --trees "$work/bad.yaml" -q
check tree --algo rank-hash -n 16 --members "$work/bad.yaml" -q
check tree --algo rank-hash -n 16 --platform "$work/bad.yaml" -q
check groupmap --world 64 --members "$work/bad.yaml" -q
check groupmap --world 64 --members "$work/empty.yaml" -q

# Issue 25's cases, each accepted (exit 0) before it was mended.
# Words after the command that take no value, help with nonsense after it:
check tree --algo rank-hash -n 16 -f 0.5 --quiet=x
check tree --algo rank-hash -n 16 -f 0.5 -q --with-config=no
check tree --algo rank-hash -n 16 -f 0.5 -q --no-verify=1
check --version --bogus
check help nosuch
check --help --bogus
check tree --help-all --bogus
check tree --help --bogus
# two outputs on one file, an output on an input:
check tree --algo rank-hash -n 16 -f 0.5 -q --out "$work/out/x.json" --trace "$work/out/x.json"
check collective --platform percs:2,2,2 --coll scatter --algo binomial --block 1KiB -q --links \
  --per-link "$work/out/p.csv" --out "$work/out/p.csv"
check tree --algo rank-hash -n 16 -f 0.5 -q --timeline "$work/out/x.png" --trace "$work/out/x.png"
check allreduce --cluster 2x2@100 -n 4 --iterations 2 -q --write-script "$work/out/s.yaml" \
  --out "$work/out/../out/s.yaml"
cp "$work/members.txt" "$work/members-as-out.txt" # outside out/, which check() empties first
check groupmap --world 64 --members "$work/members-as-out.txt" --no-times -q --out "$work/members-as-out.txt"
# options that have no effect where they are given:
check comm split --cpm 2,2,1 --group range:0,3 -q
check comm split --cpm 2,2,1 --until-exhausted -q
check comm create --cpm 2,2,2 --group-size 4 --colors 2 -q
check comm create-group -n 16 --group-size 4 --lid-bits 5 -q
check comm space --cpm 2,2,1 --colors 99 -q
check comm space --cpm 2,2,1 --platform torus:2x2x2/1 -q
check comm ids --cpm 2,2,1 --split 2 --model CM02 -q
# issue 31: comm compare's schemes and keys
check comm compare -n 16 --key reverse --impl mpich,comm-split -q
check comm compare -n 16 --key random --impl rank-hash-split -q
check comm compare -n 16 --impl no-such-scheme -q
check comm compare -n 16 --impl mpich,mpich -q
check comm compare -n 16 --impl "" -q
check comm compare -n 16 --repeat 2 -q
check comm compare -n 16 --group range:0,3 -q
check mcmc --platform torus:2x2x2/2 -n 16 --balance none --interval 4 -q
check mcmc --platform torus:2x2x2/2 -n 16 --balance none --rebuild direct -q
check mcmc --platform torus:2x2x2/2 -n 16 --balance none --fail-at 1 -q
check mcmc --platform torus:2x2x2/2 -n 16 --balance async --fail-rank 3 -q
check tree --algo rank-hash -n 16 -f 0.5 --members "$work/members.txt" -q
check collective --platform percs:2,2,2 --coll scatter --algo binomial --block 1KiB --model CM02 -q
check groupmap --world 64 --members "$work/members.txt" --samples 10 --no-times -q
# found only after the whole run, before:
check tree --algo rank-hash -n 300 -f 0.5 -q --timeline "$work/out/t.png"
check reproduce seed004 --resume --out "$work/out/missing"
# units and list elements:
check tree --algo rank-hash -n 16 -f 0.5 -q --link-lat 1e10
check tree --algo rank-hash -n 16 -f 0.5 -q --cfg contexts/stack-size:-5
check groupmap --world 64 --members "$work/members.txt" --no-times -q --reps ,
printf '0,,1\n' > "$work/double-comma.txt"
check groupmap --world 64 --members "$work/double-comma.txt" --no-times -q
must_refuse=0

if [ $fails -gt 0 ]; then
  printf 'bad-input (part %d of %d): %d of %d runs broke the rules\n' $((BAD_INPUT_SHARD + 1)) "$jobs" "$fails" "$runs" >&2
  exit 1
fi
printf 'bad-input (part %d of %d): %d runs, every one refused with one line and nothing left behind (or accepted)\n' $((BAD_INPUT_SHARD + 1)) "$jobs" "$runs"
