/* A reduce or broadcast tree given as a script (seed 002, Section 4; format
 * in sim/contracts/tree_script.h) run as a schedule: the scripted trees of the SMP
 * clusters are one more source of schedules, so `collsim collective` can
 * replay them (--verify), count their traffic on any network (--links) and
 * time them (--timed), like any other collective:
 *   collsim collective --net percs:4,4,2 --coll reduce --algo script \
 *       --script experiments/tree-scripts/8way-two-groups.yaml --bytes 4 --verify
 * Reduce: "recv X" combines X's partial sum (CS_OP_RECV_REDUCE), "send Y"
 * sends one's partial sum.  Broadcast: "recv X" takes the value, "send Y"
 * passes it on.  The whole buffer is one unit.  The script's n must equal p
 * and its root must be rank 0 (the root of collsim's collectives).
 * Choice: the script is loaded once per process by plan() and kept (the
 * schedule interface passes algorithms only a path, prm->variant_arg). */
#include "sim/contracts/tree_script.h"
#include "sim/contracts/schedule.h"

#include <string.h>

static cs_tree_script *loaded;
static char *loaded_path;

static const cs_tree_script *script_for(const char *path, GError **err)
{
  if (loaded && strcmp(loaded_path, path) == 0)
    return loaded;
  cs_tree_script *s = cs_ts_load(path, err);
  if (!s)
    return NULL;
  cs_ts_free(loaded);
  g_free(loaded_path);
  loaded = s;
  loaded_path = g_strdup(path);
  return loaded;
}

static bool plan(cs_sched_params *prm, GError **err)
{
  if (!prm->variant_arg) {
    g_set_error(err, CS_SCHED_ERROR, 1, "--algo script needs --script FILE.yaml");
    return false;
  }
  GError *e = NULL;
  const cs_tree_script *s = script_for(prm->variant_arg, &e);
  if (!s) {
    g_set_error(err, CS_SCHED_ERROR, 1, "%s", e->message);
    g_error_free(e);
    return false;
  }
  if (s->n != prm->p || s->root != 0) {
    g_set_error(err, CS_SCHED_ERROR, 1, "script %s is for n = %d with root %d; this machine has p = %lld and "
                "root 0", prm->variant_arg, s->n, s->root, (long long)prm->p);
    return false;
  }
  prm->nunits = 1;
  return true;
}

static void ops(const cs_sched_params *prm, int64_t rank, cs_oplist *out)
{
  cs_ts_phase ph = prm->coll == CS_COLL_REDUCE ? CS_TS_REDUCE : CS_TS_BCAST;
  const cs_ts_list *l = &loaded->phase[ph][rank];
  cs_units all = cs_units_all(prm);
  for (int k = 0; k < l->n; k++) {
    const cs_ts_cmd *c = &l->cmd[k];
    if (c->kind == CS_TS_SEND)
      cs_ops_send(out, c->peer, 0, all);
    else if (ph == CS_TS_REDUCE)
      cs_ops_recv_reduce(out, c->peer, 0, all);
    else
      cs_ops_recv(out, c->peer, 0, all);
  }
}

const cs_coll_algo cs_algo_script_reduce = {"script", CS_COLL_REDUCE,
                                            "a reduce tree from a script (--script FILE.yaml; seed 002)", plan, ops};
const cs_coll_algo cs_algo_script_bcast = {"script", CS_COLL_BCAST,
                                           "a broadcast tree from a script (--script FILE.yaml; seed 002)", plan, ops};
