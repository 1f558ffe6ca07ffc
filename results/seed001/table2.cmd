# one line per row of table2.csv, run by scripts/reproduce-seed001.sh:
# collsim collective --net NET --coll COLL --algo ALGO --block|--bytes SIZE --timed --format csv --no-header -q
# over the lines of experiments/seed001-table2.runs (NET COLL ALGO SIZE)
