/* The LogGOPS model of the native engine: LogGOPSim's semantics
 * (src/LogGOPSim/LogGOPSim.cpp, network backend "LogGP", no noise),
 * reproduced rule by rule so that its finishing times come out exactly.
 *
 * PARAMETERS (integers, LogGOPSim's units): L latency (ns), o overhead per
 * message (ns), g gap per message (ns), G gap per byte (ns/byte), O
 * overhead per byte (ns/byte), S the eager limit (bytes).  Each rank has
 * per CPU c a time nexto[c] when it is free, per NIC n the times
 * nextgs[n] (send side) and nextgr[n] (receive side), all 0 at the start.
 * All arithmetic is on unsigned 64 bits, as LogGOPSim's (so a 0-byte
 * message's (s-1) wraps around exactly as there).
 *
 * EVENTS leave one queue in order of (time, ts): ts numbers events in the
 * order they were first queued (re-queued events keep theirs).
 *   calc of d ns at t on cpu c:  if nexto[c] <= t: nexto[c] = t + d; the
 *       calc starts and completes; else re-queued at nexto[c].
 *   send of s bytes at t (cpu c, nic n): if max(nexto[c], nextgs[n]) <= t:
 *       it starts; nexto[c] = t + o + (s-1)O; nextgs[n] = t + g + (s-1)G;
 *       a message is queued to arrive at t + o + L; if s <= S (eager) the
 *       send completes now, else (rendezvous) when a receive matches it.
 *       Else re-queued at max(nexto[c], nextgs[n]).
 *   message of s bytes arriving at t (charged to the sender's cpu c and
 *       nic n indices on the receiver): if max(nexto[c], nextgr[n]) <= t:
 *       nexto[c] = t + o + max((s-1)O, (s-1)G); nextgr[n] = t + g + (s-1)G;
 *       it is matched against the posted receives (first in order with
 *       the same source and tag, -1 matching anything); matched: the
 *       receive completes, and if s > S the send completes too and the
 *       sender's nexto[c], nextgs[n] are raised to t (no handshake
 *       latency); unmatched: it joins the unexpected queue.  Else re-queued
 *       at max(nexto[c], nextgr[n]).
 *   receive (r bytes) at t: it starts; it is matched against the
 *       unexpected queue (first in order); matched: it completes at t (no
 *       further o: the message paid it on arrival) and if r > S the send
 *       completes and the sender's clocks are raised to t; unmatched: it is
 *       posted.
 * FREED OPERATIONS: after each event, every rank that had an operation
 * start or complete (in increasing rank order) queues the operations that
 * became free, in the order they became free, sorted by type (send before
 * receive before calc) with the C++ library's std::sort (not stable beyond
 * 16 elements: reproduced below), at time nexto[c] (calc, receive) or
 * max(nexto[c], nextgs[n]) (send), taking ts in that order.  At the start
 * every rank 0, 1, ... queues its free operations the same way at time 0.
 * THE MODELS "loggops-links" and "loggops-cut-through" (links.c) change one rule: a message enters
 * the network at t + o and arrives at the end of its route's per-link
 * serialisation plus L, instead of at t + o + L.
 * THE FINISHING TIME is the largest nexto of any CPU of any rank (the NICs'
 * gaps are not counted), and the rank is the first rank reaching it. */
#include "sim/engine/native/loggops.h"
#include "sim/contracts/errors.h"
#include "sim/engine/native/event_queue.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

enum { NG_SEND = CS_GOAL_SEND, NG_RECV = CS_GOAL_RECV, NG_CALC = CS_GOAL_CALC, NG_MSG = 4 };
#define NONE UINT32_MAX

void cs_loggops_defaults(cs_loggops_params *m)
{
  *m = (cs_loggops_params){2500, 1500, 1000, 6, 65535, 0, false, CS_LINKS_STORE_AND_FORWARD, NULL};
}

/* The models (a new one's name goes into frontend.c's cs_models too, the
 * choices of --model). */
static const cs_native_model models[] = {
  {"loggops", false, CS_LINKS_STORE_AND_FORWARD},
  {"loggops-links", true, CS_LINKS_STORE_AND_FORWARD},
  {"loggops-cut-through", true, CS_LINKS_CUT_THROUGH},
};

