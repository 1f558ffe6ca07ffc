#!/usr/bin/env bash
# One calibration of the SMP-cluster timing model for all of seed 002's
# clusters (platforms/smp_cluster.c): a grid over the three free parameters
#   cycles  CPU cycles per message sent and per message received,
#   net     node-to-node latency (us),
#   shm     shared-memory latency (us),
# each point scored on the only absolute times the paper gives: Section 5.2's
# 8-way cluster at n = 32 (1444, 1534 and 1322 us for its three
# configurations) and LAM-MPI's time there (1322 x 1.98 = 2618 us, from the
# stated speed-up).  Score: sum of squared log(ours / paper).  The 4-way and
# 2-way clusters are not used: their speed-ups are predictions.
# The grid stays within bounds fixed beforehand as plausible for LAM over TCP
# on these machines (at most 300 us node to node, 120 us through shared
# memory): the four points do not pin the three parameters down (more cycles
# and less latency score almost as well), and outside those bounds the best
# score keeps improving slowly towards implausible latencies.
#   scripts/calibrate-seed002.sh [OUT.csv]     Env: COLLSIM, ITERATIONS (50)
set -euo pipefail
collsim=${COLLSIM:-./collsim}
out=${1:-calibration.csv}
iters=${ITERATIONS:-50}
configs=("hierarchical --groups 1:1444" "kary-node --groups 2 --fanout 3:1534" "hierarchical --groups 2:1322"
         "lam:2617.56")
echo "cycles,net_us,shm_us,hier_us,layer_us,two_groups_us,lam_us,score" > "$out.tmp"
for cycles in 6000 7000 8000 9000 10000 12000; do
  for net in 100 150 200 250 300; do
    for shm in 20 40 60 80 100 120; do
      row="$cycles,$net,$shm" score=0
      for c in "${configs[@]}"; do
        trees=${c%%:*} paper=${c##*:}
        # shellcheck disable=SC2086
        us=$("$collsim" allreduce --cluster 8w --trees $trees -n 32 --iterations "$iters" --cycles "$cycles" \
               --net-lat "$net" --shm-lat "$shm" --format csv -q | tail -1 | cut -d, -f6)
        row="$row,$us"
        score=$(awk -v s="$score" -v a="$us" -v b="$paper" 'BEGIN { l = log(a / b); printf "%.6f", s + l * l }')
      done
      echo "$row,$score" >> "$out.tmp"
    done
  done
done
mv "$out.tmp" "$out"
sort -t, -k8 -g "$out" | sed -n 2p | awk -F, '{ printf "best: cycles %s, net %s us, shm %s us (score %s)\n", $1, $2, $3, $8 }'
