/* The timed schedule interpreter (see sched_interp.h). */
#include "sim/engine/sched_interp.h"
#include "sim/contracts/transport.h"

#include <stdlib.h>
#include <string.h>

typedef struct pair_traffic {
  uint64_t bytes, messages;
} pair_traffic;

typedef struct timed_run {
  const cs_interp_run *run;
  const cs_two_tier *tt;
  GHashTable *pairs; /* (src node * nodes + dst node) -> pair_traffic */
  int64_t nodes;
  uint64_t size_mismatches, stray;
  int finished;
} timed_run;

/* Where one actor is: its process, repetition and phase. */
typedef struct actor_step {
  cs_proc *proc;
  timed_run *T;
  int64_t rep;
  int phase;
  int32_t tag_offset;
} actor_step;

static const cs_sched_params *phase_prm(const actor_step *s) { return s->T->run->phases[s->phase].prm; }

static void send_op(actor_step *s, const cs_op *op)
{
  const cs_interp_run *run = s->T->run;
  uint64_t bytes = cs_units_bytes(phase_prm(s), op->units) + run->header_bytes;
  char buf[CS_INTERP_PAYLOAD_MAX];
  size_t len = 0;
  if (run->hooks && run->hooks->payload)
    len = run->hooks->payload(run->user, s->proc, s->rep, s->phase, op, buf, sizeof buf);
  cs_send_sized(s->proc, (int)op->peer, op->tag + s->tag_offset, len ? buf : NULL, len, (size_t)bytes);
}

static void took(actor_step *s, const cs_op *op, cs_msg *m)
{
  const cs_interp_run *run = s->T->run;
  uint64_t bytes = cs_units_bytes(phase_prm(s), op->units);
  if (m->bytes != bytes + run->header_bytes)
    s->T->size_mismatches++;
  if (run->hooks && run->hooks->on_receive)
    run->hooks->on_receive(run->user, s->proc, s->rep, s->phase, op, m);
  cs_msg_free(s->proc, m);
  if (op->kind == CS_OP_RECV_REDUCE && run->gamma > 0)
    cs_compute(s->proc, run->gamma * (double)bytes);
}

static bool execute(const cs_op *op, void *user)
{
  actor_step *s = user;
  if (op->kind == CS_OP_SEND)
    send_op(s, op);
  else
    took(s, op, cs_recv(s->proc, (int)op->peer, op->tag + s->tag_offset));
  return true;
}

/* Receives ops[0..n) in order of arrival: each message with the group's
 * tag is matched to the group's receive from its source. */
static void any_order_group(actor_step *s, const cs_op *ops, size_t n)
{
  bool *done = g_new0(bool, n);
  for (size_t k = 0; k < n; k++) {
    cs_msg *m = cs_recv(s->proc, CS_ANY, ops[0].tag + s->tag_offset);
    size_t i = 0;
    while (i < n && (done[i] || ops[i].peer != m->src))
      i++;
    if (i == n) {
      s->T->stray++;
      cs_msg_free(s->proc, m);
      continue;
    }
    done[i] = true;
    took(s, &ops[i], m);
  }
  g_free(done);
}

static bool starts_group(const cs_op *op) { return op->kind != CS_OP_SEND && op->kind != CS_OP_LOOP && op->any_order; }

/* A rank's op list: loops expanded, any-order groups received by arrival. */
static void run_list(actor_step *s, const cs_oplist *o)
{
  const cs_sched_params *prm = phase_prm(s);
  for (size_t k = 0; k < o->n;) {
    const cs_op *op = &o->op[k];
    if (op->kind == CS_OP_LOOP) {
      cs_oplist one = {(cs_op *)op, (size_t)op->body + 1, 0};
      cs_oplist_expand(prm, &one, execute, s);
      k += (size_t)op->body + 1;
    } else if (starts_group(op)) {
      size_t n = 1;
      while (k + n < o->n && starts_group(&o->op[k + n]) && o->op[k + n].tag == op->tag)
        n++;
      any_order_group(s, op, n);
      k += n;
    } else {
      execute(op, s);
      k++;
    }
  }
}

static void rank_main(cs_proc *p, void *user)
{
  timed_run *T = user;
  const cs_interp_run *run = T->run;
  cs_oplist *lists = g_new0(cs_oplist, run->nphases);
  for (int k = 0; k < run->nphases; k++)
    run->phases[k].algo->ops(run->phases[k].prm, cs_rank(p), &lists[k]);
  for (int64_t rep = 0; rep < run->repetitions; rep++) {
    if (run->hooks && run->hooks->on_start)
      run->hooks->on_start(run->user, p, rep);
    for (int k = 0; k < run->nphases; k++) {
      actor_step s = {p, T, rep, k, (int32_t)((rep * run->nphases + k) * run->tag_stride)};
      run_list(&s, &lists[k]);
    }
  }
  for (int k = 0; k < run->nphases; k++)
    cs_oplist_free(&lists[k]);
  g_free(lists);
  if (run->hooks && run->hooks->on_end)
    run->hooks->on_end(run->user, p);
  T->finished++;
  cs_serve(p);
}

