# fig8.csv: the header "curve,tree_args,nodes," + collsim's CSV header, then
# one row per run: CURVE,TREE_ARGS,N, followed by the result line of collsim
# allreduce on N nodes of 2 processors (Pentium III 450 MHz; N = 16 is the 2w
# preset), n = 2N.  Run from the source folder.  The best curve uses the best
# tree of search.csv for 2w (best: hierarchical groups=1 order=scripted), reconfigured for each N.
for N in $(seq 1 16); do C=${N}x2@450; [ $N = 16 ] && C=2w; collsim allreduce --cluster $C --trees lam -n $((2 * N)) --iterations 1000 --format csv -q | tail -n 1 | sed "s/^/lam,--trees lam,$N,/"; done
for N in $(seq 1 16); do C=${N}x2@450; [ $N = 16 ] && C=2w; collsim allreduce --cluster $C --trees hierarchical --groups 1 --order scripted -n $((2 * N)) --iterations 1000 --format csv -q | tail -n 1 | sed "s/^/best,--trees hierarchical --groups 1 --order scripted,$N,/"; done
