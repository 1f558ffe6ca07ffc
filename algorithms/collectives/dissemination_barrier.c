/* Dissemination barrier (Hensgen, Finkel and Manber 1988), as MPICH's
 * MPIR_Barrier_intra_dissemination (MPICH 3.3 to 4.x, MPICH's default
 * barrier; MPIR_Barrier_intra_recursive_doubling in older versions, the same
 * code): for mask = 1, 2, 4, ... < p, rank r sends a 0-byte message to r +
 * mask and receives one from r - mask (MPIC_Sendrecv: send listed first).
 * Works for any p (no special case for non-powers of two): ceil(log2 p)
 * steps, p ceil(log2 p) messages; p = 1: none.
 *
 * Tokens (schedule.h): rank r starts with token r; before step k it holds
 * the tokens of r - 2^k + 1 .. r, and sends them all (0 bytes); the receiver
 * then holds 2^(k+1) tokens (all p after the last step).  The replay thus
 * proves that every rank has heard, transitively, from every other before
 * it finishes.  Tags: step k has tag k.
 *
 * Cost (sim/contracts/cost.h): ceil(log2 p) steps of 0-byte messages, each
 * every rank sending to rank + 2^k at once: o + a at the farthest pair. */
#include "algorithms/collectives/oblivious.h"

static void ops(const cs_sched_params *prm, int64_t rank, cs_oplist *out)
{
  int64_t p = prm->p;
  for (int k = 0; ((int64_t)1 << k) < p; k++) {
    int64_t mask = (int64_t)1 << k, dst = (rank + mask) % p, src = (rank - mask + p) % p;
    cs_ops_send(out, dst, k, cs_units_blocks(prm, rank - mask + 1, mask));
    cs_ops_recv(out, src, k, cs_units_blocks(prm, src - mask + 1, mask));
  }
}

static double cost(const cs_sched_params *prm, const cs_cost_params *c)
{
  double t = 0;
  for (int64_t mask = 1; mask < prm->p; mask <<= 1) {
    cs_cost_step s = cs_cost_pattern(prm, cs_obl_shift_partner, mask, 0);
    t += cs_cost_step_time(c, &s);
  }
  return t;
}

const cs_coll_algo cs_algo_dissemination_barrier = {
  "dissemination", CS_COLL_BARRIER,
  "ceil(log2 p) steps, step k: a 0-byte message to rank+2^k, one from rank-2^k (MPICH)", cs_plan_unit_per_rank,
  ops, false, cost, "sum_k=0..L-1 shift(2^k, 0)"};
