/* Linear alltoall, every message posted at once, as Open MPI's
 * ompi_coll_base_alltoall_intra_basic_linear (Open MPI 4.1 and 5.0; the
 * basic component's alltoall, and tuned's for small communicators): post a
 * receive from every other rank and a send to every other rank, then wait
 * for all.  (MPICH's MPIR_Alltoall_intra_scattered posts them
 * MPIR_CVAR_ALLTOALL_THROTTLE at a time.)
 *
 * Convention: rank r sends its block for r-i to rank r-i for i = 1 .. p-1
 * (Open MPI posts its sends in that order), then receives from r+i for i =
 * 1 .. p-1 (its receives' order; rank r+i's send to r is its i-th, so they
 * come in about that order).  A schedule's sends do not wait for their
 * receives on the (default) eager engine, so all p-1 messages of a rank
 * leave at once.  Any p >= 1; p(p-1) messages.
 *
 * Representation: two CS_OP_LOOPs of p-1 iterations: the sends (peer_step
 * -1, unit_step -(p+1) m: pair (r, r-i) is index (r-i)*p + p-i) and the
 * receives (peer_step +1, unit_step -m: pair (r+i, r) is index r*p + p-i).
 * Tags: the i-th send of a rank (from 0) has tag i, as the i-th receive.
 * Under the MPI semantics (--semantics mpi) a send of a rendezvous-sized
 * block waits for its receive before the next send: every rank then waits
 * in its sends and the run deadlocks (Open MPI posts nonblocking sends,
 * which a schedule cannot say).
 *
 * Cost (sim/contracts/cost.h; Open MPI's (p-1) alpha + n beta without
 * contention): one step in which every rank sends p-1 blocks and receives
 * p-1: two nodes exchange cpn^2 blocks, a node's port carries cpn (p-cpn),
 * two supernodes exchange (nps cpn)^2. */
#include "algorithms/collectives/alltoall.h"

static void ops(const cs_sched_params *prm, int64_t rank, cs_oplist *out)
{
  int64_t p = prm->p, m = cs_a2a_m(prm);
  if (p == 1)
    return;
  int64_t left = (rank - 1 + p) % p, right = (rank + 1) % p;
  cs_ops_loop(out, p - 1, 1);
  cs_ops_send(out, left, 0, cs_units_pair(prm, rank, left));
  cs_ops_step(out, -1, -(p + 1) * m);
  cs_ops_loop(out, p - 1, 1);
  cs_ops_recv(out, right, 0, cs_units_pair(prm, right, rank));
  cs_ops_step(out, 1, -m);
}

static double cost(const cs_sched_params *prm, const cs_cost_params *c)
{
  const cs_two_tier *tt = prm->tt;
  double b = cs_a2a_b(prm), cpn = (double)tt->cpn, per_sn = (double)(tt->nps * tt->cpn), p = (double)prm->p;
  if (prm->p < 2)
    return 0;
  cs_cost_level level = tt->sn > 1 ? CS_LVL_SUPERNODE : tt->nps > 1 ? CS_LVL_NODE : CS_LVL_CORE;
  cs_cost_step s = {.level = level, .pair_bytes = level == CS_LVL_CORE ? b : cpn * cpn * b,
                    .port_bytes = cpn * (p - cpn) * b, .l2_bytes = tt->sn > 1 ? per_sn * per_sn * b : 0,
                    .sends = p - 1, .recvs = p - 1};
  return cs_cost_step_time(c, &s);
}

const cs_coll_algo cs_algo_linear_alltoall = {
  "linear", CS_COLL_ALLTOALL,
  "every send and receive posted at once: p-1 sends to rank-i, p-1 receives from rank+i (Open MPI basic_linear)",
  cs_a2a_plan, ops, false, cost,
  "one step of p-1 sends and p-1 receives per rank: o_send*(p-1) + a + max(cpn^2*b*B, cpn*(p-cpn)*b*Bp, "
  "(nps*cpn)^2*b*BL) + (p-1)*o_recv, a and B of the farthest pair, b = bytes per pair"};
