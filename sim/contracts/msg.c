/* Backend-independent part of the messaging interface: matching, handlers,
 * counters and memory accounting.  See msg.h for the semantics. */
#include "sim/contracts/transport.h"

#include <stdlib.h>
#include <string.h>

static int64_t words_of(size_t bytes) { return (int64_t)((bytes + 7) / 8); }

static void pool_add(cs_mem_pool *pool, int64_t words)
{
  pool->words += words;
  if (pool->words > pool->peak)
    pool->peak = pool->words;
}

/* Every change of a process's memory goes through these two. */
static void mem_add(cs_proc *p, int64_t words)
{
  p->mem_words += words;
  if (p->mem_words > p->mem_peak)
    p->mem_peak = p->mem_words;
  if (p->mem_pool)
    pool_add(p->mem_pool, words);
}

static void mem_sub(cs_proc *p, int64_t words)
{
  p->mem_words -= words;
  if (p->mem_pool)
    p->mem_pool->words -= words;
}

/* Bytes to words, rounded up away from zero (negative: a release). */
static int64_t signed_words_of(int64_t bytes)
{
  return bytes >= 0 ? words_of((size_t)bytes) : -words_of((size_t)-bytes);
}

void cs_proc_join_mem_pool(cs_proc *p, cs_mem_pool *pool)
{
  g_assert(p->mem_pool == NULL);
  p->mem_pool = pool;
  pool_add(pool, p->mem_words);
}

void cs_mem_pool_hold_bytes(cs_mem_pool *pool, int64_t bytes)
{
  pool_add(pool, signed_words_of(bytes)); /* a release never raises the peak */
}

void cs_proc_init(cs_proc *p, int rank, int size, const cs_transport *t, void *backend)
{
  memset(p, 0, sizeof *p);
  p->rank = rank;
  p->size = size;
  p->transport = t;
  p->backend = backend;
  g_queue_init(&p->pending);
  p->phase = CS_PHASE_ALGO;
}

static void drop_owned_handler_state(cs_proc *p)
{
  if (p->handler_owns_user && p->handler_user)
    cs_free(p, p->handler_user);
  p->handler_owns_user = 0;
  p->handler_user = NULL;
}

void cs_proc_release(cs_proc *p)
{
  drop_owned_handler_state(p);
  cs_msg *m;
  while ((m = g_queue_pop_head(&p->pending)) != NULL) {
    free(m->data);
    free(m);
  }
}

int cs_rank(const cs_proc *p) { return p->rank; }
int cs_size(const cs_proc *p) { return p->size; }
void cs_set_phase(cs_proc *p, cs_phase phase) { p->phase = phase; }
cs_phase cs_get_phase(const cs_proc *p) { return p->phase; }
double cs_now(const cs_proc *p) { return p->transport->now(p); }
void cs_compute(cs_proc *p, double seconds)
{
  if (seconds > 0)
    p->transport->compute(p, seconds);
}

void cs_send(cs_proc *p, int dst, int tag, const void *data, size_t bytes)
{
  cs_send_sized(p, dst, tag, data, data ? bytes : 0, bytes);
}

void cs_send_sized(cs_proc *p, int dst, int tag, const void *data, size_t data_len, size_t bytes)
{
  cs_send_ctx(p, dst, 0, tag, data, data_len, bytes);
}

