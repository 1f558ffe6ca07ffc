# fig1.csv is the output of this command (collsim = the binary built from this
# tree).  Made by scripts/reproduce-seed004.sh; fig1.md and fig1.png by
# scripts/fig1-seed004.sh results/seed004/fig1.csv results/seed004
collsim sweep experiments/seed004-fig1.yaml --out results/seed004/fig1.csv
