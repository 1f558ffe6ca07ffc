#!/usr/bin/env bash
# The documents say what the committed results and the code say now.
#  1. results/seed00{0,1,2}/README.md are written by scripts/compare-seedNNN.sh
#     from the files beside them: each is regenerated from a copy of its
#     folder and must be the committed file, byte for byte (every generated
#     number, table and comparison sentence; the hand-written Differences
#     section is carried over, and checked by 2).
#  2. Every number or comparison written by hand that comes from a run (the
#     Differences sections, the README's speed figures) is listed in
#     tests/docs-claims.txt with the file it comes from, and must agree with
#     it (scripts/check-claims.sh; a failure names the document's line).
#  3. `collsim --help` says the demo runs as many ranks as `collsim demo`
#     does by default.
# About 3 s.  Exit status 0 when all agree, 1 otherwise (tests/collsim-env.sh
# for $collsim and $src).
set -euo pipefail
export LC_ALL=C
. "$(dirname "$0")/collsim-env.sh"
tmpd=$(mktemp -d)
trap 'rm -rf "$tmpd"' EXIT
failed=0

for seed in seed000 seed001 seed002; do
  mkdir "$tmpd/$seed"
  cp -R "$src/results/$seed/." "$tmpd/$seed/"
  if ! bash "$src/scripts/compare-$seed.sh" "$tmpd/$seed" > "$tmpd/$seed.log" 2>&1; then
    failed=$((failed + 1))
    echo "FAILED scripts/compare-$seed.sh on a copy of results/$seed:"
    cat "$tmpd/$seed.log"
  elif ! diff -u "$src/results/$seed/README.md" "$tmpd/$seed/README.md" > "$tmpd/$seed.diff"; then
    failed=$((failed + 1))
    echo "results/$seed/README.md is not what scripts/compare-$seed.sh writes from the files beside it" \
         "(- committed, + generated; rerun the script):"
    head -n 40 "$tmpd/$seed.diff"
  else
    echo "results/$seed/README.md: as generated from its files"
  fi
done

if ! bash "$src/scripts/check-claims.sh"; then
  failed=$((failed + 1))
fi

said=$("$collsim" --help | sed -n 's/^ *demo .* on \([0-9,]*\) ranks.*/\1/p' | tr -d ,)
default=$("$collsim" demo --help | sed -n 's/.*ranks (default \([0-9]*\)).*/\1/p')
if [ -z "$said" ] || [ "$said" != "$default" ]; then
  failed=$((failed + 1))
  echo "collsim --help says the demo runs '${said:-?}' ranks; collsim demo --help: default '${default:-?}'"
else
  echo "collsim --help: the demo's $said ranks, as collsim demo runs by default"
fi

echo "docs-current: $failed check(s) failed"
[ "$failed" -eq 0 ]
