/* The messaging interface: the only thing an algorithm may talk to.
 *
 * A simulated process is a `cs_proc`.  Algorithms send and receive tagged
 * messages, declare the memory they hold, and charge computation.  Nothing here
 * names SimGrid: the timed backend (sim/engine/sg_engine.c) implements the transport
 * with SimGrid actors and mailboxes; another backend may run the same code
 * untimed.
 *
 * Semantics (chosen to match a message-driven runtime such as Charm++, which
 * the seed-000 paper used):
 *  - cs_send is asynchronous (eager): it returns at once; the payload is copied.
 *  - cs_recv blocks until a message with the given tag (and source, unless
 *    CS_ANY) arrives.  Messages that do not match are kept, in arrival order,
 *    for a later cs_recv; while they wait they count as memory the process holds.
 *  - A process may install one *handler* for a range of tags.  A message in that
 *    range is never queued: it is handed to the handler as soon as the process
 *    looks at its mailbox (inside any cs_recv, or in cs_serve).  This is how
 *    "intermediary" roles (Rank-and-Hash) are served while the process is busy.
 *  - Every send is counted (messages, bytes, largest message) in the counter set
 *    of the current phase, including sends to oneself; a handler's sends count
 *    in the phase that was current when the handler was installed.
 *  - Memory: every byte obtained with cs_alloc, every received message not yet
 *    freed, and every queued message counts, in 8-byte words, with a peak.
 */
#ifndef COLLSIM_MSG_H
#define COLLSIM_MSG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>

#define CS_ANY (-1)

/* Phases split the counters: the algorithm itself versus the broadcast and
 * reduction that bracket it in the paper's experiments. */
/* CS_PHASE_LOCAL: wake-ups between collocated proclets (a scheduler switch
 * inside an OS process, seed 003), not messages of the algorithm. */
typedef enum { CS_PHASE_ALGO = 0, CS_PHASE_BRACKET = 1, CS_PHASE_LOCAL = 2, CS_NPHASES = 3 } cs_phase;

typedef struct cs_proc cs_proc;

/* A delivered message's weight in the progress meter (sim/engine):
 * log2(8 + bytes).  The simulator's wall time per message grows with the
 * message's size -- a long transfer overlaps more others, so every solver
 * update it takes part in touches more flows -- but far less than its
 * bytes: on Bruck's allgather of 32,768 ranks (8 B to 128 KiB per message)
 * a round's wall time grew about 5-fold from the first round to the last
 * (bench/eta.sh).  The form and its constant 8 were chosen on that one run;
 * every other run of bench/eta.sh is a prediction.  An algorithm that knows
 * its messages' sizes declares its run's total of these weights, and the
 * progress line counts them instead of plain messages. */
static inline double cs_message_work(size_t bytes) { return log2(8.0 + (double)bytes); }

typedef struct cs_msg {
  int src;
  int tag;
  uint32_t ctx;   /* context id: matched like the tag (0 for plain cs_send) */
  size_t bytes;   /* simulated size of the message */
  void *data;     /* payload (NULL for a virtual payload), owned by the message */
  void *note;     /* the transport's own (NULL until it sets it) */
  int phase;      /* the sender's phase when it sent it (cs_phase) */
  double t_sent;  /* simulated time the sender posted it (set by the timed backend, else 0) */
} cs_msg;

typedef struct cs_counters {
  uint64_t messages;
  uint64_t bytes;
  uint64_t max_message_bytes;
} cs_counters;

typedef void (*cs_handler_fn)(cs_proc *p, cs_msg *m, void *user);

/* Identity. */
int cs_rank(const cs_proc *p);
int cs_size(const cs_proc *p);

/* Point to point. `data` may be NULL: a virtual payload of `bytes` bytes whose
 * content the receiver can recompute (used where simulating the content would
 * cost more real memory than the machine has, e.g. an allgather of n entries on
 * each of n processes). */
void cs_send(cs_proc *p, int dst, int tag, const void *data, size_t bytes);
/* A message of `bytes` simulated bytes carrying the first `data_len` bytes
 * of data as its real content (data_len <= bytes): a small payload (a value,
 * a check sum) inside a larger simulated message. */
void cs_send_sized(cs_proc *p, int dst, int tag, const void *data, size_t data_len, size_t bytes);
cs_msg *cs_recv(cs_proc *p, int src, int tag);
/* The same within a context (the communicator layer, sim/contracts/comm.h):
 * a message matches a receive only if its context id, tag and source (unless
 * CS_ANY) all match.  cs_send and cs_recv use context 0; handlers see
 * context-0 messages only. */
void cs_send_ctx(cs_proc *p, int dst, uint32_t ctx, int tag, const void *data, size_t data_len, size_t bytes);
cs_msg *cs_recv_ctx(cs_proc *p, int src, uint32_t ctx, int tag);
void cs_msg_free(cs_proc *p, cs_msg *m);

