/* Van de Geijn broadcast (seed 001, Section 4, Table 1: "Broadcast,
 * DeGeijn's Scatter with Allgather [3]", cost 2 (p-1)/p n beta; Section 6.2,
 * Table 3), as MPICH's MPIR_Bcast_intra_scatter_ring_allgather: a binomial
 * scatter of the buffer followed by a ring allgather.
 *
 * Phase 1 (tags 0..62, the tree level): the buffer is cut into p chunks,
 * chunk r being rank r's (relative to the root, rank 0); the root scatters
 * them exactly as the binomial scatter does (MPII_Scatter_for_bcast: a rank
 * receives its subtree's chunks from r - lowbit(r), then sends children
 * r + mask, largest mask first, their subtrees' chunks).
 * Phase 2 (tags 64 + i): ring allgather of the chunks, p-1 steps; in step i
 * rank r sends chunk r - i to r+1 and receives chunk r-1-i from r-1, as one
 * CS_OP_LOOP (MPIC_Sendrecv order: send listed first).
 *
 * Chunking (our choice): nunits = p with collsim's balanced unit sizes
 * (cs_unit_bytes: the first n % p chunks have ceil(n/p) bytes, the others
 * floor(n/p); n = 97, p = 16: one chunk of 7, fifteen of 6).  MPICH cuts with
 * scatter_size = ceil(n/p): chunk r has min(ceil(n/p), max(0, n - r*ceil(n/p)))
 * bytes (n = 97, p = 16: thirteen chunks of 7, one of 6, two empty).  The
 * two agree whenever p divides n (every case in the paper); otherwise the
 * ring still moves (p-1) n bytes in total; the scatter and per-link loads
 * differ, each chunk by at most ceil(n/p) bytes.  We keep the balanced cut, as
 * unit sizes are fixed by cs_unit_bytes.  MPICH also skips scatter sends of
 * 0 bytes (a subtree whose chunks are all empty under its cut); here every
 * tree edge carries its (possibly empty) chunks, so the replay can track
 * every chunk.  The ring, as in MPICH, always runs its p-1 steps.
 * Works for any p >= 1 (p = 1: no messages).
 *
 * Cost (sim/contracts/cost.h; Table 1's 2 (p-1)/p n beta plus latency): the
 * binomial scatter's of chunks b = n/p followed by the ring's; the ring
 * starts when the scatter is over (no overlap, our choice). */
#include "algorithms/collectives/oblivious.h"

enum { SCATTER_TAG = 0, RING_TAG = 64 };

static void ops(const cs_sched_params *prm, int64_t rank, cs_oplist *out)
{
  cs_obl_binomial_scatter(prm, rank, SCATTER_TAG, out);
  cs_obl_ring_allgather(prm, rank, RING_TAG, out);
}

static double cost(const cs_sched_params *prm, const cs_cost_params *c)
{
  double b = (double)prm->bytes / (double)prm->p;
  return cs_obl_binomial_cost(prm, c, b, true) + cs_obl_ring_cost(prm, c, b);
}

const cs_coll_algo cs_algo_vandegeijn_bcast = {
  "vandegeijn", CS_COLL_BCAST, "binomial scatter of p chunks + ring allgather (MPICH, van de Geijn)",
  cs_plan_unit_per_rank, ops, false, cost,
  "[binomial scatter of b = n/p: " CS_OBL_BINOMIAL_SCATTER_COST "] + [ring: " CS_OBL_RING_COST "]"};
