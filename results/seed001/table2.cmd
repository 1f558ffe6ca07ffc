collsim sweep experiments/seed001-table2.yaml --out results/seed001/table2.csv
