/* MPICH's way of running an allreduce on a power of two of ranks (MPICH
 * 3.3 to 4.x, MPIR_Allreduce_intra_recursive_doubling and
 * MPIR_Allreduce_intra_reduce_scatter_allgather, the same pre and post
 * steps): pof2 = the largest power of two <= p, rem = p - pof2.
 *
 * Pre-step: of the first 2 rem ranks each even rank r sends its whole
 * buffer to r + 1, which adds it in (RECV_REDUCE), and drops out.  The
 * others get new ranks: r / 2 for odd r < 2 rem, r - rem above; new rank q
 * is real rank (q < rem ? 2 q + 1 : q + rem).
 * Post-step: each odd r < 2 rem sends the result to r - 1 (RECV: the sums
 * are final).
 * For a power of two both steps are empty and new ranks are real ranks. */
#ifndef COLLSIM_ALLREDUCE_FOLD_H
#define COLLSIM_ALLREDUCE_FOLD_H

#include "sim/contracts/schedule.h"

typedef struct cs_fold {
  int64_t p, pof2, rem;
} cs_fold;

cs_fold cs_fold_of(int64_t p);
int64_t cs_fold_real_rank(const cs_fold *f, int64_t q);
/* New rank of real rank r, -1 for a rank that drops out. */
int64_t cs_fold_new_rank(const cs_fold *f, int64_t r);

/* The pre-step's ops for rank (tag `tag`); returns its new rank or -1. */
int64_t cs_fold_pre(const cs_sched_params *prm, const cs_fold *f, int64_t rank, int32_t tag, cs_oplist *out);
/* The post-step's ops for rank (tag `tag`). */
void cs_fold_post(const cs_sched_params *prm, const cs_fold *f, int64_t rank, int32_t tag, cs_oplist *out);

/* Costs (sim/contracts/cost.h) of the pre-step (n bytes, combined) and the
 * post-step (n bytes), every folded pair at once; 0 for a power of two. */
double cs_fold_pre_cost(const cs_sched_params *prm, const cs_cost_params *c, double n);
double cs_fold_post_cost(const cs_sched_params *prm, const cs_cost_params *c, double n);
#define CS_FOLD_PRE_COST "[p > q: shift(1, n) + n*g]"
#define CS_FOLD_POST_COST "[p > q: shift(-1, n)]"

/* cs_cost_pattern partner: rank r's partner at distance mask among the new
 * ranks (new rank XOR mask), -1 for a rank that dropped out. */
int64_t cs_fold_xor_partner(const cs_sched_params *prm, int64_t r, int64_t mask);

#endif
