# split-2w.csv: the 2-way cluster at n = 32 under the other split of a
# message's cost that the README's Differences section names (12000 cycles,
# 100 us node to node, 80 us shared memory; calibration.csv's row scores it
# on the 8-way cluster): collsim's CSV header, then the result line of each
# command below, run from the source folder.
collsim allreduce --cluster 2w --cycles 12000 --net-lat 100 --shm-lat 80 --trees lam -n 32 --iterations 1000 --format csv -q
collsim allreduce --cluster 2w --cycles 12000 --net-lat 100 --shm-lat 80 --trees hierarchical --groups 1 -n 32 --iterations 1000 --format csv -q