/* Non-blocking receive (MPI_Iprobe followed by MPI_Recv): the first queued
 * or already arrived message matching (src or CS_ANY, ctx, tag), or NULL at
 * once.  It never blocks and never advances simulated time, except the
 * receive overhead of each message it takes out of the network.  Arrived
 * messages that do not match are queued as cs_recv_ctx queues them, and
 * messages of the handler's range are handed to the handler as usual (the
 * handler may take time).  A process that only polls is not blocked: the
 * timed backend's end-of-run and deadlock detection never count it as
 * waiting.  A backend without polling returns queued messages only. */
cs_msg *cs_recv_try_ctx(cs_proc *p, int src, uint32_t ctx, int tag);
cs_msg *cs_recv_try(cs_proc *p, int src, int tag); /* context 0 */

/* Process failure: a simulated failure detector, perfect and without delay
 * (true from the moment `rank` fails, never before, for every process).  It
 * stands for the error a fault-tolerant MPI (ULFM's MPI_ERR_PROC_FAILED)
 * returns on an operation with a failed process, with no detection latency
 * modelled.  The timed backend fails at most one process per run
 * (cs_engine_config's fail_rank, fail_at); false in backends without
 * failures.
 * A send to a rank the detector reports failed is dropped at once by the
 * sender: nothing is injected, no overhead is paid, the counters and the
 * send observer do not see it; it is counted in cs_proc_dropped_sends.  A
 * message sent before the failure is delivered to the failed process, which
 * discards it. */
bool cs_proc_failed(const cs_proc *p, int rank);  /* rank CS_ANY: has any process failed? */

/* Handler for tags in [tag_lo, tag_hi]; pass fn = NULL to remove it. */
void cs_set_handler(cs_proc *p, int tag_lo, int tag_hi, cs_handler_fn fn, void *user);
/* The same, with state the process keeps for the handler (allocated with
 * cs_alloc): the messaging layer frees it when the handler is replaced or
 * removed, or when the run ends (a serving process never returns to free
 * it). */
void cs_set_handler_owned(cs_proc *p, int tag_lo, int tag_hi, cs_handler_fn fn, void *state);
/* Serve handler messages until the simulation ends (the process has finished
 * its own part but may still be asked to act for others).  The timed backend
 * ends the run at quiescence: every process serving and no message in
 * flight (or at a deadlock it reports, sg_engine.h).  Returns only when
 * the transport's next() gives NULL: the run is over (the timed backend
 * ends its serving processes so under MPI semantics, instead of killing
 * them); the caller then returns at once. */
void cs_serve(cs_proc *p);

/* Memory the algorithm holds, counted in 8-byte words (rounded up). */
void *cs_alloc(cs_proc *p, size_t bytes);
void *cs_realloc(cs_proc *p, void *ptr, size_t bytes);
void cs_free(cs_proc *p, void *ptr);
/* Declare memory held outside cs_alloc (e.g. a conceptual table). */
void cs_mem_hold(cs_proc *p, int64_t words);
/* The same in bytes, rounded up to words (negative: release as many). */
void cs_mem_hold_bytes(cs_proc *p, int64_t bytes);

/* A total kept over several processes' memory (the proclets of one OS
 * process, seed 003), with its own peak: the peak of the sum, which the sum
 * of their peaks only bounds.  Words, as above. */
typedef struct cs_mem_pool {
  int64_t words, peak;
} cs_mem_pool;
/* From now on p's memory also counts in pool (what p holds already is
 * added at once).  A process is in one pool at most. */
void cs_proc_join_mem_pool(cs_proc *p, cs_mem_pool *pool);
/* Memory the pool's owner holds itself (e.g. a group map shared by the
 * proclets of an OS process), in bytes rounded up to words; negative:
 * release. */
void cs_mem_pool_hold_bytes(cs_mem_pool *pool, int64_t bytes);

/* Local computation of `seconds` of CPU time on this process's core. */
void cs_compute(cs_proc *p, double seconds);
/* Current simulated time, for timestamps only (never for decisions). */
double cs_now(const cs_proc *p);

void cs_set_phase(cs_proc *p, cs_phase phase);
cs_phase cs_get_phase(const cs_proc *p);

/* ---- what the engine reads after a run ---- */
const cs_counters *cs_proc_counters(const cs_proc *p, cs_phase phase);
int64_t cs_proc_mem_peak_words(const cs_proc *p);
int64_t cs_proc_mem_words(const cs_proc *p);
/* Messages this process took (cs_recv or its handler). */
uint64_t cs_proc_received(const cs_proc *p);
/* Sends this process dropped because their destination had failed. */
uint64_t cs_proc_dropped_sends(const cs_proc *p);

#endif
