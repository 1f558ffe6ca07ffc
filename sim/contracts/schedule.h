/* Collective algorithms as schedules (seed 001, Sections 4-5).
 *
 * A schedule algorithm yields, for ONE rank at a time, that rank's ordered
 * operations: send units to a peer, receive units from a peer (copying them,
 * or combining them into partial sums).  Schedules are data-independent and
 * produced on demand, never for all ranks at once.  Three consumers run the
 * same operations:
 *   - sim/checks/replay.c       the semantic check (who holds which data at the end),
 *   - patterns/pattern.c the untimed pattern-generator feeding linkUsage,
 *   - sim/engine/sched_interp.c     the timed interpreter (SimGrid actors).
 *
 * DATA UNITS.  The buffer of a collective is cut into `nunits` units, chosen
 * by the algorithm's plan().  For scatter, gather, allgather and
 * reduce-scatter nunits is a multiple m of p, and rank r's block (the data it
 * contributes or must end with) is units [r*m, (r+1)*m).  For bcast, reduce
 * and allreduce any nunits >= 1 will do (the whole buffer).  For alltoall
 * nunits = m p^2: the block that rank s sends rank d is the m units of pair
 * index d*p + (d - s mod p) (cs_units_pair), so rank d's block (what it
 * must end with, cs_units_block) is units [d*m*p, (d+1)*m*p), and rank s's
 * p blocks (what it starts with, cs_units_row) are one strided set.  For
 * barrier nunits = p tokens of 0 bytes, token r being rank r's block.
 * Unit sizes: see cs_unit_bytes.
 *
 * WHAT EACH COLLECTIVE STARTS WITH AND MUST END WITH (the replay checks it):
 *   scatter        root holds every unit       -> rank r holds its block
 *   gather         rank r holds its block      -> root holds every unit
 *   allgather      rank r holds its block      -> every rank holds every unit
 *   bcast          root holds every unit       -> every rank holds every unit
 *   reduce-scatter every rank holds its own contribution to every unit
 *                                               -> rank r holds its block, summed over all p ranks
 *   reduce         idem                        -> root holds every unit, summed over all p ranks
 *   allreduce      idem                        -> every rank holds every unit, summed over all p ranks
 *   alltoall       rank s holds its p blocks (s -> d), one for every d (its own included)
 *                                               -> rank d holds the block (s -> d) of every s
 *   barrier        rank r holds its token      -> every rank holds every token
 * A barrier moves no bytes: its tokens are 0-byte units that travel only
 * inside messages, so a rank that ends holding every token has heard, at
 * least transitively, from every other rank before it finished (a rank's
 * holdings change only by its own receives).
 * A rank may send only units it holds.  In reductions a send carries the
 * sender's current partial sums; CS_OP_RECV_REDUCE adds the received partial
 * sums into the receiver's (a contribution counted twice is an error), and
 * CS_OP_RECV replaces them (a finished block being delivered).
 *
 * LOOPS.  CS_OP_LOOP says: the next `body` ops are repeated `iterations` times;
 * in iteration i (from 0) an op uses peer (peer + i*peer_step) mod p, units
 * starting at (first + i*unit_step) mod nunits, and tag (tag + i).  Loops do
 * not nest.  They keep a ring (p-1 steps) one op long, so the pattern-generator
 * can handle a million ranks.  An op of an alltoall loop may instead pair
 * by XOR (peer_mode CS_PEER_XOR, cs_ops_step_xor): in iteration i its peer
 * is r XOR (i + peer_step), r being the rank whose op it is (p a power of
 * two, i + peer_step < p), and its units are the pair block between r and
 * that peer (cs_units_pair: r's block for the peer if it sends, the peer's
 * block for r if it receives); unit_step is unused.  Every consumer sees a
 * loop op through cs_op_at_iteration, cs_loop_op_bytes, cs_loop_op_peer and
 * cs_loop_op_node_run, which handle both modes.
 *
 * TAGS pair a send with its receive: for a given (sender, receiver) the
 * (tag + iteration) of the messages must be distinct, and the receive must
 * name the same units as the send.  Choose tags per phase, e.g. phase * p.
 */
#ifndef COLLSIM_SCHEDULE_H
#define COLLSIM_SCHEDULE_H

#include "sim/contracts/cost.h"
#include "sim/contracts/two_tier.h"

#include <glib.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum {
  CS_COLL_SCATTER,
  CS_COLL_GATHER,
  CS_COLL_BCAST,
  CS_COLL_ALLGATHER,
  CS_COLL_REDUCE_SCATTER,
  CS_COLL_REDUCE,
  CS_COLL_ALLREDUCE,
  CS_COLL_ALLTOALL,
  CS_COLL_BARRIER,
  CS_NCOLLS
} cs_coll;

