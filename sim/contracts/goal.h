/* GOAL, LogGOPSim's schedule text format, in and out, and the lowering of
 * collsim's sequential schedules (schedule.h) into GOAL's operations and
 * dependencies.
 *
 * THE FORMAT (LogGOPSim's src/LogGOPSim/txt2bin.re grammar):
 *   num_ranks P
 *   rank R {
 *   LABEL: send Nb to R [tag T] [cpu C] [nic I]
 *   LABEL: recv Nb from R|-1 [tag T|-1] [cpu C] [nic I]
 *   LABEL: calc N [cpu C]                 (N: nanoseconds of local work)
 *   LABEL1 requires LABEL2                (1 starts after 2 completes)
 *   LABEL1 irequires LABEL2               (1 starts after 2 starts)
 *   }
 * Labels are [a-zA-Z][a-zA-Z0-9_]*, local to their rank, defined before a
 * dependency names them; "LABEL:" is optional on an operation.  Comments:
 * // to the end of the line, and C block comments.  Ranks come in order 0 .. P-1,
 * every one of them.  -1 means any source / any tag.
 *
 * THE LOWERING of one rank's op list (the rule the native engine executes
 * cs_ops by, and the rule --goal writes, so that a schedule exported and
 * imported again runs the same):
 *   - the list is cut into STEPS, executed one after the other: every op is
 *     a step of its own, except a run of consecutive any-order receives
 *     with one tag (outside loops), which is one step (its receives are
 *     posted together and complete in any order);
 *   - loops are unrolled (iteration i: cs_op_at_iteration), in order;
 *   - a reducing receive (CS_OP_RECV_REDUCE) of B bytes is followed by a
 *     step "calc round(gamma_ns * B)" when that is at least 1 ns (for an
 *     any-order group: one calc step per reducing receive of the group, in
 *     the group's order, after the whole group);
 *   - every op of step k+1 `requires` every op of step k (an op of the
 *     first step requires nothing), except that an op after a send
 *     `irequires` it: a send is posted and the rank goes on (as MPI_Isend;
 *     collsim's sends never wait for their receiver, and under LogGOPS a
 *     rendezvous send completes only when matched, so a send-then-receive
 *     exchange would deadlock otherwise).  For an eager send both give the
 *     same times (it starts and completes in one event).
 * Labels are l1, l2, ... in the order of the ops; each op's requires lines
 * follow it.  Sends carry the bytes of their units (cs_units_bytes), tags
 * are the op's tag plus the loop iteration.
 *
 * READING: one pass over the text (plain or gzip, detected by its first
 * bytes), rank by rank, into a compact binary graph (like LogGOPSim's
 * txt2bin): 40 bytes per operation and 4 per dependency (and 5 per
 * operation more while it runs), never the text
 * whole.  A large file's graph (more than 1 GiB of text, or 128 MiB of
 * gzip; COLLSIM_GOAL_ON_DISK=1 or 0 forces the choice) is written to
 * unlinked temporary files and mapped (bigarray.h), so that a schedule
 * larger than memory runs with the operating system paging it.  A
 * malformed file is refused (CS_INPUT_ERROR) naming its line. */
#ifndef COLLSIM_GOAL_H
#define COLLSIM_GOAL_H

#include "sim/contracts/schedule.h"

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

/* Operation types, numbered as LogGOPSim numbers them (their order is the
 * order in which it queues operations that become free together). */
enum { CS_GOAL_SEND = 1, CS_GOAL_RECV = 2, CS_GOAL_CALC = 3 };
#define CS_GOAL_ANY UINT32_MAX /* any source, any tag ("-1") */

typedef struct cs_goal_op {
  uint64_t size;   /* bytes, or nanoseconds for calc */
  uint32_t peer;   /* send: destination; recv: source (or CS_GOAL_ANY) */
  uint32_t tag;
  uint8_t type, cpu, nic;
} cs_goal_op;

/* ---- the lowering ---- */

/* What the lowering of every rank of one run shares. */
typedef struct cs_lower_ctx {
  const cs_sched_params *prm;
  double gamma_ns;     /* nanoseconds per byte reduced */
  bool uniform;        /* the buffer's units all have unit_bytes bytes */
  uint64_t unit_bytes;
} cs_lower_ctx;

void cs_lower_ctx_init(cs_lower_ctx *x, const cs_sched_params *prm, double gamma_ns);

/* One rank's op list packed for the lowering, in one allocation (g_free
 * it): 16 bytes per op, as the native engine holds the list of every
 * running rank (a 96-byte cs_op each made a million-rank dissemination
 * barrier hold 4 GiB).  A packed op keeps what the lowering asks of it:
 * its kind, any-order flag, bytes, peer and tag (a loop op: its iterations
 * and body).  Ops inside loops, whose peer and units move with the
 * iteration, and the rare op whose numbers do not fit, keep their cs_op in
 * `full` (the word's full bit set, peer = its index there). */
