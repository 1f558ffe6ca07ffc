/* Semantic check of a schedule (see replay.h).  Each rank runs its op list
 * through a cursor; sends are eager (queued at the receiver by source and
 * tag); a rank blocked on a receive sleeps until the message it waits for
 * arrives.  The run ends when no rank can move. */
#include "sim/checks/replay.h"

#include <string.h>

/* A rank's position in its op list, loops expanded lazily. */
typedef struct cursor {
  size_t k;     /* op index (a loop header while inside a loop) */
  int64_t iter; /* iteration of the loop at k */
  size_t b;     /* 1..body inside the loop at k, 0 outside */
} cursor;

typedef struct partial {
  uint64_t count, sum;
} partial;

typedef struct message {
  int64_t src, op_index; /* the send's op index at its sender */
  int32_t tag;
  cs_units units;
  partial *sums; /* reductions: the sender's partial sums, one per unit */
} message;

typedef struct replay {
  const cs_coll_algo *algo;
  const cs_sched_params *prm;
  bool reduction;
  int64_t p, nunits;
  cs_oplist *lists;    /* per rank */
  cursor *cur;         /* per rank */
  int64_t *done;       /* per rank: ops executed */
  guint64 *held;       /* data collectives: p * nunits bits */
  partial *sums;       /* reductions: p * nunits */
  uint64_t *weight;    /* per rank */
  GHashTable *pending; /* (dst, src, tag) -> GQueue of message* */
  int64_t *waiting_src;
  int32_t *waiting_tag;
  bool *waiting;
  GQueue runnable;
  uint64_t in_flight;
  cs_replay_stats *st;
  cs_replay_fault *fault;
  GError **err;
} replay;

/* ---- keys and unit iteration ---- */

typedef struct key {
  int64_t dst, src;
  int32_t tag;
} key;

static guint key_hash(gconstpointer a)
{
  const key *k = a;
  uint64_t h = (uint64_t)k->dst * 0x9E3779B97F4A7C15ull ^ (uint64_t)k->src * 0xC2B2AE3D27D4EB4Full ^
               (uint64_t)(uint32_t)k->tag;
  return (guint)(h ^ (h >> 32));
}

static gboolean key_equal(gconstpointer a, gconstpointer b)
{
  const key *x = a, *y = b;
  return x->dst == y->dst && x->src == y->src && x->tag == y->tag;
}

/* Unit idx of u (idx < cs_units_count(u)); the tail, shorter than len,
 * is run u.runs. */
static int64_t unit_at(const replay *R, cs_units u, int64_t idx)
{
  int64_t run = idx / u.len, j = idx % u.len;
  int64_t v = (u.first + run * u.stride + j) % R->nunits;
  return v < 0 ? v + R->nunits : v;
}

