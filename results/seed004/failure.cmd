# failure.csv is the output of these commands (collsim = the binary built from this tree).
collsim mcmc -n 1024 --balance none --fail-rank 37 --fail-at 1.5 --format csv --quiet --rebuild intercomm
collsim mcmc -n 1024 --balance none --fail-rank 37 --fail-at 1.5 --format csv --quiet --rebuild direct --no-header
collsim mcmc -n 1024 --balance none --fail-rank 37 --fail-at 1.5 --format csv --quiet --rebuild parent --no-header
