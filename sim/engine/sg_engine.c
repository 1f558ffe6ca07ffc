/* SimGrid 3.32 backend (see docs/SIMGRID-NOTES.md for the measured facts
 * behind the defaults).
 *
 * - One actor per simulated process, rank r on host r / cores; hosts are taken
 *   in natural order of their names (node-2 before node-10), not sg_host_list's.
 * - One mailbox per rank, with its actor declared as permanent receiver, and
 *   asynchronous sends: a message starts flowing when it is sent (eager, like
 *   a message-driven runtime), whether or not the receiver is waiting.
 * - Or (semantics CS_SEMANTICS_MPI) SMPI's protocol: one mailbox per
 *   ordered pair of ranks, without a permanent receiver, so a message flows
 *   once its receive is posted; small sends detached, large ones waited for
 *   at the sender's next call (sg_engine.h says exactly what).
 * - Software overhead: the sender sleeps o_send before injecting, the receiver
 *   sleeps o_recv after taking a message.  Each rank has a core of its own
 *   (BG/P virtual-node mode), so sleeping is the same as computing; with
 *   shared_cpu the processes of a host take turns on its one processor
 *   instead (the proclets of one OS process, seed 003).
 * - Platforms may ask (cs_engine_config): local_copy_bw, a message between
 *   two processes of one host is a copy by the sender's processor and a
 *   zero-byte transfer; host_channels, messages between two hosts go one at
 *   a time through a FIFO channel per ordered host pair, carried by a daemon
 *   actor on the sending host (platforms/cpm.c says why).
 * - Scale: 16 KiB stacks and no guard pages let 131,072 actors fit (guard pages
 *   exhaust vm.max_map_count near 32,768 actors); crosstraffic off divides the
 *   solver's work by about 8 at that scale.
 * - Polling (cs_recv_try): receives posted with sg_mailbox_get_async and
 *   tested with sg_comm_test stay posted between polls; the next blocking
 *   receive waits on them first.  A run that never polls makes exactly the
 *   SimGrid calls it made before.
 * - Failure (fail_rank, fail_at): a daemon "failure" actor, the failed
 *   process's sleeps cut at fail_at, and a discard loop it never leaves.
 * - The run ends at quiescence, or at a deadlock the engine finds and
 *   records itself (end_if_stuck), never with SimGrid's deadlock report.
 * - Progress: the simulation runs in one simgrid_run (the same events with
 *   or without --quiet); a second thread, which calls nothing of SimGrid,
 *   draws the line from counters the simulation publishes as atomics.
 */
#include "sim/engine/sg_engine.h"
#include "sim/contracts/natural_order.h"
#include "sim/contracts/transport.h"
#include "sim/contracts/progress.h"
#include "sim/contracts/run_cost.h"
#include "sim/contracts/signals.h"

#include <errno.h>
#include <signal.h>
#include <inttypes.h>
#include <math.h>
#include <stdatomic.h>

#include <simgrid/actor.h>
#include <simgrid/comm.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/mailbox.h>
#include <simgrid/semaphore.h>
#include <xbt/config.h>
#include <xbt/log.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Where a process stands, for the end-of-run and deadlock tests. */
typedef struct proc_state {
  bool blocked; /* waiting in sg_next (a receive or cs_serve) */
  bool retired; /* called cs_serve */
  bool exited;  /* returned from its main function */
} proc_state;

static struct {
  const cs_engine_config *cfg;
  cs_proc *procs;
  sg_mailbox_t *mailboxes;
  cs_proc_main_fn fn;
  void *user;
  int64_t in_flight;   /* messages sent and not yet in their receiver's hands */
  int retired;         /* processes whose own part is over (in cs_serve) */
  int64_t taken;       /* messages in their receivers' hands so far (progress) */
  double *busy_until;  /* shared_cpu: per host, when its processor is next free */
  sg_host_t *hosts;    /* in natural order of names */
  size_t nhosts;
  GHashTable *channels; /* host_channels: src_host * nhosts + dst_host -> channel */
  proc_state *st;      /* per rank */
  aid_t *pids;         /* per rank: its actor's pid */
  int exited;          /* processes that returned from their main function */
  int blocked;         /* live processes blocked in sg_next */
  /* Failure (cs_engine_config's fail_rank, fail_at), kept after the run. */
  int fail_rank;       /* -1: none */
  double fail_at;
  bool fail_applied;
  double fail_time;
  int failed_live;     /* 1 once the failed process stopped counting as live */
  int failed_retired;  /* 1 if it had retired before it failed */
  bool ending;         /* the run is over: processes woken now return (end_processes) */
  /* Deadlock found by the engine (kept after the run). */
  bool deadlocked;
  double end_clock;    /* when the run ended (cs_engine_clock), -1 before */
  cs_stuck *stuck;
  int nstuck;
} eng = {.fail_rank = -1, .fail_time = -1};

/* ---- transport ---- */

/* Sends in flight of one process.  Detached comms would be simpler, but
 * SimGrid 3.32 finishes each detached comm by a linear search of a global list,
 * which made runs quadratic in the number of messages in flight (157 s instead
 * of a few at 32,768 ranks): each process keeps its handles and reaps them. */
/* SimGrid 3.32 never takes a comm that sg_comm_test found finished out of
 * its issuer's list of activities (ActivityImpl::test finishes it without
 * the simcall that CommImpl::finish removes it by): every send an actor
 * reaped by testing stayed in its list, holding the comm, and every later
 * finish of a comm it waited for searched that list.  A run's cost grew
 * with the square of the messages per actor (an 8,192-process MCMC run:
 * 611 s and 2.8 GB).  So a send the receiver has taken (its delivery note
 * says so) is reaped by waiting, which returns at once and takes it out of
 * the list; only one that arrived but is not yet taken is still tested.
 * Each reaped comm costs one simcall either way, as before, so the actors
 * interleave exactly as they did and every result stays the same (8,192
 * processes: 172 s and 272 MB). */
typedef struct delivery {
  int taken; /* the receiver has the message */
  int refs;  /* the sender's outbox and the message */
} delivery;

static void delivery_release(delivery *d)
{
  if (--d->refs == 0)
    g_free(d);
}

/* The receiver has m: the sender may reap its comm. */
static void note_taken(cs_msg *m)
{
  delivery *d = m->note;
  if (!d)
    return;
  d->taken = 1;
  m->note = NULL;
  delivery_release(d);
}

typedef struct outbox {
  sg_comm_t *comm;
  delivery **note;
  int *dst;
  int count, cap;
  /* Receives posted ahead, each with the slot its payload lands in and the
   * order it was posted in: the receive window (recv_window > 1), or the
   * one receive a poll left posted (recv_window 1). */
  sg_comm_t rcomm[CS_MAX_RECV_WINDOW];
  void *rdata[CS_MAX_RECV_WINDOW];
  uint64_t rseq[CS_MAX_RECV_WINDOW];
  uint64_t next_seq;
  int posted;
  /* Inside sg_comm_wait_any: SimGrid holds the posted receives, and when the
   * actor is killed there (the end of the run) it releases them itself. */
  int in_wait_any;
  /* CS_SEMANTICS_MPI: sends of mpi_detach_below bytes or more that the
   * process has not yet waited for (at most one, as MPI_Send). */
  sg_comm_t rdv_comm;
  delivery *rdv_note;
} outbox;

