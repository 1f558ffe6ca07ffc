/* Ring allreduce, as MPICH's MPIR_Allreduce_intra_ring (MPICH 3.3 to 4.x,
 * after Baidu's ring allreduce): a ring reduce-scatter, then a ring
 * allgather of the reduced chunks (MPIR_Allgatherv_intra_ring).
 *
 * Chunks: the buffer is cut into p chunks, chunk r being rank r's at the
 * end of the reduce-scatter (nunits = p).  MPICH cuts with ceil(n/p) per
 * chunk (the last ones shorter or empty); we keep collsim's balanced cut
 * (cs_unit_bytes: the first n % p chunks one byte larger), as the van de
 * Geijn bcast does: the same messages, each chunk within a byte of MPICH's
 * when p divides n, and the same total.  Empty chunks are still sent, as
 * MPICH does.
 * Reduce-scatter (tags i = 0 .. p-2): in step i rank r sends chunk r-1-i to
 * r+1 and adds in (RECV_REDUCE) chunk r-2-i from r-1 (MPICH posts the
 * receive and the send at once and waits for both: send listed first).
 * After p-1 steps rank r holds chunk r summed over all ranks.
 * Allgather (tags p + i): the ring allgather of the chunks, p-1 steps, step
 * i sending chunk r-i to r+1 and receiving chunk r-1-i from r-1 (RECV).
 * Each phase is one CS_OP_LOOP of two ops: 6 ops per rank whatever p.
 * Works for any p >= 1 (p = 1: no messages).  Messages: 2 p (p-1).
 *
 * Cost (sim/contracts/cost.h; MPICH's 2 (p-1) alpha + 2 n (p-1)/p beta +
 * n (p-1)/p gamma): p-1 reduce-scatter steps one after another (a step's
 * chunk must be combined before it is sent on), each every rank sending a
 * chunk b = n/p to rank+1 at once, then the ring allgather's cost. */
#include "algorithms/collectives/oblivious.h"

static void reduce_scatter_ring(const cs_sched_params *prm, int64_t rank, int32_t tag, cs_oplist *out)
{
  int64_t p = prm->p, m = prm->nunits / p;
  if (p == 1)
    return;
  int64_t right = (rank + 1) % p, left = (rank - 1 + p) % p;
  cs_ops_loop(out, p - 1, 2);
  cs_ops_send(out, right, tag, cs_units_block(prm, rank - 1));
  cs_ops_step(out, 0, -m);
  cs_ops_recv_reduce(out, left, tag, cs_units_block(prm, rank - 2));
  cs_ops_step(out, 0, -m);
}

static void ops(const cs_sched_params *prm, int64_t rank, cs_oplist *out)
{
  reduce_scatter_ring(prm, rank, 0, out);
  cs_obl_ring_allgather(prm, rank, (int32_t)prm->p, out);
}

static double cost(const cs_sched_params *prm, const cs_cost_params *c)
{
  if (prm->p < 2)
    return 0;
  double b = (double)prm->bytes / (double)prm->p;
  cs_cost_step s = cs_cost_pattern(prm, cs_obl_shift_partner, 1, b);
  s.combined = b;
  return (double)(prm->p - 1) * cs_cost_step_time(c, &s) + cs_obl_ring_cost(prm, c, b);
}

const cs_coll_algo cs_algo_ring_allreduce = {
  "ring", CS_COLL_ALLREDUCE, "ring reduce-scatter of p chunks + ring allgather, 2(p-1) steps (MPICH)",
  cs_plan_unit_per_rank, ops, false, cost,
  "(p-1)*[shift(1, b) + b*g] + [ring allgather of b: " CS_OBL_RING_COST "], b = n/p"};
