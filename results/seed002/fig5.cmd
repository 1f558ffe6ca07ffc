collsim sweep results/seed002/fig5.yaml --out results/seed002/fig5.csv
