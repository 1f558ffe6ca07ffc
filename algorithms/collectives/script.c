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
 * (sim/checks/tree_script_check.c) and passes it in prm->script.
 *
 * Cost (sim/contracts/cost.h): the script's own tree, evaluated rank by
 * rank: a send leaves o_send after the rank's previous command and arrives
 * a + n*max(kn*B, k*Bp, ks*BL) later (a, B at the level of the two ranks;
 * the run of sends it is in leaves at once: k off-node sends share the
 * port, kn go to its destination's node, ks to its supernode), and not
 * before the receiver's port carried it (n*Bp per message, in the order
 * they left; messages on that wire at once end together, as fair sharing
 * makes them); a receive ends o_recv (plus n*g for a reduce) after both its
 * message and the rank's previous command; "arrival" order takes a run of receives in order of
 * arrival.  The cost is the last rank's end: the longest path of the tree. */
#include "sim/contracts/schedule.h"
#include "sim/contracts/tree_script.h"

#include <math.h>
#include <stdlib.h>

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

/* ---- cost ---- */

typedef struct script_eval {
  const cs_sched_params *prm;
  const cs_cost_params *c;
  const cs_ts_list *list; /* the phase's lists, one per rank */
  bool reduce, by_arrival;
  double **left;          /* [rank][command]: when a send left its rank, NAN until evaluated */
  double **arrives;       /* [rank][command]: when a receive's message arrived (NULL: not yet known) */
  double *clock;          /* per rank: end of its last command */
  int *pc;
} script_eval;

/* A message of the script: sent by command k of rank `from`, left at `left`. */
typedef struct script_msg {
  int from, k;
  double left, arrives;
} script_msg;

/* The loads of command k of rank r, a send, with the other sends of its run
 * (they leave at once): off-node ones through the port, those to the same
 * node, and those to the same other supernode. */
static void sends_at_once(const script_eval *E, int r, int k, cs_cost_step *s)
{
  const cs_ts_list *l = &E->list[r];
  const cs_sched_params *prm = E->prm;
  int lo = k, hi = k, to = l->cmd[k].peer;
  while (lo > 0 && l->cmd[lo - 1].kind == CS_TS_SEND)
    lo--;
  while (hi + 1 < l->n && l->cmd[hi + 1].kind == CS_TS_SEND)
    hi++;
  double n = (double)prm->bytes, off = 0, same_node = 0, same_supernode = 0;
  for (int i = lo; i <= hi; i++) {
    int64_t peer = l->cmd[i].peer;
    off += cs_cost_level_of(prm, r, peer) != CS_LVL_CORE;
    same_node += cs_rank_node(prm, peer) == cs_rank_node(prm, to);
    same_supernode += cs_rank_node(prm, peer) / prm->tt->nps == cs_rank_node(prm, to) / prm->tt->nps;
  }
  s->port_bytes = off * n;
  s->pair_bytes = same_node * n;
  s->l2_bytes = s->level == CS_LVL_SUPERNODE ? same_supernode * n : 0;
}

/* The message rank `from` sends to r; left is NAN if not evaluated yet. */
static script_msg message_to(const script_eval *E, int from, int r)
{
  const cs_ts_list *l = &E->list[from];
  for (int k = 0; k < l->n; k++)
    if (l->cmd[k].kind == CS_TS_SEND && l->cmd[k].peer == r)
      return (script_msg){from, k, E->left[from][k], NAN};
  return (script_msg){from, -1, NAN, NAN};
}

/* When m reaches r alone: its time on the wire. */
static double alone(const script_eval *E, int r, const script_msg *m, cs_cost_level *level)
{
  cs_cost_step s = cs_cost_message(E->prm, m->from, r, (double)E->prm->bytes);
  if (s.level != CS_LVL_CORE)
    sends_at_once(E, m->from, m->k, &s);
  s.sends = s.recvs = 0; /* paid by the ranks */
  *level = s.level;
  return m->left + cs_cost_step_time(E->c, &s);
}

static int cmp_left(const void *x, const void *y)
{
  double a = ((const script_msg *)x)->left, b = ((const script_msg *)y)->left;
  return (a > b) - (a < b);
}

/* The arrivals of r's messages m[0..n) (sorted here by departure): each
 * alone, and through r's port: off-node messages cross it one after
 * another, and those on the wire at once (one left before another is
 * through) end together, as fair sharing makes them. */
static void arrivals(const script_eval *E, int r, script_msg *m, size_t n)
{
  qsort(m, n, sizeof *m, cmp_left);
  double *done = g_new(double, n + 1), free_at = 0;
  cs_cost_level *level = g_new(cs_cost_level, n + 1);
  for (size_t i = 0; i < n; i++) {
    m[i].arrives = alone(E, r, &m[i], &level[i]);
    if (level[i] != CS_LVL_CORE)
      free_at = fmax(free_at, m[i].left) + (double)E->prm->bytes * E->c->beta_port;
    done[i] = free_at;
  }
  for (size_t i = 0; i < n; i++) {
    size_t last = i;
    while (last + 1 < n && m[last + 1].left < done[i])
      last++;
    if (level[i] != CS_LVL_CORE)
      m[i].arrives = fmax(m[i].arrives, done[last] + E->c->alpha[level[i]]);
  }
  g_free(done);
  g_free(level);
}

