# Sourced by scripts/compare-seed*.sh: the "## Differences" section of a
# results README.  The analysis there is written by hand, so a regenerated
# README carries over the existing section's text (everything after its
# heading up to the next "## " heading); a new README takes it from
# $DIFFERENCES_FROM when set (the committed README, for a reproduction into
# a fresh folder), else gets a placeholder.
#   differences_section README   (prints the section on stdout)
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
