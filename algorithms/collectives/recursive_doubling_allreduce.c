/* Recursive-doubling allreduce, as MPICH's
 * MPIR_Allreduce_intra_recursive_doubling (MPICH 3.3 to 4.x; MPICH runs it
 * for short messages, count*size <= MPIR_CVAR_ALLREDUCE_SHORT_MSG_SIZE, or
 * count < pof2, or a non-commutative operation).
 *
 * Non-powers of two: MPICH's pre and post steps (allreduce_fold.h, tags 0
 * and 64): the even ranks of the first 2 rem hand their buffer to the odd
 * rank above them and get the result back from it at the end.
 * Exchange: on the pof2 ranks left, for mask = 1, 2, 4, ... < pof2, new rank
 * q exchanges its whole buffer with new rank q XOR mask and adds what it
 * receives (MPIC_Sendrecv then MPIR_Reduce_local: send listed first,
 * RECV_REDUCE; tag 1 + log2(mask)).  Every rank ends with every unit summed.
 *
 * Units: the whole buffer as one unit (nunits = 1): every message carries
 * it all.  Works for any p >= 1 (p = 1: no messages).  Messages:
 * pof2 log2(pof2) + 2 rem.
 *
 * Cost (sim/contracts/cost.h; MPICH's lg p alpha + n lg p (beta + gamma)):
 * the pre-step, log2(pof2) exchanges of n bytes one after another, each with
 * the loads of every pair exchanging at once and n combined, the post-step. */
#include "algorithms/collectives/allreduce_fold.h"

enum { FOLD_TAG = 0, EXCHANGE_TAG = 1, UNFOLD_TAG = 64 };

static void ops(const cs_sched_params *prm, int64_t rank, cs_oplist *out)
{
  cs_fold f = cs_fold_of(prm->p);
  int64_t q = cs_fold_pre(prm, &f, rank, FOLD_TAG, out);
  for (int32_t i = 0; q >= 0 && ((int64_t)1 << i) < f.pof2; i++) {
    int64_t peer = cs_fold_real_rank(&f, q ^ ((int64_t)1 << i));
    cs_ops_send(out, peer, EXCHANGE_TAG + i, cs_units_all(prm));
    cs_ops_recv_reduce(out, peer, EXCHANGE_TAG + i, cs_units_all(prm));
  }
  cs_fold_post(prm, &f, rank, UNFOLD_TAG, out);
}

static double cost(const cs_sched_params *prm, const cs_cost_params *c)
{
  double n = (double)prm->bytes, t = cs_fold_pre_cost(prm, c, n) + cs_fold_post_cost(prm, c, n);
  for (int64_t mask = 1; mask < cs_fold_of(prm->p).pof2; mask <<= 1) {
    cs_cost_step s = cs_cost_pattern(prm, cs_fold_xor_partner, mask, n);
    s.combined = n;
    t += cs_cost_step_time(c, &s);
  }
  return t;
}

const cs_coll_algo cs_algo_recursive_doubling_allreduce = {
  "recursive-doubling", CS_COLL_ALLREDUCE,
  "whole-buffer exchanges with rank XOR 2^i; MPICH's fold of the extra ranks for non-powers of two",
  cs_plan_whole_buffer, ops,
  false, cost, CS_FOLD_PRE_COST " + sum_i=0..log2(q)-1 [xor(2^i, n) + n*g] + " CS_FOLD_POST_COST
               ", q = largest power of two <= p, on the ranks left after the fold"};
