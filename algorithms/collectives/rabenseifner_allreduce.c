/* Rabenseifner's allreduce (reduce-scatter + allgather), as MPICH's
 * MPIR_Allreduce_intra_reduce_scatter_allgather (MPICH 3.3 to 4.x; MPICH
 * runs it for long messages of a commutative built-in operation with
 * count >= pof2).
 *
 * Units: MPICH cuts the count into pof2 pieces (pof2 = largest power of two
 * <= p), the first count % pof2 one element larger; so do we, with nunits =
 * pof2 and bytes as elements (cs_unit_bytes spreads the buffer the same
 * way).  MPICH asserts count >= pof2; plan() refuses fewer bytes.
 *
 * Non-powers of two: MPICH's pre and post steps (allreduce_fold.h, tags 0
 * and 128).
 * Reduce-scatter by recursive halving (tags 1 + i): for mask = 2^i < pof2,
 * distance 1 first, new rank q halves its window of pieces (all pof2 at
 * first): with bit i of q clear it keeps the lower half, sends the upper to
 * q XOR mask and adds in (RECV_REDUCE) the lower half from it; otherwise
 * the reverse (MPIC_Sendrecv: send listed first).
 * Allgather by recursive doubling (tags 64 + i), the halving undone, mask
 * = pof2/2 first: q sends its window to q XOR mask and receives (RECV: the
 * sums are final) the partner's, the other half of their common window.
 *
 * Cost (sim/contracts/cost.h; MPICH's 2 lg p alpha + 2 n (p-1)/p beta +
 * n (p-1)/p gamma for a power of two): the pre-step, every halving step
 * (n/2^(i+1) bytes, combined) and every doubling step one after another,
 * each with the loads of every pair exchanging at once, the post-step. */
#include "algorithms/collectives/allreduce_fold.h"

#include <inttypes.h>

enum { FOLD_TAG = 0, HALVING_TAG = 1, DOUBLING_TAG = 64, UNFOLD_TAG = 128, MAX_STEPS = 63 };

static bool plan(cs_sched_params *prm, GError **err)
{
  int64_t pof2 = cs_fold_of(prm->p).pof2;
  if (prm->bytes < (uint64_t)pof2) {
    g_set_error(err, CS_SCHED_ERROR, 1,
                "rabenseifner allreduce cuts the buffer into pof2 = %" PRId64 " pieces (largest power of two <= p = "
                "%" PRId64 ") and needs at least that many bytes (bytes = %" PRIu64 "; MPICH asserts count >= pof2)",
                pof2, prm->p, prm->bytes);
    return false;
  }
  prm->nunits = pof2;
  return true;
}

/* Recursive halving; lo[i] is the first piece of the window kept after
 * step i (of pof2 >> (i + 1) pieces).  Returns the number of steps. */
static int halving(const cs_fold *f, int64_t q, int64_t *lo, cs_oplist *out)
{
  int64_t first = 0, size = f->pof2;
  int i = 0;
  for (; ((int64_t)1 << i) < f->pof2; i++) {
    int64_t half = size / 2, peer = cs_fold_real_rank(f, q ^ ((int64_t)1 << i));
    bool lower = (q & ((int64_t)1 << i)) == 0;
    int64_t keep = lower ? first : first + half, give = lower ? first + half : first;
    cs_ops_send(out, peer, HALVING_TAG + i, cs_units_range(give, half));
    cs_ops_recv_reduce(out, peer, HALVING_TAG + i, cs_units_range(keep, half));
    first = keep;
    size = half;
    lo[i] = keep;
  }
  return i;
}

static void doubling(const cs_fold *f, int64_t q, const int64_t *lo, int steps, cs_oplist *out)
{
  for (int i = steps - 1; i >= 0; i--) {
    int64_t size = f->pof2 >> (i + 1), peer = cs_fold_real_rank(f, q ^ ((int64_t)1 << i));
    bool lower = (q & ((int64_t)1 << i)) == 0;
    cs_ops_send(out, peer, DOUBLING_TAG + i, cs_units_range(lo[i], size));
    cs_ops_recv(out, peer, DOUBLING_TAG + i, cs_units_range(lower ? lo[i] + size : lo[i] - size, size));
  }
}

static void ops(const cs_sched_params *prm, int64_t rank, cs_oplist *out)
{
  cs_fold f = cs_fold_of(prm->p);
  int64_t q = cs_fold_pre(prm, &f, rank, FOLD_TAG, out);
  if (q >= 0) {
    int64_t lo[MAX_STEPS];
    doubling(&f, q, lo, halving(&f, q, lo, out), out);
  }
  cs_fold_post(prm, &f, rank, UNFOLD_TAG, out);
}

static double cost(const cs_sched_params *prm, const cs_cost_params *c)
{
  double n = (double)prm->bytes, t = cs_fold_pre_cost(prm, c, n) + cs_fold_post_cost(prm, c, n);
  for (int64_t mask = 1; mask < prm->nunits; mask <<= 1) {
    double half = n / (double)(2 * mask);
    cs_cost_step s = cs_cost_pattern(prm, cs_fold_xor_partner, mask, half);
    t += cs_cost_step_time(c, &s);
    s.combined = half;
    t += cs_cost_step_time(c, &s);
  }
  return t;
}

const cs_coll_algo cs_algo_rabenseifner_allreduce = {
  "rabenseifner", CS_COLL_ALLREDUCE,
  "fold to a power of two, recursive-halving reduce-scatter, recursive-doubling allgather (MPICH)", plan, ops,
  false, cost, CS_FOLD_PRE_COST " + sum_i=0..log2(q)-1 [2*xor(2^i, n/2^(i+1)) + n/2^(i+1)*g] + " CS_FOLD_POST_COST
               ", q = largest power of two <= p, on the ranks left after the fold"};
