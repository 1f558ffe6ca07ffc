/* Timed interpreter of schedules (see coll_run.h). */
#include "sim/engine/sched_interp.h"
#include "sim/contracts/transport.h"

#include <stdlib.h>
#include <string.h>

typedef struct pair_traffic {
  uint64_t bytes, messages;
} pair_traffic;

typedef struct timed_run {
  const cs_coll_algo *algo;
  const cs_sched_params *prm;
  double gamma;
  int64_t cpn;
  GHashTable *pairs; /* (src node * nodes + dst node) -> pair_traffic */
  int64_t nodes;
  uint64_t size_mismatches;
  int finished;
} timed_run;

typedef struct actor_step {
  cs_proc *proc;
  timed_run *run;
} actor_step;

static bool execute(const cs_op *op, void *user)
{
  actor_step *s = user;
  uint64_t bytes = cs_units_bytes(s->run->prm, op->units);
  if (op->kind == CS_OP_SEND) {
    cs_send(s->proc, (int)op->peer, op->tag, NULL, (size_t)bytes);
    return true;
  }
  cs_msg *m = cs_recv(s->proc, (int)op->peer, op->tag);
  if (m->bytes != bytes)
    s->run->size_mismatches++;
  cs_msg_free(s->proc, m);
  if (op->kind == CS_OP_RECV_REDUCE && s->run->gamma > 0)
    cs_compute(s->proc, s->run->gamma * (double)bytes);
  return true;
}

static void rank_main(cs_proc *p, void *user)
{
  timed_run *run = user;
  cs_oplist ops;
  cs_oplist_init(&ops);
  run->algo->ops(run->prm, cs_rank(p), &ops);
  actor_step s = {p, run};
  cs_oplist_expand(run->prm, &ops, execute, &s);
  cs_oplist_free(&ops);
  run->finished++;
  cs_serve(p);
}

static void observe(int src, int dst, size_t bytes, cs_phase phase, void *user)
{
  (void)phase;
  timed_run *run = user;
  int64_t key = (int64_t)(src / run->cpn) * run->nodes + dst / run->cpn;
  pair_traffic *t = g_hash_table_lookup(run->pairs, &key);
  if (!t) {
    int64_t *k = g_new(int64_t, 1);
    *k = key;
    t = g_new0(pair_traffic, 1);
    g_hash_table_insert(run->pairs, k, t);
  }
  t->bytes += bytes;
  t->messages++;
}

static int cmp_i64(const void *a, const void *b)
{
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

/* Node pairs in increasing (source, destination) order. */
static void emit_pairs(timed_run *run, cs_pair_sink sink, void *user)
{
  GArray *keys = g_array_sized_new(FALSE, FALSE, sizeof(int64_t), g_hash_table_size(run->pairs));
  GHashTableIter it;
  gpointer k, v;
  g_hash_table_iter_init(&it, run->pairs);
  while (g_hash_table_iter_next(&it, &k, &v))
    g_array_append_val(keys, *(int64_t *)k);
  qsort(keys->data, keys->len, sizeof(int64_t), cmp_i64);
  for (guint i = 0; i < keys->len; i++) {
    int64_t key = g_array_index(keys, int64_t, i);
    pair_traffic *t = g_hash_table_lookup(run->pairs, &key);
    sink(user, key / run->nodes, key % run->nodes, t->bytes, t->messages);
  }
  g_array_free(keys, TRUE);
}

static void collect(cs_proc *procs, int64_t p, cs_coll_timed *out)
{
  for (int64_t r = 0; r < p; r++) {
    const cs_counters *c = cs_proc_counters(&procs[r], CS_PHASE_ALGO);
    out->messages += c->messages;
    out->bytes += c->bytes;
    if (c->max_message_bytes > out->max_message_bytes)
      out->max_message_bytes = c->max_message_bytes;
    cs_proc_release(&procs[r]);
  }
}

bool cs_coll_run_timed(const cs_coll_algo *a, const cs_sched_params *prm, cs_engine_config *ec, double gamma,
                       cs_pair_sink sink, void *sink_user, cs_coll_timed *out, GError **err)
{
  memset(out, 0, sizeof *out);
  if (prm->p > G_MAXINT) {
    g_set_error(err, CS_INPUT_ERROR, 1, "timed runs take at most %d ranks (p = %lld)", G_MAXINT,
                (long long)prm->p);
    return false;
  }
  timed_run run = {.algo = a, .prm = prm, .gamma = gamma, .cpn = prm->net->cpn,
                   .nodes = prm->p / prm->net->cpn};
  run.pairs = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, g_free);
  ec->n = (int)prm->p;
  ec->cores = (int)prm->net->cpn;
  if (sink) {
    ec->observer = observe;
    ec->observer_user = &run;
  }
  cs_proc *procs = g_new0(cs_proc, prm->p);
  bool ok = cs_engine_run(ec, procs, rank_main, &run, err);
  if (ok) {
    out->sim_time_s = cs_engine_clock();
    out->size_mismatches = run.size_mismatches;
    out->finished = run.finished;
    collect(procs, prm->p, out);
    if (sink)
      emit_pairs(&run, sink, sink_user);
  }
  g_free(procs);
  g_hash_table_destroy(run.pairs);
  return ok;
}
