#!/usr/bin/env bash
# Seed 003 Section 8 beside the paper: reads section8.csv and ids.csv
# (scripts/reproduce-seed003.sh) and prints markdown.  The paper's Figure 5
# values are not in its text; what the text states is compared here:
#   8.1.1  gathers (10 of them) take 1.9 s (A1), 2.54 s (A2), 3.14 s (A3)
#          with BWT maps; creation times of A1-A3 "show little variation";
#          the framework picks BWT for A.
#   8.1.2  picks WTR+stride (B1), bitmap (B2), BDD (B3); BDD's creation is
#          "quite large"; BDD saves the most space (42.66 MB); B1's
#          messaging beats ARRAY's.
#   8.1.3  picks bitmap (C); creation grows with the outer communicator;
#          C1 saves more space than C3.
#   8.2    4,100 context ids before the communicator pool ran out.
# With a third file, section8-calibrated.csv (set A with o_msg fitted to
# A1's gathers by scripts/calibrate-seed003-omsg.sh), its rows too, and the
# fitted o_msg read from experiments/seed003-section8-calibrated.yaml.
# usage: compare-seed003-comm.sh SECTION8.CSV IDS.CSV [CALIBRATED.CSV]
set -euo pipefail
export LC_ALL=C
[ $# -eq 2 ] || [ $# -eq 3 ] || { echo "usage: $0 SECTION8.CSV IDS.CSV [CALIBRATED.CSV]" >&2; exit 2; }
for f in "$@"; do [ -r "$f" ] || { echo "$0: cannot read $f" >&2; exit 2; }; done

# cols FILE NAME...: the CSV with only the named columns, tab-separated.
# shellcheck source=lib-csv.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib-csv.sh"
cols() {
  local file=$1
  shift
  csv_tsv "$file" | awk -F'\t' -v want="$*" 'NR == 1 { n = split(want, w, " "); for (i = 1; i <= NF; i++) idx[$i] = i
      for (j = 1; j <= n; j++) if (!(w[j] in idx)) { print "missing column " w[j] > "/dev/stderr"; exit 1 } next }
    { line = ""; for (j = 1; j <= n; j++) line = line (j > 1 ? "\t" : "") $(idx[w[j]]); print line }'
}

echo "# Seed 003 Section 8: our simulation beside the paper"
echo
echo "Made by \`scripts/compare-seed003-comm.sh\` from \`$(basename "$1")\` and \`$(basename "$2")\`"
echo "(\`collsim reproduce seed003\`).  Times are simulated seconds on the default"
echo "\`cpm\` platform (every default in platforms/cpm.c; none fitted to Section 8 but in the table that says so);"
echo "space is bytes.  The paper's Figure 5 values are not in its text: only the"
echo "numbers and trends its text states are set beside ours."
echo
echo "## 8.1 Sets A-C (leader-based MPI_Comm_split, Procedure 1)"
echo
echo "| set | N | map (ours) | map (paper) | create s | 10,000 p2p s | 10 gathers s | paper: 10 gathers s | space saved, 8 comms | verified |"
echo "|---|---|---|---|---|---|---|---|---|---|"
cols "$1" set n map create_s p2p_s gather_s space_saved_bytes verified |
  awk -F'\t' 'BEGIN { pm["A1"] = pm["A2"] = pm["A3"] = "bwt"; pm["B1"] = "wtr+rs"; pm["B2"] = "bm"; pm["B3"] = "bdd"
      pm["C1"] = pm["C2"] = pm["C3"] = "bm"; pg["A1"] = "1.9"; pg["A2"] = "2.54"; pg["A3"] = "3.14" }
    { printf "| %s | %s | %s | %s | %.4g | %.4g | %.4g | %s | %.4g MB | %s |\n", $1, $2, $3, pm[$1], $4, $5, $6,
        ($1 in pg ? pg[$1] : "-"), $7 / 1e6, $8 }'
echo
echo "Paper's space figure stated in the text: BDD (B3) saves 42.66 MB, the most of set B."
if [ $# -eq 3 ]; then
  yaml=$(dirname "${BASH_SOURCE[0]}")/../experiments/seed003-section8-calibrated.yaml
  omsg=$(sed -n 's/^ *o-send: *\([0-9.]*\)us *$/\1/p' "$yaml" 2> /dev/null)
  [ -n "$omsg" ] || { echo "$0: no 'o-send: Nus' line in $yaml" >&2; exit 2; }
  echo
  echo "## 8.1 Set A with one parameter fitted: o_msg = $omsg us"
  echo
  echo "\`$(basename "$3")\`: the CPU cost per message sent and received fitted to A1's"
  echo "gathers (1.9 s) by secant steps from 1 us and 10 us (scripts/calibrate-seed003-omsg.sh: omsg-fit.txt);"
  echo "A1 is the last step of the fit (within 2 % of 1.9 s), A2 and A3 are predictions."
  echo
  echo "| set | create s | 10,000 p2p s | 10 gathers s | paper: 10 gathers s | verified |"
  echo "|---|---|---|---|---|---|"
  cols "$3" set create_s p2p_s gather_s verified |
    awk -F'\t' 'BEGIN { pg["A1"] = "1.9 (fitted)"; pg["A2"] = "2.54"; pg["A3"] = "3.14" }
      { printf "| %s | %.4g | %.4g | %.4g | %s | %s |\n", $1, $2, $3, $4, ($1 in pg ? pg[$1] : "-"), $5 }'
fi
echo
echo "## 8.2 Context ids until one cannot be made (100 colours of 1,000, world 100,000)"
echo
echo "| [C,P,M] | layout | impl | splits | ids created | limit | splits allowed by: leader bits / mask / pool |"
echo "|---|---|---|---|---|---|---|"
cols "$2" platform layout impl splits created limit splits_lbi splits_mask splits_pool |
  awk -F'\t' '{ sub(/^cpm:/, "", $1); printf "| %s | %s | %s | %s | %s | %s | %s / %s / %s |\n", $1, $2, $3, $4, $5, $6, $7, $8, $9 }'
echo
echo "Paper: 4,100 context ids on [6250, 8, 2] before MPICH2's communicator pool ran out."
