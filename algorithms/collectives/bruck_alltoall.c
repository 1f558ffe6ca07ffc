/* Bruck's alltoall, as MPICH's MPIR_Alltoall_intra_brucks (MPICH 3.3 to
 * 4.x; MPICH's choice for short messages, block <=
 * MPIR_CVAR_ALLTOALL_SHORT_MSG_SIZE, on 8 ranks or more).
 *
 * MPICH: rotate the local blocks so that slot o holds the block for rank+o;
 * for pof2 = 1, 2, 4, ... < p (step k, pof2 = 2^k) send to rank + pof2 the
 * slots whose index has bit k set (packed into one message with an indexed
 * datatype), receive the same slots from rank - pof2 in their place; rotate
 * back.  Works for any p: the slots stop at p-1, nothing else changes.
 * Store and forward: before step k, slot o of rank x holds the block from
 * x - (o mod 2^k) to x - (o mod 2^k) + o, so the slots sent in step k are
 * the pairs (x - t, x + c) for c = j 2^(k+1) + 2^k < p and t < 2^k (c + t <
 * p), pair index (x + c)*p + c + t: runs of 2^k consecutive indices for
 * t, one per j, 2^(k+1) (p+1) apart.
 *
 * One message per step, as MPICH packs it: the whole runs and, where p is
 * not a multiple of 2^(k+1) and p mod 2^(k+1) > 2^k, a partial last run
 * of p mod 2^(k+1) - 2^k slots, which starts where the next whole run
 * would (pair index (x + c)*p + c with c = j 2^(k+1) + 2^k, j = the number
 * of whole runs, is the strided set's next start mod p^2): a unit set with
 * a tail (cs_units_strided_tail).  Tag 2k.  Messages: p ceil(log2 p).
 *
 * Cost (sim/contracts/cost.h; MPICH's lg p alpha + (n/2) lg p beta): the
 * ceil(log2 p) steps one after another, each with the loads of every rank
 * sending its slots (c_k blocks, half of p or so) 2^k ranks on at once. */
#include "algorithms/collectives/alltoall.h"
#include "algorithms/collectives/oblivious.h"

/* Slots with bit k set: f whole runs of 2^k, then a partial run of `part`. */
typedef struct step_slots {
  int64_t pof2, whole, part;
} step_slots;

static step_slots slots_of(int64_t p, int64_t pof2)
{
  int64_t rem = p % (2 * pof2);
  return (step_slots){pof2, p / (2 * pof2), rem > pof2 ? rem - pof2 : 0};
}

/* The units sender x sends in the step: the whole runs, then the partial
 * one as their tail. */
static cs_units step_units(const cs_sched_params *prm, int64_t x, const step_slots *s)
{
  int64_t p = prm->p, m = cs_a2a_m(prm), c = s->pof2;
  return cs_units_strided_tail(((x + c) % p * p + c) * m, s->pof2 * m, 2 * s->pof2 * (p + 1) * m, s->whole,
                               s->part * m);
}

static void exchange(const cs_sched_params *prm, int64_t rank, int k, cs_oplist *out)
{
  int64_t p = prm->p, pof2 = (int64_t)1 << k, dst = (rank + pof2) % p, src = (rank - pof2 + p) % p;
  step_slots s = slots_of(p, pof2);
  cs_ops_send(out, dst, 2 * k, step_units(prm, rank, &s));
  cs_ops_recv(out, src, 2 * k, step_units(prm, src, &s));
}

static void ops(const cs_sched_params *prm, int64_t rank, cs_oplist *out)
{
  for (int k = 0; ((int64_t)1 << k) < prm->p; k++)
    exchange(prm, rank, k, out);
}

static double cost(const cs_sched_params *prm, const cs_cost_params *c)
{
  double t = 0;
  for (int64_t pof2 = 1; pof2 < prm->p; pof2 <<= 1) {
    step_slots s = slots_of(prm->p, pof2);
    double blocks = (double)(s.whole * pof2 + s.part);
    cs_cost_step st = cs_cost_uniform_pattern(prm, cs_obl_shift_partner, pof2, blocks * cs_a2a_b(prm));
    t += cs_cost_step_time(c, &st);
  }
  return t;
}

const cs_coll_algo cs_algo_bruck_alltoall = {
  "bruck", CS_COLL_ALLTOALL,
  "Bruck: ceil(log2 p) steps, step k sends the blocks whose slot has bit k set to rank+2^k (MPICH)", cs_a2a_plan,
  ops, false, cost, "sum_k=0..L-1 shift(2^k, c_k*b), c_k = slots o < p with bit k set (one message), b = bytes per pair"};