const cs_native_model *cs_native_model_find(const char *name)
{
  for (size_t i = 0; name && i < G_N_ELEMENTS(models); i++)
    if (strcmp(models[i].name, name) == 0)
      return &models[i];
  return NULL;
}

const char *cs_native_model_names(void)
{
  static char names[128];
  if (!names[0])
    for (size_t i = 0; i < G_N_ELEMENTS(models); i++) {
      if (i)
        g_strlcat(names, ", ", sizeof names);
      g_strlcat(names, models[i].name, sizeof names);
    }
  return names;
}

const char *cs_native_model_of(const cs_loggops_params *m)
{
  for (size_t i = 0; i < G_N_ELEMENTS(models); i++)
    if (models[i].links == m->links && (!m->links || models[i].switching == m->switching))
      return models[i].name;
  return "loggops";
}

void cs_native_model_apply(const cs_native_model *model, cs_loggops_params *m)
{
  m->links = model->links;
  m->switching = model->switching;
}

bool cs_loggops_parse(const char *text, cs_loggops_params *m, GError **err)
{
  static const char *const names[] = {"L", "o", "g", "G", "S", "O"};
  uint64_t *slot[] = {&m->L, &m->o, &m->g, &m->G, &m->S, &m->O};
  char **f = g_strsplit(text, ",", -1);
  bool ok = g_strv_length(f) == 6;
  if (!ok)
    cs_input_error(err, "--loggops takes six integers L,o,g,G,S,O (ns, ns, ns, ns/byte, bytes, ns/byte), e.g. "
                   "2500,1500,1000,6,65535,0; got '%s'", text);
  for (int i = 0; ok && i < 6; i++) {
    char *end = NULL;
    const char *s = g_strstrip(f[i]);
    guint64 v = g_ascii_strtoull(s, &end, 10);
    uint64_t limit = i == 4 ? UINT32_MAX : (uint64_t)INT32_MAX; /* LogGOPSim's int and uint32_t */
    if (!*s || *end || !g_ascii_isdigit(*s) || v > limit)
      ok = cs_input_error(err, "--loggops: %s = '%s' is not an integer from 0 to %" PRIu64, names[i], s, limit);
    else
      *slot[i] = v;
  }
  g_strfreev(f);
  return ok;
}

/* ---- the posted-receive and unexpected-message queues ---- */

typedef struct qentry {
  uint64_t size, op; /* receive: its size and op; message: its size and the send's op */
  uint64_t sent;     /* message: when its send started */
  uint32_t src, tag, next;
  uint8_t proc, nic;   /* a message's (the sender's indices) */
} qentry;

typedef struct fifo {
  uint32_t head, tail;
} fifo;

/* ---- the engine's state ---- */

typedef struct engine {
  const ng_source *src;
  cs_loggops_params m;
  uint32_t p, ncpus, nnics;
  uint64_t *nexto, *nextgs, *nextgr;
  fifo *rq, *uq;
  GArray *pool; /* qentry */
  uint32_t free_entry;
  ng_queue q;
  uint64_t ts;
  /* operations freed by the current event: (host, id) in order */
  uint32_t *freed_host; /* parallel to freed.id, freed_cap of them */
  size_t freed_cap;
  ng_ids freed, scratch;
  ng_event *batch;
  size_t batch_cap;
  cs_native_delivery on_delivery;
  void *user;
  cs_native_result *out;
} engine;

static qentry *entry(engine *E, uint32_t i) { return &g_array_index(E->pool, qentry, i); }

static void enqueue(engine *E, fifo *f, const qentry *e)
{
  uint32_t i;
  if (E->free_entry != NONE) {
    i = E->free_entry;
    E->free_entry = entry(E, i)->next;
  } else {
    i = E->pool->len;
    g_array_set_size(E->pool, i + 1);
  }
  *entry(E, i) = *e;
  entry(E, i)->next = NONE;
  if (f->tail == NONE)
    f->head = i;
  else
    entry(E, f->tail)->next = i;
  f->tail = i;
}

static bool matches(uint32_t want_src, uint32_t want_tag, const qentry *e)
{
  return (want_src == CS_GOAL_ANY || e->src == CS_GOAL_ANY || e->src == want_src) &&
         (want_tag == CS_GOAL_ANY || e->tag == CS_GOAL_ANY || e->tag == want_tag);
}

