/* "linear": seed 002, Section 5.1, "Modified LAM-MPI, linear scheme": "all
 * processes report directly to the process with rank 0, and rank 0 sends
 * the results directly back to each client".
 * Rule: reduce: every rank r > 0 sends to 0; rank 0 receives from 1, 2, ...,
 * n-1 in rank order.  Broadcast: rank 0 sends to 1, 2, ..., n-1 in rank
 * order; every other rank receives from 0.
 * Left open by the paper: the order of rank 0's receives and sends; rank
 * order is taken for both (LAM's own linear reduce, used by "lam" for
 * n <= 4, receives from n-1 down to 1 instead). */
#include "algorithms/reduce_bcast_trees/tree_gen_util.h"

cs_tree_script *cs_tree_gen_linear(const cs_tree_gen_params *prm)
{
  if (!cs_tg_params_ok(prm, false))
    return NULL;
  cs_tree_script *s = cs_tg_script(prm, "linear");
  if (!s)
    return NULL;
  for (int r = 1; r < prm->n; r++) {
    cs_ts_add(s, CS_TS_REDUCE, 0, CS_TS_RECV, r);
    cs_ts_add(s, CS_TS_REDUCE, r, CS_TS_SEND, 0);
    cs_ts_add(s, CS_TS_BCAST, 0, CS_TS_SEND, r);
    cs_ts_add(s, CS_TS_BCAST, r, CS_TS_RECV, 0);
  }
  return s;
}
