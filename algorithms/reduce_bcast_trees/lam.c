/* "lam": LAM-MPI 6.5's default reduce and broadcast trees, root 0 (seed 002,
 * Section 3: "a linear scheme (every process communicates directly with
 * process 0) up to and including 4 processes.  From there on ... a
 * logarithmic spanning tree"; Figure 2: the reduce and broadcast trees
 * differ).  "lam7": the same with LAM 7.0's later broadcast tree.
 *
 * Rules, as LAM's code executes them (root 0, so vrank = rank):
 *   n <= 4 (LAM_COLLMAXLIN = 4), reduce_lin: every rank sends to 0; rank 0
 *     receives from n-1 first, then n-2, ..., 1 (LAM's loop runs from
 *     size-1 down).
 *   n <= 4, bcast_lin: rank 0 sends to 1, 2, ..., n-1 (persistent sends
 *     started in that order); every other rank receives from 0.
 *   n > 4, reduce_log: for mask = 1, 2, 4, ...: if rank & mask, send to
 *     rank & ~mask and stop; else receive from rank | mask when it is < n.
 *     (rank 12 of 32: recv 13, recv 14, send 8; rank 0: recv 1, 2, 4, 8, 16.)
 *   n > 4, bcast_log (LAM 6.5, hibit tree): with h the highest set bit of
 *     rank, receive from rank & ~(1 << h); then send to rank | (1 << i) for
 *     i = h+1, h+2, ... while < n, in increasing i (rank 0: 1, 2, 4, 8, 16;
 *     rank 1 of 8: 3, 5).  A parent clears the HIGHEST bit here and the
 *     LOWEST bit in the reduce: the two trees differ, as the paper says, and
 *     on 8 nodes with round-robin placement only ranks 1..7 receive across
 *     nodes (Figure 3's "better mapping" of the broadcast).
 *   "lam7" bcast_log (LAM 7.0 lam_basic after May 2003): with v the lowest
 *     set bit of rank (for rank 0 the first power of two >= n), receive from
 *     rank - v, then send to rank + v/2, rank + v/4, ..., rank + 1 while < n,
 *     in that (decreasing) order: the reduce tree run backwards (rank 0 of
 *     32: 16, 8, 4, 2, 1).  Reduce as "lam".
 * Read in: LAM 7 share/ssi/coll/lam_basic/src/ssi_coll_lam_basic_reduce.c
 * and ssi_coll_lam_basic_bcast.c (rev. 1.2, 2003/05/28: reduce_lin,
 * reduce_log, bcast_lin, the lowest-bit bcast_log, and the hibit tree in
 * bcast_log_lamd); the hibit bcast_log with Send_init/Startall in the
 * pre-May-2003 LAM code kept by Open MPI's first coll/basic import
 * (mca_coll_basic_bcast_log), lam_hibit/lam_cubedim in LAM's share/mpi.
 * LAM 6.5's own share/mpi/bcast.c was not found; the hibit tree is taken
 * for 6.5 because it is the older code and the only one of the two whose
 * trees differ from the reduce's, as the paper reports for LAM 6.5.6.
 * Left open: LAM's sends to children are non-blocking (started together);
 * the script lists them in the order LAM starts them. */
#include "algorithms/reduce_bcast_trees/tree_gen_util.h"
#include "algorithms/shapes/tree_shapes.h"

#define LAM_COLLMAXLIN 4

static void lin_reduce(cs_tree_script *s, int n)
{
  for (int r = n - 1; r >= 1; r--) {
    cs_ts_add(s, CS_TS_REDUCE, 0, CS_TS_RECV, r);
    cs_ts_add(s, CS_TS_REDUCE, r, CS_TS_SEND, 0);
  }
}

static void lin_bcast(cs_tree_script *s, int n)
{
  for (int r = 1; r < n; r++) {
    cs_ts_add(s, CS_TS_BCAST, 0, CS_TS_SEND, r);
    cs_ts_add(s, CS_TS_BCAST, r, CS_TS_RECV, 0);
  }
}

/* MPICH's binomial tree (algorithms/shapes): children nearest first, then
 * the parent (rank & ~mask at the first set bit is rank - lowbit(rank)). */
static void log_reduce_rank(cs_tree_script *s, int n, int r)
{
  for (int64_t mask = 1; mask < cs_binomial_child_limit(r, n); mask <<= 1)
    if (r + mask < n)
      cs_ts_add(s, CS_TS_REDUCE, r, CS_TS_RECV, (int)(r + mask));
  if (r > 0)
    cs_ts_add(s, CS_TS_REDUCE, r, CS_TS_SEND, (int)cs_binomial_parent(r));
}

static int highest_bit(int r)
{
  int h = -1;
  for (; r > 0; r >>= 1)
    h++;
  return h;
}

static void hibit_bcast_rank(cs_tree_script *s, int n, int r)
{
  int h = highest_bit(r);
  if (r > 0)
    cs_ts_add(s, CS_TS_BCAST, r, CS_TS_RECV, r & ~(1 << h));
  for (int i = h + 1; (1 << i) < n; i++)
    if ((r | (1 << i)) < n)
      cs_ts_add(s, CS_TS_BCAST, r, CS_TS_SEND, r | (1 << i));
}

/* MPICH's binomial tree (algorithms/shapes): the parent, then children
 * farthest first. */
static void lowbit_bcast_rank(cs_tree_script *s, int n, int r)
{
  if (r > 0)
    cs_ts_add(s, CS_TS_BCAST, r, CS_TS_RECV, (int)cs_binomial_parent(r));
  for (int64_t v = cs_binomial_child_limit(r, n) >> 1; v > 0; v >>= 1)
    if (r + v < n)
      cs_ts_add(s, CS_TS_BCAST, r, CS_TS_SEND, (int)(r + v));
}

static cs_tree_script *lam_build(const cs_tree_gen_params *prm, const char *name, bool lam7)
{
  if (!cs_tg_params_ok(prm, false))
    return NULL;
  int n = prm->n;
  cs_tree_script *s = cs_tg_script(prm, name);
  if (!s)
    return NULL;
  if (n <= LAM_COLLMAXLIN) {
    lin_reduce(s, n);
    lin_bcast(s, n);
    return s;
  }
  for (int r = 0; r < n; r++) {
    log_reduce_rank(s, n, r);
    if (lam7)
      lowbit_bcast_rank(s, n, r);
    else
      hibit_bcast_rank(s, n, r);
  }
  return s;
}

cs_tree_script *cs_tree_gen_lam(const cs_tree_gen_params *prm) { return lam_build(prm, "lam", false); }

cs_tree_script *cs_tree_gen_lam7(const cs_tree_gen_params *prm) { return lam_build(prm, "lam7", true); }
