/* The native process engine (proc_engine.h): the messaging interface's
 * transport on one event loop, each simulated process a coroutine.
 *
 * TIME.  Every rank has a clock `now` (its CPU: when it is next free) and
 * two NIC clocks, next_gs (send side) and next_gr (receive side), all in
 * nanoseconds (doubles: cs_compute may charge fractions), 0 at the start.
 * With LogGOPS parameters L, o, g, G, O (S is not used: every message is
 * eager, as the message-driven protocols expect) and c(s) = s - 1 for a
 * message of s > 0 bytes, 0 for an empty one:
 *   send of s bytes:  t = max(now, next_gs); now = t + o + c(s) O;
 *                     next_gs = t + g + c(s) G; the message arrives at the
 *                     destination at t + o + L.
 *   receive (the process takes the oldest arrived message, waiting for one
 *                     if none has arrived): t = max(now, next_gr, arrival);
 *                     now = t + o + max(c(s) O, c(s) G);
 *                     next_gr = t + g + c(s) G.
 *   cs_compute(x):    now += x.
 * With shared_cpu the ranks of a host share one processor: each piece of
 * CPU work above (o + c(s) O of a send, o + max(c(s) O, c(s) G) of a
 * receive, a computation) starts at max(its ready time, the time the
 * host's processor is free), first come first served in simulated time,
 * and keeps the processor to its end (sg_engine's shared_cpu).
 * These are LogGOPSim's rules for eager messages (loggops.c), except that a
 * receive's overhead is paid when the process takes the message, not when
 * it arrives (a process busy computing takes it afterwards): a 2-rank ping
 * of s bytes takes 2o + L + c(s) G.  No link, route or contention exists.
 *
 * ORDER.  One queue of events ordered by (time, sequence number in order
 * of queueing): a message's arrival, or a rank resuming at its clock.  A
 * rank runs ahead of the queue's time while it only sends and computes
 * (neither depends on other ranks); before it waits for a message, polls,
 * or looks at an empty mailbox it queues a resume at its own clock and
 * yields, so that every message that arrives by then is in its mailbox.
 * Arrivals at one rank are taken in the queue's order.  Everything is
 * deterministic: ties go by sequence number, ranks start in rank order.
 *
 * END.  The queue empty, every live rank (not returned from its main
 * function) is blocked.  If every live rank has retired (cs_serve), the run
 * is over: serving ranks are woken with NULL (they return) in rank order.
 * Else it is a deadlock: the ranks waiting in cs_recv_ctx are listed with
 * what they wait for, and no coroutine is resumed again. */
#include "sim/engine/native/proc_engine.h"
#include "sim/contracts/errors.h"
#include "sim/contracts/progress.h"
#include "sim/engine/native/coro.h"

#include <errno.h>
#include <string.h>

typedef struct pe_rank {
  cs_coro co;
  double now, next_gs, next_gr;   /* ns */
  cs_msg *in_head, *in_tail;      /* arrived, not taken (linked through note) */
  bool blocked, retired, exited;
} pe_rank;

typedef struct pe_event {
  double t;
  uint64_t seq;
  cs_msg *m; /* NULL: the rank resumes */
  int32_t rank;
} pe_event;

static struct {
  const cs_pe_config *cfg;
  cs_proc *procs;
  pe_rank *ranks;
  void (*fn)(cs_proc *, void *);
  void *user;
  double t;          /* time of the event being handled, ns */
  uint64_t seq;
  pe_event *heap;
  size_t nheap, capheap;
  int retired, exited;
  bool ending;
  uint64_t delivered, switches;
  double o, L, g, G, O; /* ns */
  double *host_free;    /* shared_cpu: per host, when its processor is next free (ns) */
  gint64 start_us;
  cs_progress *line;    /* made once the run has lasted a second */
  FILE *log;            /* COLLSIM_PROGRESS_LOG, or NULL */
  gint64 logged_us;     /* when its last line was written */
} eng;

/* ---- the event queue: a 4-ary heap on (t, seq) (half the depth of a
 * binary one, and a node's children share two cache lines) ---- */

#define ARITY 4

static bool before(const pe_event *a, const pe_event *b) { return a->t < b->t || (a->t == b->t && a->seq < b->seq); }

