# a3-barrier.csv is the output of this command (collsim = the binary built from this
# tree): set A3 of Section 8.1 without the 10,000 messages (the barrier alone), one run.
collsim comm bench --set A3 --messages 0 --format csv --quiet > results/seed003/a3-barrier.csv
