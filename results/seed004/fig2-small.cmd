# fig2-small.csv is the output of this command (collsim = the binary built from this
# tree); fig2-small.md and fig2-small.png by scripts/fig2-seed004.sh results/seed004/fig2-small.csv results/seed004 fig2-small
collsim sweep experiments/seed004-fig2-small.yaml --out results/seed004/fig2-small.csv