const char *cs_coll_name(cs_coll c);  /* "scatter", ..., "reduce", "allreduce", "alltoall", "barrier" */
bool cs_coll_from_name(const char *name, cs_coll *out);
/* The names joined by ", " in cs_coll order (for messages and help). */
const char *cs_coll_names(void);
bool cs_coll_is_reduction(cs_coll c); /* reduce-scatter, reduce, allreduce */
/* Collectives whose size is given per rank (--block): scatter, gather,
 * allgather, reduce-scatter, and alltoall (bytes per (source, destination)
 * pair).  The others take the whole buffer (--bytes), but barrier. */
bool cs_coll_per_rank(cs_coll c);
/* Collectives that take a size: all but barrier (which moves 0 bytes). */
bool cs_coll_sized(cs_coll c);

/* What one run of a schedule is about. */
typedef struct cs_sched_params {
  cs_coll coll;
  const cs_two_tier *tt; /* sn, nps, cpn, the L2 wiring (gateway/landing), the rank mapping */
  int64_t p;          /* ranks = sn * nps * cpn */
  int64_t root;       /* 0: the paper's root (core 0 of node 0 of supernode 0) */
  uint64_t block;     /* per-rank collectives: bytes of one rank's block; alltoall: of one pair's */
  uint64_t bytes;     /* whole buffer: block * p (alltoall: block * p^2), the bcast/reduce/allreduce buffer,
                         0 for barrier */
  int64_t nunits;     /* chosen by the algorithm's plan() */
  const struct cs_tree_script *script; /* the "script" algorithms: the tree script, loaded and checked */
  uint64_t segment;   /* the segmented algorithms (--segment): bytes per segment, 0 = no segmentation */
} cs_sched_params;

/* A set of units: `runs` runs of `len` consecutive units, run i starting at
 * unit (first + i*stride), then a shorter last run of `tail` units (0 <=
 * tail < len) at (first + runs*stride); all indices mod nunits.  The runs
 * are empty if len or runs is 0; the tail lets one message carry a strided
 * set whose last run is cut short (Bruck's alltoall). */
typedef struct cs_units {
  int64_t first, len, stride, runs, tail;
} cs_units;

/* a mod m in [0, m) for m > 0, a of either sign (unit and rank indices
 * wrap around). */
static inline int64_t cs_mod(int64_t a, int64_t m)
{
  int64_t r = a % m;
  return r < 0 ? r + m : r;
}

static inline cs_units cs_units_range(int64_t first, int64_t len) { return (cs_units){first, len, 0, 1, 0}; }
cs_units cs_units_strided(int64_t first, int64_t len, int64_t stride, int64_t runs);
/* The same with a last run of tail units (0 <= tail < len). */
cs_units cs_units_strided_tail(int64_t first, int64_t len, int64_t stride, int64_t runs, int64_t tail);
/* Runs of u, the tail counted (0 if u is empty), and run k's first unit and
 * length (k < cs_units_nruns(u)): consumers walk a set through these. */
int64_t cs_units_nruns(cs_units u);
void cs_units_run_at(cs_units u, int64_t k, int64_t *first, int64_t *len);
/* Blocks of ranks [r0, r0+count) (r0 taken mod p; per-rank collectives,
 * m units per rank). */
static inline cs_units cs_units_blocks(const cs_sched_params *prm, int64_t r0, int64_t count)
{
  int64_t m = prm->nunits / prm->p;
  return cs_units_range(cs_mod(r0, prm->p) * m, count * m);
}
/* Units of rank r's block (per-rank collectives): [r*m, (r+1)*m). */
static inline cs_units cs_units_block(const cs_sched_params *prm, int64_t r) { return cs_units_blocks(prm, r, 1); }
/* Every unit. */
cs_units cs_units_all(const cs_sched_params *prm);
/* Alltoall: the units of the block rank s sends rank d, and the p blocks
 * rank s starts with (its "row": the pairs (s, s+o) for o = 0 .. p-1). */
int64_t cs_pair_index(int64_t p, int64_t s, int64_t d); /* d*p + (d - s mod p), s and d in [0, p) */
cs_units cs_units_pair(const cs_sched_params *prm, int64_t s, int64_t d);
cs_units cs_units_row(const cs_sched_params *prm, int64_t s);
static inline int64_t cs_units_count(cs_units u) /* (inline: every consumer asks it per op) */
{
  return (u.len > 0 && u.runs > 0 ? u.runs * u.len : 0) + (u.tail > 0 ? u.tail : 0);
}
bool cs_units_equal(cs_units a, cs_units b); /* same descriptor after normalising */

/* Size of unit u: per-rank collectives spread the block over its m units
 * (the first block % m units of a block get one byte more; alltoall: a
 * pair's block over its m units); bcast, reduce and allreduce spread the
 * buffer over all units the same way; a barrier's units have 0 bytes. */
