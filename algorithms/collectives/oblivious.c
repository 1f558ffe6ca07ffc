/* Helpers shared by the topology-oblivious schedules; see oblivious.h. */
#include "algorithms/collectives/oblivious.h"

int64_t cs_obl_pow2_floor(int64_t x)
{
  int64_t pow2 = 1;
  while (pow2 <= x / 2)
    pow2 *= 2;
  return pow2;
}

bool cs_obl_is_pow2(int64_t x) { return x > 0 && (x & (x - 1)) == 0; }

int cs_obl_log2(int64_t pow2)
{
  int k = 0;
  while (pow2 > 1) {
    pow2 >>= 1;
    k++;
  }
  return k;
}

int64_t cs_obl_rel_rank(const cs_sched_params *prm, int64_t rank)
{
  return (rank - prm->root + prm->p) % prm->p;
}

int64_t cs_obl_abs_rank(const cs_sched_params *prm, int64_t rel) { return (rel + prm->root) % prm->p; }

int64_t cs_obl_subtree_size(int64_t rel, int64_t p)
{
  if (rel == 0)
    return p;
  int64_t low = cs_obl_lowbit(rel);
  return low < p - rel ? low : p - rel;
}

/* The blocks of relative ranks [rel, rel + count). */
static cs_units rel_blocks(const cs_sched_params *prm, int64_t rel, int64_t count)
{
  return cs_units_blocks(prm, cs_obl_abs_rank(prm, rel), count);
}

/* Smallest power of two >= p: the root's "parent mask" in MPICH's loops. */
static int64_t pow2_ceil(int64_t p)
{
  int64_t mask = 1;
  while (mask < p)
    mask <<= 1;
  return mask;
}

void cs_obl_binomial_scatter(const cs_sched_params *prm, int64_t rank, int32_t tag, cs_oplist *out)
{
  int64_t p = prm->p, rel = cs_obl_rel_rank(prm, rank);
  int64_t parent_mask = rel == 0 ? pow2_ceil(p) : cs_obl_lowbit(rel);
  if (rel != 0)
    cs_ops_recv(out, cs_obl_abs_rank(prm, rel - parent_mask), tag + cs_obl_log2(parent_mask),
                rel_blocks(prm, rel, cs_obl_subtree_size(rel, p)));
  for (int64_t mask = parent_mask >> 1; mask > 0; mask >>= 1) {
    int64_t child = rel + mask;
    if (child < p)
      cs_ops_send(out, cs_obl_abs_rank(prm, child), tag + cs_obl_log2(mask),
                  rel_blocks(prm, child, cs_obl_subtree_size(child, p)));
  }
}

void cs_obl_binomial_gather(const cs_sched_params *prm, int64_t rank, int32_t tag, cs_oplist *out)
{
  int64_t p = prm->p, rel = cs_obl_rel_rank(prm, rank);
  for (int64_t mask = 1; mask < p; mask <<= 1) {
    int32_t step_tag = tag + cs_obl_log2(mask);
    if (rel & mask) {
      cs_ops_send(out, cs_obl_abs_rank(prm, rel - mask), step_tag,
                  rel_blocks(prm, rel, cs_obl_subtree_size(rel, p)));
      return;
    }
    int64_t child = rel + mask;
    if (child < p)
      cs_ops_recv(out, cs_obl_abs_rank(prm, child), step_tag, rel_blocks(prm, child, cs_obl_subtree_size(child, p)));
  }
}

void cs_obl_ring_allgather(const cs_sched_params *prm, int64_t rank, int32_t tag, cs_oplist *out)
{
  int64_t p = prm->p, m = prm->nunits / p;
  if (p == 1)
    return;
  int64_t right = (rank + 1) % p, left = (rank - 1 + p) % p;
  cs_ops_loop(out, p - 1, 2);
  cs_ops_send(out, right, tag, cs_units_block(prm, rank));
  cs_ops_step(out, 0, -m);
  cs_ops_recv(out, left, tag, cs_units_block(prm, left));
  cs_ops_step(out, 0, -m);
}

void cs_obl_pairwise_reduce_scatter(const cs_sched_params *prm, int64_t rank, int32_t tag, cs_oplist *out)
{
  int64_t p = prm->p, m = prm->nunits / p;
  if (p == 1)
    return;
  int64_t first_dst = (rank + 1) % p, first_src = (rank - 1 + p) % p;
  cs_ops_loop(out, p - 1, 2);
  cs_ops_send(out, first_dst, tag, cs_units_block(prm, first_dst));
  cs_ops_step(out, 1, m);
  cs_ops_recv_reduce(out, first_src, tag, cs_units_block(prm, rank));
  cs_ops_step(out, -1, 0);
}
