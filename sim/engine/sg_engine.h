/* SimGrid glue: the timed backend of the messaging interface.
 * The only file of collsim that calls SimGrid. */
#ifndef COLLSIM_SG_ENGINE_H
#define COLLSIM_SG_ENGINE_H

#include "sim/contracts/errors.h"
#include "sim/contracts/msg.h"
#include <glib.h>

/* Actor stacks: 16 KiB fit 131,072 actors; sanitizer builds need deeper. */
#ifdef COLLSIM_SANITIZED
#define CS_DEFAULT_STACK_KIB 256
#else
#define CS_DEFAULT_STACK_KIB 16
#endif

#define CS_MAX_RECV_WINDOW 16

/* One message taken by its receiver (the delivery hooks below). */
typedef struct cs_delivery {
  double t_send;         /* simulated time the sender posted it (called cs_send, before its send overhead) */
  double t_recv;         /* simulated time the receiver took it (after its receive overhead) */
  int src, dst;          /* ranks */
  int src_host, dst_host; /* hosts: indices in natural order of host names (node-g is host g on collsim's platforms) */
  size_t bytes;          /* simulated bytes */
  int tag;
  uint32_t ctx;
  cs_phase phase;        /* the sender's phase */
} cs_delivery;

typedef struct cs_engine_config cs_engine_config;

/* How messages behave (cs_engine_config.semantics). */
typedef enum {
  /* A message-driven runtime (Charm++, seed 000): a send starts flowing at
   * once, whether or not the receiver is waiting. */
  CS_SEMANTICS_EAGER = 0,
  /* SimGrid's SMPI (3.32): a message starts flowing when its receiver posts
   * the matching receive (SimGrid's rendezvous on a mailbox without a
   * permanent receiver); below mpi_detach_below bytes the sender goes on at
   * once (SMPI's detached sends, smpi/send-is-detached-thresh), from there
   * on it waits until the message has arrived, at its next engine call (a
   * send after it: MPI_Send; a receive after it: both end together, as
   * MPI_Sendrecv).  Every message carries SMPI's 16-byte envelope on the
   * wire.  Receives match by source in order of sending per pair (MPI's
   * non-overtaking rule; tags are matched above, by msg.c); a receive from
   * any source takes the oldest message posted to the process.  The
   * platform's fifo_channels, recv_window, host_channels and local_copy_bw
   * do not apply; process failure is refused. */
  CS_SEMANTICS_MPI = 1,
} cs_semantics;

/* SMPI's envelope (tag, source, communicator) added to every message. */
#define CS_MPI_ENVELOPE_BYTES 16
/* SMPI 3.32's default of smpi/send-is-detached-thresh. */
#define CS_MPI_DETACH_BELOW 65536

