/* A reduce or broadcast tree given as a script (seed 002, Section 4; format
 * in sim/contracts/tree_script.h) run as a schedule: the scripted trees of
 * the SMP clusters are one more source of schedules, so `collsim
 * collective` can replay them (--verify), count their traffic on any network
 * (--links) and time them (--timed), like any other collective, and the
 * Allreduce benchmark runs its trees through the same timed interpreter:
 *   collsim collective --platform percs:4,4,2 --coll reduce --algo script \
 *       --script experiments/tree-scripts/8way-two-groups.yaml --bytes 4 --verify
 * Reduce: "recv X" combines X's partial sum (CS_OP_RECV_REDUCE), "send Y"
 * sends one's partial sum.  Broadcast: "recv X" takes the value, "send Y"
 * passes it on.  The whole buffer is one unit, every message tag 0.
 * Receive order: a script with receive_order "arrival" marks the receives of
 * a reduce that are not separated by a send as one any-order group (the
 * children's partial sums are combined in order of arrival, PastSet/PATHS);
 * "scripted" keeps them in the listed order (LAM-MPI).
 * The script's n must equal p; its root is the collective's root.  The
 * caller loads and checks the script
 * (sim/checks/tree_script_check.c) and passes it in prm->script. */
#include "sim/contracts/schedule.h"
#include "sim/contracts/tree_script.h"

static bool plan(cs_sched_params *prm, GError **err)
{
  const cs_tree_script *s = prm->script;
  if (!s) {
    g_set_error(err, CS_SCHED_ERROR, 1, "--algo script needs --script FILE.yaml");
    return false;
  }
  if (s->n != prm->p) {
    g_set_error(err, CS_SCHED_ERROR, 1, "script %s is for n = %d; this machine has p = %lld", s->name, s->n,
                (long long)prm->p);
    return false;
  }
  prm->root = s->root;
  prm->nunits = 1;
  return true;
}

static void ops(const cs_sched_params *prm, int64_t rank, cs_oplist *out)
{
  cs_ts_phase ph = prm->coll == CS_COLL_REDUCE ? CS_TS_REDUCE : CS_TS_BCAST;
  const cs_ts_list *l = &prm->script->phase[ph][rank];
  bool by_arrival = ph == CS_TS_REDUCE && prm->script->order == CS_TS_ARRIVAL_ORDER;
  cs_units all = cs_units_all(prm);
  for (int k = 0; k < l->n; k++) {
    const cs_ts_cmd *c = &l->cmd[k];
    if (c->kind == CS_TS_SEND) {
      cs_ops_send(out, c->peer, 0, all);
      continue;
    }
    if (ph == CS_TS_REDUCE)
      cs_ops_recv_reduce(out, c->peer, 0, all);
    else
      cs_ops_recv(out, c->peer, 0, all);
    if (by_arrival)
      cs_ops_any_order(out);
  }
}

const cs_coll_algo cs_algo_script_reduce = {"script", CS_COLL_REDUCE,
                                            "a reduce tree from a script (--script FILE.yaml; seed 002)", plan, ops, false};
const cs_coll_algo cs_algo_script_bcast = {"script", CS_COLL_BCAST,
                                           "a broadcast tree from a script (--script FILE.yaml; seed 002)", plan, ops, false};