/* The first entry matching (src, tag), removed into *out. */
static bool match(engine *E, fifo *f, uint32_t src, uint32_t tag, qentry *out)
{
  uint32_t prev = NONE;
  for (uint32_t i = f->head; i != NONE; prev = i, i = entry(E, i)->next) {
    qentry *e = entry(E, i);
    if (!matches(src, tag, e))
      continue;
    *out = *e;
    if (prev == NONE)
      f->head = e->next;
    else
      entry(E, prev)->next = e->next;
    if (f->tail == i)
      f->tail = prev;
    e->next = E->free_entry;
    E->free_entry = i;
    return true;
  }
  return false;
}

/* ---- freeing operations ---- */

/* The hosts of the ops freed.id[from ..] (some were freed). */
static void note_hosts(engine *E, size_t from, uint32_t host)
{
  if (E->freed_cap < E->freed.cap) {
    E->freed_cap = E->freed.cap;
    E->freed_host = g_renew(uint32_t, E->freed_host, E->freed_cap);
  }
  for (size_t i = from; i < E->freed.n; i++)
    E->freed_host[i] = host;
}

static void mark_started(engine *E, uint32_t host, uint64_t op)
{
  size_t before = E->freed.n;
  E->src->started(E->src->self, host, op, &E->freed);
  if (E->freed.n != before)
    note_hosts(E, before, host);
}

static void mark_done(engine *E, uint32_t host, uint64_t op)
{
  size_t before = E->freed.n;
  E->src->done(E->src->self, host, op, &E->freed);
  if (E->freed.n != before)
    note_hosts(E, before, host);
}

/* libstdc++'s std::sort (introsort, then insertion sort), by type only:
 * the order it leaves equal types in is LogGOPSim's queueing order. */
#define LESS(a, b) ((a).type < (b).type)
static void swap_ev(ng_event *a, ng_event *b)
{
  ng_event t = *a;
  *a = *b;
  *b = t;
}

static void push_heap_(ng_event *v, ptrdiff_t hole, ptrdiff_t top, ng_event value)
{
  ptrdiff_t parent = (hole - 1) / 2;
  while (hole > top && LESS(v[parent], value)) {
    v[hole] = v[parent];
    hole = parent;
    parent = (hole - 1) / 2;
  }
  v[hole] = value;
}

static void adjust_heap(ng_event *v, ptrdiff_t hole, ptrdiff_t len, ng_event value)
{
  ptrdiff_t top = hole, child = hole;
  while (child < (len - 1) / 2) {
    child = 2 * (child + 1);
    if (LESS(v[child], v[child - 1]))
      child--;
    v[hole] = v[child];
    hole = child;
  }
  if ((len & 1) == 0 && child == (len - 2) / 2) {
    child = 2 * (child + 1);
    v[hole] = v[child - 1];
    hole = child - 1;
  }
  push_heap_(v, hole, top, value);
}

static void heap_sort(ng_event *v, ptrdiff_t len)
{
  for (ptrdiff_t parent = (len - 2) / 2; len >= 2; parent--) {
    adjust_heap(v, parent, len, v[parent]);
    if (parent == 0)
      break;
  }
  for (ptrdiff_t last = len - 1; last > 0; last--) {
    ng_event value = v[last];
    v[last] = v[0];
    adjust_heap(v, 0, last, value);
  }
}

static void median_to_first(ng_event *result, ng_event *a, ng_event *b, ng_event *c)
{
  if (LESS(*a, *b)) {
    if (LESS(*b, *c))
      swap_ev(result, b);
    else if (LESS(*a, *c))
      swap_ev(result, c);
    else
      swap_ev(result, a);
  } else if (LESS(*a, *c))
    swap_ev(result, a);
  else if (LESS(*b, *c))
    swap_ev(result, c);
  else
    swap_ev(result, b);
}

static ng_event *partition(ng_event *first, ng_event *last, ng_event *pivot)
{
  for (;;) {
    while (LESS(*first, *pivot))
      first++;
    last--;
    while (LESS(*pivot, *last))
      last--;
    if (!(first < last))
      return first;
    swap_ev(first, last);
    first++;
  }
}

static void introsort_loop(ng_event *first, ng_event *last, int depth)
{
  while (last - first > 16) {
    if (depth == 0) {
      heap_sort(first, last - first);
      return;
    }
    depth--;
    ng_event *mid = first + (last - first) / 2;
    median_to_first(first, first + 1, mid, last - 1);
    ng_event *cut = partition(first + 1, last, first);
    introsort_loop(cut, last, depth);
    last = cut;
  }
}