/* The arrivals of all the messages rank r receives, once all have left
 * (a tree's ranks receive only from ranks that never wait for them). */
static bool know_arrivals(script_eval *E, int r)
{
  const cs_ts_list *l = &E->list[r];
  if (E->arrives[r])
    return true;
  script_msg *m = g_new(script_msg, l->n);
  size_t n = 0;
  bool ready = true;
  for (int k = 0; k < l->n && ready; k++)
    if (l->cmd[k].kind == CS_TS_RECV)
      ready = !isnan((m[n++] = message_to(E, l->cmd[k].peer, r)).left);
  if (ready) {
    arrivals(E, r, m, n);
    E->arrives[r] = g_new(double, l->n);
    for (int k = 0; k < l->n; k++)
      for (size_t i = 0; i < n; i++)
        if (l->cmd[k].kind == CS_TS_RECV && l->cmd[k].peer == m[i].from)
          E->arrives[r][k] = m[i].arrives;
  }
  g_free(m);
  return ready;
}

static int cmp_double(const void *x, const void *y)
{
  double a = *(const double *)x, b = *(const double *)y;
  return (a > b) - (a < b);
}

/* The receives of rank r from its command pc on (one, or a run taken by
 * arrival); false if its messages have not all left yet. */
static bool eval_receives(script_eval *E, int r)
{
  const cs_ts_list *l = &E->list[r];
  int k = E->pc[r], end = k + 1;
  if (!know_arrivals(E, r))
    return false;
  while (E->by_arrival && end < l->n && l->cmd[end].kind == CS_TS_RECV)
    end++;
  double *t = g_memdup2(E->arrives[r] + k, sizeof(double) * (size_t)(end - k));
  qsort(t, (size_t)(end - k), sizeof *t, cmp_double);
  for (int i = 0; i < end - k; i++)
    E->clock[r] = fmax(E->clock[r], t[i]) + E->c->o_recv + (E->reduce ? (double)E->prm->bytes * E->c->gamma : 0);
  g_free(t);
  E->pc[r] = end;
  return true;
}

/* Runs rank r as far as its messages allow; true if it moved. */
static bool advance(script_eval *E, int r)
{
  bool moved = false;
  while (E->pc[r] < E->list[r].n) {
    if (E->list[r].cmd[E->pc[r]].kind == CS_TS_SEND)
      E->left[r][E->pc[r]++] = E->clock[r] += E->c->o_send;
    else if (!eval_receives(E, r))
      break;
    moved = true;
  }
  return moved;
}

static double cost(const cs_sched_params *prm, const cs_cost_params *c)
{
  int n = (int)prm->p;
  cs_ts_phase ph = prm->coll == CS_COLL_REDUCE ? CS_TS_REDUCE : CS_TS_BCAST;
  script_eval E = {prm, c, prm->script->phase[ph], ph == CS_TS_REDUCE,
                   ph == CS_TS_REDUCE && prm->script->order == CS_TS_ARRIVAL_ORDER, g_new(double *, n),
                   g_new0(double *, n), g_new0(double, n), g_new0(int, n)};
  for (int r = 0; r < n; r++) {
    E.left[r] = g_new(double, E.list[r].n > 0 ? E.list[r].n : 1);
    for (int k = 0; k < E.list[r].n; k++)
      E.left[r][k] = NAN;
  }
  for (bool moved = true; moved;) {
    moved = false;
    for (int r = 0; r < n; r++)
      moved |= advance(&E, r);
  }
  double end = 0;
  for (int r = 0; r < n; r++) {
    end = fmax(end, E.clock[r]);
    g_free(E.left[r]);
    g_free(E.arrives[r]);
  }
  g_free(E.left);
  g_free(E.arrives);
  g_free(E.clock);
  g_free(E.pc);
  return end;
}

#define SCRIPT_COST \
  "longest path of the script's tree: a send o_send after the rank's previous command, arriving a + n*max(kn*B, " \
  "k*Bp, ks*BL) later (of the sends in a row: k off-node, kn to its node, ks to its supernode) and once the " \
  "receiver's port carried it with the messages on it at once (n*Bp each); a receive o_recv after both"

const cs_coll_algo cs_algo_script_reduce = {
    "script", CS_COLL_REDUCE, "a reduce tree from a script (--script FILE.yaml; seed 002)", plan, ops, false, cost,
    SCRIPT_COST ", plus n*g (reduce)"};
const cs_coll_algo cs_algo_script_bcast = {
    "script", CS_COLL_BCAST, "a broadcast tree from a script (--script FILE.yaml; seed 002)", plan, ops, false, cost,
    SCRIPT_COST};
