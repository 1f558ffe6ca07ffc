# space-model.csv is the output of these commands (collsim = the binary built from
# this tree).  Made by scripts/reproduce-seed003.sh.
collsim comm space --cpm 1000,100,10 --format csv
collsim comm space --cpm 6875,8,2 --format csv --no-header