static void push(double t, int rank, cs_msg *m)
{
  if (eng.nheap == eng.capheap) {
    eng.capheap = eng.capheap ? 2 * eng.capheap : 1024;
    eng.heap = g_renew(pe_event, eng.heap, eng.capheap);
  }
  pe_event e = {t, eng.seq++, m, rank};
  size_t i = eng.nheap++;
  while (i > 0 && before(&e, &eng.heap[(i - 1) / ARITY])) {
    eng.heap[i] = eng.heap[(i - 1) / ARITY];
    i = (i - 1) / ARITY;
  }
  eng.heap[i] = e;
}

static bool pop(pe_event *out)
{
  if (eng.nheap == 0)
    return false;
  *out = eng.heap[0];
  pe_event last = eng.heap[--eng.nheap];
  size_t i = 0, n = eng.nheap;
  for (;;) {
    size_t first = ARITY * i + 1, best = first;
    if (first >= n)
      break;
    for (size_t c = first + 1; c < first + ARITY && c < n; c++)
      if (before(&eng.heap[c], &eng.heap[best]))
        best = c;
    if (!before(&eng.heap[best], &last))
      break;
    eng.heap[i] = eng.heap[best];
    i = best;
  }
  if (n > 0)
    eng.heap[i] = last;
  return true;
}

/* ---- ranks ---- */

static pe_rank *rank_of(const cs_proc *p) { return p->backend; }

static void suspend(pe_rank *R) { cs_coro_yield(&R->co); }

/* The rank's clock becomes the queue's time: every message that arrives by
 * then is in its mailbox when this returns.  True if the rank yielded. */
static bool catch_up(pe_rank *R, int rank)
{
  if (R->now <= eng.t)
    return false;
  push(R->now, rank, NULL);
  suspend(R);
  return true;
}

static void run_rank(int r)
{
  pe_rank *R = &eng.ranks[r];
  eng.switches++;
  cs_coro_resume(&R->co);
  if (R->co.done && !R->exited) {
    R->exited = true;
    eng.exited++;
    cs_coro_forget(&R->co);
  }
}

static void coro_main(void *arg)
{
  pe_rank *R = arg;
  int r = (int)(R - eng.ranks);
  eng.fn(&eng.procs[r], eng.user);
}

static double extra_bytes(size_t s) { return s > 0 ? (double)(s - 1) : 0; }

static int host_index(int rank)
{
  return eng.cfg->host_of ? eng.cfg->host_of[rank] : rank / (eng.cfg->cores > 0 ? eng.cfg->cores : 1);
}

/* Under shared_cpu a rank claims its host's processor only once its clock
 * is the queue's time, so that claims come in order of simulated time. */
static void sync_if_shared(pe_rank *R, int rank)
{
  if (eng.cfg->shared_cpu)
    (void)catch_up(R, rank);
}

/* When dur ns of CPU work ready at t start (each rank its own processor:
 * at t); the host's processor is taken until then + dur. */
static double cpu_claim(int rank, double t, double dur)
{
  if (!eng.cfg->shared_cpu)
    return t;
  double *free_at = &eng.host_free[host_index(rank)];
  double start = t > *free_at ? t : *free_at;
  *free_at = start + dur;
  return start;
}

/* ---- the transport ---- */

static void pe_send(cs_proc *p, int dst, cs_msg *m)
{
  pe_rank *R = rank_of(p);
  m->t_sent = R->now * 1e-9;
  sync_if_shared(R, p->rank);
  double ready = R->now > R->next_gs ? R->now : R->next_gs, c = extra_bytes(m->bytes);
  double t = cpu_claim(p->rank, ready, eng.o + c * eng.O);
  R->now = t + eng.o + c * eng.O;
  R->next_gs = t + eng.g + c * eng.G;
  m->note = NULL;
  push(t + eng.o + eng.L, dst, m);
}

/* p takes the oldest arrived message, paying the receive overhead. */
static cs_msg *take(cs_proc *p, pe_rank *R)
{
  cs_msg *m = R->in_head;
  R->in_head = m->note;
  if (!R->in_head)
    R->in_tail = NULL;
  m->note = NULL;
  double ready = R->now > R->next_gr ? R->now : R->next_gr, c = extra_bytes(m->bytes);
  double busy = eng.o + c * (eng.O > eng.G ? eng.O : eng.G);
  double t = cpu_claim(p->rank, ready, busy);
  R->now = t + busy;
  R->next_gr = t + eng.g + c * eng.G;
  eng.delivered++;
  if (eng.cfg->on_take)
    eng.cfg->on_take(eng.cfg->on_take_user, p, m, R->now * 1e-9);
  return m;
}