uint64_t cs_unit_bytes(const cs_sched_params *prm, int64_t u);
uint64_t cs_units_bytes(const cs_sched_params *prm, cs_units u);
/* Do all units have the same size? (lets consumers multiply instead of add) */
bool cs_units_uniform(const cs_sched_params *prm);

typedef enum { CS_OP_SEND, CS_OP_RECV, CS_OP_RECV_REDUCE, CS_OP_LOOP } cs_op_kind;

/* How a loop op's peer moves (see LOOPS above). */
typedef enum {
  CS_PEER_SHIFT, /* peer + i*peer_step mod p, units moving by unit_step (the default) */
  CS_PEER_XOR    /* r XOR (i + peer_step), r = peer XOR peer_step; units: the pair block */
} cs_peer_mode;

/* (The 4-byte fields first: 96 bytes, not 104 with padding; the native
 * engine holds every running rank's list.) */
typedef struct cs_op {
  cs_op_kind kind;
  cs_peer_mode peer_mode; /* inside a loop: how peer_step moves the peer */
  int32_t tag;
  /* RECV and RECV_REDUCE outside loops: consecutive receives with this flag
   * set may complete in any order (in order of arrival: the first message
   * of any of them that comes is taken first).  The replay checks them in
   * the order listed; a reduction's result does not depend on it. */
  bool any_order;
  int64_t peer;       /* SEND: destination rank; RECV*: source rank */
  cs_units units;
  int64_t peer_step;  /* inside a loop: per-iteration increments (CS_PEER_XOR: the XOR offset) */
  int64_t unit_step;
  int64_t body;       /* CS_OP_LOOP only */
  int64_t iterations; /* CS_OP_LOOP only */
} cs_op;

typedef struct cs_oplist {
  cs_op *op;
  size_t n, cap;
} cs_oplist;

void cs_oplist_init(cs_oplist *o);
void cs_oplist_clear(cs_oplist *o); /* keeps the storage */
void cs_oplist_free(cs_oplist *o);

/* Room for one more op (doubling). */
void cs_oplist_grow(cs_oplist *o);

/* Appends a plain op (inline: the schedules append one per message, in
 * the untimed pattern and again in the native engine). */
_Static_assert(sizeof(cs_op) == 96, "cs_ops_comm sets every field of cs_op: a new field goes there too");
static inline void cs_ops_comm(cs_oplist *o, cs_op_kind kind, int64_t peer, int32_t tag, cs_units u)
{
  if (o->n == o->cap)
    cs_oplist_grow(o);
  cs_op *op = &o->op[o->n++];
  op->kind = kind;
  op->peer_mode = CS_PEER_SHIFT;
  op->tag = tag;
  op->any_order = false;
  op->peer = peer;
  op->units = u;
  op->peer_step = op->unit_step = op->body = op->iterations = 0;
}

static inline void cs_ops_send(cs_oplist *o, int64_t to, int32_t tag, cs_units u) { cs_ops_comm(o, CS_OP_SEND, to, tag, u); }
static inline void cs_ops_recv(cs_oplist *o, int64_t from, int32_t tag, cs_units u)
{
  cs_ops_comm(o, CS_OP_RECV, from, tag, u);
}
static inline void cs_ops_recv_reduce(cs_oplist *o, int64_t from, int32_t tag, cs_units u)
{
  cs_ops_comm(o, CS_OP_RECV_REDUCE, from, tag, u);
}
/* Mark the op appended last as part of an any-order group of receives. */
void cs_ops_any_order(cs_oplist *o);
/* The next `body` ops appended repeat `iterations` times (iterations >= 0). */
void cs_ops_loop(cs_oplist *o, int64_t iterations, int64_t body);
/* Per-iteration increments of the op appended last (inside a loop). */
void cs_ops_step(cs_oplist *o, int64_t peer_step, int64_t unit_step);

/* The op appended last (inside an alltoall loop, p a power of two, its peer
 * rank XOR offset and its units the pair block between rank and that peer)
 * pairs by XOR: iteration i's peer is rank XOR (i + offset). */
void cs_ops_step_xor(cs_oplist *o, int64_t rank, int64_t offset);

/* An op as executed in iteration i of its loop (i = 0 outside loops): a
 * plain op (peer_step, unit_step 0, peer_mode CS_PEER_SHIFT). */
cs_op cs_op_at_iteration(const cs_sched_params *prm, const cs_op *op, int64_t i);
/* The peer of iteration i of a loop op (cs_op_at_iteration's, cheaper). */
int64_t cs_loop_op_peer(const cs_sched_params *prm, const cs_op *op, int64_t i);
/* Does the loop op keep one peer in every iteration? */
bool cs_loop_op_fixed_peer(const cs_sched_params *prm, const cs_op *op);
/* How many iterations from i on (1 to left) have their peers on the node
 * of iteration i's peer: a run the pattern-generator charges at once.  On
 * the in-order mapping a shift by less than cpn runs to the node's edge and
 * an XOR pairing runs through aligned blocks of peers inside one node;
 * otherwise 1. */