static void outbox_reap(outbox *o)
{
  int kept = 0;
  for (int i = 0; i < o->count; i++) {
    /* One simcall per comm either way, as a test of each would be, so the
     * actors interleave as they always did. */
    bool done = o->note[i]->taken ? (sg_comm_wait(o->comm[i]), true) /* returns at once, releases it */
                                  : sg_comm_test(o->comm[i]);        /* rare: arrived, not yet taken */
    if (done) {
      delivery_release(o->note[i]);
      continue;
    }
    o->dst[kept] = o->dst[i];
    o->note[kept] = o->note[i];
    o->comm[kept++] = o->comm[i];
  }
  o->count = kept;
}

static void outbox_push(outbox *o, sg_comm_t c, int dst, delivery *note)
{
  if (o->count == o->cap) {
    o->cap = o->cap ? 2 * o->cap : 4;
    o->comm = g_renew(sg_comm_t, o->comm, o->cap);
    o->note = g_renew(delivery *, o->note, o->cap);
    o->dst = g_renew(int, o->dst, o->cap);
  }
  o->dst[o->count] = dst;
  o->note[o->count] = note;
  o->comm[o->count++] = c;
}

/* FIFO channels: wait until the message still in flight to dst (at most one,
 * by construction) has been delivered. */
static void outbox_wait_channel(outbox *o, int dst)
{
  for (int i = 0; i < o->count; i++)
    if (o->dst[i] == dst) {
      sg_comm_wait(o->comm[i]); /* also releases the handle */
      delivery_release(o->note[i]);
      o->comm[i] = o->comm[o->count - 1];
      o->note[i] = o->note[o->count - 1];
      o->dst[i] = o->dst[o->count - 1];
      o->count--;
      return;
    }
}

static outbox *outbox_of(cs_proc *p)
{
  if (p->backend == NULL)
    p->backend = g_new0(outbox, 1);
  return p->backend;
}

/* ---- end of the run: quiescence or deadlock ---- */

/* Live: neither failed nor returned from its main function. */
static bool is_live(int r)
{
  return !eng.st[r].exited && !(eng.fail_applied && r == eng.fail_rank);
}

static int live_count(void) { return eng.cfg->n - eng.exited - eng.failed_live; }

static void set_blocked(int r, bool on)
{
  if (eng.st[r].blocked == on)
    return;
  eng.st[r].blocked = on;
  if (is_live(r))
    eng.blocked += on ? 1 : -1;
}

static bool failure_pending(void) { return eng.fail_rank >= 0 && !eng.fail_applied; }

/* The stuck processes: live, blocked, inside cs_recv_ctx (msg.c records
 * what it waits for). */
static void record_deadlock(void)
{
  eng.deadlocked = true;
  g_free(eng.stuck);
  eng.stuck = g_new(cs_stuck, eng.blocked + 1);
  eng.nstuck = 0;
  for (int r = 0; r < eng.cfg->n; r++) {
    const cs_proc *p = &eng.procs[r];
    if (is_live(r) && eng.st[r].blocked && p->wait.active)
      eng.stuck[eng.nstuck++] = (cs_stuck){r, p->wait.src, p->wait.ctx, p->wait.tag};
  }
}

static bool mpi_wake_to_return(int r);

/* Ends every other actor.  A process serving (cs_serve) under MPI
 * semantics waits on its bell: woken with eng.ending set, it returns from
 * cs_serve and from its main function, as SMPI's ranks end, instead of
 * being killed (a kill unwinds the actor's stack by a C++ exception, about
 * 12 us each: 11 % of a binomial scatter at 65,536 ranks).  The others are
 * killed one at a time: SimGrid 3.32's kill_all
 * puts all of them in the run list in one go, searching the list before
 * each insertion (EngineImpl::add_actor_to_run_list), which made the end of
 * a run quadratic in its actors (about 1 s at 65,536, 9 % of a binomial
 * scatter); a kill per simcall lets each killed actor end in the next
 * sub-round, so the list stays short.  The processes that returned from
 * their main function are gone (sg_actor_by_pid gives NULL); kill_all ends
 * what is left (a failure actor, channel daemons).  The clock is already
 * read: nothing that follows is simulated. */
static void end_processes(void)
{
  sg_actor_t self = sg_actor_self();
  eng.ending = true;
  for (int r = 0; r < eng.cfg->n; r++) {
    if (eng.st[r].exited || mpi_wake_to_return(r))
      continue;
    sg_actor_t a = sg_actor_by_pid(eng.pids[r]);
    if (a && a != self)
      sg_actor_kill(a);
  }
  sg_actor_kill_all();
}

/* Termination by quiescence, as a message-driven runtime detects it: the run
 * is over when every live process has finished its own part and no message
 * is in flight.  Until then finished processes keep serving (e.g. as hash
 * intermediaries), so every message sent is delivered and handled.
 * Deadlock: no message in flight, no failure to come, every live process
 * blocked in sg_next, yet some live process has not retired: nothing can
 * ever wake them.  Messages queued in a host channel count in in_flight
 * (sg_send), and a process that polls or computes is not blocked.  Called
 * by a process about to block (counted blocked already), by the failed
 * process's discard loop, by a process that returns from its main function
 * and by the failure actor: whoever observes the end ends the others and
 * itself. */
static void end_if_stuck(void)
{
  if (eng.in_flight != 0)
    return;
  int live = live_count();
  if (eng.retired - eng.failed_retired != live) {
    if (failure_pending() || eng.blocked != live)
      return;
    record_deadlock();
  }
  eng.end_clock = simgrid_get_clock();
  end_processes();
  sg_actor_exit();
}

/* Shorter sleeps are below SimGrid's numerical accuracy (it warns). */
#define MIN_SLEEP_S 1e-8

static int host_index(int rank) { return eng.cfg->host_of ? eng.cfg->host_of[rank] : rank / eng.cfg->cores; }

/* The message a process holds while it pays an overhead: the one it is
 * sending (in flight once sg_send counted it) or the one it took. */
typedef struct held {
  cs_msg *m;
  bool in_flight;
} held;

static const held NOTHING = {NULL, false};

static G_GNUC_NORETURN void fail_now(cs_proc *p, held h);

/* Whether `rank` has failed by now: the failure detector (msg.h), also
 * true at fail_at before the failure actor has run. */
static bool rank_failed(int rank)
{
  return rank >= 0 && rank == eng.fail_rank && (eng.fail_applied || simgrid_get_clock() >= eng.fail_at);
}

/* The failed process never returns to the algorithm: every engine entry
 * checks. */
static void die_if_failed(cs_proc *p, held h)
{
  if (rank_failed(p->rank))
    fail_now(p, h);
}

/* What the run has done so far, written by the simulation (the main
 * thread) after each delivery and each computation, read by the progress
 * thread (run_with_progress), which touches nothing else of the run. */
static struct {
  _Atomic int64_t taken;   /* messages delivered */
  _Atomic double work;     /* their weights, cs_message_work (only main writes it) */
  _Atomic double computed; /* seconds of cs_compute, summed over the processes */
} published;

/* `seconds` of CPU time: a core of its own (a sleep), or with shared_cpu the
 * host's one processor, taken in turns first come first served: the work
 * starts when the processor is free and runs to its end (a nonpreemptive
 * scheduler, as FG-MPI's proclets inside one OS process).  A per-host
 * clock, not SimGrid's CPU model: processor sharing among thousands of
 * actors per host costs the solver O(actors) per event.  The process to
 * fail sleeps until fail_at at most, and fails there holding h. */
