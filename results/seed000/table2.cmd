# The command that made table2.csv, run from the source folder (--jobs and
# --quiet do not change the rows; wall_s is the only column that varies):
collsim sweep experiments/seed000-table2.yaml --out results/seed000/table2.csv