void cs_send_ctx(cs_proc *p, int dst, uint32_t ctx, int tag, const void *data, size_t data_len, size_t bytes)
{
  g_assert(dst >= 0 && dst < p->size && data_len <= bytes);
  if (cs_proc_failed(p, dst)) { /* the detector's error: nothing leaves (msg.h) */
    p->dropped_sends++;
    return;
  }
  cs_msg *m = malloc(sizeof *m);
  g_assert(m != NULL);
  m->src = p->rank;
  m->tag = tag;
  m->ctx = ctx;
  m->bytes = bytes;
  m->data = NULL;
  m->note = NULL;
  m->phase = p->phase;
  m->t_sent = 0;
  if (data != NULL && data_len > 0) {
    m->data = malloc(data_len);
    g_assert(m->data != NULL);
    memcpy(m->data, data, data_len);
  }
  cs_counters *c = &p->counters[p->phase];
  c->messages++;
  c->bytes += bytes;
  if (bytes > c->max_message_bytes)
    c->max_message_bytes = bytes;
  if (p->observer)
    p->observer(p->rank, dst, bytes, p->phase, p->observer_user);
  p->transport->send(p, dst, m);
}

static int is_handled(const cs_proc *p, const cs_msg *m)
{
  return p->handler != NULL && m->ctx == 0 && m->tag >= p->handler_lo && m->tag <= p->handler_hi;
}

static int matches(const cs_msg *m, int src, uint32_t ctx, int tag)
{
  return m->tag == tag && m->ctx == ctx && (src == CS_ANY || m->src == src);
}

static void dispatch(cs_proc *p, cs_msg *m)
{
  p->received++;
  mem_add(p, words_of(m->bytes));
  cs_phase current = p->phase;
  p->phase = p->handler_phase;
  p->handler(p, m, p->handler_user);
  p->phase = current;
}

cs_msg *cs_recv(cs_proc *p, int src, int tag) { return cs_recv_ctx(p, src, 0, tag); }

/* The first queued message matching (src, ctx, tag), taken out of the queue,
 * or NULL. */
static cs_msg *take_pending(cs_proc *p, int src, uint32_t ctx, int tag)
{
  for (GList *l = p->pending.head; l != NULL; l = l->next) {
    cs_msg *m = l->data;
    if (matches(m, src, ctx, tag)) {
      g_queue_delete_link(&p->pending, l);
      p->received++;
      return m; /* already counted as held while queued */
    }
  }
  return NULL;
}

/* A message just taken from the transport, for a receive of (src, ctx,
 * tag): handed to the handler if in its range, else held; returned if it
 * matches, else queued in arrival order (NULL in both cases). */
static cs_msg *file_arrival(cs_proc *p, cs_msg *m, int src, uint32_t ctx, int tag)
{
  if (is_handled(p, m)) {
    dispatch(p, m);
    return NULL;
  }
  mem_add(p, words_of(m->bytes));
  if (matches(m, src, ctx, tag)) {
    p->received++;
    return m;
  }
  g_queue_push_tail(&p->pending, m);
  return NULL;
}

cs_msg *cs_recv_ctx(cs_proc *p, int src, uint32_t ctx, int tag)
{
  cs_msg *m = take_pending(p, src, ctx, tag);
  while (m == NULL) {
    /* Recorded afresh before every wait: a handler run in between may
     * receive (and record) itself. */
    p->wait.src = src;
    p->wait.ctx = ctx;
    p->wait.tag = tag;
    p->wait.active = true;
    cs_msg *in = p->transport->next(p);
    p->wait.active = false;
    m = file_arrival(p, in, src, ctx, tag);
  }
  return m;
}

cs_msg *cs_recv_try(cs_proc *p, int src, int tag) { return cs_recv_try_ctx(p, src, 0, tag); }

/* Polling: queued messages first, then whatever has arrived, in arrival
 * order, until one matches or nothing more has arrived. */
cs_msg *cs_recv_try_ctx(cs_proc *p, int src, uint32_t ctx, int tag)
{
  cs_msg *m = take_pending(p, src, ctx, tag);
  if (m != NULL || p->transport->poll == NULL)
    return m;
  cs_msg *in;
  while ((in = p->transport->poll(p)) != NULL)
    if ((m = file_arrival(p, in, src, ctx, tag)) != NULL)
      return m;
  return NULL;
}

bool cs_proc_failed(const cs_proc *p, int rank)
{
  g_assert(rank == CS_ANY || (rank >= 0 && rank < p->size));
  return p->transport->failed != NULL && p->transport->failed(p, rank);
}