static void observe(int src, int dst, size_t bytes, cs_phase phase, void *user)
{
  (void)phase;
  timed_run *T = user;
  int64_t key = cs_tt_node_of(T->tt, src) * T->nodes + cs_tt_node_of(T->tt, dst);
  pair_traffic *t = g_hash_table_lookup(T->pairs, &key);
  if (!t) {
    int64_t *k = g_new(int64_t, 1);
    *k = key;
    t = g_new0(pair_traffic, 1);
    g_hash_table_insert(T->pairs, k, t);
  }
  t->bytes += bytes - T->run->header_bytes;
  t->messages++;
}

/* A message taken by its receiver: its bytes on the links between the two
 * hosts. */
static void count_delivery(const cs_delivery *d, void *user)
{
  timed_run *T = user;
  cs_linkusage_add(T->run->delivered, d->src_host, d->dst_host, d->bytes - T->run->header_bytes, 1);
}

static int cmp_i64(const void *a, const void *b)
{
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

/* Node pairs in increasing (source, destination) order. */
static void emit_pairs(timed_run *T, cs_pair_sink sink, void *user)
{
  GArray *keys = g_array_sized_new(FALSE, FALSE, sizeof(int64_t), g_hash_table_size(T->pairs));
  GHashTableIter it;
  gpointer k, v;
  g_hash_table_iter_init(&it, T->pairs);
  while (g_hash_table_iter_next(&it, &k, &v))
    g_array_append_val(keys, *(int64_t *)k);
  g_array_sort(keys, cmp_i64); /* leaves an empty array alone (its data is NULL) */
  for (guint i = 0; i < keys->len; i++) {
    int64_t key = g_array_index(keys, int64_t, i);
    pair_traffic *t = g_hash_table_lookup(T->pairs, &key);
    sink(user, key / T->nodes, key % T->nodes, t->bytes, t->messages);
  }
  g_array_free(keys, TRUE);
}

/* Messages and bytes the actors sent (without the per-message header). */
static void collect(cs_proc *procs, int64_t p, uint64_t header, cs_coll_timed *out)
{
  for (int64_t r = 0; r < p; r++) {
    const cs_counters *c = cs_proc_counters(&procs[r], CS_PHASE_ALGO);
    out->messages += c->messages;
    out->bytes += c->bytes - c->messages * header;
    if (c->max_message_bytes - (c->messages ? header : 0) > out->max_message_bytes)
      out->max_message_bytes = c->max_message_bytes - (c->messages ? header : 0);
    cs_proc_release(&procs[r]);
  }
}

bool cs_sched_run_timed(const cs_interp_run *run, cs_engine_config *ec, cs_coll_timed *out, GError **err)
{
  memset(out, 0, sizeof *out);
  const cs_sched_params *prm = run->phases[0].prm;
  if (prm->p > G_MAXINT) {
    g_set_error(err, CS_INPUT_ERROR, 1, "timed runs take at most %d ranks (p = %lld)", G_MAXINT, (long long)prm->p);
    return false;
  }
  timed_run T = {.run = run, .tt = prm->tt, .nodes = cs_tt_nodes(prm->tt)};
  T.pairs = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, g_free);
  ec->n = (int)prm->p;
  if (run->sink) {
    ec->observer = observe;
    ec->observer_user = &T;
  }
  ec->on_delivery = run->delivered ? count_delivery : NULL;
  ec->on_delivery_user = &T;
  cs_proc *procs = g_new0(cs_proc, prm->p);
  bool ok = cs_engine_run(ec, procs, rank_main, &T, err);
  if (ok) {
    out->sim_time_s = cs_engine_clock();
    out->size_mismatches = T.size_mismatches;
    out->stray_messages = T.stray;
    out->finished = T.finished;
    collect(procs, prm->p, run->header_bytes, out);
    if (run->sink)
      emit_pairs(&T, run->sink, run->sink_user);
  }
  g_free(procs);
  g_hash_table_destroy(T.pairs);
  return ok;
}

bool cs_coll_run_timed(const cs_coll_algo *a, const cs_sched_params *prm, cs_engine_config *ec, double gamma,
                       cs_pair_sink sink, void *sink_user, cs_linkusage *delivered, cs_coll_timed *out,
                       GError **err)
{
  cs_interp_phase phase = {a, prm};
  cs_interp_run run = {.phases = &phase, .nphases = 1, .repetitions = 1, .tag_stride = 0, .gamma = gamma,
                       .sink = sink, .sink_user = sink_user, .delivered = delivered};
  return cs_sched_run_timed(&run, ec, out, err);
}
