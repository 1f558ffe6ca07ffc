# fig2.csv is the output of this command (collsim = the binary built from this tree),
# made by scripts/reproduce-seed004.sh; fig2.md and fig2.png by scripts/fig2-seed004.sh results/seed004/fig2.csv results/seed004 fig2
collsim sweep experiments/seed004-fig2.yaml --out results/seed004/fig2.csv
