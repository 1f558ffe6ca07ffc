# The command that made fig3.csv, run from the source folder (--jobs and
# --quiet do not change the rows; wall_s is the only column that varies):
collsim sweep experiments/seed000-fig3.yaml --out results/seed000/fig3.csv
