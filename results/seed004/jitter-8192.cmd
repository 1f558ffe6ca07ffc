# jitter-8192.csv is the output of this command (collsim = the binary built from this tree),
# made by scripts/reproduce-seed004.sh; jitter.md by scripts/jitter-seed004.sh results/seed004/fig2.csv results/seed004 results/seed004/jitter.csv results/seed004/jitter-8192.csv
collsim sweep experiments/seed004-jitter-8192.yaml --out results/seed004/jitter-8192.csv
# Seeds 1 and 2 came from that sweep; seed 3's row (the sweep's third point) from the same point run alone,
# appended to the file:
#   collsim mcmc --platform torus:8x16x16/4 -n 8192 --balance async --jitter 0.01 --seed 3 -q --format csv --no-header
