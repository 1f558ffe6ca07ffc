/* Rabenseifner's reduce (seed 001, Section 4, Table 1: "Reduce,
 * Rabenseifner's Reduce-Scatter with Gather [7]", cost (p-1)/p (2 n beta +
 * n gamma); Section 6.4, Table 5), as MPICH's
 * MPIR_Reduce_intra_reduce_scatter_gather with root 0 and a commutative op.
 *
 * Units: MPICH cuts the count into pof2 pieces (pof2 = largest power of two
 * <= p), the first count % pof2 pieces one element larger; so do we, with
 * nunits = pof2 and bytes as elements (cs_unit_bytes spreads the buffer the
 * same way).  MPICH requires count >= pof2; plan() refuses fewer bytes.
 *
 * Pre-step (non-powers of two, rem = p - pof2, tag 0): each odd rank
 * r < 2 rem sends its whole buffer to r - 1, which adds it in
 * (RECV_REDUCE); the odd ones then drop out.  The others get new ranks:
 * r / 2 for even r < 2 rem, r - rem above; new rank q is real rank
 * (q < rem ? 2 q : q + rem).
 * Reduce-scatter by recursive halving (tags 1 + i): steps i = 0, 1, ... with
 * mask = 2^i < pof2, distance 1 first.  The rank's window of pieces (all
 * pof2 at first) is halved: if bit i of the new rank is clear it keeps the
 * lower half, sends the upper half to q XOR mask and RECV_REDUCEs the lower
 * half from it; otherwise the reverse (MPIC_Sendrecv: send listed first).
 * New rank q ends with one piece, the bit-reversal of q, fully reduced.
 * Gather to the root by a binomial tree (tags 64 + i) undoing the halving,
 * mask = pof2/2 first: for mask = pof2/2, ..., 1, a rank q < mask receives
 * (RECV: the sums are final) from q + mask the window that rank kept at
 * halving step log2(mask), which is the half q sent it then; a rank with
 * mask <= q < 2 mask sends its window to q - mask and is done.  New rank 0
 * is rank 0, the root, which ends with every piece.
 * MPICH's case of a root among the dropped odd ranks (extra send from rank
 * 0 to the root) never arises: the root is rank 0.
 *
 * Cost (sim/contracts/cost.h; Table 1's (p-1)/p (2 n beta + n gamma)
 * assumes the bytes spread over every link): the fold, then every halving
 * step and every gather step one after another, each with the loads of all
 * its ranks sending at once (the ranks of a node that pair with one other
 * node share its links), the halving's received half combined (gamma). */
#include "algorithms/collectives/oblivious.h"

#include <inttypes.h>

enum { FOLD_TAG = 0, HALVING_TAG = 1, GATHER_TAG = 64, MAX_STEPS = 63 };

static bool plan(cs_sched_params *prm, GError **err)
{
  int64_t pof2 = cs_pow2_floor(prm->p);
  if (prm->bytes < (uint64_t)pof2) {
    g_set_error(err, CS_SCHED_ERROR, 1,
                "rabenseifner reduce cuts the buffer into pof2 = %" PRId64 " pieces (largest power of two <= p = %" PRId64
                ") and needs at least that many bytes (bytes = %" PRIu64 ")",
                pof2, prm->p, prm->bytes);
    return false;
  }
  prm->nunits = pof2;
  return true;
}

typedef struct {
  int64_t p, pof2, rem;
} fold;

static fold fold_of(const cs_sched_params *prm) { return (fold){prm->p, prm->nunits, prm->p - prm->nunits}; }

static int64_t real_rank(const fold *f, int64_t q) { return q < f->rem ? 2 * q : q + f->rem; }

/* The pre-step; returns the new rank, or -1 for a rank that drops out. */
static int64_t fold_to_pow2(const cs_sched_params *prm, const fold *f, int64_t rank, cs_oplist *out)
{
  if (rank >= 2 * f->rem)
    return rank - f->rem;
  if (rank % 2 != 0) {
    cs_ops_send(out, rank - 1, FOLD_TAG, cs_units_all(prm));
    return -1;
  }
  cs_ops_recv_reduce(out, rank + 1, FOLD_TAG, cs_units_all(prm));
  return rank / 2;
}

/* Recursive halving; kept_first[i] is the first piece of the window kept
 * after step i (of pof2 >> (i + 1) pieces). */