static cs_msg *pe_next(cs_proc *p)
{
  pe_rank *R = rank_of(p);
  sync_if_shared(R, p->rank);
  if (R->in_head)
    return take(p, R);
  (void)catch_up(R, p->rank);
  while (!R->in_head) {
    if (eng.ending)
      return NULL; /* the run is over: a serving process returns */
    R->blocked = true;
    suspend(R);
  }
  return take(p, R);
}

/* Polling lets the other ranks of the same instant run first (as a
 * simcall does in SimGrid), then looks. */
static cs_msg *pe_poll(cs_proc *p)
{
  pe_rank *R = rank_of(p);
  if (!catch_up(R, p->rank)) {
    push(R->now, p->rank, NULL);
    suspend(R);
  }
  return R->in_head ? take(p, R) : NULL;
}

static void pe_compute(cs_proc *p, double seconds)
{
  pe_rank *R = rank_of(p);
  sync_if_shared(R, p->rank);
  double dur = seconds * 1e9;
  R->now = cpu_claim(p->rank, R->now, dur) + dur;
}

static double pe_now(const cs_proc *p) { return rank_of(p)->now * 1e-9; }

static void pe_retire(cs_proc *p)
{
  rank_of(p)->retired = true;
  eng.retired++;
}

static const cs_transport pe_transport = {
  .send = pe_send,
  .next = pe_next,
  .compute = pe_compute,
  .now = pe_now,
  .retire = pe_retire,
  .poll = pe_poll,
  .failed = NULL,
};

/* ---- the loop ---- */

static void arrive(const pe_event *e)
{
  pe_rank *R = &eng.ranks[e->rank];
  cs_msg *m = e->m;
  if (R->in_tail)
    R->in_tail->note = m;
  else
    R->in_head = m;
  R->in_tail = m;
  if (!R->blocked)
    return;
  R->blocked = false;
  if (R->now < eng.t)
    R->now = eng.t;
  run_rank(e->rank);
}

#define PROGRESS_EVERY 65536 /* events between looks at the clock */

/* One line of COLLSIM_PROGRESS_LOG (cs_progress_log_line; work and
 * computing are not metered here), at most one a second: collsim sweep
 * follows a point's progress there, also when the point is quiet. */
static void log_progress(bool last)
{
  gint64 now = g_get_monotonic_time();
  if (!eng.log || (!last && now - eng.logged_us < G_USEC_PER_SEC))
    return;
  eng.logged_us = now;
  size_t total = eng.cfg->progress_messages >= 1 ? (size_t)eng.cfg->progress_messages : 0;
  cs_progress_log_line(eng.log, (double)(now - eng.start_us) / 1e6, (int64_t)eng.delivered, 0, 0,
                       (size_t)eng.delivered, total);
}

static void draw_progress(void)
{
  const cs_pe_config *c = eng.cfg;
  log_progress(false);
  if (c->quiet)
    return;
  if (!eng.line) {
    if (g_get_monotonic_time() - eng.start_us < G_USEC_PER_SEC)
      return;
    size_t total = c->progress_messages >= 1 ? (size_t)c->progress_messages : 0;
    eng.line = cs_progress_new(stderr, total ? "messages delivered" : "messages delivered (total not known: no ETA)",
                               total, (double)total, FALSE);
    cs_progress_set_start(eng.line, eng.start_us);
  }
  cs_progress_set(eng.line, (size_t)eng.delivered, (double)eng.delivered);
}

static void run_events(void)
{
  pe_event e;
  for (uint64_t k = 1; pop(&e); k++) {
    if (k % PROGRESS_EVERY == 0)
      draw_progress();
    eng.t = e.t;
    if (e.m)
      arrive(&e);
    else
      run_rank(e.rank);
  }
}

/* Quiescence: every serving rank returns, in rank order. */
static void end_serving(void)
{
  eng.ending = true;
  for (int r = 0; r < eng.cfg->n; r++) {
    pe_rank *R = &eng.ranks[r];
    if (R->blocked && !eng.procs[r].wait.active) {
      R->blocked = false;
      run_rank(r);
    }
  }
}