int64_t cs_loop_op_node_run(const cs_sched_params *prm, const cs_op *op, int64_t i, int64_t left);

/* Bytes of iterations [i0, i0+count) of op inside its loop (units moving
 * by unit_step): in O(1) for the usual loops (uniform sizes, or a ring's
 * windows tiling the buffer, or XOR pairing, whose pair blocks all have
 * one pair's bytes), so a size that does not divide evenly costs the
 * consumers no more than one that does. */
uint64_t cs_loop_op_bytes(const cs_sched_params *prm, const cs_op *op, int64_t i0, int64_t count);
/* At least the bytes of any set shaped like u wherever it starts (a bound
 * on the largest message of a loop op; exact for one run). */
uint64_t cs_units_largest_bytes(const cs_sched_params *prm, cs_units u);
/* Calls fn for every SEND/RECV/RECV_REDUCE op of the list, loops expanded,
 * in execution order.  Stops early and returns false if fn returns false. */
typedef bool (*cs_op_visit_fn)(const cs_op *op, void *user);
bool cs_oplist_expand(const cs_sched_params *prm, const cs_oplist *o, cs_op_visit_fn fn, void *user);

/* Traffic aggregated per (source node, destination node), as the
 * pattern-generator and the timed interpreter report it. */
typedef void (*cs_pair_sink)(void *user, int64_t src_node, int64_t dst_node, uint64_t bytes, uint64_t messages);

#define CS_SCHED_ERROR (cs_sched_error_quark())
GQuark cs_sched_error_quark(void);

/* One collective algorithm.  Register it in algorithms/collectives/registry.c. */
typedef struct cs_coll_algo {
  const char *name;    /* e.g. "binomial", "two-tier", "two-tier-base" */
  cs_coll coll;
  const char *summary; /* one line for `collsim collective --list` */
  /* Check that the shape suits the algorithm and set prm->nunits.  On
   * failure set err (CS_SCHED_ERROR) naming the constraint. */
  bool (*plan)(cs_sched_params *prm, GError **err);
  /* Append rank's operations, in order, to out (which the caller cleared). */
  void (*ops)(const cs_sched_params *prm, int64_t rank, cs_oplist *out);
  /* The algorithm relies on the in-order mapping of ranks to nodes (node
   * leaders are ranks node * cpn): refused on other mappings. */
  bool needs_in_order;
  /* Its own cost (sim/contracts/cost.h): the time of its critical path on
   * prm's shape (after plan) with parameters c, in seconds. */
  double (*cost)(const cs_sched_params *prm, const cs_cost_params *c);
  /* That cost as a formula in cost.h's symbols, one line. */
  const char *cost_formula;
} cs_coll_algo;

/* A plan() for the many algorithms that move one unit per rank's block
 * (nunits = p) and accept any shape. */
bool cs_plan_unit_per_rank(cs_sched_params *prm, GError **err);
/* A plan() for the algorithms that move the whole buffer as one unit
 * (nunits = 1) and accept any shape. */
bool cs_plan_whole_buffer(cs_sched_params *prm, GError **err);

/* The registry (algorithms/collectives/registry.c). */
size_t cs_coll_algo_count(void);
const cs_coll_algo *cs_coll_algo_at(size_t i);
const cs_coll_algo *cs_coll_algo_find(cs_coll c, const char *name);

/* Fill prm (coll, tt, p, root 0, block/bytes) and run the algorithm's plan.
 * size = block for per-rank collectives, whole buffer otherwise, ignored for
 * barrier.  Checks that the total of bytes fits 64 bits and the mapping
 * suits the algorithm. */
bool cs_sched_setup(cs_sched_params *prm, const cs_coll_algo *a, const cs_two_tier *tt, uint64_t size,
                    GError **err);
/* The same for the "script" algorithms, with their tree script. */
bool cs_sched_setup_script(cs_sched_params *prm, const cs_coll_algo *a, const cs_two_tier *tt, uint64_t size,
                           const struct cs_tree_script *script, GError **err);
/* The same with a segment size for the segmented algorithms (0: none). */
bool cs_sched_setup_segment(cs_sched_params *prm, const cs_coll_algo *a, const cs_two_tier *tt, uint64_t size,
                            const struct cs_tree_script *script, uint64_t segment, GError **err);

/* Node of a rank (by the platform's mapping). */
static inline int64_t cs_rank_node(const cs_sched_params *prm, int64_t r) { return cs_tt_node_of(prm->tt, r); }

#endif
