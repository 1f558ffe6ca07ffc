#!/usr/bin/env bash
# Writes results/smpi/compare.csv: every case of bench/smpi/cases.txt run by
# bench/smpi/compare.sh twice, with SimGrid's default lazy action updates
# (network/optim:Lazy) and with full updates (CFG=network/optim:Full), side
# by side, each row with the named cause of its difference (empty where the
# two tools agree within 1e-6):
#   order      SMPI's binomial scatter (ompi_binomial, Open MPI's in-order
#              tree) sends to the nearest child first, collsim's (MPICH's)
#              to the farthest first; the p2p rows run MPICH's order in SMPI
#   chunks     the bcasts' scatter (van de Geijn, scatter + recursive
#              doubling): MPICH/SMPI cut the buffer in
#              ceil(n/p)-byte chunks (the last ranks get fewer bytes, or
#              none and no message), collsim in p blocks of n/p bytes, the
#              first n mod p one byte larger, every one sent
#   refused    collsim's Rabenseifner reduce needs n >= pof2 bytes (MPICH's
#              condition); SMPI runs scatter_gather anyway
#   lazy       SimGrid's lazy action updates (network/optim:Lazy): the same
#              flows at the same instants end differently where many share
#              links; with network/optim:Full the row agrees
#   pairing    the pairwise alltoall rows against SMPI's ring on a power of
#              two: it pairs rank r with r+i / r-i in step i, collsim's
#              pairwise (as MPICH's and SMPI's pair, the default rows) with
#              r XOR i
#   posted     collsim's linear alltoall: a schedule's receive is posted
#              when the one before it has completed, and a message flows
#              only once its receive is posted; SMPI's basic_linear posts
#              all p-1 receives at once
#   smpi-failed  SMPI did not finish (its error is printed)
#   unexplained  none of the above (no row of the committed file)
# results/smpi/README.md tells how each cause was checked.  Takes about 35
# minutes on this machine, shared (two passes of 328 cases; SMPI's runs of
# 256 ranks x 1 MiB take 10-19 s each, its Bruck alltoall of 256 x 64 KiB
# 58 s); prints its wall time.
#   bench/smpi/results.sh [OUT [CASES]]   (default results/smpi/compare.csv,
#       every case of bench/smpi/cases.txt)
#   With CASES (a file of cases, e.g. `sed -n '/^# Issue 28/,$p'
#   bench/smpi/cases.txt`), only those run and are merged into OUT: a row
#   of OUT for the same platform, collective, algorithm, SMPI algorithm and
#   size is replaced in place, the other rows of OUT are kept byte for byte,
#   new rows are appended in CASES' order.
#   Env: COLLSIM (default ./collsim)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=${1:-$here/../../results/smpi/compare.csv}
cases=${2:-$here/cases.txt}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
start=$(date +%s)
"$here/compare.sh" "$cases" > "$tmp/lazy.csv" 2> "$tmp/lazy.err" || { cat "$tmp/lazy.err" >&2; exit 1; }
CFG=network/optim:Full "$here/compare.sh" "$cases" > "$tmp/full.csv" 2> "$tmp/full.err" || { cat "$tmp/full.err" >&2; exit 1; }
# The platform field is quoted and may hold commas: count fields from the end.
paste -d'|' "$tmp/lazy.csv" "$tmp/full.csv" | awk -F'|' '
  function field(line, k,   n, f) { n = split(line, f, ","); return f[n - k] }
  function pow2(p) { while (p > 1 && p % 2 == 0) p /= 2; return p == 1 }
  function off(r) { return r == "nan" || (r - 1 > 1e-6) || (1 - r > 1e-6) }
  NR == 1 { print "platform,coll,algo,smpi_algo,size_bytes,ranks,collsim_s,smpi_s,ratio,collsim_full_s,smpi_full_s,ratio_full,cause"; next }
  {
    lazy = $1; full = $2;
    coll = field(lazy, 9); algo = field(lazy, 8); salgo = field(lazy, 7); bytes = field(lazy, 6); ranks = field(lazy, 5);
    ct = field(lazy, 4); st = field(lazy, 3); r = field(lazy, 2);
    cf = field(full, 4); sf = field(full, 3); rf = field(full, 2);
    cause = "";
    if (st == "nan" || sf == "nan") cause = "smpi-failed";
    else if (ct == "nan") cause = "refused";
    else if (!off(r) && !off(rf)) cause = "";
    else if (coll == "scatter" && salgo == "ompi_binomial" && bytes >= 65536) cause = "order";
    else if (coll == "bcast" && bytes % ranks != 0) cause = "chunks";
    else if (coll == "alltoall" && algo == "pairwise" && salgo == "ring" && pow2(ranks)) cause = "pairing";
    else if (coll == "alltoall" && algo == "linear") cause = "posted";
    else if (off(r) && !off(rf)) cause = "lazy";
    else cause = "unexplained";
    n = split(lazy, f, ",");
    line = f[1]; for (i = 2; i <= n - 2; i++) line = line "," f[i];
    print line "," cf "," sf "," rf "," cause
  }' > "$tmp/out.csv"
if [ -n "${2:-}" ] && [ -f "$out" ]; then # merge: the key is every field before ranks (8 from the end)
  awk -F, '
    function key(line,   n, f, k, i) { n = split(line, f, ","); k = f[1]; for (i = 2; i <= n - 8; i++) k = k "," f[i]; return k }
    FNR == 1 { if (NR == 1) header = $0; next }
    NR == FNR { fresh[key($0)] = $0; order[++nfresh] = key($0); next }
    { k = key($0); if (k in fresh) { print fresh[k] > (tmpdir "/merged.body"); done[k] = 1 } else print > (tmpdir "/merged.body") }
    END {
      for (i = 1; i <= nfresh; i++) if (!(order[i] in done)) print fresh[order[i]] > (tmpdir "/merged.body")
    }' tmpdir="$tmp" "$tmp/out.csv" "$out"
  { head -1 "$out"; cat "$tmp/merged.body"; } > "$tmp/merged.csv"
  mv "$tmp/merged.csv" "$tmp/out.csv"
fi
mkdir -p "$(dirname "$out")"
mv "$tmp/out.csv" "$out"
cat "$tmp/lazy.err" "$tmp/full.err" | grep -v 'needs at least that many bytes' >&2 || true
echo "results.sh: $(($(wc -l < "$out") - 1)) cases in $(($(date +%s) - start)) s -> $out" >&2