struct cs_engine_config {
  const char *platform_file;  /* SimGrid XML */
  int n;                      /* simulated processes */
  int cores;                  /* ranks per host; rank r on host r / cores (in-order mapping) */
  const int *host_of;         /* or NULL; else rank r on host host_of[r] (each < number of hosts) */
  double o_send;              /* software overhead per message sent, seconds */
  double o_recv;              /* software overhead per message received, seconds */
  int stack_kib;              /* actor stack size */
  const char *factory;        /* contexts/factory, NULL = SimGrid's default */
  const char *model;          /* network/model */
  int crosstraffic;           /* network/crosstraffic */
  cs_semantics semantics;     /* eager (default) or SMPI's (see cs_semantics) */
  size_t mpi_detach_below;    /* CS_SEMANTICS_MPI: sends below this many bytes are detached */
  /* FIFO channels: a process has at most one message in flight to each
   * destination; a second send to it blocks the sender until the first is
   * delivered (in-order delivery per pair, as MPI and a NIC queue behave).
   * Off: every send starts at once and concurrent messages to one
   * destination share the bandwidth (the first finishes with the last). */
  int fifo_channels;
  /* Receives posted ahead per process (1 = none, at most
   * CS_MAX_RECV_WINDOW): messages are taken in order of arrival rather than
   * in order of sending. */
  int recv_window;
  /* CPU: off, every process has a core of its own (computation and the
   * per-message overheads are sleeps); on, the processes of one host take
   * turns on its one processor, first come first served, each piece of
   * work run to its end (the proclets of an OS process, seed 003). */
  int shared_cpu;
  /* > 0: a message between two processes of one host is copied by the
   * sender's processor (o_send + bytes / local_copy_bw of CPU time, shared
   * with the other processes of the host under shared_cpu) and then crosses
   * the loopback as a zero-byte message: it pays the loopback's latency but
   * never shares its bandwidth in SimGrid's solver.  0: a network flow. */
  double local_copy_bw;
  /* On: messages between two hosts go through one FIFO channel per ordered
   * pair of hosts, one message on the wire at a time (an OS process pair's
   * socket or shared-memory queue): a daemon actor on the sending host
   * takes them in the order they were sent.  Senders never block.  It also
   * bounds the flows SimGrid's solver shares to one per host pair. */
  int host_channels;
  int validate_platform;      /* load a user's file in a child first (SimGrid aborts on a bad one) */
  GPtrArray *extra_cfg;       /* further "--cfg=name:value" / "--log=..." strings */
  /* Called on every send (e.g. to record the message stream), or NULL. */
  void (*observer)(int src, int dst, size_t bytes, cs_phase phase, void *user);
  void *observer_user;
  /* Called when a process takes a message out of the network, i.e. on every
   * delivery (e.g. to count the traffic each link carried), or NULL: what
   * was delivered, when (cs_delivery).  Messages a failed process discards
   * are not reported. */
  void (*on_delivery)(const cs_delivery *d, void *user);
  void *on_delivery_user;
  /* A second delivery hook, kept apart from the driver's on_delivery: the
   * message trace of --trace and --timeline (sim/drivers/trace.h), set by
   * the front-end.  tracer_end, if not NULL, is called at the end of every
   * cs_engine_run that returns TRUE, with the platform still loaded (to
   * look up routes). */
  void (*tracer)(const cs_delivery *d, void *user);
  void (*tracer_end)(const cs_engine_config *c, void *user);
  void *tracer_user;
  /* Progress on stderr for runs longer than a second, drawn by a second
   * thread every quarter second from the first second on, measured in the
   * work that advances: the weights of the messages delivered
   * (cs_message_work, sim/contracts/msg.h) against progress_work when the
   * driver knows their total, else messages delivered against
   * progress_messages, else seconds of cs_compute (summed over the
   * processes) against progress_compute_s, each with an ETA at the rate so
   * far; with none, messages delivered so far and no ETA.  Off when quiet.
   * With COLLSIM_PROGRESS_LOG=FILE in the environment, every look also
   * appends "elapsed_s messages work computed_s done total" to FILE, quiet
   * or not (collsim sweep follows its points there).  With COLLSIM_PLAN=FILE
   * the run is not simulated: FILE gets "n messages work compute_s" and the
   * process exits 0 (collsim sweep weighs its points by it). */
  int quiet;
  double progress_work;      /* the run's total of cs_message_work, 0 = not known */
  double progress_messages;  /* the run's messages, 0 = not known */
  double progress_compute_s; /* the run's cs_compute seconds over all processes, 0 = not known */
  /* Process failure (fail-stop): the process fail_rank (-1 = none) stops for
   * good at fail_at simulated seconds.  Computing or paying an overhead, its
   * sleep is cut at fail_at; blocked in a receive, it is woken (a daemon
   * actor puts a zero-byte poison message in its mailbox); polling, its next
   * engine call at or after fail_at ends it.  It never returns to the
   * algorithm: it stays in the engine, discarding every message that reaches
   * it, never retires, and counts neither as retired nor as waiting in the
   * end-of-run and deadlock tests.  From fail_at on cs_proc_failed reports it
   * and sends to it are dropped (msg.h).  With shared_cpu the piece of work
   * it was doing keeps its host's processor to its planned end. */
  int fail_rank;
  double fail_at;
};

