# times.csv is the standard output of this command (run anywhere; collsim = the
# binary built from this tree).  Made by scripts/reproduce-seed003-maps.sh.
collsim groupmap --paper-groups --format csv --quiet > results/seed003/times.csv
