# search.csv: collsim's CSV header, then, for each cluster C, the result line
# (the second line) of the command below.  Run from the source folder; each
# candidate runs collsim's default --search-iterations (50) Allreduce operations.
for C in 2w 4w 8w; do collsim allreduce --cluster $C --trees best -n 32 --iterations 1000 --format csv --write-script results/seed002/best-$C.yaml 2> search-$C.stderr; done
# search-C.log: the lines of search-C.stderr that start with "search:" (one per
# candidate tree; collsim's progress lines are left out).
