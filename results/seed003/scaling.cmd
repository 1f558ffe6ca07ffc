# scaling.csv is the output of this command (collsim = the binary built from this
# tree).  Made by scripts/reproduce-seed003.sh.
collsim sweep experiments/seed003-scaling.yaml --out results/seed003/scaling.csv
