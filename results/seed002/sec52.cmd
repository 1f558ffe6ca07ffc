collsim sweep results/seed002/sec52.yaml --out results/seed002/sec52.csv
