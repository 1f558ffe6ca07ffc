/* Tree-construction driver (seed 000, Sec. 6 "Experimental set-up").
 *
 * Every process: (1) waits for the start broadcast on the parent tree (the
 * k-ary heap over ranks 0..n-1); (2) runs the algorithm; (3) members take part
 * in a reduction of one word on the new tree; (4) serves as an intermediary for
 * others until the simulation ends (message-driven runtimes do this for free).
 *
 * Times: sim_time_s runs from the broadcast's start (t = 0) to the end of the
 * last colour's reduction at its root, as the paper timed it.  sim_time_alg_s
 * is max(end of algorithm) - min(start of algorithm) over all processes: the
 * algorithm's own span inside the bracket.  With --no-bracket both are the
 * algorithm run alone from t = 0.
 */
#include "sim/drivers/spanning_tree_run.h"
#include "algorithms/shapes/tree_shapes.h"
#include "sim/contracts/transport.h"
#include "sim/checks/spanning_tree_verify.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

enum { TAG_BRACKET_BCAST = 1, TAG_BRACKET_REDUCE = 2 };

typedef struct run_state {
  const cs_tree_params *prm;
  const cs_group *group;
  cs_proc *procs;
  int8_t *reported_member;
  int32_t *reported_color, *parent, *nchildren;
  int32_t **children;
  double *t_start, *t_end;
  double t_done;        /* last reduction end */
} run_state;

static int group_color_of(const cs_tree_ctx *ctx, int rank)
{
  const cs_group *g = ctx->color_data;
  return g->color[rank];
}

static void bracket_broadcast(cs_proc *p, int k)
{
  int r = cs_rank(p), n = cs_size(p);
  if (r != 0)
    cs_msg_free(p, cs_recv(p, kary_parent(r, k), TAG_BRACKET_BCAST));
  int64_t first = kary_first_child(r, k);
  int word = 1;
  for (int i = 0; i < kary_nchildren(r, k, n); i++)
    cs_send(p, (int)(first + i), TAG_BRACKET_BCAST, &word, sizeof word);
}

static void bracket_reduce(cs_proc *p, const cs_tree_node *node, run_state *st)
{
  int64_t sum = 1;
  for (int i = 0; i < node->nchildren; i++) {
    cs_msg *m = cs_recv(p, node->children[i], TAG_BRACKET_REDUCE);
    sum += *(int64_t *)m->data;
    cs_msg_free(p, m);
  }
  if (node->parent >= 0)
    cs_send(p, node->parent, TAG_BRACKET_REDUCE, &sum, sizeof sum);
  else if (cs_now(p) > st->t_done)
    st->t_done = cs_now(p);
}

static void record_node(run_state *st, int r, const cs_tree_node *node)
{
  st->reported_member[r] = (int8_t)(node->member != 0);
  if (!node->member)
    return;
  st->reported_color[r] = node->color;
  st->parent[r] = node->parent;
  st->nchildren[r] = node->nchildren;
  st->children[r] = g_memdup2(node->children, sizeof(int32_t) * (node->nchildren > 0 ? node->nchildren : 0));
}

static void tree_proc_main(cs_proc *p, void *user)
{
  run_state *st = user;
  const cs_tree_params *prm = st->prm;
  int r = cs_rank(p);
  cs_tree_ctx ctx = {
    .n = prm->n, .k = prm->k, .colors = prm->colors,
    .is_member = st->group->color[r] >= 0,
    .color = st->group->color[r] >= 0 ? st->group->color[r] : 0,
    .color_of = group_color_of, .color_data = st->group,
  };
  if (prm->bracket) {
    cs_set_phase(p, CS_PHASE_BRACKET);
    bracket_broadcast(p, prm->k);
  }
  st->t_start[r] = cs_now(p);
  cs_set_phase(p, CS_PHASE_ALGO);
  cs_tree_node node = {0};
  prm->algo->run(p, &ctx, &node);
  st->t_end[r] = cs_now(p);
  record_node(st, r, &node);
  if (prm->bracket && node.member) {
    cs_set_phase(p, CS_PHASE_BRACKET);
    bracket_reduce(p, &node, st);
  }
  cs_free(p, node.children);
  cs_set_phase(p, CS_PHASE_ALGO);
  cs_serve(p);
}