static void cpu_busy(cs_proc *p, double seconds, held h)
{
  if (seconds <= 0)
    return;
  double now = simgrid_get_clock(), sleep = seconds;
  if (eng.cfg->shared_cpu) {
    double *free_at = &eng.busy_until[host_index(p->rank)];
    *free_at = (*free_at > now ? *free_at : now) + seconds;
    /* below SimGrid's accuracy the wait is kept on the host's clock only */
    sleep = *free_at - now >= MIN_SLEEP_S ? *free_at - now : 0;
  }
  if (p->rank == eng.fail_rank && failure_pending() && now + sleep >= eng.fail_at) {
    if (eng.fail_at - now >= MIN_SLEEP_S)
      sg_actor_sleep_until(eng.fail_at);
    fail_now(p, h);
  }
  if (sleep > 0)
    sg_actor_sleep_for(sleep);
}

static bool same_host(int a, int b) { return host_index(a) == host_index(b); }

/* The configuration's delivery hooks, if any, for m taken by p. */
static void report_delivery(const cs_proc *p, const cs_msg *m)
{
  const cs_engine_config *c = eng.cfg;
  if (!c->on_delivery && !c->tracer)
    return;
  cs_delivery d = {m->t_sent, simgrid_get_clock(), m->src, p->rank, host_index(m->src), host_index(p->rank),
                   m->bytes, m->tag, m->ctx, (cs_phase)m->phase};
  if (c->on_delivery)
    c->on_delivery(&d, c->on_delivery_user);
  if (c->tracer)
    c->tracer(&d, c->tracer_user);
}

/* ---- channels between hosts (host_channels) ---- */

typedef struct pending_msg {
  cs_msg *m;
  int dst;
} pending_msg;

typedef struct channel {
  GQueue pending; /* of pending_msg, oldest first */
  sg_sem_t ready; /* one token per pending message */
} channel;

static void channel_main(int argc, char **argv)
{
  (void)argc;
  (void)argv;
  channel *ch = sg_actor_self_get_data();
  for (;;) {
    sg_sem_acquire(ch->ready);
    pending_msg *pm = g_queue_pop_head(&ch->pending);
    sg_mailbox_put(eng.mailboxes[pm->dst], pm->m, (long)pm->m->bytes); /* until it is delivered */
    g_free(pm);
  }
}

static channel *channel_between(int src_host, int dst_host)
{
  gint64 key = (gint64)src_host * (gint64)eng.nhosts + dst_host;
  channel *ch = g_hash_table_lookup(eng.channels, &key);
  if (ch)
    return ch;
  ch = g_new0(channel, 1);
  g_queue_init(&ch->pending);
  ch->ready = sg_sem_init(0);
  g_hash_table_insert(eng.channels, g_memdup2(&key, sizeof key), ch);
  char name[48];
  snprintf(name, sizeof name, "channel-%d-%d", src_host, dst_host);
  sg_actor_t a = sg_actor_init(name, eng.hosts[src_host]);
  sg_actor_set_data(a, ch);
  sg_actor_start(a, channel_main, 0, NULL);
  sg_actor_daemonize(a);
  return ch;
}

static void channel_free(gpointer x)
{
  channel *ch = x;
  g_assert(g_queue_is_empty(&ch->pending)); /* quiescence: every message was delivered */
  sg_sem_destroy(ch->ready);
  g_free(ch);
}

/* Hand m to the channel from src's host to dst's, whose actor sends it. */
static void channel_push(int src, int dst, cs_msg *m)
{
  channel *ch = channel_between(host_index(src), host_index(dst));
  pending_msg *pm = g_new(pending_msg, 1);
  *pm = (pending_msg){m, dst};
  g_queue_push_tail(&ch->pending, pm);
  sg_sem_release(ch->ready);
}

/* ---- MPI semantics (CS_SEMANTICS_MPI, sg_engine.h) ---- */

/* An ordered pair of ranks that has exchanged a message: its mailbox, with
 * no permanent receiver (a message waits there until its receive is
 * posted, as in SMPI), and how many of its entries in the receiver's
 * arrival list a receive by source has already taken. */
typedef struct mpi_pair {
  sg_mailbox_t mbox;
  int stale;
} mpi_pair;

/* Per rank: the pairs of the messages posted to it, oldest first, for a
 * receive from any source (entries taken by a receive by source are
 * skipped as stale), and the bell such a receive waits on when none is
 * posted. */
typedef struct mpi_rank {
  GQueue arrivals; /* of mpi_pair * */
  sg_sem_t bell;   /* made on first use */
  bool waiting;    /* a receive from any source waits on bell */
} mpi_rank;

static struct {
  GHashTable *pairs; /* src * n + dst -> mpi_pair */
  mpi_rank *ranks;   /* per rank */
} mpi;

static bool mpi_semantics(void) { return eng.cfg->semantics == CS_SEMANTICS_MPI; }

static mpi_pair *mpi_pair_of(int src, int dst)
{
  gint64 key = (gint64)src * eng.cfg->n + dst;
  mpi_pair *pair = g_hash_table_lookup(mpi.pairs, &key);
  if (pair)
    return pair;
  char name[40];
  snprintf(name, sizeof name, "mpi-%d-%d", src, dst);
  sg_mailbox_t mbox = sg_mailbox_by_name(name); /* a simcall: the other actors run meanwhile */
  pair = g_hash_table_lookup(mpi.pairs, &key);   /* the receiver or the sender may have made it */
  if (pair)
    return pair;
  pair = g_new0(mpi_pair, 1);
  pair->mbox = mbox;
  g_hash_table_insert(mpi.pairs, g_memdup2(&key, sizeof key), pair);
  return pair;
}

/* Drop the stale entries at the head of a rank's arrival list. */
static void mpi_purge(mpi_rank *r)
{
  mpi_pair *head;
  while ((head = g_queue_peek_head(&r->arrivals)) != NULL && head->stale > 0) {
    head->stale--;
    g_queue_pop_head(&r->arrivals);
  }
}

/* The process's send that is not detached, if any, ends before it goes on. */
static void mpi_wait_rendezvous(cs_proc *p)
{
  outbox *o = p->backend;
  if (!o || !o->rdv_comm)
    return;
  sg_comm_wait(o->rdv_comm); /* releases it */
  delivery_release(o->rdv_note);
  o->rdv_comm = NULL;
  o->rdv_note = NULL;
}

/* Post m to dst's mailbox for this pair: it flows once dst's receive is
 * posted.  A small message is detached (reaped later, as eager sends are);
 * a large one is waited for at the process's next engine call. */
static void mpi_send(cs_proc *p, int dst, cs_msg *m)
{
  outbox *o = outbox_of(p);
  outbox_reap(o);
  mpi_pair *pair = mpi_pair_of(p->rank, dst);
  delivery *note = g_new0(delivery, 1);
  note->refs = 2;
  m->note = note;
  sg_comm_t c = sg_mailbox_put_async(pair->mbox, m, (long)(m->bytes + CS_MPI_ENVELOPE_BYTES));
  if (m->bytes < eng.cfg->mpi_detach_below) {
    outbox_push(o, c, dst, note);
  } else {
    o->rdv_comm = c;
    o->rdv_note = note;
  }
  mpi_rank *r = &mpi.ranks[dst];
  g_queue_push_tail(&r->arrivals, pair);
  if (r->waiting) {
    r->waiting = false;
    sg_sem_release(r->bell);
  }
}

/* Post the receive of the pair's oldest message, end the process's
 * pending send, then wait for the message (MPI_Sendrecv's waitall). */
