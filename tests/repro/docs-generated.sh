#!/usr/bin/env bash
# The generated documents (docs/output-reference.md, docs/cost-models.md,
# docs/registries.md, docs/options.md, docs/selectors.md) are what scripts/gen-docs.sh writes from the binary's
# declarations and registries now: regenerated into a temporary folder, each
# must be the committed file byte for byte (after a change to a column, an
# algorithm or a registry, rerun scripts/gen-docs.sh).  About 1 s.  Exit
# status 0 when all agree, 1 otherwise.
set -euo pipefail
export LC_ALL=C
. "$(dirname "$0")/../lib/collsim-env.sh"
tmpd=$(mktemp -d)
trap 'rm -rf "$tmpd"' EXIT
COLLSIM=$collsim bash "$src/scripts/gen-docs.sh" "$tmpd"
failed=0
for f in output-reference.md cost-models.md registries.md options.md selectors.md; do
  if ! diff -u "$src/docs/$f" "$tmpd/$f" > "$tmpd/$f.diff"; then
    failed=1
    echo "docs/$f is not what scripts/gen-docs.sh writes (- committed, + generated; rerun the script):"
    head -n 40 "$tmpd/$f.diff"
  else
    echo "docs/$f: as generated"
  fi
done
exit "$failed"