static void summarise(run_state *st, cs_tree_result *res)
{
  const cs_tree_params *prm = st->prm;
  int n = prm->n;
  double t_min = n ? st->t_start[0] : 0, t_max = 0, mem_sum = 0;
  for (int r = 0; r < n; r++) {
    const cs_proc *p = &st->procs[r];
    const cs_counters *a = cs_proc_counters(p, CS_PHASE_ALGO), *b = cs_proc_counters(p, CS_PHASE_BRACKET);
    res->messages += a->messages;
    res->messages_bracketed += a->messages + b->messages;
    res->bytes += a->bytes;
    res->bytes_bracketed += a->bytes + b->bytes;
    if (a->max_message_bytes > res->max_message_bytes)
      res->max_message_bytes = a->max_message_bytes;
    int64_t peak = cs_proc_mem_peak_words(p);
    if (peak > res->peak_mem_words_max)
      res->peak_mem_words_max = peak;
    mem_sum += (double)peak;
    if (st->t_start[r] < t_min)
      t_min = st->t_start[r];
    if (st->t_end[r] > t_max)
      t_max = st->t_end[r];
  }
  res->peak_mem_words_mean = n ? mem_sum / n : 0;
  res->sim_time_alg_s = t_max - t_min;
  res->sim_time_s = prm->bracket ? (st->t_done > t_max ? st->t_done : t_max) : t_max;
}

static int verify_run(run_state *st, cs_tree_result *res, GError **err)
{
  const cs_tree_params *prm = st->prm;
  int64_t largest = 0;
  for (int c = 0; c < prm->colors; c++)
    if (st->group->m_color[c] > largest)
      largest = st->group->m_color[c];
  res->min_height = largest > 0 ? kary_min_height(largest, prm->k) : -1;
  cs_tree_view view = {prm->n, prm->colors, st->group->color, st->reported_member, st->reported_color,
                       st->parent, st->nchildren, st->children};
  GString *why = g_string_new(NULL);
  gboolean ok = cs_verify_tree(&view, prm->k, TRUE, &res->height, why);
  if (!prm->verify) {
    res->verified = -1;
  } else {
    res->verified = ok ? 1 : 0;
    if (!ok)
      g_set_error(err, CS_INTERNAL_ERROR, 1, "verification failed (%s, n=%d, k=%d, seed=%llu): %s",
                  prm->algo->name, prm->n, prm->k, (unsigned long long)prm->seed, why->str);
  }
  g_string_free(why, TRUE);
  return prm->verify && !ok ? 1 : 0;
}

/* Every message sent must have been taken by someone: a message left in a
 * mailbox or a queue is a protocol error, even when the tree verifies. */
static int check_all_received(const run_state *st, GError **err)
{
  uint64_t sent = 0, received = 0;
  for (int r = 0; r < st->prm->n; r++) {
    for (int ph = 0; ph < CS_NPHASES; ph++)
      sent += cs_proc_counters(&st->procs[r], ph)->messages;
    received += cs_proc_received(&st->procs[r]);
  }
  if (sent == received)
    return 0;
  g_set_error(err, CS_INTERNAL_ERROR, 1, "%s: %llu messages sent but %llu received", st->prm->algo->name,
              (unsigned long long)sent, (unsigned long long)received);
  return 1;
}

/* What the engine's progress line counts against: every message of the
 * run when the algorithm has a formula, and their total cs_message_work
 * when it declares one (each 0 when not known).  The bracket adds the
 * broadcast's words (int) on the parent tree and the reduction's (int64_t)
 * on each new tree. */
