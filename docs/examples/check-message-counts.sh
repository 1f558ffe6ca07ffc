#!/usr/bin/env bash
# docs/guide.md, task 3: message-count formulas as a regression test, with
# what collsim has today (no --expect-messages yet): run, read the CSV by
# column name, compare with the formula in awk.  One line per mismatch,
# exit status 1 if any; 0 and a summary when all hold.
#   COLLSIM=./collsim bash docs/examples/check-message-counts.sh
set -euo pipefail
collsim=${COLLSIM:-collsim}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0 checked=0

# expect LABEL AWK-EXPRESSION -- COLLSIM-ARGS...: runs collsim with
# --format csv and checks that the row's messages equal the expression
# (over the row's columns by name, c["n"] ...; l2(x) = ceil(log2 x)).
expect() {
  local label=$1 want=$2
  shift 3
  "$collsim" "$@" --format csv -q > "$tmp/row.csv"
  checked=$((checked + 1))
  if ! awk -F, -v label="$label" '
      function l2(x,  l) { l = 0; while (2 ^ l < x) l++; return l }
      NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
      { for (k in col) c[k] = $col[k]
        want = '"$want"'
        if (c["messages"] != want) { printf "%s: messages %d, formula %d\n", label, c["messages"], want; exit 1 } }
    ' "$tmp/row.csv"; then
    failed=$((failed + 1))
  fi
}

# comm-split (Bruck allgather): n ceil(log2 n) messages, whatever m
for n in 1000 4096; do
  expect "tree comm-split n=$n" 'c["n"] * l2(c["n"])' -- tree --algo comm-split -n "$n" -f 0.6
done
# Rank-and-Hash: (n - 1) + s + (2m - 1) + (m - 1) + ceil((m - 1)/k).  The
# CSV has no s; on a group of ranks 0 .. m-1 (every vertex on the way to a
# member is a member) s = m - 1.
seq 0 299 > "$tmp/first300.txt"
for k in 2 3 4; do
  expect "tree rank-hash n=1000 m=300 k=$k" \
    '(c["n"] - 1) + (c["m"] - 1) + (2 * c["m"] - 1) + (c["m"] - 1) + int((c["m"] - 1 + c["k"] - 1) / c["k"])' -- \
    tree --algo rank-hash -n 1000 -k "$k" --members "$tmp/first300.txt"
done
# comm create / create-group print the protocol's own count, messages_formula
for impl in intercomm direct; do
  expect "comm create-group --impl $impl" 'c["messages_formula"]' -- \
    comm create-group --impl "$impl" --platform torus:4x4x4/2 -n 128 --group-size 32
done
expect "comm create --impl mpich" 'c["messages_formula"]' -- \
  comm create --impl mpich --platform torus:4x4x4/2 -n 128 --group-size 32

echo "check-message-counts: $checked runs, $failed mismatch(es)"
[ "$failed" -eq 0 ]
