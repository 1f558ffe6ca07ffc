#!/usr/bin/env bash
# seed004: noncollective communicator creation (Dinan et al.): Figures 1-2, Table 1, the failure example
# Duration: about 5 h on one core (Figure 2 to 8,192 processes ~2 h 30 min, the noise on 8,192 ~1 h 40 min); --quick about 25 s (bench/out/reproduce-quick.txt)
#
# Makes in DIR (times on one core of a 2-core machine):
#   fig1.csv, .cmd     collsim sweep experiments/seed004-fig1.yaml: Figure 1,
#                      creation cost against the group size on 8,192 cores,
#                      Algorithm 1, the direct creation, MPI_Comm_create (~5 min)
#   fig1.md, .png      scripts/fig1-seed004.sh: the table and the crossovers
#   fig2.csv, .cmd     collsim sweep experiments/seed004-fig2.yaml: Figure 2 and
#                      Table 1, MCMC none / async / collective, 32 to 8,192
#                      processes (~2 h 30 min; collective i = 1 on 8,192 ~1 h)
#   fig2.md, .png      scripts/fig2-seed004.sh
#   jitter.csv, jitter-8192.csv, .cmd   collsim sweep experiments/seed004-jitter.yaml
#                      (1,024 processes, five seeds, ~12 min) and
#                      seed004-jitter-8192.yaml (async on 8,192, three seeds, ~1 h 40 min)
#   jitter.md          scripts/jitter-seed004.sh: the spread over seeds
#   failure.csv, .cmd  the failure example (Section 2.1): rank 37 of 1,024 fails
#                      at 1.5 s; the survivors rebuild with Algorithm 1, the
#                      direct creation and MPI_Comm_create (which deadlocks, detected)
# --quick makes fig1.csv for g <= 64 (quick-fig1.yaml: seed004-fig1.yaml cut),
# fig2.csv for n <= 128 (quick-fig2.yaml: seed004-fig2.yaml cut; compared
# with the committed fig2.csv's rows), their .md and .png, and failure.csv;
# no noise runs.

# Run through `collsim reproduce seed004`, which sets the environment of
# scripts/lib-reproduce.sh.
# shellcheck source=lib-reproduce.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib-reproduce.sh"
[ $# -eq 0 ] || die "takes no arguments (got '$*')"

exp=$src/experiments

# figure NAME SCRIPT [ARGS]: scripts/SCRIPT OUT/NAME.csv OUT ARGS (the table and plot)
figure() {
  need "$1.csv"
  bash "$here/$2" "$out/$1.csv" "$out" "${@:3}"
}

jitter_md() {
  need fig2.csv jitter.csv jitter-8192.csv
  bash "$here/jitter-seed004.sh" "$out/fig2.csv" "$out" "$out/jitter.csv" "$out/jitter-8192.csv"
}

failure() {
  local fail=(mcmc -n 1024 --balance none --fail-rank 37 --fail-at 1.5 --format csv --quiet)
  "$collsim" "${fail[@]}" --rebuild intercomm > "$out/.failure.csv"
  "$collsim" "${fail[@]}" --rebuild direct --no-header >> "$out/.failure.csv"
  "$collsim" "${fail[@]}" --rebuild parent --no-header >> "$out/.failure.csv"
  write_cmd failure "" "collsim ${fail[*]} --rebuild intercomm" "collsim ${fail[*]} --rebuild direct --no-header" \
    "collsim ${fail[*]} --rebuild parent --no-header"
  mv "$out/.failure.csv" "$out/failure.csv"
}

if is_quick; then
  fig1=$(quick_yaml fig1 "$exp/seed004-fig1.yaml" 'group-size<=64')
  fig2=$(quick_yaml fig2 "$exp/seed004-fig2.yaml" 'n<=128')
  step fig1.csv 60 "collsim sweep quick-fig1.yaml (g <= 64)" sweep_csv fig1 "$fig1"
  step fig1.md 5 "scripts/fig1-seed004.sh" figure fig1 fig1-seed004.sh
  step fig2.csv 30 "collsim sweep quick-fig2.yaml (n <= 128)" sweep_csv fig2 "$fig2"
  step fig2.md 5 "scripts/fig2-seed004.sh" figure fig2 fig2-seed004.sh fig2
else
  step fig1.csv 300 "collsim sweep experiments/seed004-fig1.yaml" sweep_csv fig1 "$exp/seed004-fig1.yaml" \
    "fig1.md and fig1.png by scripts/fig1-seed004.sh fig1.csv DIR"
  step fig1.md 5 "scripts/fig1-seed004.sh" figure fig1 fig1-seed004.sh
  step fig2.csv 9000 "collsim sweep experiments/seed004-fig2.yaml" sweep_csv fig2 "$exp/seed004-fig2.yaml" \
    "fig2.md and fig2.png by scripts/fig2-seed004.sh fig2.csv DIR fig2"
  step fig2.md 5 "scripts/fig2-seed004.sh" figure fig2 fig2-seed004.sh fig2
  step jitter.csv 720 "collsim sweep experiments/seed004-jitter.yaml" sweep_csv jitter "$exp/seed004-jitter.yaml" \
    "jitter.md by scripts/jitter-seed004.sh fig2.csv DIR jitter.csv jitter-8192.csv"
  step jitter-8192.csv 6000 "collsim sweep experiments/seed004-jitter-8192.yaml" sweep_csv jitter-8192 \
    "$exp/seed004-jitter-8192.yaml" "jitter.md by scripts/jitter-seed004.sh fig2.csv DIR jitter.csv jitter-8192.csv"
  step jitter.md 5 "scripts/jitter-seed004.sh" jitter_md
fi
step failure.csv 15 "collsim mcmc -n 1024 --fail-rank 37 --fail-at 1.5, three rebuilds" failure
run_steps
