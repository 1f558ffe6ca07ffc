# fig7.csv: the header "curve,tree_args," + collsim's CSV header, then one row
# per run: CURVE,TREE_ARGS, followed by the result line of collsim allreduce.
# Run from the source folder.  The best curve uses the best tree of search.csv
# for 2w (best: hierarchical groups=1 order=scripted), reconfigured for each n.
for n in $(seq 1 32); do collsim allreduce --cluster 2w --trees lam -n $n --iterations 1000 --format csv -q | tail -n 1 | sed "s/^/lam,--trees lam,/"; done
for n in $(seq 1 32); do collsim allreduce --cluster 2w --trees hierarchical --groups 1 --order scripted -n $n --iterations 1000 --format csv -q | tail -n 1 | sed "s/^/best,--trees hierarchical --groups 1 --order scripted,/"; done