static void expected_totals(const cs_tree_params *prm, const cs_group *g, double *messages, double *work)
{
  cs_tree_shape shape = {.n = g->n, .k = prm->k, .colors = g->colors, .color = g->color, .m_color = g->m_color};
  double down = prm->bracket ? (double)(g->n - 1) : 0, up = 0;
  for (int c = 0; prm->bracket && c < g->colors; c++)
    up += g->m_color[c] > 0 ? (double)(g->m_color[c] - 1) : 0;
  *messages = prm->algo->messages ? (double)prm->algo->messages(&shape) + down + up : 0;
  *work = prm->algo->work ? prm->algo->work(&shape) + down * cs_message_work(sizeof(int)) +
                                up * cs_message_work(sizeof(int64_t))
                          : 0;
}

/* The drawn group's quantities and the algorithm's exact count (issue 32). */
static void count_quantities(const cs_tree_params *prm, const cs_group *g, cs_tree_result *res)
{
  cs_tree_shape shape = {.n = g->n, .k = prm->k, .colors = g->colors, .color = g->color, .m_color = g->m_color};
  res->s = cs_tree_vertices_above_members(&shape);
  res->root_joins = g->n > 0 && g->color[0] >= 0;
  res->messages_expected = prm->algo->messages ? (int64_t)prm->algo->messages(&shape) : -1;
  res->messages_formula = prm->algo->messages_formula;
}

static void state_free(run_state *st)
{
  for (int r = 0; r < st->prm->n; r++) {
    g_free(st->children[r]);
    cs_proc_release(&st->procs[r]);
  }
  g_free(st->children);
  g_free(st->reported_member);
  g_free(st->reported_color);
  g_free(st->parent);
  g_free(st->nchildren);
  g_free(st->t_start);
  g_free(st->t_end);
  g_free(st->procs);
}

int cs_tree_run(const cs_tree_params *prm, cs_tree_result *res, GError **err)
{
  int n = prm->n;
  cs_group *drawn = prm->group ? NULL
                   : prm->members_file
                       ? cs_group_from_file(prm->members_file, n, prm->colors, prm->color_rule, prm->seed, err)
                       : cs_group_draw(n, prm->f, prm->colors, prm->color_rule, prm->seed);
  const cs_group *group = prm->group ? prm->group : drawn;
  if (!group)
    return 2;
  run_state st = {.prm = prm, .group = group};
  size_t cnt = n > 0 ? (size_t)n : 1;
  st.procs = g_new0(cs_proc, cnt);
  st.reported_member = g_new0(int8_t, cnt);
  st.reported_color = g_new0(int32_t, cnt);
  st.parent = g_new0(int32_t, cnt);
  st.nchildren = g_new0(int32_t, cnt);
  st.children = g_new0(int32_t *, cnt);
  st.t_start = g_new0(double, cnt);
  st.t_end = g_new0(double, cnt);

  memset(res, 0, sizeof *res);
  res->algo = prm->algo->name;
  res->n = n;
  res->m = group->m;
  res->f = prm->members_file ? -1 : prm->f;
  res->k = prm->k;
  res->colors = prm->colors;
  res->seed = prm->seed;
  res->platform = prm->platform_desc;
  res->model = prm->procs.native ? "loggops" : prm->engine.model;
  count_quantities(prm, group, res);

  int rc = 0;
  cs_engine_config ec = prm->engine;
  ec.n = n;
  expected_totals(prm, group, &ec.progress_messages, &ec.progress_work);
  gint64 t0 = g_get_monotonic_time();
  if (!cs_procs_run(&prm->procs, &ec, st.procs, tree_proc_main, &st, err)) {
    rc = err && *err && (*err)->domain == CS_INPUT_ERROR ? 2 : 1;
    goto out;
  }
  res->wall_s = (double)(g_get_monotonic_time() - t0) / 1e6;
  if (cs_procs_retired() != n) {
    char *stuck = cs_procs_first_stuck();
    g_set_error(err, CS_INTERNAL_ERROR, 1, "%s deadlocked: %d of %d processes finished%s%s", prm->algo->name,
                cs_procs_retired(), n, stuck ? "; " : "", stuck ? stuck : "");
    g_free(stuck);
    rc = 1;
    goto out;
  }
  summarise(&st, res);
  rc = verify_run(&st, res, err);
  if (rc == 0)
    rc = check_all_received(&st, err);
out:
  state_free(&st);
  cs_group_free(drawn);
  return rc;
}
