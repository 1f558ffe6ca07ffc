# sec52.csv: the header "curve,tree_args," + collsim's CSV header, then one row
# per configuration of Section 5.2 (8w, n = 32): CURVE,TREE_ARGS, followed by the
# result line of collsim allreduce.  Run from the source folder.
#   local-root   a local root per node with 7 children (paper: 1444 us)
#   extra-layer  a node root above two sub-groups per node: one more layer (paper: 1534 us)
#   two-groups   two groups of 4 per node, each straight to rank 0 (paper: 1322 us)
#   lam          LAM-MPI's default trees (paper: 1.98 x the two-groups time)
collsim allreduce --cluster 8w --trees hierarchical --groups 1 -n 32 --iterations 1000 --format csv -q | tail -n 1 | sed "s/^/local-root,--trees hierarchical --groups 1,/"
collsim allreduce --cluster 8w --trees kary-node --groups 2 --fanout 3 -n 32 --iterations 1000 --format csv -q | tail -n 1 | sed "s/^/extra-layer,--trees kary-node --groups 2 --fanout 3,/"
collsim allreduce --cluster 8w --trees hierarchical --groups 2 -n 32 --iterations 1000 --format csv -q | tail -n 1 | sed "s/^/two-groups,--trees hierarchical --groups 2,/"
collsim allreduce --cluster 8w --trees lam -n 32 --iterations 1000 --format csv -q | tail -n 1 | sed "s/^/lam,--trees lam,/"
