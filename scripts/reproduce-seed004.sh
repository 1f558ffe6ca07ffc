#!/usr/bin/env bash
# Reproduces seed 004 (Dinan et al., "Noncollective Communicator Creation
# in MPI") into results/seed004/ (times on one core of this machine):
#   fig1.csv, .cmd, .md, .png     collsim sweep experiments/seed004-fig1.yaml
#                        (Figure 1, ~3 min), then scripts/fig1-seed004.sh
#                        (the table and the crossovers)
#   fig2.csv, .cmd, .md, .png     collsim sweep experiments/seed004-fig2.yaml
#                        (Figure 2 and Table 1, 32 to 8,192 processes, ~1 h),
#                        then scripts/fig2-seed004.sh
#   jitter.csv, jitter-8192.csv, .cmd, jitter.md   collsim sweep
#                        experiments/seed004-jitter.yaml (1,024 processes,
#                        five seeds) and seed004-jitter-8192.yaml (async on
#                        8,192, three seeds, ~10 min), then
#                        scripts/jitter-seed004.sh
#   failure.csv, .cmd    the failure example (Section 2.1): rank 37 of 1,024
#                        fails at 1.5 s; the survivors rebuild with
#                        Algorithm 1, the direct creation, and
#                        MPI_Comm_create (which deadlocks, detected)
#
#   scripts/reproduce-seed004.sh        collsim reproduce seed004
#
# Environment: COLLSIM (default ./collsim), COLLSIM_SRCDIR (default this
# script's folder's parent), OUT (default <source>/results/seed004), QUIET=1.
# Each file is written beside its final name and moved into place; a sweep
# interrupted resumes from its working copy (.NAME.csv) when run again.
# Exit 0 done, 1 a run failed, 2 bad input.
set -euo pipefail
export LC_ALL=C

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=${COLLSIM_SRCDIR:-$(dirname "$here")}
collsim=${COLLSIM:-./collsim}
out=${OUT:-$src/results/seed004}
quiet=0
if [ -n "${QUIET:-}" ] && [ "${QUIET:-}" != 0 ]; then quiet=1; fi

say() { [ "$quiet" = 1 ] || printf 'reproduce-seed004: %s\n' "$*" >&2; }
warn() { printf 'reproduce-seed004: %s\n' "$*" >&2; }
die() { printf 'reproduce-seed004: %s\n' "$*" >&2; exit 2; }

[ $# -eq 0 ] || die "takes no arguments (got '$*')"
if ! [ -x "$collsim" ] && ! command -v "$collsim" > /dev/null 2>&1; then
  die "no collsim binary at '$collsim' (set COLLSIM=/path/to/collsim)"
fi
mkdir -p "$out"
status=0

q=()
[ "$quiet" = 1 ] && q=(--quiet)

# sweep NAME YAML [NOTE]: collsim sweep YAML into NAME.csv (through
# .NAME.csv) and NAME.cmd (NOTE: what is made from it, a comment there);
# false when the sweep fails (its finished rows kept).
sweep() {
  local name=$1 yaml=$2 note=${3:-}
  say "$name.csv: collsim sweep experiments/$yaml"
  if ! "$collsim" sweep "$src/experiments/$yaml" --out "$out/.$name.csv" "${q[@]}"; then
    warn "the sweep of $yaml failed; finished rows are kept in $out/.$name.csv"
    return 1
  fi
  mv "$out/.$name.csv" "$out/$name.csv"
  rm -f "$out/..$name.csv.journal"
  printf '%s\n' "# $name.csv is the output of this command (collsim = the binary built from this tree)," \
    "# made by scripts/reproduce-seed004.sh${note:+; $note}" \
    "collsim sweep experiments/$yaml --out results/seed004/$name.csv" > "$out/$name.cmd"
}

if sweep fig1 seed004-fig1.yaml "fig1.md and fig1.png by scripts/fig1-seed004.sh results/seed004/fig1.csv results/seed004"; then
  bash "$here/fig1-seed004.sh" "$out/fig1.csv" "$out" || status=1
else
  status=1
fi
if sweep fig2 seed004-fig2.yaml "fig2.md and fig2.png by scripts/fig2-seed004.sh results/seed004/fig2.csv results/seed004 fig2"; then
  bash "$here/fig2-seed004.sh" "$out/fig2.csv" "$out" fig2 || status=1
else
  status=1
fi
jnote="jitter.md by scripts/jitter-seed004.sh results/seed004/fig2.csv results/seed004 results/seed004/jitter.csv results/seed004/jitter-8192.csv"
if sweep jitter seed004-jitter.yaml "$jnote" && sweep jitter-8192 seed004-jitter-8192.yaml "$jnote" && [ -f "$out/fig2.csv" ]; then
  bash "$here/jitter-seed004.sh" "$out/fig2.csv" "$out" "$out/jitter.csv" "$out/jitter-8192.csv" || status=1
else
  status=1
fi

say "failure.csv: rank 37 of 1,024 fails at 1.5 s, three rebuilds"
fail=(mcmc -n 1024 --balance none --fail-rank 37 --fail-at 1.5 --format csv --quiet)
if "$collsim" "${fail[@]}" --rebuild intercomm > "$out/.failure.csv" &&
  "$collsim" "${fail[@]}" --rebuild direct --no-header >> "$out/.failure.csv" &&
  "$collsim" "${fail[@]}" --rebuild parent --no-header >> "$out/.failure.csv"; then
  mv "$out/.failure.csv" "$out/failure.csv"
  printf '%s\n' "# failure.csv is the output of these commands (collsim = the binary built from this tree)." \
    "collsim ${fail[*]} --rebuild intercomm" "collsim ${fail[*]} --rebuild direct --no-header" \
    "collsim ${fail[*]} --rebuild parent --no-header" > "$out/failure.cmd"
else
  rm -f "$out/.failure.csv"
  warn "the failure example failed"
  status=1
fi
say "results in $out"
exit "$status"
