collsim collective --net percs:64,16,16 --links --batch experiments/seed001-tables.batch --format csv -q --out results/seed001/tables.csv
