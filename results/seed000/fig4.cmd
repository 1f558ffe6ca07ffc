# The command that made fig4.csv, run from the source folder (--jobs and
# --quiet do not change the rows; wall_s is the only column that varies):
collsim sweep experiments/seed000-fig4.yaml --out results/seed000/fig4.csv
# Rows for points that seed000-fig3.yaml also has were copied from fig3.csv
# first (the same simulation); scripts/reproduce-seed000.sh does this unless REUSE=0.
