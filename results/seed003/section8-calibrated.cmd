# section8-calibrated.csv is the output of this command (collsim = the binary built from this
# tree).  Made by scripts/reproduce-seed003.sh.
collsim sweep experiments/seed003-section8-calibrated.yaml --out results/seed003/section8-calibrated.csv