/* A process found waiting forever (cs_engine_stuck): blocked in cs_recv_ctx
 * for (src, ctx, tag). */
typedef struct cs_stuck {
  int rank;
  int src; /* or CS_ANY */
  uint32_t ctx;
  int tag;
} cs_stuck;

void cs_engine_config_defaults(cs_engine_config *c);

typedef void (*cs_proc_main_fn)(cs_proc *p, void *user);

/* Well-formedness check of a platform file before SimGrid sees it (SimGrid
 * aborts on a bad file).  Returns FALSE with a message naming the problem. */
gboolean cs_platform_precheck(const char *path, GError **err);
/* Read and parse a platform file with a GMarkup parser; FALSE with a message
 * (CS_INPUT_ERROR) naming the file if it cannot be read or is not XML. */
gboolean cs_xml_parse_file(const char *path, const GMarkupParser *parser, gpointer user, GError **err);

/* Try c->extra_cfg in a child process (SimGrid aborts on a setting it
 * rejects): FALSE with a one-line message (CS_INPUT_ERROR) naming it. */
gboolean cs_engine_check_cfg(const cs_engine_config *c, GError **err);

/* Initialise SimGrid with c's configuration and load c->platform_file (after
 * cs_platform_precheck, and in a child first if c->validate_platform), once
 * per OS process: later calls return TRUE at once for the same file (the
 * configuration of the first call stays in force) and fail with
 * CS_INPUT_ERROR for another file. */
gboolean cs_engine_load(const cs_engine_config *c, GError **err);
/* The platform file this process loaded into SimGrid, or NULL: SimGrid was
 * never started (the untimed paths never start it; tests check). */
const char *cs_engine_loaded_platform(void);

/* Load the platform (cs_engine_load), start n processes, run to completion.
 * procs must hold n entries; they are initialised here.  May be called once
 * per OS process (SimGrid cannot be re-initialised).  Returns FALSE on bad
 * input (error set, domain CS_INPUT_ERROR) or internal failure. */
gboolean cs_engine_run(const cs_engine_config *c, cs_proc *procs, cs_proc_main_fn fn, void *user,
                       GError **err);

/* Processes of the last run that finished their own part (called cs_serve):
 * fewer than n means the run deadlocked (or a process failed). */
int cs_engine_retired(void);

/* The rank that failed in the last run, or -1 (none configured, or the run
 * ended before fail_at), and the simulated time it failed at (-1 if none). */
int cs_engine_failed_rank(void);
double cs_engine_fail_time(void);

/* Deadlock: the engine ends a run itself (every actor killed, no SimGrid
 * report) when every live process (not failed, not returned from its main
 * function) waits in a receive or in cs_serve, no message is in flight
 * (channel queues included), no failure is still to come, and some live
 * process has not retired.  cs_engine_run still returns TRUE: the caller
 * reports it.  The stuck processes are those waiting in cs_recv_ctx
 * (including a handler's receive inside cs_serve), in rank order, with what
 * each waited for; processes idle in cs_serve are not listed. */
bool cs_engine_deadlocked(void);
int cs_engine_stuck_count(void);
/* The stuck processes (valid until the next run); *count gets their number. */
const cs_stuck *cs_engine_stuck(int *count);

/* The collsim binary loads SimGrid (its module, sg_lazy.c) at the first
 * call that needs it, so runs without SimGrid do not pay its 50-80 ms of
 * loading.  cs_engine_preload loads it now: before forking children that
 * will run it, so each does not load it again.  Linked with sg_engine.c
 * itself (tests, benches), it does nothing. */
void cs_engine_preload(void);

/* Simulated time at the end of the run. */
double cs_engine_clock(void);

/* The sum of cs_message_work over the messages the last run delivered (what
 * its progress line counted when its driver declared progress_work). */
double cs_engine_work(void);

#endif