static void linear_insert(ng_event *last)
{
  ng_event value = *last;
  ng_event *next = last - 1;
  while (LESS(value, *next)) {
    *last = *next;
    last = next--;
  }
  *last = value;
}

static void insertion_sort(ng_event *first, ng_event *last)
{
  if (first == last)
    return;
  for (ng_event *i = first + 1; i != last; i++) {
    if (LESS(*i, *first)) {
      ng_event value = *i;
      memmove(first + 1, first, (size_t)(i - first) * sizeof *first);
      *first = value;
    } else
      linear_insert(i);
  }
}

static void cxx_sort(ng_event *first, size_t n)
{
  if (n < 2)
    return;
  int lg = 63 - __builtin_clzll((unsigned long long)n);
  ng_event *last = first + n;
  introsort_loop(first, last, 2 * lg);
  if (n > 16) {
    insertion_sort(first, first + 16);
    for (ng_event *i = first + 16; i != last; i++)
      linear_insert(i);
  } else
    insertion_sort(first, last);
}

/* The operation `id` of host as a queued event, at the time its CPU (and
 * for a send its NIC) is free. */
static void as_event(engine *E, uint32_t host, uint64_t id, ng_event *ev)
{
  cs_goal_op op;
  E->src->get(E->src->self, host, id, &op);
  *ev = (ng_event){.size = op.size, .op = id, .host = host, .target = op.peer, .tag = op.tag, .type = op.type,
                   .proc = op.cpu, .nic = op.nic};
}

static uint64_t ready_time(const engine *E, const ng_event *ev)
{
  uint64_t t = E->nexto[(size_t)ev->host * E->ncpus + ev->proc];
  if (ev->type == NG_SEND) {
    uint64_t gs = E->nextgs[(size_t)ev->host * E->nnics + ev->nic];
    t = t > gs ? t : gs;
  }
  return t;
}

/* Queues host's freed ops (ids[0..n)) sorted as LogGOPSim sorts them. */
static void queue_batch(engine *E, uint32_t host, const uint64_t *ids, size_t n, bool at_zero)
{
  if (n == 1) { /* the usual case: nothing to sort */
    ng_event ev;
    as_event(E, host, ids[0], &ev);
    ev.time = at_zero ? 0 : ready_time(E, &ev);
    ev.ts = E->ts++;
    ng_queue_push(&E->q, &ev);
    return;
  }
  if (n > E->batch_cap) {
    E->batch_cap = 2 * n;
    E->batch = g_renew(ng_event, E->batch, E->batch_cap);
  }
  ng_event *v = E->batch;
  for (size_t i = 0; i < n; i++)
    as_event(E, host, ids[i], &v[i]);
  cxx_sort(v, n);
  for (size_t i = 0; i < n; i++) {
    v[i].time = at_zero ? 0 : ready_time(E, &v[i]);
    v[i].ts = E->ts++;
    ng_queue_push(&E->q, &v[i]);
  }
}

static bool one_host(const uint32_t *hosts, size_t n)
{
  for (size_t i = 1; i < n; i++)
    if (hosts[i] != hosts[0])
      return false;
  return true;
}

/* After an event: the hosts that freed operations, in increasing order. */
static void queue_freed(engine *E)
{
  size_t n = E->freed.n;
  uint32_t *hosts = E->freed_host;
  if (hosts[0] == hosts[n - 1] && (n < 3 || one_host(hosts, n))) {
    queue_batch(E, hosts[0], E->freed.id, n, false);
    E->freed.n = 0;
    return;
  }
  while (n > 0) {
    uint32_t lowest = NONE;
    for (size_t i = 0; i < E->freed.n; i++)
      if (hosts[i] != NONE && hosts[i] < lowest)
        lowest = hosts[i];
    E->scratch.n = 0;
    for (size_t i = 0; i < E->freed.n; i++)
      if (hosts[i] == lowest) {
        ng_ids_add(&E->scratch, E->freed.id[i]);
        hosts[i] = NONE;
        n--;
      }
    queue_batch(E, lowest, E->scratch.id, E->scratch.n, false);
  }
  E->freed.n = 0;
}

/* ---- the events ---- */