static cs_msg *mpi_receive_from(cs_proc *p, mpi_pair *pair)
{
  void *data = NULL;
  sg_comm_t c = sg_mailbox_get_async(pair->mbox, &data);
  mpi_wait_rendezvous(p);
  sg_comm_wait(c); /* releases it */
  return data;
}

/* A receive from the oldest message posted to p, or NULL if none is
 * posted and may_wait is false. */
static cs_msg *mpi_receive_any(cs_proc *p, bool may_wait)
{
  mpi_rank *r = &mpi.ranks[p->rank];
  mpi_purge(r);
  if (g_queue_is_empty(&r->arrivals)) {
    if (!may_wait)
      return NULL;
    mpi_wait_rendezvous(p);
    if (!r->bell)
      r->bell = sg_sem_init(0);
    while (g_queue_is_empty(&r->arrivals)) {
      r->waiting = true;
      sg_sem_acquire(r->bell);
      if (eng.ending)
        return NULL; /* the run is over (end_processes) */
      mpi_purge(r); /* a receive by source may have taken what rang the bell */
    }
  }
  return mpi_receive_from(p, g_queue_pop_head(&r->arrivals));
}

/* The next message for what p's receive waits for: from its source, or
 * from any. */
static cs_msg *mpi_wait_message(cs_proc *p)
{
  if (!p->wait.active || p->wait.src == CS_ANY)
    return mpi_receive_any(p, true);
  mpi_pair *pair = mpi_pair_of(p->wait.src, p->rank);
  cs_msg *m = mpi_receive_from(p, pair);
  pair->stale++;
  mpi_purge(&mpi.ranks[p->rank]);
  return m;
}

/* At the end of the run: a serving process waiting on its bell is woken
 * to return (end_processes); false if r is not one. */
static bool mpi_wake_to_return(int r)
{
  if (!mpi_semantics() || !eng.st[r].retired || !mpi.ranks[r].waiting)
    return false;
  mpi.ranks[r].waiting = false;
  sg_sem_release(mpi.ranks[r].bell);
  return true;
}

static void mpi_start(int n)
{
  mpi.pairs = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, g_free);
  mpi.ranks = g_new0(mpi_rank, n);
}

static void mpi_end(int n)
{
  if (!mpi.ranks)
    return;
  for (int r = 0; r < n; r++) {
    g_queue_clear(&mpi.ranks[r].arrivals);
    if (mpi.ranks[r].bell)
      sg_sem_destroy(mpi.ranks[r].bell);
  }
  g_free(mpi.ranks);
  mpi.ranks = NULL;
  g_hash_table_destroy(mpi.pairs);
  mpi.pairs = NULL;
}

static void sg_send(cs_proc *p, int dst, cs_msg *m)
{
  m->t_sent = simgrid_get_clock();
  die_if_failed(p, (held){m, false});
  bool mpi_mode = mpi_semantics();
  if (mpi_mode)
    mpi_wait_rendezvous(p); /* MPI_Send: the previous send ends first */
  bool local = same_host(p->rank, dst);
  bool copied = local && eng.cfg->local_copy_bw > 0 && !mpi_mode;
  double copy_s = copied ? (double)m->bytes / eng.cfg->local_copy_bw : 0;
  cpu_busy(p, eng.cfg->o_send + copy_s, (held){m, false});
  eng.in_flight++;
  if (mpi_mode) {
    mpi_send(p, dst, m);
    return;
  }
  if (eng.cfg->host_channels && !local) {
    channel_push(p->rank, dst, m);
    return;
  }
  outbox *o = outbox_of(p);
  outbox_reap(o);
  if (eng.cfg->fifo_channels) {
    outbox_wait_channel(o, dst);
    die_if_failed(p, (held){m, true});
  }
  long wire_bytes = copied ? 0 : (long)m->bytes;
  delivery *note = g_new0(delivery, 1);
  note->refs = 2;
  m->note = note;
  outbox_push(o, sg_mailbox_put_async(eng.mailboxes[dst], m, wire_bytes), dst, note);
}

/* ---- receiving: blocking, polling ---- */

static int window(void) { return eng.cfg->recv_window > 1 ? eng.cfg->recv_window : 1; }

/* Post the receives of the window that are not posted. */
static void post_receives(cs_proc *p, outbox *o)
{
  for (int i = 0; i < window(); i++)
    if (!o->rcomm[i]) {
      o->rcomm[i] = sg_mailbox_get_async(eng.mailboxes[p->rank], &o->rdata[i]);
      o->rseq[i] = o->next_seq++;
      o->posted++;
    }
}

/* The payload of a posted receive that completed (SimGrid released it). */
static cs_msg *slot_taken(outbox *o, int slot)
{
  o->rcomm[slot] = NULL;
  o->posted--;
  return o->rdata[slot];
}

/* The next message in order of arrival: with a permanent receiver SimGrid
 * hands messages over in the order they were sent, so a blocking get waits
 * for the oldest message even when a younger one (from a less loaded route)
 * has already arrived.  Keeping `recv_window` receives posted and taking
 * whichever completes first removes that head-of-line blocking (MPI matches
 * a receive against any arrived message).  With a window of 1 this waits on
 * the receive a poll left posted. */
static cs_msg *next_arrived(cs_proc *p)
{
  outbox *o = outbox_of(p);
  post_receives(p, o);
  o->in_wait_any = 1;
  ssize_t done = sg_comm_wait_any(o->rcomm, (size_t)window()); /* releases the finished comm */
  o->in_wait_any = 0;
  return slot_taken(o, (int)done);
}

/* Block until a message reaches p.  Without a window and with no receive
 * left posted by a poll, a plain blocking get, as always. */
static cs_msg *wait_message(cs_proc *p)
{
  if (mpi_semantics())
    return mpi_wait_message(p);
  const outbox *o = p->backend;
  if (eng.cfg->recv_window > 1 || (o && o->posted > 0))
    return next_arrived(p);
  return sg_mailbox_get(eng.mailboxes[p->rank]);
}

/* p takes m out of the network: the receive overhead, then m is no longer
 * in flight (a failed process discards it instead). */
static cs_msg poison; /* below: the failed process's wake-up */

static cs_msg *take(cs_proc *p, cs_msg *m)
{
  if (m != &poison)
    note_taken(m);
  die_if_failed(p, (held){m, true});
  if (p->backend)
    outbox_reap(p->backend);
  cpu_busy(p, eng.cfg->o_recv, (held){m, true});
  eng.in_flight--; /* only now is the message in the process's hands */
  eng.taken++;
  atomic_store_explicit(&published.taken, eng.taken, memory_order_relaxed);
  atomic_store_explicit(&published.work,
                        atomic_load_explicit(&published.work, memory_order_relaxed) + cs_message_work(m->bytes),
                        memory_order_relaxed);
  report_delivery(p, m);
  return m;
}

static cs_msg *sg_next(cs_proc *p)
{
  die_if_failed(p, NOTHING);
  set_blocked(p->rank, true);
  end_if_stuck();
  cs_msg *m = wait_message(p);
  set_blocked(p->rank, false);
  return m ? take(p, m) : NULL; /* NULL: the run is over, p returns (end_processes) */
}

/* Polling (cs_recv_try): the window's receives stay posted between polls
 * (posting one per poll and cancelling it would lose the message it
 * matched in the meantime), and the next sg_next waits on them first, so
 * messages are neither lost nor reordered.  Tested oldest posted first
 * (the order their messages were sent in); each sg_comm_test is a simcall
 * but takes no simulated time. */
