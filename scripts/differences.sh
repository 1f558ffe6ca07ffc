# Sourced by scripts/compare-seed*.sh: the "## Differences" section of a
# results README.  The analysis there is written by hand, so a regenerated
# README carries over the existing section's text (everything after its
# heading up to the next "## " heading); a new README takes it from
# $DIFFERENCES_FROM when set (the committed README, for a reproduction into
# a fresh folder), else gets a placeholder.  The carried-over text is not
# trusted: differences_check then checks its numbers and comparisons (those
# listed in tests/repro/docs-claims.txt) against the files beside the new README.
#   differences_section README   (prints the section on stdout)
#   differences_check README SEED (SEED: seed002, ...; warns on stderr, naming
#                                  each README line that the files contradict)
differences_section() {
  local readme=$1
  if ! { [ -f "$readme" ] && grep -q '^## Differences' "$readme"; } && [ -n "${DIFFERENCES_FROM:-}" ]; then
    readme=$DIFFERENCES_FROM
  fi
  echo "## Differences"
  echo
  if [ -f "$readme" ] && grep -q '^## Differences' "$readme"; then
    awk 'found && /^## / {exit} found && !(first && /^$/) {print; first = 0} /^## Differences/ {found = 1; first = 1}' \
      "$readme"
  else
    echo "<!-- Written by hand: where our numbers differ from the paper's, and why. -->"
    echo "_To be written._"
  fi
}

differences_check() {
  local readme=$1 seed=$2 dir out
  dir=$(cd "$(dirname "$readme")" && pwd)
  if ! out=$(bash "$(dirname "${BASH_SOURCE[0]}")/check-claims.sh" --only "results/$seed/README.md" \
               --map "results/$seed=$dir" --doc "results/$seed/README.md=$dir/README.md" 2>&1); then
    echo "$(basename "$0"): WARNING: the hand-written text of $readme says what the files beside it do not" \
         "(fix these sentences; tests/repro/docs-claims.txt lists the checks):" >&2
    printf '%s\n' "$out" | sed 's/^/  /' >&2
  fi
  return 0
}