typedef struct cs_packed_op {
  uint64_t word; /* bits 0-1: cs_op_kind; bit 2: any order; bit 3: full (bit 4: its bytes, fixed, in bits 8-63);
                    bits 8-63: bytes, or a loop's iterations */
  uint32_t peer; /* a loop op: its body */
  int32_t tag;
} cs_packed_op;

typedef struct cs_packed {
  uint32_t n, nfull;
  const cs_op *full; /* inside the same allocation, after op[n] */
  cs_packed_op op[];
} cs_packed;

cs_packed *cs_lower_pack(const cs_lower_ctx *x, const cs_op *ops, size_t nops);

/* Rewrites the peers of l's packed send and receive ops (not its full ops)
 * as (peer - rank) mod p, so that ranks whose lists differ only by a
 * rotation of the ranks (every rank of a dissemination barrier, of Bruck's
 * algorithms) have byte-identical lists and can share one.  A cursor over it then needs
 * cs_lower_rotate(c, rank, p).  False (l unchanged) if l has full ops or
 * a peer >= p. */
bool cs_packed_make_relative(cs_packed *l, uint32_t rank, uint32_t p);

/* A cursor over one packed list, at one step. */
typedef struct cs_lower {
  const cs_lower_ctx *x;
  const cs_packed *l;
  uint32_t k;     /* first op of the step (in a loop: the body's op) */
  uint32_t n;     /* ops of the comm step at k (0: the list is done) */
  uint32_t phase; /* 0: the comm step; j >= 1: the calc of member j-1 */
  int32_t loop;   /* index of the enclosing CS_OP_LOOP, or -1 */
  uint32_t shift, peers; /* peers != 0: the list's packed peers are relative
                            (cs_packed_make_relative): peer = (packed + shift) mod peers */
  int64_t iter;
} cs_lower;

void cs_lower_start(cs_lower *c, const cs_lower_ctx *x, const cs_packed *l);
/* The cursor's list holds relative peers, those of rank `rank` of p. */
static inline void cs_lower_rotate(cs_lower *c, uint32_t rank, uint32_t p)
{
  c->shift = rank;
  c->peers = p;
}
static inline bool cs_lower_finished(const cs_lower *c) { return c->n == 0; }
/* Ops of the current step. */
static inline uint32_t cs_lower_step_size(const cs_lower *c) { return c->phase ? 1 : c->n; }
/* Op j of the current step. */
void cs_lower_op(const cs_lower *c, uint32_t j, cs_goal_op *out);
/* Is the current step a send (the next step irequires it)? */
bool cs_lower_step_is_send(const cs_lower *c);
/* Move to the next step. */
void cs_lower_next(cs_lower *c);

/* Writes every rank's schedule of algorithm a on prm (after plan) as GOAL
 * text to path, streamed rank by rank in chunks of about 1 MiB into a
 * temporary file renamed at the end (atomically; memory does not grow with
 * p).  gamma: seconds per byte reduced. */
bool cs_goal_write(const char *path, const cs_coll_algo *a, const cs_sched_params *prm, double gamma, GError **err);

/* ---- reading ---- */

/* A GOAL schedule, every rank, as compact arrays. */
typedef struct cs_goal_graph {
  uint32_t p;
  uint32_t ncpus, nnics; /* highest cpu / nic used, plus one */
  uint64_t nops, nedges;
  uint64_t *rank_first; /* p + 1: rank r's ops are [rank_first[r], rank_first[r+1]) */
  cs_goal_op *ops;
  uint32_t *ndeps;      /* per op: requires + irequires it waits for */
  uint64_t *out_first;  /* per op + 1: its dependants in out[out_first[i] .. out_first[i+1]) */
  uint32_t *nrequired;  /* per op: how many of them are `requires` (first), the rest `irequires` */
  uint32_t *out;        /* dependants, as op offsets within the rank, in the order of the file */
  uint64_t messages, bytes; /* sends and their bytes */
  bool on_disk;             /* the arrays are maps of temporary files (bigarray.h) */
  struct cs_bigarray *store[6]; /* the arrays' owners */
} cs_goal_graph;

/* Reads path (plain or gzip).  NULL with err (CS_INPUT_ERROR naming the
 * line) on a malformed file. */
cs_goal_graph *cs_goal_read(const char *path, GError **err);
void cs_goal_graph_free(cs_goal_graph *g);
/* The num_ranks of path's first statement, without reading further; 0
 * when the file does not start so (cs_goal_read then says why). */
uint32_t cs_goal_peek_ranks(const char *path);

/* Writes op as GOAL text (without label), e.g. "send 8b to 3 tag 0". */
void cs_goal_op_text(const cs_goal_op *op, GString *out);

#endif