static cs_msg *sg_poll(cs_proc *p)
{
  die_if_failed(p, NOTHING);
  if (mpi_semantics()) {
    cs_msg *m = mpi_receive_any(p, false);
    return m ? take(p, m) : NULL;
  }
  outbox *o = outbox_of(p);
  post_receives(p, o);
  int w = window();
  bool tested[CS_MAX_RECV_WINDOW] = {false};
  for (int k = 0; k < w; k++) {
    int slot = -1;
    for (int i = 0; i < w; i++)
      if (!tested[i] && (slot < 0 || o->rseq[i] < o->rseq[slot]))
        slot = i;
    tested[slot] = true;
    if (sg_comm_test(o->rcomm[slot])) /* releases it when finished */
      return take(p, slot_taken(o, slot));
  }
  return NULL;
}

static bool sg_failed(const cs_proc *p, int rank)
{
  (void)p;
  return rank_failed(rank == CS_ANY ? eng.fail_rank : rank);
}

static void sg_compute(cs_proc *p, double seconds)
{
  die_if_failed(p, NOTHING);
  if (mpi_semantics())
    mpi_wait_rendezvous(p);
  cpu_busy(p, seconds, NOTHING);
  if (seconds > 0) /* the main thread is its only writer: load, add, store */
    atomic_store_explicit(&published.computed,
                          atomic_load_explicit(&published.computed, memory_order_relaxed) + seconds,
                          memory_order_relaxed);
}

static double sg_now(const cs_proc *p)
{
  (void)p;
  return simgrid_get_clock();
}

static void sg_retire(cs_proc *p)
{
  die_if_failed(p, NOTHING);
  if (mpi_semantics())
    mpi_wait_rendezvous(p); /* its last MPI_Send ends */
  eng.st[p->rank].retired = true;
  eng.retired++;
}

static const cs_transport sg_transport = {
  .send = sg_send,
  .next = sg_next,
  .compute = sg_compute,
  .now = sg_now,
  .retire = sg_retire,
  .poll = sg_poll,
  .failed = sg_failed,
};

/* ---- process failure ---- */

/* The poison (declared above) wakes the failed process when it is blocked:
 * its address tells it apart; it is never in flight and never freed. */

/* Discard a message that reached the failed process. */
static void sink(held h)
{
  if (h.m == NULL || h.m == &poison)
    return;
  note_taken(h.m);
  if (h.in_flight)
    eng.in_flight--;
  free(h.m->data);
  free(h.m);
}

/* The failure takes effect (once, by whichever comes first at fail_at: the
 * failed process itself or the failure actor): it stops counting as live;
 * blocked, it is woken by the poison, a zero-byte message from its own host
 * (a detached put: nobody waits for it). */
static void apply_failure(void)
{
  if (eng.fail_applied)
    return;
  int v = eng.fail_rank;
  const proc_state *s = &eng.st[v];
  if (s->blocked && is_live(v))
    eng.blocked--;
  eng.fail_applied = true;
  eng.fail_time = simgrid_get_clock();
  eng.failed_live = !s->exited;
  eng.failed_retired = s->retired;
  if (s->blocked)
    sg_comm_detach(sg_mailbox_put_init(eng.mailboxes[v], &poison, 0), NULL);
}

/* The failed process, for good: it discards h and every message that
 * reaches it (they leave in_flight as they arrive), without paying any
 * overhead, and never returns. */
static void fail_now(cs_proc *p, held h)
{
  apply_failure();
  sink(h);
  for (;;) {
    set_blocked(p->rank, true); /* counts nothing: it is not live */
    end_if_stuck();
    cs_msg *m = wait_message(p);
    set_blocked(p->rank, false);
    sink((held){m, true});
  }
}

/* Daemon on the failing process's host: at fail_at, makes the failure take
 * effect even if the process is blocked, then checks whether that ended
 * the run (everyone else waiting on it: a deadlock). */
static void failure_main(int argc, char **argv)
{
  (void)argc;
  (void)argv;
  sg_actor_daemonize(sg_actor_self());
  if (eng.fail_at - simgrid_get_clock() >= MIN_SLEEP_S)
    sg_actor_sleep_until(eng.fail_at);
  apply_failure();
  end_if_stuck();
}

/* ---- SimGrid's start: signals and memory ---- */

/* Out of memory inside SimGrid ends in abort() after a CRITICAL log line
 * ("Memory allocation of N bytes failed" from xbt_malloc, "Failed to
 * allocate stack." for an actor's stack, "Uncaught exception
 * std::bad_alloc" from its terminate handler), then an 18-line backtrace
 * (exit status 134).  Every such line goes through SimGrid's log, whose root
 * appender we replace with a stream that passes lines on to stderr
 * unchanged, but ends the run at a memory failure's line, before the
 * backtrace and the abort: one line, exit status 1 (signals.h).  This
 * catches the failure wherever SimGrid meets it (actor stacks, the
 * platform, the solver), which no estimate of the run's memory made
 * beforehand against RLIMIT_AS could, and runs in the process itself (a
 * child whose stderr the parent filters would change how every run
 * reports).  What fails outside SimGrid is GLib's g_malloc, which
 * signals.c handles; C++ exceptions thrown before SimGrid sets its
 * terminate handler (an address space too small to start at all) still
 * print libstdc++'s two lines. */
static const char *const memory_failures[] = {
    "allocation of", "Failed to allocate", "bad_alloc", "out of memory", "Cannot allocate memory",
    /* SimGrid's terminate handler failed while handling an uncaught
     * exception: it allocates (a backtrace, strings), and with collsim
     * only std::bad_alloc reaches it, so memory ran out */
    "Handling an exception raised an exception", NULL};

static char log_line[2048];
static size_t log_len;

/* The message of a log line "[...] file:line: [category/PRIORITY] message". */
static const char *log_message(const char *line)
{
  for (const char *p = strchr(line, '/'); p; p = strchr(p + 1, '/')) {
    const char *q = p + 1;
    while (*q >= 'A' && *q <= 'Z')
      q++;
    if (q > p + 1 && q[0] == ']' && q[1] == ' ')
      return q + 2;
  }
  return line;
}

/* One complete line of SimGrid's log: passed on, or the end of the run. */
static void log_flush(void)
{
  log_line[log_len] = '\0';
  for (int i = 0; memory_failures[i]; i++)
    if (strstr(log_line, memory_failures[i])) {
      char *nl = strchr(log_line, '\n');
      if (nl)
        *nl = '\0';
      static char detail[2100];
      snprintf(detail, sizeof detail, "SimGrid: %s", log_message(log_line));
      cs_signals_out_of_memory(detail);
    }
  for (size_t done = 0; done < log_len;) {
    ssize_t w = write(STDERR_FILENO, log_line + done, log_len - done);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0)
      break;
    done += (size_t)w;
  }
  log_len = 0;
}

static ssize_t log_write(void *cookie, const char *buf, size_t size)
{
  (void)cookie;
  for (size_t i = 0; i < size; i++) {
    log_line[log_len++] = buf[i];
    if (buf[i] == '\n' || log_len == sizeof log_line - 1)
      log_flush();
  }
  return (ssize_t)size;
}

