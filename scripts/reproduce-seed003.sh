#!/usr/bin/env bash
# seed003: communicators and group maps (Kamal, Mirtaheri, Wagner): Tables 1-2, Section 8 sets A-C and 8.2
# Duration: about 45 min on one core (runs of 2.5-5.4 GB of memory); --quick about 20 s (bench/out/reproduce-quick.txt)
#
# Makes in DIR what seed003-maps makes (maps.csv, times.csv, comparison.md:
# Tables 1-2), then:
#   ids.csv, .cmd      collsim sweep experiments/seed003-ids.yaml: context ids
#                      until exhaustion per [C,P,M] shape, layout and scheme
#                      (Section 8.2; seconds)
#   section8.csv, .cmd collsim sweep experiments/seed003-section8.yaml: sets
#                      A1-C3, one timed leader split each on worlds of up to
#                      110,000 proclets (~15 min, 2.5-3.5 GB each)
#   section8-calibrated.csv, .cmd   collsim sweep
#                      experiments/seed003-section8-calibrated.yaml: set A with
#                      o_msg fitted to A1's gathers (135 us); A2, A3 predicted (~13 min)
#   scaling.csv, .cmd  collsim sweep experiments/seed003-scaling.yaml: split
#                      creation time and memory against N (2,000 - 262,144) and
#                      the group size, both implementations, map memory shared /
#                      unshared / compact (~13 min, the largest 5.4 GB)
#   space-model.csv, .cmd   collsim comm space for [1000,100,10] (Section 3's
#                      example) and [6875,8,2] (the simulated world)
#   scaling.md, scaling-time.png, scaling-memory.png, scaling-group.png
#                      scripts/scaling-seed003.sh: the table and plots
#   section8.md        scripts/compare-seed003-comm.sh: every number beside what
#                      the paper's text states
# The committed results/seed003/README.md is written by hand.
# --quick makes seed003-maps's quick subset (maps.csv, comparison.md),
# ids.csv and space-model.csv.

# Run through `collsim reproduce seed003`, which sets the environment of
# scripts/lib-reproduce.sh; SKIP_MAPS=1 leaves Tables 1-2 out.
# shellcheck source=lib-reproduce.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib-reproduce.sh"
[ $# -eq 0 ] || die "takes no arguments (got '$*')"

space_model() {
  "$collsim" comm space --cpm 1000,100,10 --format csv > "$out/.space-model.csv"
  "$collsim" comm space --cpm 6875,8,2 --format csv --no-header >> "$out/.space-model.csv"
  write_cmd space-model "" "collsim comm space --cpm 1000,100,10 --format csv" \
    "collsim comm space --cpm 6875,8,2 --format csv --no-header"
  mv "$out/.space-model.csv" "$out/space-model.csv"
}

scaling_md() {
  need scaling.csv space-model.csv
  bash "$here/scaling-seed003.sh" "$out/scaling.csv" "$out/space-model.csv" "$out"
}

section8_md() {
  need section8.csv ids.csv
  local calibrated=()
  [ -s "$out/section8-calibrated.csv" ] && calibrated=("$out/section8-calibrated.csv")
  bash "$here/compare-seed003-comm.sh" "$out/section8.csv" "$out/ids.csv" "${calibrated[@]}" > "$out/.section8.md"
  mv "$out/.section8.md" "$out/section8.md"
}

exp=$src/experiments
if [ "${SKIP_MAPS:-0}" = 0 ]; then
  step - "$(is_quick && echo 30 || echo 60)" "collsim reproduce seed003-maps (Tables 1-2)" \
    bash "$here/reproduce-seed003-maps.sh"
fi
step ids.csv 10 "collsim sweep experiments/seed003-ids.yaml" sweep_csv ids "$exp/seed003-ids.yaml"
if ! is_quick; then
  step section8.csv 930 "collsim sweep experiments/seed003-section8.yaml (9 runs)" sweep_csv section8 \
    "$exp/seed003-section8.yaml"
  step section8-calibrated.csv 780 "collsim sweep experiments/seed003-section8-calibrated.yaml (3 runs)" \
    sweep_csv section8-calibrated "$exp/seed003-section8-calibrated.yaml"
  step scaling.csv 780 "collsim sweep experiments/seed003-scaling.yaml (37 runs)" sweep_csv scaling \
    "$exp/seed003-scaling.yaml"
fi
step space-model.csv 2 "collsim comm space" space_model
if ! is_quick; then
  step scaling.md 10 "scripts/scaling-seed003.sh" scaling_md
  step section8.md 2 "scripts/compare-seed003-comm.sh" section8_md
fi
run_steps
