/* MPICH's fold of an allreduce to a power of two; see allreduce_fold.h. */
#include "algorithms/collectives/allreduce_fold.h"
#include "algorithms/shapes/tree_shapes.h"

cs_fold cs_fold_of(int64_t p)
{
  int64_t pof2 = cs_pow2_floor(p);
  return (cs_fold){p, pof2, p - pof2};
}

int64_t cs_fold_real_rank(const cs_fold *f, int64_t q) { return q < f->rem ? 2 * q + 1 : q + f->rem; }

int64_t cs_fold_new_rank(const cs_fold *f, int64_t r)
{
  if (r >= 2 * f->rem)
    return r - f->rem;
  return r % 2 ? r / 2 : -1;
}

int64_t cs_fold_pre(const cs_sched_params *prm, const cs_fold *f, int64_t rank, int32_t tag, cs_oplist *out)
{
  if (rank < 2 * f->rem) {
    if (rank % 2 == 0)
      cs_ops_send(out, rank + 1, tag, cs_units_all(prm));
    else
      cs_ops_recv_reduce(out, rank - 1, tag, cs_units_all(prm));
  }
  return cs_fold_new_rank(f, rank);
}

void cs_fold_post(const cs_sched_params *prm, const cs_fold *f, int64_t rank, int32_t tag, cs_oplist *out)
{
  if (rank >= 2 * f->rem)
    return;
  if (rank % 2)
    cs_ops_send(out, rank - 1, tag, cs_units_all(prm));
  else
    cs_ops_recv(out, rank + 1, tag, cs_units_all(prm));
}

/* ---- costs ---- */

static int64_t pre_partner(const cs_sched_params *prm, int64_t r, int64_t unused)
{
  (void)unused;
  return r % 2 == 0 && r < 2 * cs_fold_of(prm->p).rem ? r + 1 : -1;
}

static int64_t post_partner(const cs_sched_params *prm, int64_t r, int64_t unused)
{
  (void)unused;
  return r % 2 == 1 && r < 2 * cs_fold_of(prm->p).rem ? r - 1 : -1;
}

double cs_fold_pre_cost(const cs_sched_params *prm, const cs_cost_params *c, double n)
{
  if (cs_fold_of(prm->p).rem == 0)
    return 0;
  cs_cost_step s = cs_cost_pattern(prm, pre_partner, 0, n);
  s.combined = n;
  return cs_cost_step_time(c, &s);
}

double cs_fold_post_cost(const cs_sched_params *prm, const cs_cost_params *c, double n)
{
  if (cs_fold_of(prm->p).rem == 0)
    return 0;
  cs_cost_step s = cs_cost_pattern(prm, post_partner, 0, n);
  return cs_cost_step_time(c, &s);
}

int64_t cs_fold_xor_partner(const cs_sched_params *prm, int64_t r, int64_t mask)
{
  cs_fold f = cs_fold_of(prm->p);
  int64_t q = cs_fold_new_rank(&f, r);
  return q < 0 ? -1 : cs_fold_real_rank(&f, q ^ mask);
}
