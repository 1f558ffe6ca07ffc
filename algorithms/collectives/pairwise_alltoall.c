/* Pairwise-exchange alltoall, as MPICH's MPIR_Alltoall_intra_pairwise
 * (MPICH 3.3 to 4.x; MPICH's choice for long messages, block >=
 * MPIR_CVAR_ALLTOALL_MEDIUM_MSG_SIZE) for a non-power of two of ranks.
 *
 * Convention: p-1 steps; in step i (i = 1 .. p-1) rank r sends its block
 * for r+i to rank r+i and receives the block of r-i from rank r-i
 * (MPIC_Sendrecv: the send is listed first).  Its own block stays (a local
 * copy, no message).  Works for any p >= 1 (p = 1: no messages); p(p-1)
 * messages, each a pair's block.
 *
 * Powers of two: MPICH pairs rank r with r XOR i in step i instead (the
 * same p-1 steps, messages and bytes; other pairs meet in a step).  That
 * pairing is no arithmetic progression of peers, so a loop cannot express
 * it and a rank's list would be p-1 ops long; we run the shift pairing for
 * every p, keeping the list 3 ops long at any p (16,384 ranks, 268 M
 * messages, handled by the pattern-generator in runs of same-node peers).
 *
 * Representation: one CS_OP_LOOP of p-1 iterations over a send (peer_step
 * +1, unit_step (p+1) m: pair (r, r+i) is index (r+i)*p + i) and a receive
 * (peer_step -1, unit_step m: pair (r-i, r) is index r*p + i).  Tags: step
 * i has tag i - 1.
 *
 * Cost (sim/contracts/cost.h; MPICH's (p-1) alpha + n beta, n = (p-1) b
 * per rank): the p-1 steps one after another, each with the loads of every
 * rank sending a block i ranks on at once. */
#include "algorithms/collectives/alltoall.h"
#include "algorithms/collectives/oblivious.h"

static void ops(const cs_sched_params *prm, int64_t rank, cs_oplist *out)
{
  int64_t p = prm->p, m = cs_a2a_m(prm);
  if (p == 1)
    return;
  int64_t right = (rank + 1) % p, left = (rank - 1 + p) % p;
  cs_ops_loop(out, p - 1, 2);
  cs_ops_send(out, right, 0, cs_units_pair(prm, rank, right));
  cs_ops_step(out, 1, (p + 1) * m);
  cs_ops_recv(out, left, 0, cs_units_pair(prm, left, rank));
  cs_ops_step(out, -1, m);
}

static double cost(const cs_sched_params *prm, const cs_cost_params *c)
{
  double t = 0;
  for (int64_t i = 1; i < prm->p; i++) {
    cs_cost_step s = cs_cost_uniform_pattern(prm, cs_obl_shift_partner, i, cs_a2a_b(prm));
    t += cs_cost_step_time(c, &s);
  }
  return t;
}

const cs_coll_algo cs_algo_pairwise_alltoall = {
  "pairwise", CS_COLL_ALLTOALL,
  "p-1 pairwise exchanges, step i: send to rank+i, receive from rank-i (MPICH's non-power-of-two pairing)",
  cs_a2a_plan, ops, false, cost, "sum_i=1..p-1 shift(i, b), b = bytes per pair"};