void cs_msg_free(cs_proc *p, cs_msg *m)
{
  if (m == NULL)
    return;
  mem_sub(p, words_of(m->bytes));
  free(m->data);
  free(m);
}

void cs_set_handler_owned(cs_proc *p, int tag_lo, int tag_hi, cs_handler_fn fn, void *state)
{
  cs_set_handler(p, tag_lo, tag_hi, fn, state);
  p->handler_owns_user = fn != NULL;
}

void cs_set_handler(cs_proc *p, int tag_lo, int tag_hi, cs_handler_fn fn, void *user)
{
  if (p->handler_user != user)
    drop_owned_handler_state(p);
  p->handler_owns_user = 0;
  p->handler_lo = tag_lo;
  p->handler_hi = tag_hi;
  p->handler = fn;
  p->handler_user = user;
  p->handler_phase = p->phase;
  if (fn == NULL)
    return;
  /* Messages for the new handler that arrived before it was installed: taken
   * out of the queue first, so a handler may itself receive. */
  GQueue early = G_QUEUE_INIT;
  GList *l = p->pending.head;
  while (l != NULL) {
    GList *next = l->next;
    if (is_handled(p, l->data)) {
      g_queue_push_tail(&early, l->data);
      g_queue_delete_link(&p->pending, l);
    }
    l = next;
  }
  cs_msg *m;
  while ((m = g_queue_pop_head(&early)) != NULL) {
    mem_sub(p, words_of(m->bytes));
    dispatch(p, m);
  }
}

void cs_serve(cs_proc *p)
{
  p->transport->retire(p);
  for (;;) {
    cs_msg *m = p->transport->next(p);
    if (!m)
      return; /* the run is over (see msg.h) */
    if (is_handled(p, m))
      dispatch(p, m);
    else
      g_queue_push_tail(&p->pending, m); /* nobody will want it: kept for the leak check */
  }
}

/* ---- memory ---- */

typedef struct { size_t bytes; size_t pad; } alloc_header;

void *cs_alloc(cs_proc *p, size_t bytes)
{
  alloc_header *h = calloc(1, sizeof *h + (bytes ? bytes : 1));
  g_assert(h != NULL);
  h->bytes = bytes;
  mem_add(p, words_of(bytes));
  return h + 1;
}

void *cs_realloc(cs_proc *p, void *ptr, size_t bytes)
{
  if (ptr == NULL)
    return cs_alloc(p, bytes);
  alloc_header *h = (alloc_header *)ptr - 1;
  int64_t old_words = words_of(h->bytes);
  h = realloc(h, sizeof *h + (bytes ? bytes : 1));
  g_assert(h != NULL);
  h->bytes = bytes;
  mem_sub(p, old_words);
  mem_add(p, words_of(bytes));
  return h + 1;
}

void cs_free(cs_proc *p, void *ptr)
{
  if (ptr == NULL)
    return;
  alloc_header *h = (alloc_header *)ptr - 1;
  mem_sub(p, words_of(h->bytes));
  free(h);
}

void cs_mem_hold(cs_proc *p, int64_t words)
{
  if (words >= 0)
    mem_add(p, words);
  else
    mem_sub(p, -words);
}

void cs_mem_hold_bytes(cs_proc *p, int64_t bytes)
{
  cs_mem_hold(p, signed_words_of(bytes));
}

uint64_t cs_proc_received(const cs_proc *p) { return p->received; }
uint64_t cs_proc_dropped_sends(const cs_proc *p) { return p->dropped_sends; }

const cs_counters *cs_proc_counters(const cs_proc *p, cs_phase phase) { return &p->counters[phase]; }
int64_t cs_proc_mem_peak_words(const cs_proc *p) { return p->mem_peak; }
int64_t cs_proc_mem_words(const cs_proc *p) { return p->mem_words; }
