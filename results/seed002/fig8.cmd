collsim sweep results/seed002/fig8.yaml --out results/seed002/fig8.csv
