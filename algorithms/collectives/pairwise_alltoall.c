/* Pairwise-exchange alltoall, as MPICH's MPIR_Alltoall_intra_pairwise
 * (MPICH 3.3 to 4.2.3, src/mpi/coll/alltoall/alltoall_intra_pairwise.c;
 * MPICH's choice for long messages, generic.json's last alltoall rule).
 *
 * Convention: p-1 steps (i = 1 .. p-1), each one MPIC_Sendrecv (the send is
 * listed first) of a pair's block; its own block stays (a local copy, no
 * message).  Works for any p >= 1 (p = 1: no messages); p(p-1) messages.
 *   - p a power of two: in step i rank r sends its block for r XOR i to
 *     rank r XOR i and receives that rank's block for r from it (MPICH's
 *     "exclusive-or algorithm": src = dst = rank ^ i);
 *   - otherwise: in step i rank r sends its block for r+i to rank r+i and
 *     receives the block of r-i from rank r-i (mod p).
 * Both pairings send the same messages (every pair's block once) and bytes;
 * which pairs meet in a step, and so the links a step loads, differ.
 *
 * Representation: one CS_OP_LOOP of p-1 iterations over a send and a
 * receive, so a rank's list is 3 ops long at any p (16,384 ranks, 268 M
 * messages, handled by the pattern-generator in runs of same-node peers):
 *   - XOR: both ops pair by XOR (cs_ops_step_xor, offset 1: iteration i-1's
 *     peer is r XOR i, its units the pair block, schedule.h);
 *   - shift: a send with peer_step +1, unit_step (p+1) m (pair (r, r+i) is
 *     index (r+i)*p + i) and a receive with peer_step -1, unit_step m (pair
 *     (r-i, r) is index r*p + i).
 * Tags: step i has tag i - 1.
 *
 * Cost (sim/contracts/cost.h; MPICH's (p-1) alpha + n beta, n = (p-1) b
 * per rank): the p-1 steps one after another, each with the loads of every
 * rank sending a block to its partner of that step at once (xor(i, b) or
 * shift(i, b)). */
#include "algorithms/collectives/alltoall.h"
#include "algorithms/collectives/oblivious.h"

static bool power_of_two(int64_t p) { return (p & (p - 1)) == 0; }

static void xor_ops(const cs_sched_params *prm, int64_t rank, cs_oplist *out)
{
  int64_t partner = rank ^ 1;
  cs_ops_loop(out, prm->p - 1, 2);
  cs_ops_send(out, partner, 0, cs_units_pair(prm, rank, partner));
  cs_ops_step_xor(out, rank, 1);
  cs_ops_recv(out, partner, 0, cs_units_pair(prm, partner, rank));
  cs_ops_step_xor(out, rank, 1);
}

static void shift_ops(const cs_sched_params *prm, int64_t rank, cs_oplist *out)
{
  int64_t p = prm->p, m = cs_a2a_m(prm);
  int64_t right = (rank + 1) % p, left = (rank - 1 + p) % p;
  cs_ops_loop(out, p - 1, 2);
  cs_ops_send(out, right, 0, cs_units_pair(prm, rank, right));
  cs_ops_step(out, 1, (p + 1) * m);
  cs_ops_recv(out, left, 0, cs_units_pair(prm, left, rank));
  cs_ops_step(out, -1, m);
}

static void ops(const cs_sched_params *prm, int64_t rank, cs_oplist *out)
{
  if (prm->p == 1)
    return;
  if (power_of_two(prm->p))
    xor_ops(prm, rank, out);
  else
    shift_ops(prm, rank, out);
}

static double cost(const cs_sched_params *prm, const cs_cost_params *c)
{
  cs_cost_partner_fn partner = power_of_two(prm->p) ? cs_obl_xor_partner : cs_obl_shift_partner;
  double t = 0;
  for (int64_t i = 1; i < prm->p; i++) {
    cs_cost_step s = cs_cost_uniform_pattern(prm, partner, i, cs_a2a_b(prm));
    t += cs_cost_step_time(c, &s);
  }
  return t;
}

const cs_coll_algo cs_algo_pairwise_alltoall = {
  "pairwise", CS_COLL_ALLTOALL,
  "p-1 pairwise exchanges, step i: with rank XOR i (p a power of two), else send to rank+i, receive from rank-i "
  "(MPICH)",
  cs_a2a_plan, ops, false, cost, "sum_i=1..p-1 xor(i, b) (p a power of two) or shift(i, b), b = bytes per pair"};