static void watch_simgrid_log(void)
{
  cookie_io_functions_t io = {.read = NULL, .write = log_write, .seek = NULL, .close = NULL};
  FILE *f = fopencookie(NULL, "w", io);
  if (!f)
    return; /* SimGrid's own appender stays */
  setvbuf(f, NULL, _IONBF, 0);
  xbt_log_appender_set(&_XBT_LOGV(XBT_LOG_ROOT_CAT), xbt_log_appender_stream(f));
}

/* simgrid_init takes SIGINT (its handler prints every actor's state and
 * calls exit(1)): the handler in place before it (signals.c's, which
 * removes the run's temporary files and ends with SIGINT, or a caller's) is
 * put back.  Then SimGrid's log is watched for memory failures. */
static void start_simgrid(int *argc, char **argv)
{
  struct sigaction before;
  sigaction(SIGINT, NULL, &before);
  simgrid_init(argc, argv);
  sigaction(SIGINT, &before, NULL);
  watch_simgrid_log();
}

/* SimGrid aborts the process on input it rejects (an unknown --cfg name, a
 * bad value, a platform file it cannot load), printing a backtrace: such
 * input is first tried in a child process, whose first complaint becomes
 * our error message.  The child runs simgrid_init with `args` and, when
 * `platform` is set, loads it. */
/* Out of memory in the checking child: the line goes to its stderr (the
 * parent's pipe) without our prefix; the parent reports it as its own. */
static void report_to_stderr(const char *message)
{
  size_t len = strlen(message);
  while (len > 0) {
    ssize_t w = write(STDERR_FILENO, message, len);
    if (w <= 0 && errno != EINTR)
      return;
    if (w > 0) {
      message += w;
      len -= (size_t)w;
    }
  }
}

static gboolean child_out_of_memory(const char *why, GError **err)
{
  if (!why || !g_str_has_prefix(why, "out of memory ("))
    return FALSE;
  g_set_error(err, CS_INTERNAL_ERROR, 1, "%s", why);
  return TRUE;
}

