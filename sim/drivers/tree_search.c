/* The tree search (see tree_search.h). */
#include "sim/drivers/tree_search.h"
#include "sim/drivers/allreduce_bench.h"
#include "sim/engine/forked.h"

#include <string.h>

char *cs_tree_choice_describe(const cs_tree_choice *c)
{
  GString *s = g_string_new(c->family);
  if (!strcmp(c->family, "hierarchical") || !strcmp(c->family, "kary-node"))
    g_string_append_printf(s, " groups=%d", c->groups);
  if (!strcmp(c->family, "kary-node"))
    g_string_append_printf(s, " fanout=%d", c->fanout);
  g_string_append_printf(s, " order=%s", c->order == CS_TS_ARRIVAL_ORDER ? "arrival" : "scripted");
  return g_string_free(s, FALSE);
}

cs_tree_script *cs_tree_choice_script(const cs_tree_choice *ch, const cs_platform *c, int n)
{
  const cs_tree_gen *g = cs_tree_gen_find(ch->family);
  if (!g)
    return NULL;
  int *node_of = cs_allreduce_node_map(c, n);
  cs_tree_gen_params prm = {.n = n, .nodes = (int)c->nodes, .cores = c->cores, .node_of = node_of,
                            .groups_per_node = ch->groups, .fanout = ch->fanout, .order = ch->order};
  cs_tree_script *s = g->generate(&prm);
  g_free(node_of);
  if (s)
    s->order = ch->order;
  return s;
}

typedef struct trial {
  const cs_tree_choice *choice;
  const cs_platform *cluster;
  const cs_engine_config *ec;
  int n, iterations;
} trial;

/* In the child: one candidate's simulation. */
static gboolean run_trial(void *arg, void *out, GError **err)
{
  trial *t = arg;
  cs_tree_script *s = cs_tree_choice_script(t->choice, t->cluster, t->n);
  if (!s) {
    g_set_error(err, CS_INPUT_ERROR, 1, "family rejects these parameters");
    return FALSE;
  }
  cs_engine_config ec = *t->ec;
  cs_allreduce_result r;
  gboolean ok = cs_allreduce_run(t->cluster, s, t->iterations, &ec, &r, err);
  cs_ts_free(s);
  if (ok && !r.result_ok) {
    g_set_error(err, CS_INTERNAL_ERROR, 1, "wrong Allreduce result");
    ok = FALSE;
  }
  if (ok) {
    cs_tree_choice *c = out;
    *c = *t->choice;
    c->us_per_allreduce = r.us_per_allreduce;
    c->internode_messages = r.internode_messages_per_allreduce;
  }
  return ok;
}

static GArray *candidates(const cs_platform *c)
{
  GArray *a = g_array_new(FALSE, TRUE, sizeof(cs_tree_choice));
  for (int o = 0; o < 2; o++) {
    cs_tree_choice ch = {.order = o ? CS_TS_ARRIVAL_ORDER : CS_TS_SCRIPTED_ORDER, .groups = 1};
    g_strlcpy(ch.family, "lam", sizeof ch.family);
    g_array_append_val(a, ch);
    g_strlcpy(ch.family, "linear", sizeof ch.family);
    g_array_append_val(a, ch);
    for (int g = 1; g <= c->cores; g++) {
      ch.groups = g;
      g_strlcpy(ch.family, "hierarchical", sizeof ch.family);
      g_array_append_val(a, ch);
      g_strlcpy(ch.family, "kary-node", sizeof ch.family);
      for (int k = 1; k < c->nodes; k++) {
        ch.fanout = k;
        g_array_append_val(a, ch);
      }
      ch.fanout = 0;
    }
  }
  return a;
}

static gboolean better(const cs_tree_choice *x, const cs_tree_choice *best)
{
  if (x->us_per_allreduce != best->us_per_allreduce)
    return x->us_per_allreduce < best->us_per_allreduce;
  return x->internode_messages < best->internode_messages;
}

gboolean cs_tree_search(const cs_platform *c, int n, int iterations, const cs_engine_config *ec, FILE *log,
                        cs_tree_choice *best, GError **err)
{
  GArray *cands = candidates(c);
  gboolean found = FALSE;
  for (guint i = 0; i < cands->len; i++) {
    const cs_tree_choice *ch = &g_array_index(cands, cs_tree_choice, i);
    trial t = {ch, c, ec, n, iterations};
    cs_tree_choice got;
    GError *e = NULL;
    char *what = cs_tree_choice_describe(ch);
    if (!cs_run_forked(run_trial, &t, &got, sizeof got, &e)) {
      if (e->domain == CS_INTERNAL_ERROR) {
        g_propagate_prefixed_error(err, e, "search, %s: ", what);
        g_free(what);
        g_array_free(cands, TRUE);
        return FALSE;
      }
      if (log)
        fprintf(log, "search: %-44s skipped (%s)\n", what, e->message);
      g_error_free(e);
    } else {
      if (log)
        fprintf(log, "search: %-44s %10.1f us, %d messages between nodes\n", what, got.us_per_allreduce,
                got.internode_messages);
      if (!found || better(&got, best))
        *best = got;
      found = TRUE;
    }
    g_free(what);
  }
  g_array_free(cands, TRUE);
  if (!found)
    g_set_error(err, CS_INTERNAL_ERROR, 1, "search: no candidate could run");
  return found;
}