static uint64_t mix64(uint64_t z)
{
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

static bool holds(const replay *R, int64_t rank, int64_t u)
{
  uint64_t bit = (uint64_t)rank * (uint64_t)R->nunits + (uint64_t)u;
  return (R->held[bit / 64] >> (bit % 64)) & 1;
}

static void give(replay *R, int64_t rank, int64_t u)
{
  uint64_t bit = (uint64_t)rank * (uint64_t)R->nunits + (uint64_t)u;
  R->held[bit / 64] |= (guint64)1 << (bit % 64);
}

static partial *sum_of(replay *R, int64_t rank, int64_t u) { return &R->sums[rank * R->nunits + u]; }

static char *describe_units(cs_units u)
{
  if (u.runs <= 1 && u.tail == 0)
    return g_strdup_printf("units [%lld, +%lld)", (long long)u.first, (long long)u.len);
  if (u.tail == 0)
    return g_strdup_printf("units %lld runs of %lld from %lld stride %lld", (long long)u.runs, (long long)u.len,
                           (long long)u.first, (long long)u.stride);
  return g_strdup_printf("units %lld runs of %lld from %lld stride %lld and %lld more", (long long)u.runs,
                         (long long)u.len, (long long)u.first, (long long)u.stride, (long long)u.tail);
}

static const char *op_verb(cs_op_kind k)
{
  return k == CS_OP_SEND ? "send to" : k == CS_OP_RECV ? "recv from" : "recv-reduce from";
}

static bool fail(replay *R, cs_fault_kind kind, int64_t rank, const cs_op *op, const char *fmt, ...)
    G_GNUC_PRINTF(5, 6);

static bool fail(replay *R, cs_fault_kind kind, int64_t rank, const cs_op *op, const char *fmt, ...)
{
  if (R->fault->kind == CS_FAULT_NONE) {
    R->fault->kind = kind;
    R->fault->rank = rank;
    R->fault->op_index = op ? R->done[rank] : -1;
    R->fault->peer = op ? op->peer : -1;
  }
  va_list ap;
  va_start(ap, fmt);
  char *why = g_strdup_vprintf(fmt, ap);
  va_end(ap);
  char *us = op ? describe_units(op->units) : NULL;
  if (op)
    g_set_error(R->err, CS_SCHED_ERROR, 1, "%s %s, p = %lld: rank %lld, %s %lld tag %d %s: %s",
                cs_coll_name(R->algo->coll), R->algo->name, (long long)R->p, (long long)rank,
                op_verb(op->kind), (long long)op->peer, op->tag, us, why);
  else
    g_set_error(R->err, CS_SCHED_ERROR, 1, "%s %s, p = %lld: rank %lld: %s", cs_coll_name(R->algo->coll),
                R->algo->name, (long long)R->p, (long long)rank, why);
  g_free(us);
  g_free(why);
  return false;
}

/* ---- cursor over a rank's op list ---- */

static bool cursor_peek(const replay *R, int64_t rank, cs_op *out)
{
  const cs_oplist *o = &R->lists[rank];
  const cursor *c = &R->cur[rank];
  if (c->k >= o->n)
    return false;
  const cs_op *op = &o->op[c->k];
  if (op->kind != CS_OP_LOOP) {
    *out = cs_op_at_iteration(R->prm, op, 0);
    return true;
  }
  *out = cs_op_at_iteration(R->prm, &o->op[c->k + c->b], c->iter);
  return true;
}

/* Move the cursor onto a real op (skipping empty loops), or to the end. */
static void cursor_settle(replay *R, int64_t rank)
{
  const cs_oplist *o = &R->lists[rank];
  cursor *c = &R->cur[rank];
  while (c->k < o->n && o->op[c->k].kind == CS_OP_LOOP && c->b == 0) {
    const cs_op *l = &o->op[c->k];
    if (l->iterations > 0 && l->body > 0) {
      c->iter = 0;
      c->b = 1;
    } else {
      c->k += (size_t)l->body + 1;
    }
  }
}

static void cursor_advance(replay *R, int64_t rank)
{
  R->done[rank]++;
  const cs_oplist *o = &R->lists[rank];
  cursor *c = &R->cur[rank];
  if (o->op[c->k].kind != CS_OP_LOOP) {
    c->k++;
  } else {
    const cs_op *l = &o->op[c->k];
    if (++c->b > (size_t)l->body) {
      c->b = 1;
      if (++c->iter == l->iterations) {
        c->k += (size_t)l->body + 1;
        c->b = 0;
      }
    }
  }
  cursor_settle(R, rank);
}

/* ---- ops ---- */

static bool check_op(replay *R, int64_t rank, const cs_op *op)
{
  if (op->peer < 0 || op->peer >= R->p)
    return fail(R, CS_FAULT_BAD_OP, rank, op, "peer out of range");
  if (op->units.len < 0 || op->units.runs < 0 || op->units.tail < 0)
    return fail(R, CS_FAULT_BAD_OP, rank, op, "negative unit count");
  if (op->units.tail > 0 && op->units.tail >= op->units.len)
    return fail(R, CS_FAULT_BAD_OP, rank, op, "tail not shorter than the runs");
  if (op->kind == CS_OP_RECV_REDUCE && !R->reduction)
    return fail(R, CS_FAULT_BAD_OP, rank, op, "combining receive in a data collective");
  return true;
}

static bool do_send(replay *R, int64_t rank, const cs_op *op)
{
  int64_t n = cs_units_count(op->units);
  message *m = g_new0(message, 1);
  m->src = rank;
  m->op_index = R->done[rank];
  m->tag = op->tag;
  m->units = op->units;
  if (R->reduction)
    m->sums = g_new(partial, n > 0 ? n : 1);
  for (int64_t i = 0; i < n; i++) {
    int64_t u = unit_at(R, op->units, i);
    if (R->reduction) {
      m->sums[i] = *sum_of(R, rank, u);
    } else if (!holds(R, rank, u)) {
      g_free(m);
      return fail(R, CS_FAULT_NOT_HELD, rank, op, "sends unit %lld, which it does not hold", (long long)u);
    }
  }
  /* Keys stay in the table once used: a second message with the same
   * (sender, receiver, tag) breaks the pairing rule of schedule.h. */
  key k = {op->peer, rank, op->tag};
  if (g_hash_table_contains(R->pending, &k)) {
    g_free(m->sums);
    g_free(m);
    return fail(R, CS_FAULT_TAG_REUSED, rank, op, "tag %d already used for a message to %lld", op->tag,
                (long long)op->peer);
  }
  GQueue *q = g_queue_new();
  g_hash_table_insert(R->pending, g_memdup2(&k, sizeof k), q);
  g_queue_push_tail(q, m);
  R->in_flight++;
  uint64_t bytes = cs_units_bytes(R->prm, op->units);
  R->st->messages++;
  R->st->bytes += bytes;
  if (cs_rank_node(R->prm, rank) != cs_rank_node(R->prm, op->peer))
    R->st->internode_bytes += bytes;
  if (R->waiting[op->peer] && R->waiting_src[op->peer] == rank && R->waiting_tag[op->peer] == op->tag) {
    R->waiting[op->peer] = false;
    g_queue_push_tail(&R->runnable, GINT_TO_POINTER((gint)op->peer));
  }
  return true;
}

static message *take_message(replay *R, int64_t rank, const cs_op *op)
{
  key k = {rank, op->peer, op->tag};
  GQueue *q = g_hash_table_lookup(R->pending, &k);
  return q ? g_queue_pop_head(q) : NULL;
}

static bool combine(replay *R, int64_t rank, const cs_op *op, const message *m, int64_t i, int64_t u)
{
  partial *mine = sum_of(R, rank, u);
  if (op->kind == CS_OP_RECV) {
    *mine = m->sums[i];
    return true;
  }
  mine->count += m->sums[i].count;
  mine->sum += m->sums[i].sum;
  if (mine->count > (uint64_t)R->p)
    return fail(R, CS_FAULT_TWICE, rank, op, "unit %lld now sums %llu contributions, more than p: one is counted twice",
                (long long)u, (unsigned long long)mine->count);
  return true;
}

static bool do_recv(replay *R, int64_t rank, const cs_op *op, message *m)
{
  R->in_flight--;
  bool ok = true;
  if (!cs_units_equal(m->units, op->units)) {
    char *got = describe_units(m->units);
    ok = fail(R, CS_FAULT_UNITS, rank, op, "the message with this tag carries %s", got);
    g_free(got);
  }
  int64_t n = cs_units_count(op->units);
  for (int64_t i = 0; ok && i < n; i++) {
    int64_t u = unit_at(R, op->units, i);
    if (R->reduction)
      ok = combine(R, rank, op, m, i, u);
    else
      give(R, rank, u);
  }
  if (ok && op->kind == CS_OP_RECV_REDUCE)
    R->st->reduced_bytes += cs_units_bytes(R->prm, op->units);
  g_free(m->sums);
  g_free(m);
  return ok;
}

/* Runs rank until it blocks or finishes.  False on a schedule error. */
static bool run_rank(replay *R, int64_t rank)
{
  cs_op op;
  while (cursor_peek(R, rank, &op)) {
    if (!check_op(R, rank, &op))
      return false;
    if (op.kind == CS_OP_SEND) {
      if (!do_send(R, rank, &op))
        return false;
    } else {
      message *m = take_message(R, rank, &op);
      if (!m) {
        R->waiting[rank] = true;
        R->waiting_src[rank] = op.peer;
        R->waiting_tag[rank] = op.tag;
        return true;
      }
      if (!do_recv(R, rank, &op, m))
        return false;
    }
    cursor_advance(R, rank);
  }
  return true;
}

/* ---- start and end states ---- */

/* The units rank r starts with, for data collectives (empty if none). */
static cs_units initial(const replay *R, int64_t r)
{
  switch (R->prm->coll) {
  case CS_COLL_SCATTER:
  case CS_COLL_BCAST:
    return r == R->prm->root ? cs_units_all(R->prm) : cs_units_range(0, 0);
  case CS_COLL_GATHER:
  case CS_COLL_ALLGATHER:
  case CS_COLL_BARRIER: /* its token */
    return cs_units_block(R->prm, r);
  case CS_COLL_ALLTOALL: /* its p blocks, one for every destination */
    return cs_units_row(R->prm, r);
  default:
    return cs_units_all(R->prm);
  }
}

static void initial_state(replay *R)
{
  for (int64_t r = 0; r < R->p; r++) {
    if (R->reduction) {
      for (int64_t u = 0; u < R->nunits; u++)
        *sum_of(R, r, u) = (partial){1, R->weight[r]};
      continue;
    }
    cs_units mine = initial(R, r);
    for (int64_t i = 0; i < cs_units_count(mine); i++)
      give(R, r, unit_at(R, mine, i));
  }
}

/* The units rank r must end with (empty if none). */
static cs_units required(const replay *R, int64_t r)
{
  switch (R->prm->coll) {
  case CS_COLL_SCATTER:
  case CS_COLL_REDUCE_SCATTER:
  case CS_COLL_ALLTOALL: /* the block (s -> r) of every s */
    return cs_units_block(R->prm, r);
  case CS_COLL_GATHER:
  case CS_COLL_REDUCE:
    return r == R->prm->root ? cs_units_all(R->prm) : cs_units_range(0, 0);
  default: /* bcast, allgather, allreduce, barrier (every token) */
    return cs_units_all(R->prm);
  }
}

static bool final_state(replay *R, uint64_t total_weight)
{
  for (int64_t r = 0; r < R->p; r++) {
    cs_units need = required(R, r);
    for (int64_t i = 0; i < cs_units_count(need); i++) {
      int64_t u = unit_at(R, need, i);
      if (!R->reduction && !holds(R, r, u))
        return fail(R, CS_FAULT_INCOMPLETE, r, NULL, "ends without unit %lld", (long long)u);
      if (R->reduction) {
        const partial *s = sum_of(R, r, u);
        if (s->count != (uint64_t)R->p || s->sum != total_weight)
          return fail(R, CS_FAULT_INCOMPLETE, r, NULL, "ends with unit %lld summing %llu of %lld contributions%s",
                      (long long)u,
                      (unsigned long long)s->count, (long long)R->p,
                      s->count == (uint64_t)R->p ? " (some twice, some missing)" : "");
      }
    }
  }
  return true;
}

/* The rank that explains a stuck run: the lowest rank waiting for a rank
 * that has ended (STUCK), else the cycle of waits reached from the lowest
 * waiting rank (DEADLOCK), listed from its smallest rank. */
static bool report_wait(replay *R, int64_t first)
{
  for (int64_t r = 0; r < R->p; r++) {
    if (!R->waiting[r] || R->waiting[R->waiting_src[r]])
      continue;
    cs_op op;
    cursor_peek(R, r, &op);
    R->fault->chain[0] = (cs_wait){r, R->done[r], op.peer};
    R->fault->chain_len = 1;
    return fail(R, CS_FAULT_STUCK, r, &op, "waits for a message from %lld that is never sent (rank %lld has ended)",
                (long long)op.peer, (long long)op.peer);
  }
  int64_t *seen = g_new0(int64_t, R->p), step = 1, r = first;
  while (!seen[r]) {
    seen[r] = step++;
    r = R->waiting_src[r];
  }
  int64_t lo = r;
  for (int64_t q = R->waiting_src[r]; q != r; q = R->waiting_src[q])
    lo = MIN(lo, q);
  g_free(seen);
  int n = 0;
  int64_t q = lo;
  do {
    if (n < (int)G_N_ELEMENTS(R->fault->chain))
      R->fault->chain[n++] = (cs_wait){q, R->done[q], R->waiting_src[q]};
    q = R->waiting_src[q];
  } while (q != lo);
  R->fault->chain_len = n;
  cs_op op;
  cursor_peek(R, lo, &op);
  return fail(R, CS_FAULT_DEADLOCK, lo, &op, "waits for a message that is never sent: deadlock, a cycle of %d ranks "
              "each waiting for the next", n);
}

static bool report_stuck(replay *R)
{
  for (int64_t r = 0; r < R->p; r++)
    if (R->waiting[r])
      return report_wait(R, r);
  GHashTableIter it;
  gpointer k, v;
  g_hash_table_iter_init(&it, R->pending);
  const key *worst = NULL;
  message *wm = NULL;
  while (g_hash_table_iter_next(&it, &k, &v)) {
    const key *kk = k;
    message *m = g_queue_peek_head(v);
    if (m && (!worst || kk->src < worst->src || (kk->src == worst->src && m->op_index < wm->op_index))) {
      worst = kk;
      wm = m;
    }
  }
  if (!worst)
    return true;
  int64_t src = worst->src;
  R->done[src] = wm->op_index; /* name the send itself */
  cs_op op = {.kind = CS_OP_SEND, .peer = worst->dst, .tag = worst->tag, .units = wm->units};
  return fail(R, CS_FAULT_UNRECEIVED, src, &op, "this message is never received");
}

/* ---- driver ---- */

static void free_queue(gpointer q)
{
  message *m;
  while ((m = g_queue_pop_head(q))) {
    g_free(m->sums);
    g_free(m);
  }
  g_queue_free(q);
}

static void replay_init(replay *R)
{
  int64_t p = R->p;
  R->lists = g_new0(cs_oplist, p);
  R->cur = g_new0(cursor, p);
  R->done = g_new0(int64_t, p);
  R->weight = g_new(uint64_t, p);
  R->waiting = g_new0(bool, p);
  R->waiting_src = g_new0(int64_t, p);
  R->waiting_tag = g_new0(int32_t, p);
  if (R->reduction)
    R->sums = g_new0(partial, p * R->nunits);
  else
    R->held = g_new0(guint64, ((uint64_t)p * (uint64_t)R->nunits + 63) / 64);
  R->pending = g_hash_table_new_full(key_hash, key_equal, g_free, free_queue);
  g_queue_init(&R->runnable);
  for (int64_t r = 0; r < p; r++) {
    R->weight[r] = mix64((uint64_t)r + 0x5DEECE66Dull);
    cs_oplist_init(&R->lists[r]);
    R->algo->ops(R->prm, r, &R->lists[r]);
    uint64_t n = R->lists[r].n;
    if (n > R->st->max_ops_per_rank)
      R->st->max_ops_per_rank = n;
    cursor_settle(R, r);
    g_queue_push_tail(&R->runnable, GINT_TO_POINTER((gint)r));
  }
}

static void replay_free(replay *R)
{
  for (int64_t r = 0; r < R->p; r++)
    cs_oplist_free(&R->lists[r]);
  g_free(R->lists);
  g_free(R->cur);
  g_free(R->done);
  g_free(R->weight);
  g_free(R->waiting);
  g_free(R->waiting_src);
  g_free(R->waiting_tag);
  g_free(R->sums);
  g_free(R->held);
  g_hash_table_destroy(R->pending);
  g_queue_clear(&R->runnable);
}

double cs_replay_state_bytes(const cs_sched_params *prm)
{
  double cells = (double)prm->p * (double)prm->nunits;
  return cs_coll_is_reduction(prm->coll) ? cells * sizeof(partial) : cells / 8;
}

bool cs_replay(const cs_coll_algo *a, const cs_sched_params *prm, cs_replay_stats *st, GError **err)
{
  return cs_replay_ex(a, prm, st, NULL, err);
}

bool cs_replay_ex(const cs_coll_algo *a, const cs_sched_params *prm, cs_replay_stats *st, cs_replay_fault *fault,
                  GError **err)
{
  cs_replay_stats local;
  cs_replay_fault local_fault;
  if (!st)
    st = &local;
  if (!fault)
    fault = &local_fault;
  memset(st, 0, sizeof *st);
  memset(fault, 0, sizeof *fault);
  fault->rank = fault->op_index = fault->peer = -1;
  replay R = {.algo = a, .prm = prm, .reduction = cs_coll_is_reduction(prm->coll), .p = prm->p,
              .nunits = prm->nunits, .st = st, .fault = fault, .err = err};
  replay_init(&R);
  initial_state(&R);
  bool ok = true;
  while (ok && !g_queue_is_empty(&R.runnable)) {
    int64_t r = GPOINTER_TO_INT(g_queue_pop_head(&R.runnable));
    ok = run_rank(&R, r);
  }
  if (ok)
    ok = report_stuck(&R);
  if (ok) {
    uint64_t total = 0;
    for (int64_t r = 0; r < R.p; r++)
      total += R.weight[r];
    ok = final_state(&R, total);
  }
  replay_free(&R);
  return ok;
}