static void reduce_scatter_halving(const fold *f, int64_t q, int64_t *kept_first, cs_oplist *out)
{
  int64_t lo = 0, size = f->pof2;
  for (int i = 0; ((int64_t)1 << i) < f->pof2; i++) {
    int64_t mask = (int64_t)1 << i, half = size / 2, peer = real_rank(f, q ^ mask);
    int64_t keep = (q & mask) ? lo + half : lo, give = (q & mask) ? lo : lo + half;
    cs_ops_send(out, peer, HALVING_TAG + i, cs_units_range(give, half));
    cs_ops_recv_reduce(out, peer, HALVING_TAG + i, cs_units_range(keep, half));
    lo = keep;
    size = half;
    kept_first[i] = keep;
  }
}

static void gather_to_root(const fold *f, int64_t q, const int64_t *kept_first, cs_oplist *out)
{
  for (int i = cs_log2_pow2(f->pof2) - 1; i >= 0; i--) {
    int64_t mask = (int64_t)1 << i, half = f->pof2 >> (i + 1);
    if (q >= mask) { /* mask <= q < 2 mask: the larger ones left earlier */
      cs_ops_send(out, real_rank(f, q - mask), GATHER_TAG + i, cs_units_range(kept_first[i], half));
      return;
    }
    /* bit i of q is clear: q kept the lower half at step i, gave the upper */
    cs_ops_recv(out, real_rank(f, q + mask), GATHER_TAG + i, cs_units_range(kept_first[i] + half, half));
  }
}

static void ops(const cs_sched_params *prm, int64_t rank, cs_oplist *out)
{
  fold f = fold_of(prm);
  int64_t q = fold_to_pow2(prm, &f, rank, out);
  if (q < 0)
    return;
  int64_t kept_first[MAX_STEPS];
  reduce_scatter_halving(&f, q, kept_first, out);
  gather_to_root(&f, q, kept_first, out);
}

/* ---- cost ---- */

/* New rank of a real rank after the fold, -1 for a rank that dropped out. */
static int64_t new_rank(const fold *f, int64_t r)
{
  if (r >= 2 * f->rem)
    return r - f->rem;
  return r % 2 ? -1 : r / 2;
}

static int64_t fold_partner(const cs_sched_params *prm, int64_t r, int64_t unused)
{
  (void)unused;
  return r % 2 && r < 2 * fold_of(prm).rem ? r - 1 : -1;
}

static int64_t halving_partner(const cs_sched_params *prm, int64_t r, int64_t mask)
{
  fold f = fold_of(prm);
  int64_t q = new_rank(&f, r);
  return q < 0 ? -1 : real_rank(&f, q ^ mask);
}

static int64_t gather_partner(const cs_sched_params *prm, int64_t r, int64_t mask)
{
  fold f = fold_of(prm);
  int64_t q = new_rank(&f, r);
  return q >= mask && q < 2 * mask ? real_rank(&f, q - mask) : -1;
}

/* A step of every rank at once, combining what it receives or not. */
static double step(const cs_sched_params *prm, const cs_cost_params *c, cs_cost_partner_fn f, int64_t arg,
                   double bytes, bool combine)
{
  cs_cost_step s = cs_cost_pattern(prm, f, arg, bytes);
  s.combined = combine ? bytes : 0;
  return cs_cost_step_time(c, &s);
}

static double cost(const cs_sched_params *prm, const cs_cost_params *c)
{
  double n = (double)prm->bytes, t = fold_of(prm).rem > 0 ? step(prm, c, fold_partner, 0, n, true) : 0;
  for (int64_t mask = 1; mask < prm->nunits; mask <<= 1)
    t += step(prm, c, halving_partner, mask, n / (double)(2 * mask), true) +
         step(prm, c, gather_partner, mask, n / (double)(2 * mask), false);
  return t;
}

const cs_coll_algo cs_algo_rabenseifner_reduce = {
  "rabenseifner", CS_COLL_REDUCE,
  "fold to a power of two, recursive-halving reduce-scatter, binomial gather to rank 0 (MPICH)", plan, ops, false,
  cost, "[q < p: shift(-1, n) + n*g] + sum_i=0..log2(q)-1 [xor(2^i, n/2^(i+1)) + n/2^(i+1)*g + shift(-2^i, "
        "n/2^(i+1))], q = largest power of two <= p, on the ranks left after the fold"};
