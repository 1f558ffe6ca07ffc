/* Recursive-doubling allgather (seed 001, Section 4, Table 1: "Allgather,
 * Recursive Doubling", cost (p-1)/p n beta; Section 6.3, Table 4), as MPICH's
 * MPIR_Allgather_intra_recursive_doubling.
 *
 * Convention: steps i = 0, 1, ... with mask = 2^i < p.  Before step i rank r
 * holds the blocks of its aligned group [root_i(r), root_i(r) + 2^i) cut at p,
 * root_i(r) = r with its low i bits cleared.  In step i, if dst = r XOR mask
 * exists (< p), r sends everything it holds to dst and receives dst's
 * group (MPIC_Sendrecv: the send is listed first).  Distance 1 first, so
 * the groups double 1, 2, 4, ...  Tags: step i has tag i.
 *
 * Non-powers of two: MPICH's fix-up.  MPICH itself never runs it (the
 * routine asserts a power-of-two p when error checking is on, marks the
 * fix-up experimental, and MPICH's selection uses Bruck or the ring for
 * other p), but the code is in the routine and we implement it as written.
 * When the partner group [root_i(dst), +mask) is cut by p, only the first
 * nc = p - root_i(r) - mask ranks of r's group got its nc blocks in the
 * exchange.  They pass them on inside r's group by recursive halving: for
 * tmp = mask/2, mask/4, ..., 1 (tree = r with its low log2(2 tmp) bits
 * cleared, the current sub-group of 2 tmp ranks) rank r sends the nc blocks
 * [root_i(r) + mask, p) to r + tmp if r < tree + nc <= r + tmp, and receives
 * them from r - tmp if r - tmp < tree + nc <= r.  Every missing rank
 * receives them exactly once.  Tags: 64 + 64 i + log2(tmp).
 * For a power-of-two p this is the plain recursive doubling, p log2 p
 * messages, (p-1) p blocks.
 *
 * Units: one unit per rank (nunits = p).  Works for any p >= 1.  The
 * generator and the cost are oblivious.c's (shared with the scatter +
 * recursive-doubling broadcast).
 *
 * Cost (sim/contracts/cost.h; Table 1 gives (p-1)/p n beta, which assumes
 * the bytes spread over every link): log2 p exchanges one after another,
 * each with the loads of every rank sending its group (2^i blocks) at once,
 * so the ranks of a node (supernode) that exchange with one other node
 * (supernode) share its links; plus, for a non-power of two, the fix-up's
 * log2(mask) messages of nc blocks after the exchange it completes. */
#include "algorithms/collectives/oblivious.h"

static void ops(const cs_sched_params *prm, int64_t rank, cs_oplist *out)
{
  cs_obl_recursive_doubling_allgather(prm, rank, 0, out);
}

static double cost(const cs_sched_params *prm, const cs_cost_params *c)
{
  return cs_obl_recursive_doubling_cost(prm, c, (double)prm->bytes / (double)prm->p);
}

const cs_coll_algo cs_algo_recursive_doubling_allgather = {
  "recursive-doubling", CS_COLL_ALLGATHER,
  "recursive doubling, distance 1 first; MPICH's halving fix-up for non-powers of two", cs_plan_unit_per_rank, ops,
  false, cost, CS_OBL_RECURSIVE_DOUBLING_COST};
