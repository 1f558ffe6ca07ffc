collsim sweep results/seed002/fig7.yaml --out results/seed002/fig7.csv
