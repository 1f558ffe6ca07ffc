# jitter.csv is the output of this command (collsim = the binary built from this tree),
# made by scripts/reproduce-seed004.sh; jitter.md by scripts/jitter-seed004.sh results/seed004/fig2.csv results/seed004 results/seed004/jitter.csv results/seed004/jitter-8192.csv
collsim sweep experiments/seed004-jitter.yaml --out results/seed004/jitter.csv