static gboolean simgrid_child_accepts(GPtrArray *args, const char *platform, char **why)
{
  int pipefd[2];
  *why = NULL;
  if (pipe(pipefd) != 0)
    return TRUE; /* cannot check: let the real run report */
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    close(pipefd[0]);
    dup2(pipefd[1], STDERR_FILENO);
    cs_signals_report_to(report_to_stderr);
    int argc = (int)args->len;
    char **argv = g_new0(char *, argc + 1);
    for (int i = 0; i < argc; i++)
      argv[i] = g_ptr_array_index(args, i);
    start_simgrid(&argc, argv);
    if (platform)
      simgrid_load_platform(platform);
    _exit(platform && sg_host_count() == 0 ? 3 : 0);
  }
  close(pipefd[1]);
  GString *text = g_string_new(NULL);
  char buf[4096];
  ssize_t got;
  while ((got = read(pipefd[0], buf, sizeof buf)) > 0)
    g_string_append_len(text, buf, got);
  close(pipefd[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  gboolean ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  if (!ok) {
    char **lines = g_strsplit(text->str, "\n", -1);
    const char *first = WIFEXITED(status) && WEXITSTATUS(status) == 3 ? "it declares no host" : NULL;
    for (char **l = lines; !first && *l; l++)
      if (**l && !g_str_has_prefix(*l, "Backtrace") && !g_str_has_prefix(g_strchug(*l), "->") &&
          !g_str_has_prefix(*l, "[0x"))
        first = *l;
    if (first && g_str_has_prefix(first, "Uncaught exception ") && strstr(first, ": "))
      first = strstr(first, ": ") + 2; /* "Uncaught exception std::out_of_range: Bad config key: x" */
    *why = g_strdup(first ? first : "no reason given");
    g_strfreev(lines);
  }
  g_string_free(text, TRUE);
  return ok;
}

/* The platform loads in a child, with the run's --cfg settings (some are
 * refused only when the platform's models start, e.g. disabling selective
 * update under the lazy network model). */
static gboolean simgrid_accepts(const char *path, const GPtrArray *extra_cfg, GError **err)
{
  GPtrArray *args = g_ptr_array_new();
  g_ptr_array_add(args, "collsim");
  g_ptr_array_add(args, "--log=root.fmt:%m%n");
  g_ptr_array_add(args, "--log=xbt_cfg.thres:warning");
  for (guint i = 0; extra_cfg && i < extra_cfg->len; i++)
    g_ptr_array_add(args, g_ptr_array_index(extra_cfg, i));
  char *why = NULL;
  gboolean ok = simgrid_child_accepts(args, path, &why);
  if (!ok && !child_out_of_memory(why, err)) {
    if (extra_cfg && extra_cfg->len > 0)
      g_set_error(err, CS_INPUT_ERROR, 1, "--cfg: SimGrid refuses the settings on this platform: %s", why);
    else
      g_set_error(err, CS_INPUT_ERROR, 1, "SimGrid rejects platform file %s: %s", path, why);
  }
  g_free(why);
  g_ptr_array_free(args, TRUE);
  return ok;
}

gboolean cs_engine_check_cfg(const cs_engine_config *c, GError **err)
{
  if (!c->extra_cfg || c->extra_cfg->len == 0)
    return TRUE;
  for (guint i = 0; i < c->extra_cfg->len; i++) {
    const char *a = g_ptr_array_index(c->extra_cfg, i);
    const char *v = g_str_has_prefix(a, "--cfg=") ? a + 6 : a;
    if (!strchr(v, ':') || *v == ':') {
      g_set_error(err, CS_INPUT_ERROR, 1, "--cfg '%s': expected NAME:VALUE (e.g. network/crosstraffic:0)", v);
      return FALSE;
    }
  }
  GPtrArray *args = g_ptr_array_new();
  g_ptr_array_add(args, "collsim");
  g_ptr_array_add(args, "--log=root.fmt:%m%n");
  g_ptr_array_add(args, "--log=xbt_cfg.thres:warning");
  for (guint i = 0; i < c->extra_cfg->len; i++)
    g_ptr_array_add(args, g_ptr_array_index(c->extra_cfg, i));
  char *why = NULL;
  gboolean ok = simgrid_child_accepts(args, NULL, &why);
  if (!ok && !child_out_of_memory(why, err))
    g_set_error(err, CS_INPUT_ERROR, 1, "--cfg: SimGrid refuses the setting: %s", why);
  g_free(why);
  g_ptr_array_free(args, TRUE);
  return ok;
}


static int natural_name_cmp(const void *a, const void *b)
{
  return cs_natural_cmp(sg_host_get_name(*(const sg_host_t *)a), sg_host_get_name(*(const sg_host_t *)b));
}

/* ---- run ---- */

/* The progress line of a run: what it counts, and how much is done. */
typedef enum { METER_MESSAGES, METER_WORK, METER_COMPUTE } meter_kind;
typedef struct run_meter {
  const char *label;
  size_t total; /* 0: open-ended */
  meter_kind kind;
} run_meter;

static run_meter meter_of(const cs_engine_config *c)
{
  if (c->progress_work >= 1)
    return (run_meter){"message work (log2 of 8 + bytes each)", (size_t)ceil(c->progress_work), METER_WORK};
  if (c->progress_messages >= 1)
    return (run_meter){"messages delivered", (size_t)c->progress_messages, METER_MESSAGES};
  if (c->progress_compute_s > 0)
    return (run_meter){"ms computed (all processes)", (size_t)ceil(c->progress_compute_s * 1e3), METER_COMPUTE};
  return (run_meter){"messages delivered (total not known: no ETA)", 0, METER_MESSAGES};
}

static size_t meter_done(const run_meter *m)
{
  double done = m->kind == METER_COMPUTE ? atomic_load_explicit(&published.computed, memory_order_relaxed) * 1e3
                : m->kind == METER_WORK  ? atomic_load_explicit(&published.work, memory_order_relaxed)
                                         : (double)atomic_load_explicit(&published.taken, memory_order_relaxed);
  return m->total && done > (double)m->total ? m->total : (size_t)done;
}

#define PROGRESS_FIRST_US 1000000 /* the first line after a second of the run */
#define PROGRESS_POLL_US 250000   /* then a look every quarter second */

/* The progress thread's state: it wakes every PROGRESS_POLL_US, reads the
 * published counters and draws; the simulation never waits for it. */
typedef struct progress_watch {
  run_meter meter;
  gint64 start_us;
  GMutex lock;
  GCond wake;
  bool stop;
  bool draw;         /* not quiet: the line on stderr */
  cs_progress *line; /* made once the run has lasted PROGRESS_FIRST_US */
  FILE *log;         /* COLLSIM_PROGRESS_LOG, or NULL */
} progress_watch;

/* One line of COLLSIM_PROGRESS_LOG (cs_progress_log_line). */
static void log_counters(progress_watch *w)
{
  if (!w->log)
    return;
  cs_progress_log_line(w->log, (double)(g_get_monotonic_time() - w->start_us) / 1e6,
                       atomic_load_explicit(&published.taken, memory_order_relaxed),
                       atomic_load_explicit(&published.work, memory_order_relaxed),
                       atomic_load_explicit(&published.computed, memory_order_relaxed), meter_done(&w->meter),
                       w->meter.total);
}

static gpointer watch_progress(gpointer data)
{
  progress_watch *w = data;
  g_mutex_lock(&w->lock);
  while (!w->stop) {
    g_cond_wait_until(&w->wake, &w->lock, g_get_monotonic_time() + PROGRESS_POLL_US);
    if (w->stop)
      break;
    log_counters(w);
    if (w->draw && !w->line && g_get_monotonic_time() - w->start_us >= PROGRESS_FIRST_US) {
      w->line = cs_progress_new(stderr, w->meter.label, w->meter.total, (double)w->meter.total, FALSE);
      cs_progress_set_start(w->line, w->start_us);
    }
    if (w->line) {
      size_t done = meter_done(&w->meter);
      cs_progress_set(w->line, done, (double)done);
    }
  }
  g_mutex_unlock(&w->lock);
  return NULL;
}

/* Runs the simulation in one go (as with --quiet: the same events in the
 * same order) while a second thread draws the progress line from the
 * counters the simulation publishes, from the first second on, however
 * long any stretch of the simulation takes, and appends them to
 * COLLSIM_PROGRESS_LOG if set (also when quiet: collsim sweep reads its
 * points' progress there). */
static void run_with_progress(const cs_engine_config *c)
{
  atomic_store_explicit(&published.taken, 0, memory_order_relaxed);
  atomic_store_explicit(&published.work, 0, memory_order_relaxed);
  atomic_store_explicit(&published.computed, 0, memory_order_relaxed);
  FILE *log = cs_progress_log_open();
  if (c->quiet && !log) {
    simgrid_run();
    return;
  }
  progress_watch w = {.meter = meter_of(c), .start_us = g_get_monotonic_time(), .draw = !c->quiet, .log = log};
  g_mutex_init(&w.lock);
  g_cond_init(&w.wake);
  GThread *watcher = g_thread_new("progress", watch_progress, &w);
  simgrid_run();
  g_mutex_lock(&w.lock);
  w.stop = true;
  g_cond_signal(&w.wake);
  g_mutex_unlock(&w.lock);
  g_thread_join(watcher);
  log_counters(&w);
  if (w.log)
    fclose(w.log);
  if (w.line) {
    size_t done = w.meter.total ? w.meter.total : (size_t)eng.taken;
    cs_progress_set(w.line, done, (double)done);
    cs_progress_finish(w.line);
  }
  g_mutex_clear(&w.lock);
  g_cond_clear(&w.wake);
}

/* COLLSIM_PLAN=FILE: the run is not simulated.  FILE gets one line, "n
 * messages work compute_s" (what the progress line would count against,
 * 0 where not known), and the process exits 0 before SimGrid starts:
 * collsim sweep weighs its points by it before running them. */
static void write_plan_and_exit(const cs_engine_config *c, const char *path)
{
  if (!cs_progress_plan_write(path, c->n, c->progress_messages, c->progress_work, c->progress_compute_s)) {
    fprintf(stderr, "collsim: cannot write the plan to %s: %s\n", path, g_strerror(errno));
    exit(1);
  }
  exit(0);
}

/* Failure, deadlock and process states of a new run. */
static void reset_ends(const cs_engine_config *c)
{
  eng.st = g_new0(proc_state, c->n);
  eng.exited = 0;
  eng.blocked = 0;
  eng.fail_rank = c->fail_rank >= 0 ? c->fail_rank : -1;
  eng.fail_at = c->fail_at;
  eng.fail_applied = false;
  eng.fail_time = -1;
  eng.failed_live = 0;
  eng.failed_retired = 0;
  eng.deadlocked = false;
  eng.ending = false;
  eng.end_clock = -1;
  g_free(eng.stuck);
  eng.stuck = NULL;
  eng.nstuck = 0;
}

static void actor_main(int argc, char **argv)
{
  (void)argc;
  (void)argv;
  cs_proc *p = sg_actor_self_get_data();
  if (!mpi_semantics()) {
    char name[24];
    snprintf(name, sizeof name, "m%d", p->rank);
    sg_mailbox_set_receiver(name);
  }
  eng.fn(p, eng.user);
  if (eng.ending)
    return; /* woken at the end of the run (end_processes) */
  if (mpi_semantics())
    mpi_wait_rendezvous(p);
  /* Returned instead of serving: no longer live (it can never receive). */
  eng.st[p->rank].exited = true;
  eng.exited++;
  end_if_stuck();
}

static void init_simgrid(const cs_engine_config *c)
{
  GPtrArray *args = g_ptr_array_new_with_free_func(g_free);
  g_ptr_array_add(args, g_strdup("collsim"));
  g_ptr_array_add(args, g_strdup("--log=xbt_cfg.thres:warning"));
  g_ptr_array_add(args, g_strdup_printf("--cfg=network/model:%s", c->model));
  g_ptr_array_add(args, g_strdup_printf("--cfg=network/crosstraffic:%d", c->crosstraffic));
  g_ptr_array_add(args, g_strdup_printf("--cfg=contexts/stack-size:%d", c->stack_kib));
  g_ptr_array_add(args, g_strdup("--cfg=contexts/guard-size:0"));
  if (c->factory)
    g_ptr_array_add(args, g_strdup_printf("--cfg=contexts/factory:%s", c->factory));
  for (guint i = 0; c->extra_cfg && i < c->extra_cfg->len; i++)
    g_ptr_array_add(args, g_strdup(g_ptr_array_index(c->extra_cfg, i)));
  int argc = (int)args->len;
  char **argv = g_new0(char *, argc + 1);
  for (int i = 0; i < argc; i++)
    argv[i] = g_ptr_array_index(args, i);
  start_simgrid(&argc, argv);
  g_free(argv);
  g_ptr_array_free(args, TRUE);
}

/* Platform loaded in this process (SimGrid can be initialised once), as an
 * absolute path with symbolic links resolved when the file exists. */
static char *loaded_platform;

static char *platform_key(const char *path)
{
  char *real = realpath(path, NULL);
  char *key = real ? g_strdup(real) : g_canonicalize_filename(path, NULL);
  free(real);
  return key;
}

const char *cs_engine_loaded_platform(void) { return loaded_platform; }

gboolean cs_engine_load(const cs_engine_config *c, GError **err)
{
  char *key = platform_key(c->platform_file);
  if (loaded_platform) {
    gboolean same = strcmp(key, loaded_platform) == 0;
    if (!same)
      g_set_error(err, CS_INPUT_ERROR, 1,
                  "cannot load platform %s: this process already holds %s (SimGrid loads one platform per process)",
                  c->platform_file, loaded_platform);
    g_free(key);
    return same;
  }
  if (!cs_platform_precheck(c->platform_file, err) ||
      ((c->validate_platform || (c->extra_cfg && c->extra_cfg->len > 0)) &&
       !simgrid_accepts(c->platform_file, c->extra_cfg, err))) {
    g_free(key);
    return FALSE;
  }
  init_simgrid(c);
  simgrid_load_platform(c->platform_file);
  loaded_platform = key;
  return TRUE;
}

/* A run estimated to take longer than CS_RUN_WARN_SECONDS says so before it
 * starts, --quiet or not (quiet silences progress, never a warning). */
static void warn_if_long(const cs_engine_config *c)
{
  double s = cs_run_seconds_estimate(c->n, c->progress_messages);
  if (s < CS_RUN_WARN_SECONDS)
    return;
  GString *what = g_string_new(NULL);
  g_string_printf(what, "%d processes", c->n);
  if (c->progress_messages > 0)
    g_string_append_printf(what, ", %.0f messages", c->progress_messages);
  fprintf(stderr, "collsim: warning: this timed run (%s) is estimated to take about %.1f hours here "
                  "(sim/contracts/run_cost.h)\n", what->str, s / 3600);
  g_string_free(what, TRUE);
}

gboolean cs_engine_run(const cs_engine_config *c, cs_proc *procs, cs_proc_main_fn fn, void *user,
                       GError **err)
{
  const char *plan = cs_progress_plan_path();
  if (plan)
    write_plan_and_exit(c, plan);
  if (!cs_engine_load(c, err))
    return FALSE;
  warn_if_long(c);

  size_t nhosts = sg_host_count();
  sg_host_t *hosts = sg_host_list();
  qsort(hosts, nhosts, sizeof *hosts, natural_name_cmp);
  if ((int64_t)nhosts * c->cores < c->n) {
    g_set_error(err, CS_INPUT_ERROR, 1, "n = %d is larger than the platform: %zu hosts x %d cores = %lld",
                c->n, nhosts, c->cores, (long long)nhosts * c->cores);
    free(hosts);
    return FALSE;
  }

  if (c->fail_rank >= c->n || (c->fail_rank >= 0 && !(c->fail_at >= 0))) {
    g_set_error(err, CS_INPUT_ERROR, 1, "failure of rank %d at %g s: not a rank (n = %d) or not a time", c->fail_rank,
                c->fail_at, c->n);
    free(hosts);
    return FALSE;
  }
  if (c->semantics == CS_SEMANTICS_MPI && c->fail_rank >= 0) {
    g_set_error(err, CS_INPUT_ERROR, 1, "--semantics mpi does not model process failure");
    free(hosts);
    return FALSE;
  }
  eng.cfg = c;
  eng.procs = procs;
  eng.fn = fn;
  eng.user = user;
  eng.in_flight = 0;
  eng.retired = 0;
  eng.taken = 0;
  reset_ends(c);
  if (c->semantics == CS_SEMANTICS_MPI)
    mpi_start(c->n);
  eng.mailboxes = g_new0(sg_mailbox_t, c->n); /* one per rank for eager sends (MPI's are per pair) */
  eng.pids = g_new(aid_t, c->n);
  eng.busy_until = g_new0(double, nhosts);
  char name[24];
  for (int r = 0; r < c->n; r++) {
    snprintf(name, sizeof name, "m%d", r);
    if (c->semantics != CS_SEMANTICS_MPI)
      eng.mailboxes[r] = sg_mailbox_by_name(name);
    cs_proc_init(&procs[r], r, c->n, &sg_transport, NULL);
    procs[r].observer = c->observer;
    procs[r].observer_user = c->observer_user;
    snprintf(name, sizeof name, "%d", r);
    sg_actor_t a = sg_actor_init(name, hosts[c->host_of ? c->host_of[r] : r / c->cores]);
    sg_actor_set_data(a, &procs[r]);
    sg_actor_start(a, actor_main, 0, NULL);
    eng.pids[r] = sg_actor_get_pid(a);
  }
  eng.hosts = hosts;
  eng.nhosts = nhosts;
  eng.channels = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, channel_free);
  if (eng.fail_rank >= 0)
    sg_actor_start(sg_actor_init("failure", hosts[host_index(eng.fail_rank)]), failure_main, 0, NULL);
  run_with_progress(c);
  for (int r = 0; r < c->n; r++) {
    outbox *o = procs[r].backend;
    if (o) {
      for (int i = 0; i < o->count; i++) {
        sg_comm_unref(o->comm[i]); /* finished: the run ends with nothing in flight */
        delivery_release(o->note[i]);
      }
      if (o->rdv_comm) { /* the actor was killed while its last send was in flight (a deadlock) */
        sg_comm_unref(o->rdv_comm);
        delivery_release(o->rdv_note);
      }
      for (int i = 0; i < CS_MAX_RECV_WINDOW && !o->in_wait_any; i++)
        if (o->rcomm[i])
          sg_comm_unref(o->rcomm[i]); /* receives posted ahead, never matched (released by SimGrid
                                         instead when the actor was killed inside wait_any) */
      g_free(o->comm);
      g_free(o->note);
      g_free(o->dst);
      g_free(o);
      procs[r].backend = NULL;
    }
  }
  mpi_end(c->n);
  g_free(eng.mailboxes);
  eng.mailboxes = NULL;
  g_free(eng.pids);
  eng.pids = NULL;
  g_free(eng.busy_until);
  eng.busy_until = NULL;
  g_hash_table_destroy(eng.channels);
  eng.channels = NULL;
  free(eng.hosts);
  eng.hosts = NULL;
  g_free(eng.st);
  eng.st = NULL;
  if (c->tracer_end)
    c->tracer_end(c, c->tracer_user);
  return TRUE;
}

void cs_engine_preload(void) {} /* linked in: SimGrid is loaded already */

int cs_engine_retired(void) { return eng.retired; }

double cs_engine_work(void) { return atomic_load_explicit(&published.work, memory_order_relaxed); }

int cs_engine_failed_rank(void) { return eng.fail_applied ? eng.fail_rank : -1; }
double cs_engine_fail_time(void) { return eng.fail_applied ? eng.fail_time : -1; }

bool cs_engine_deadlocked(void) { return eng.deadlocked; }
int cs_engine_stuck_count(void) { return eng.nstuck; }

const cs_stuck *cs_engine_stuck(int *count)
{
  if (count)
    *count = eng.nstuck;
  return eng.stuck;
}

/* The time of the event that ended the run, read when the end is
 * observed: SimGrid's clock may move on after it (a daemon actor's timer,
 * such as the failure actor's). */
double cs_engine_clock(void) { return eng.end_clock >= 0 ? eng.end_clock : simgrid_get_clock(); }
