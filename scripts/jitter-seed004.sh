#!/usr/bin/env bash
# The MCMC benchmark with timing noise (seed 004, Section 4.2) from the
# output of `collsim sweep experiments/seed004-jitter*.yaml`: the spread over
# seeds beside the deterministic value.
#
#   scripts/jitter-seed004.sh FIG2.CSV OUTDIR JITTER.CSV...
#
# Writes OUTDIR/jitter.md: one row per (n, mode, jitter) with the number of
# seeds, the execution time (mean, population sd, min, max over the seeds)
# and the regroupings per process (the mean over seeds of each run's mean,
# the smallest min and the largest max), then the same columns of the
# deterministic run (jitter 0) of FIG2.CSV for that n and mode.  Columns
# are found by name.  Exit 0, 2 on bad input.
set -euo pipefail
export LC_ALL=C

die() { printf 'jitter-seed004: %s\n' "$*" >&2; exit 2; }
[ $# -ge 3 ] || die "usage: jitter-seed004.sh FIG2.CSV OUTDIR JITTER.CSV..."
fig2=$1 out=$2
shift 2
for f in "$fig2" "$@"; do [ -r "$f" ] || die "cannot read $f"; done
[ -d "$out" ] || die "no folder $out"

# One line per run: n mode jitter time mean min max (mode: async, collective-I).
rows() {
  awk -F, '
  FNR == 1 { delete c; for (i = 1; i <= NF; i++) c[$i] = i; next }
  { mode = $c["balance"]; if (mode == "collective") mode = mode "-" $c["interval"]
    print $c["n"], mode, $c["jitter"], $c["time_s"], $c["regroupings_mean"], $c["regroupings_min"], $c["regroupings_max"] }' "$@"
}

{
  echo "# Seed 004: the MCMC benchmark with timing noise"
  echo
  echo "Made by scripts/jitter-seed004.sh from $(for f in "$@"; do printf '%s ' "$(basename "$f")"; done)and"
  echo "$(basename "$fig2") (the deterministic runs).  Each step lasts T / size x (1 + J u), u uniform in [-1, 1],"
  echo "seeded.  Time in simulated seconds over the seeds: mean, population sd, min, max; regroupings per"
  echo "process: the mean over seeds of each run's mean, the smallest min and the largest max."
  echo
  echo "| n | mode | J | seeds | time mean / sd / min / max | regroupings mean / min / max | J = 0: time, regroupings mean / min / max |"
  echo "|---:|---|---:|---:|---|---|---|"
  {
    rows "$fig2" | awk '$3 == 0 { print "D", $0 }'
    rows "$@" | awk '$3 != 0 { print "J", $0 }'
  } | awk '
  $1 == "D" { det[$2 " " $3] = sprintf("%.3f, %.2f / %d / %d", $5, $6, $7, $8); next }
  { k = $2 " " $3 " " $4
    if (!(k in s)) { order[++nk] = k; lo[k] = $5; hi[k] = $5; rmin[k] = $7; rmax[k] = $8 }
    s[k] += $5; ss[k] += $5 * $5; cnt[k]++; rm[k] += $6
    if ($5 < lo[k]) lo[k] = $5; if ($5 > hi[k]) hi[k] = $5
    if ($7 < rmin[k]) rmin[k] = $7; if ($8 > rmax[k]) rmax[k] = $8 }
  END {
    for (i = 1; i <= nk; i++) {
      k = order[i]; split(k, f, " "); m = s[k] / cnt[k]; v = ss[k] / cnt[k] - m * m
      d = f[1] " " f[2]
      printf "| %d | %s | %g | %d | %.3f / %.3f / %.3f / %.3f | %.2f / %d / %d | %s |\n", f[1], f[2], f[3], cnt[k],
        m, sqrt(v > 0 ? v : 0), lo[k], hi[k], rm[k] / cnt[k], rmin[k], rmax[k], (d in det) ? det[d] : "-"
    }
  }' | sort -t'|' -k2,2n -k3,3 -k4,4g
} > "$out/.jitter.md"
mv "$out/.jitter.md" "$out/jitter.md"