static uint64_t *cpu_of(engine *E, uint64_t *a, uint32_t host, uint8_t proc) { return &a[(size_t)host * E->ncpus + proc]; }
static uint64_t *nic_of(engine *E, uint64_t *a, uint32_t host, uint8_t nic) { return &a[(size_t)host * E->nnics + nic]; }
static uint64_t max64(uint64_t a, uint64_t b) { return a > b ? a : b; }

static void requeue(engine *E, ng_event *ev, uint64_t t)
{
  ev->time = t;
  ng_queue_push(&E->q, ev);
}

static void calc(engine *E, ng_event *ev)
{
  uint64_t *o = cpu_of(E, E->nexto, ev->host, ev->proc);
  if (*o > ev->time)
    return requeue(E, ev, *o);
  *o = ev->time + ev->size;
  mark_started(E, ev->host, ev->op);
  mark_done(E, ev->host, ev->op);
}

static void send(engine *E, ng_event *ev)
{
  const cs_loggops_params *m = &E->m;
  uint64_t *o = cpu_of(E, E->nexto, ev->host, ev->proc), *gs = nic_of(E, E->nextgs, ev->host, ev->nic);
  if (max64(*o, *gs) > ev->time)
    return requeue(E, ev, max64(*o, *gs));
  mark_started(E, ev->host, ev->op);
  *o = ev->time + m->o + (ev->size - 1) * m->O;
  *gs = ev->time + m->g + (ev->size - 1) * m->G;
  E->out->messages++;
  E->out->bytes += ev->size;
  E->out->max_message_bytes = max64(E->out->max_message_bytes, ev->size);
  ng_event msg = *ev;
  msg.type = NG_MSG;
  msg.sent = ev->time;
  msg.host = ev->target;
  msg.target = ev->host;
  uint64_t inject = ev->time + m->o;
  msg.time = (m->net ? cs_link_net_transfer(m->net, ev->host, ev->target, ev->size, inject) : inject) + m->L;
  msg.ts = E->ts++;
  ng_queue_push(&E->q, &msg);
  if (ev->size <= m->S)
    mark_done(E, ev->host, ev->op);
}

/* A rendezvous send completes: the sender's clocks are raised to t. */
static void rendezvous_done(engine *E, uint32_t sender, uint64_t send_op, uint8_t proc, uint8_t nic, uint64_t t)
{
  mark_done(E, sender, send_op);
  uint64_t *o = cpu_of(E, E->nexto, sender, proc), *gs = nic_of(E, E->nextgs, sender, nic);
  *o = max64(*o, t);
  *gs = max64(*gs, t);
}

static void delivered(engine *E, const cs_native_message *msg, uint64_t recv_size)
{
  if (msg->bytes != recv_size)
    E->out->size_mismatches++;
  if (E->on_delivery)
    E->on_delivery(E->user, msg);
}

static void recv(engine *E, ng_event *ev)
{
  mark_started(E, ev->host, ev->op);
  qentry msg;
  if (match(E, &E->uq[ev->host], ev->target, ev->tag, &msg)) {
    if (ev->size > E->m.S)
      rendezvous_done(E, msg.src, msg.op, ev->proc, ev->nic, ev->time);
    cs_native_message m = {msg.src, ev->host, msg.tag, msg.size, msg.sent, ev->time};
    delivered(E, &m, ev->size);
    mark_done(E, ev->host, ev->op);
  } else {
    qentry posted = {.size = ev->size, .op = ev->op, .src = ev->target, .tag = ev->tag};
    enqueue(E, &E->rq[ev->host], &posted);
  }
}

static void message(engine *E, ng_event *ev)
{
  const cs_loggops_params *m = &E->m;
  uint64_t *o = cpu_of(E, E->nexto, ev->host, ev->proc), *gr = nic_of(E, E->nextgr, ev->host, ev->nic);
  if (max64(*o, *gr) > ev->time)
    return requeue(E, ev, max64(*o, *gr));
  uint64_t s1 = ev->size - 1;
  *o = ev->time + m->o + max64(s1 * m->O, s1 * m->G);
  *gr = ev->time + m->g + s1 * m->G;
  qentry posted;
  if (match(E, &E->rq[ev->host], ev->target, ev->tag, &posted)) {
    if (ev->size > m->S)
      rendezvous_done(E, ev->target, ev->op, ev->proc, ev->nic, ev->time);
    cs_native_message msg = {ev->target, ev->host, ev->tag, ev->size, ev->sent, ev->time};
    delivered(E, &msg, posted.size);
    mark_done(E, ev->host, posted.op);
  } else {
    qentry unexpected = {.size = ev->size, .op = ev->op, .sent = ev->sent, .src = ev->target, .tag = ev->tag,
                         .proc = ev->proc, .nic = ev->nic};
    enqueue(E, &E->uq[ev->host], &unexpected);
  }
}

