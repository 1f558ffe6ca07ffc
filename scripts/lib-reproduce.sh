# shellcheck shell=bash
# Sourced by every scripts/reproduce-TARGET.sh: what `collsim reproduce`
# passes them, the steps and their progress lines, and the pieces every
# target uses (a resumable sweep, a quick experiment cut from a full one,
# the .cmd file beside each CSV).
#
# Environment (set by `collsim reproduce`, sim/cli/reproduce.c):
#   COLLSIM          the collsim binary (required)
#   COLLSIM_SRCDIR   the source folder (default: this script's folder's parent)
#   OUT              the folder everything is written into (required, absolute);
#                    nothing is ever written elsewhere
#   QUICK=1          the target's quick subset (the steps it adds with `quick`)
#   RESUME=1         skip the steps whose final file exists in OUT; a sweep
#                    cut short resumes from its working copy OUT/.NAME.csv
#   QUIET=1          no progress lines (warnings still go to stderr); the
#                    sweeps run with --quiet
#   JOBS             points each sweep runs at once (default 1)
#   COMMITTED        the committed results folder (only its README.md's
#                    hand-written "Differences" section is read)
#
# A target script sources this file, declares its steps with
#   step FINAL SECONDS WHAT COMMAND [ARGS...]
# (FINAL: the file in OUT the step makes last, "-" if it always runs;
# SECONDS: its usual duration on one core, for the progress line; WHAT: what
# the progress line says it runs) and calls run_steps.  Each step runs in a
# subshell with `set -e`; a status of 1 to 127 marks it failed and the next
# steps run (run_steps then returns 1); an interruption (128 + signal) stops
# everything.
# Progress (stderr): "reproduce TARGET: step 2/4 fig2.csv: WHAT, ~1 h (~1 h 5 min left in all)".
set -euo pipefail
export LC_ALL=C

