#!/usr/bin/env bash
# Reproduces seed 004 (Dinan et al., "Noncollective Communicator Creation
# in MPI") into results/seed004/:
#   fig1.csv, fig1.cmd   collsim sweep experiments/seed004-fig1.yaml (Figure 1,
#                        ~4 min), then fig1.md and fig1.png by
#                        scripts/fig1-seed004.sh (the table and the crossovers)
#   failure.csv, .cmd    the failure example (Section 2.1): rank 37 of 1,024
#                        fails at 1.5 s; the survivors rebuild with
#                        Algorithm 1, the direct creation, and
#                        MPI_Comm_create (which deadlocks, detected)
#   fig2-small.csv, .cmd, .md, .png   collsim sweep
#                        experiments/seed004-fig2-small.yaml (Figure 2 and
#                        Table 1 for 32 to 1,024 processes, ~8 min), then
#                        scripts/fig2-seed004.sh
# The full Figure 2 to 8,192 processes (experiments/seed004-fig2.yaml) is not
# run here yet: see results/seed004/README.md.
#
#   scripts/reproduce-seed004.sh        collsim reproduce seed004
#
# Environment: COLLSIM (default ./collsim), COLLSIM_SRCDIR (default this
# script's folder's parent), OUT (default <source>/results/seed004), QUIET=1.
# Each file is written beside its final name and moved into place.  Exit 0
# done, 1 a run failed, 2 bad input.
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

say "fig1.csv: collsim sweep experiments/seed004-fig1.yaml (~4 min)"
q=()
[ "$quiet" = 1 ] && q=(--quiet)
if "$collsim" sweep "$src/experiments/seed004-fig1.yaml" --out "$out/.fig1.csv" "${q[@]}"; then
  mv "$out/.fig1.csv" "$out/fig1.csv"
  rm -f "$out/..fig1.csv.journal"
  printf '%s\n' "# fig1.csv is the output of this command (collsim = the binary built from this" \
    "# tree).  Made by scripts/reproduce-seed004.sh; fig1.md and fig1.png by" \
    "# scripts/fig1-seed004.sh results/seed004/fig1.csv results/seed004" \
    "collsim sweep experiments/seed004-fig1.yaml --out results/seed004/fig1.csv" > "$out/fig1.cmd"
  bash "$here/fig1-seed004.sh" "$out/fig1.csv" "$out" || status=1
else
  warn "the Figure 1 sweep failed; finished rows are kept in $out/.fig1.csv"
  status=1
fi

say "fig2-small.csv: collsim sweep experiments/seed004-fig2-small.yaml (~8 min)"
if "$collsim" sweep "$src/experiments/seed004-fig2-small.yaml" --out "$out/.fig2-small.csv" "${q[@]}"; then
  mv "$out/.fig2-small.csv" "$out/fig2-small.csv"
  rm -f "$out/..fig2-small.csv.journal"
  printf '%s\n' "# fig2-small.csv is the output of this command (collsim = the binary built from this" \
    "# tree); fig2-small.md and fig2-small.png by scripts/fig2-seed004.sh results/seed004/fig2-small.csv results/seed004 fig2-small" \
    "collsim sweep experiments/seed004-fig2-small.yaml --out results/seed004/fig2-small.csv" > "$out/fig2-small.cmd"
  bash "$here/fig2-seed004.sh" "$out/fig2-small.csv" "$out" fig2-small || status=1
else
  warn "the Figure 2 sweep failed; finished rows are kept in $out/.fig2-small.csv"
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