/* ---- the run ---- */

static void engine_init(engine *E, const ng_source *src, const cs_loggops_params *m, cs_native_result *out)
{
  memset(E, 0, sizeof *E);
  E->src = src;
  E->m = *m;
  E->p = src->p;
  E->ncpus = src->ncpus ? src->ncpus : 1;
  E->nnics = src->nnics ? src->nnics : 1;
  E->nexto = g_new0(uint64_t, (size_t)E->p * E->ncpus);
  E->nextgs = g_new0(uint64_t, (size_t)E->p * E->nnics);
  E->nextgr = g_new0(uint64_t, (size_t)E->p * E->nnics);
  E->rq = g_new(fifo, E->p);
  E->uq = g_new(fifo, E->p);
  for (uint32_t h = 0; h < E->p; h++)
    E->rq[h] = E->uq[h] = (fifo){NONE, NONE};
  E->pool = g_array_new(FALSE, FALSE, sizeof(qentry));
  E->free_entry = NONE;
  ng_queue_init(&E->q);
  E->out = out;
}

static void engine_free(engine *E)
{
  g_free(E->nexto);
  g_free(E->nextgs);
  g_free(E->nextgr);
  g_free(E->rq);
  g_free(E->uq);
  g_array_free(E->pool, TRUE);
  ng_queue_free(&E->q);
  g_free(E->freed_host);
  g_free(E->batch);
  g_free(E->freed.id);
  g_free(E->scratch.id);
}

static void finish_time(engine *E)
{
  uint64_t best = 0;
  uint32_t last = 0;
  for (uint32_t h = 0; h < E->p; h++)
    for (uint32_t c = 0; c < E->ncpus; c++)
      if (E->nexto[(size_t)h * E->ncpus + c] > best) {
        best = E->nexto[(size_t)h * E->ncpus + c];
        last = h;
      }
  E->out->finish_ns = best;
  E->out->last_rank = last;
}

/* Every rank finished and every message was received. */
static bool check_end(engine *E, GError **err)
{
  GString *waiting = g_string_new(NULL);
  bool ok = true;
  for (uint32_t h = 0; ok && h < E->p; h++) {
    g_string_truncate(waiting, 0);
    if (!E->src->finished(E->src->self, h, waiting))
      ok = cs_input_error(err, "the schedule deadlocks: rank %" PRIu32 " never completes %s", h, waiting->str);
  }
  for (uint32_t h = 0; ok && h < E->p; h++)
    if (E->uq[h].head != NONE) {
      const qentry *e = entry(E, E->uq[h].head);
      ok = cs_input_error(err, "rank %" PRIu32 " was sent a message no receive matched (%" PRIu64 " bytes from rank %"
                          PRIu32 " tag %" PRIu32 ")", h, e->size, e->src, e->tag);
    }
  g_string_free(waiting, TRUE);
  return ok;
}

bool cs_loggops_run(const ng_source *src, const cs_loggops_params *m, cs_native_delivery on_delivery, void *user,
                    cs_native_result *out, GError **err)
{
  memset(out, 0, sizeof *out);
  engine E;
  engine_init(&E, src, m, out);
  E.on_delivery = on_delivery;
  E.user = user;
  ng_ids roots = {0};
  for (uint32_t h = 0; h < E.p; h++) {
    roots.n = 0;
    src->roots(src->self, h, &roots);
    queue_batch(&E, h, roots.id, roots.n, true);
  }
  g_free(roots.id);
  ng_event ev;
  while (ng_queue_pop(&E.q, &ev)) {
    out->events++;
    switch (ev.type) {
    case NG_CALC: calc(&E, &ev); break;
    case NG_SEND: send(&E, &ev); break;
    case NG_RECV: recv(&E, &ev); break;
    default: message(&E, &ev); break;
    }
    if (E.freed.n)
      queue_freed(&E);
  }
  finish_time(&E);
  bool ok = check_end(&E, err);
  engine_free(&E);
  return ok;
}