here=$(cd "$(dirname "${BASH_SOURCE[1]}")" && pwd)
libdir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
target=$(basename "${BASH_SOURCE[1]}" .sh)
target=${target#reproduce-}
src=${COLLSIM_SRCDIR:-$(dirname "$here")}
collsim=${COLLSIM:-}
out=${OUT:-}
quick=${QUICK:-0}
resume=${RESUME:-0}
quiet=${QUIET:-0}
jobs=${JOBS:-1}

say() { [ "$quiet" = 1 ] || printf 'reproduce %s: %s\n' "$target" "$*" >&2; }
warn() { printf 'reproduce %s: %s\n' "$target" "$*" >&2; }
die() {
  warn "$*"
  exit 2
}

[ -n "$out" ] || die "OUT is not set: run this through 'collsim reproduce $target [--out DIR]'"
case $out in /*) ;; *) die "OUT must be an absolute path, got '$out'" ;; esac
if [ -z "$collsim" ] || [ ! -x "$collsim" ]; then
  die "no collsim binary at '$collsim': run this through 'collsim reproduce $target'"
fi
case $jobs in '' | *[!0-9]* | 0) die "JOBS must be a positive integer, got '$jobs'" ;; esac
mkdir -p "$out"
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

# A path as written in messages and .cmd files: relative to the source
# folder when inside it.
rel() {
  case $1 in
    "$src"/*) printf '%s' "${1#"$src"/}" ;;
    *) printf '%s' "$1" ;;
  esac
}

# "45 s", "3 min", "1 h 20 min"
dur() {
  local s=$1
  if [ "$s" -lt 90 ]; then
    printf '%d s' "$s"
  elif [ "$s" -lt 5400 ]; then
    printf '%d min' $(((s + 30) / 60))
  else
    printf '%d h %d min' $((s / 3600)) $(((s % 3600 + 30) / 60))
  fi
}

# ------------------------------------------------------------ steps ----
step_final=() step_secs=() step_what=() step_cmd=()

step() {
  step_final+=("$1")
  step_secs+=("$2")
  step_what+=("$3")
  shift 3
  step_cmd+=("$(printf '%q ' "$@")")
}

is_quick() { [ "$quick" = 1 ]; }

# The estimate of steps i.. (seconds), scaled by how fast the steps run so far.
left_estimate() {
  local i=$1 est_done=$2 real_done=$3 sum=0 k
  for ((k = i; k < ${#step_final[@]}; k++)); do sum=$((sum + step_secs[k])); done
  if [ "$est_done" -ge 30 ] && [ "$real_done" -gt 0 ]; then sum=$((sum * real_done / est_done)); fi
  printf '%d' "$sum"
}

# Runs one step: 0 done, 1 failed, otherwise stop with that status.
run_one() {
  local rc=0
  set +e
  (
    set -e
    eval "$1"
  )
  rc=$?
  set -e
  return "$rc"
}

run_steps() {
  local n=${#step_final[@]} i status=0 t0=$SECONDS est_done=0 real_done=0 failed=0 skipped=0 rc
  for ((i = 0; i < n; i++)); do
    local final=${step_final[i]} label="step $((i + 1))/$n ${step_final[i]}"
    [ "$final" = - ] && label="step $((i + 1))/$n"
    if [ "$resume" = 1 ] && [ "$final" != - ] && [ -e "$out/$final" ]; then
      say "$label: made already, skipped (--resume)"
      skipped=$((skipped + 1))
      continue
    fi
    local left
    left=$(left_estimate "$i" "$est_done" "$real_done")
    say "$label: ${step_what[i]}, ~$(dur "${step_secs[i]}") (~$(dur "$left") left in all)"
    local t1=$SECONDS
    rc=0
    run_one "${step_cmd[i]}" || rc=$?
    if [ "$rc" -ge 128 ]; then
      exit "$rc" # interrupted
    elif [ "$rc" != 0 ]; then
      status=1
      failed=$((failed + 1))
      warn "$label failed (exit $rc, see above); going on"
    fi
    est_done=$((est_done + step_secs[i]))
    real_done=$((real_done + SECONDS - t1))
  done
  say "$n steps in $(dur $((SECONDS - t0)))$([ "$skipped" = 0 ] || printf ', %d made already' "$skipped")$(
    [ "$failed" = 0 ] || printf ', %d FAILED' "$failed")"
  return "$status"
}

# ----------------------------------------------------------- pieces ----
# write_cmd NAME NOTE LINE...: OUT/NAME.cmd, the command lines that made
# NAME.csv (NOTE: what else, a comment; may be empty).
write_cmd() {
  local name=$1 note=$2
  shift 2
  {
    echo "# $name.csv is the output of the command(s) below (collsim = the binary built from"
    echo "# this tree, run from the source folder), made by collsim reproduce $target${note:+;}"
    [ -z "$note" ] || echo "# $note"
    printf '%s\n' "$@"
  } > "$out/.$name.cmd"
  mv "$out/.$name.cmd" "$out/$name.cmd"
}

# sweep_csv NAME YAML [NOTE]: collsim sweep YAML into OUT/NAME.csv through
# the working copy OUT/.NAME.csv (which a later run with --resume
# continues), then NAME.cmd.  The sweep's status is returned.
sweep_csv() {
  local name=$1 yaml=$2 note=${3:-} work="$out/.$1.csv" rc=0
  local q=()
  [ "$quiet" = 1 ] && q=(--quiet)
  (cd "$src" && "$collsim" sweep "$yaml" --out "$work" --jobs "$jobs" "${q[@]}") || rc=$?
  if [ "$rc" != 0 ]; then
    [ -s "$work" ] && warn "the sweep of $(rel "$yaml") stopped (exit $rc); its finished rows are in $work"
    return "$rc"
  fi
  case $yaml in "$out"/quick-*) note="$(sed -n '1s/^# //p' "$yaml")${note:+; $note}" ;; esac
  write_cmd "$name" "$note" "collsim sweep $(rel "$yaml") --out $(rel "$out")/$name.csv"
  mv "$work" "$out/$name.csv"
  rm -f "$out/.$(basename "$work").journal"
}

# quick_yaml NAME YAML RULE...: writes OUT/quick-NAME.yaml, the experiment
# YAML cut by the rules, and prints its path.  Rules:
#   KEY<=N        the list "KEY: [...]" keeps the values <= N; items
#                 "- {..., KEY: V, ...}" with V > N are dropped
#   KEY=V1|V2...  the same, keeping the values named
# A rule that matches nothing, or leaves a list empty, is an error (exit 2).
quick_yaml() {
  local name=$1 yaml=$2 dest="$out/quick-$1.yaml"
  shift 2
  {
    printf '# --quick: %s cut by %s (scripts/lib-reproduce.sh quick_yaml)\n' "$(rel "$yaml")" "$*"
    awk -v rules="$*" -f "$libdir/lib-reproduce-cut.awk" "$yaml"
  } > "$dest.tmp" || die "cannot cut $(rel "$yaml") by $*"
  mv "$dest.tmp" "$dest"
  printf '%s' "$dest"
}

# The committed README's hand-written "Differences" section is carried over
# into OUT/README.md by the scripts/compare-seed*.sh (scripts/differences.sh).
export DIFFERENCES_FROM="${COMMITTED:-$src/results/$target}/README.md"

# need FILE...: fails the step (exit 1) unless every file (in OUT) exists
# and is not empty (an earlier step that makes it failed).
need() {
  local f
  for f in "$@"; do
    [ -s "$out/$f" ] || {
      warn "no $f (the step that makes it failed): skipped"
      exit 1
    }
  done
}
