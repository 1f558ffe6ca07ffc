collsim sweep results/seed002/fig6.yaml --out results/seed002/fig6.csv