static void record_deadlock(cs_pe_outcome *out)
{
  out->deadlocked = true;
  out->stuck = g_new(cs_pe_stuck, eng.cfg->n);
  for (int r = 0; r < eng.cfg->n; r++) {
    const cs_proc *p = &eng.procs[r];
    if (eng.ranks[r].blocked && p->wait.active)
      out->stuck[out->nstuck++] = (cs_pe_stuck){r, p->wait.src, p->wait.ctx, p->wait.tag};
  }
}

static void set_params(const cs_loggops_params *m)
{
  eng.L = (double)m->L;
  eng.o = (double)m->o;
  eng.g = (double)m->g;
  eng.G = (double)m->G;
  eng.O = (double)m->O;
}

/* Messages still in mailboxes or in the queue after a deadlock: freed. */
static void drop_undelivered(void)
{
  for (size_t i = 0; i < eng.nheap; i++)
    if (eng.heap[i].m) {
      free(eng.heap[i].m->data);
      free(eng.heap[i].m);
    }
  for (int r = 0; r < eng.cfg->n; r++)
    for (cs_msg *m = eng.ranks[r].in_head, *next; m; m = next) {
      next = m->note;
      free(m->data);
      free(m);
    }
}

static size_t hosts_needed(const cs_pe_config *c)
{
  int most = 0;
  for (int r = 0; c->host_of && r < c->n; r++)
    if (c->host_of[r] > most)
      most = c->host_of[r];
  return c->host_of ? (size_t)most + 1 : (size_t)(c->n / (c->cores > 0 ? c->cores : 1)) + 1;
}

bool cs_pe_run(const cs_pe_config *c, cs_proc *procs, void (*fn)(cs_proc *p, void *user), void *user,
               cs_pe_outcome *out, GError **err)
{
  memset(out, 0, sizeof *out);
  memset(&eng, 0, sizeof eng);
  cs_coro_stacks stacks;
  if (!cs_coro_stacks_init(&stacks, (size_t)c->n, c->stack_bytes)) {
    g_set_error(err, CS_INTERNAL_ERROR, 1, "cannot map %d stacks of %zu bytes: %s", c->n, c->stack_bytes,
                g_strerror(errno));
    return false;
  }
  eng.cfg = c;
  eng.start_us = eng.logged_us = g_get_monotonic_time();
  eng.log = cs_progress_log_open();
  eng.procs = procs;
  eng.fn = fn;
  eng.user = user;
  set_params(&c->loggops);
  eng.ranks = g_new0(pe_rank, c->n > 0 ? c->n : 1);
  if (c->shared_cpu)
    eng.host_free = g_new0(double, hosts_needed(c));
  for (int r = 0; r < c->n; r++) {
    cs_proc_init(&procs[r], r, c->n, &pe_transport, &eng.ranks[r]);
    procs[r].observer = c->observer;
    procs[r].observer_user = c->observer_user;
    cs_coro_init(&eng.ranks[r].co, &stacks, (size_t)r, coro_main, &eng.ranks[r]);
  }
  /* Every rank starts at 0 in rank order, before any event it queues (as
   * if each start were an event queued first). */
  for (int r = 0; r < c->n; r++)
    run_rank(r);
  run_events();
  if (eng.retired == c->n - eng.exited)
    end_serving();
  else
    record_deadlock(out);
  if (eng.line) {
    draw_progress();
    cs_progress_finish(eng.line);
  }
  log_progress(true);
  if (eng.log)
    fclose(eng.log);
  eng.log = NULL;
  double end = eng.t;
  for (int r = 0; r < c->n; r++) {
    if (eng.ranks[r].now > end)
      end = eng.ranks[r].now;
    cs_coro_forget(&eng.ranks[r].co);
    procs[r].backend = NULL;
  }
  drop_undelivered();
  out->retired = eng.retired;
  out->clock_s = end * 1e-9;
  out->messages = eng.delivered;
  out->switches = eng.switches;
  g_free(eng.heap);
  g_free(eng.ranks);
  g_free(eng.host_free);
  cs_coro_stacks_free(&stacks);
  memset(&eng, 0, sizeof eng);
  return true;
}
