/* The cost contract of the collective algorithms (seed 001, Section 3: the
 * cost model of Tables 1-2, here with latency, software overheads, a
 * bandwidth per tier and the node's port added).
 *
 * Each algorithm declares its own cost next to its schedule
 * (cs_coll_algo.cost and .cost_formula, sim/contracts/schedule.h): the time
 * of its critical path, a sum of steps.  A step is a set of messages that
 * travel at once; the busiest rank sends `sends` of them and receives
 * `recvs` (each o_recv plus its share of combined*g), so the step takes
 *
 *   max(sends*o_send + a[lvl] + wire + r, max(sends*o_send, o_send + a[lvl] + wire) + recvs*r),
 *   wire = max(pair_bytes*B[lvl], port_bytes*Bp, l2_bytes*BL),
 *   r = o_recv + combined/recvs*g
 *
 * (the last message leaves after the sender's sends and arrives after its
 * flight; or the receives queue up, from when the rank has sent its own and
 * the messages, which travel at once and end together, have arrived).
 * with the parameters below (symbols as the formulas print them):
 *   o       = o_send + o_recv, the engine's software overheads per message
 *             sent and received (--o-send, --o-recv);
 *   a0 a1 a2 ag
 *           latency of one message between two cores of a node, two nodes of
 *           a supernode, two supernodes, and from a gateway node to the
 *           landing node of its L2 link: the links' latencies summed along
 *           the longest such route, times the network model's latency
 *           factor (LV08: 13.01);
 *   B0 B1 B2 Bg
 *           seconds per byte of a message on such a route: its slowest link,
 *           bandwidth times the model's bandwidth factor (LV08: 0.97);
 *   Bp      seconds per byte of a node's port, the link that every route out
 *           of (or into) a node takes (Dragonfly's terminal link): every
 *           message the node sends (receives) at once shares it; 0 where
 *           there is none (PERCS: a link per pair of nodes);
 *   BL      seconds per byte of the link that every route between two
 *           supernodes takes (their L2 link), shared by all their messages;
 *   g       seconds per byte combined by a reducing receive (--gamma; the
 *           timed interpreter charges exactly this, and nothing else);
 *   p sn nps cpn   the shape (two-tier view), n the whole buffer in bytes,
 *           b = n/p the block of one rank, L = ceil(log2 p).
 *
 * Choices left open (ours): a level's latency is that of its LONGEST route
 * (PERCS: three hops between supernodes; a torus: its diameter); only the
 * sharing an algorithm's own step causes is counted (a node's port, the
 * messages between two nodes or two supernodes), not the way two routes of
 * different node pairs happen to cross (Dragonfly's local links);
 * messages of one step start together (a store-and-forward step waits for
 * the previous one to end: no pipelining across steps); SimGrid's TCP window
 * bound (network/TCP-gamma) and the sharing weights of LV08 are left out
 * (not binding on the shipped platforms); a size-dependent model (SMPI, IB)
 * is evaluated at the run's mean message size. */
#ifndef COLLSIM_COST_H
#define COLLSIM_COST_H

#include "sim/contracts/two_tier.h"

#include <stdint.h>

struct cs_sched_params;

typedef enum { CS_LVL_CORE, CS_LVL_NODE, CS_LVL_SUPERNODE, CS_LVL_GATEWAY, CS_NLEVELS } cs_cost_level;

typedef struct cs_cost_params {
  double o_send, o_recv;     /* s per message sent, received */
  double alpha[CS_NLEVELS];  /* a0 a1 a2 ag, s */
  double beta[CS_NLEVELS];   /* B0 B1 B2 Bg, s per byte */
  double beta_port;          /* Bp, s per byte (0: no port) */
  double beta_l2;            /* BL, s per byte (0: no common link) */
  double gamma;              /* g, s per byte combined */
  double lat_factor, bw_factor; /* the network model's, already in alpha and beta (for reports) */
} cs_cost_params;

/* One step of the critical path (see the top of this file). */
typedef struct cs_cost_step {
  cs_cost_level level; /* of the slowest message */
  double pair_bytes;   /* bytes between the busiest pair of ranks' nodes (>= the largest message) */
  double port_bytes;   /* bytes through the busiest node's port, out or in */
  double l2_bytes;     /* bytes between the busiest pair of supernodes */
  double sends, recvs; /* messages the busiest rank sends, receives */
  double combined;     /* bytes the busiest rank combines */
} cs_cost_step;

double cs_cost_step_time(const cs_cost_params *c, const cs_cost_step *s);

/* Level of the route between ranks a and b (CORE, NODE or SUPERNODE). */
cs_cost_level cs_cost_level_of(const struct cs_sched_params *prm, int64_t a, int64_t b);

/* One message of `bytes` from rank a to rank b, alone. */
cs_cost_step cs_cost_message(const struct cs_sched_params *prm, int64_t a, int64_t b, double bytes);

/* One message of `bytes` at a level, alone (the algorithms that know where
 * their messages go: gateway to landing node, leader to leader). */
cs_cost_step cs_cost_at(cs_cost_level level, double bytes);

/* A node sends (or receives) k messages of `bytes` at once, each to (from)
 * another node at `level`: one pair each, k * bytes through the port. */
cs_cost_step cs_cost_fan(cs_cost_level level, double k, double bytes);

/* Every rank r sends `bytes` to partner(prm, r, arg) at once (-1: sends
 * nothing), as a shift or an exchange does: the step's level and loads, the
 * most messages between two nodes, out of one node, between two
 * supernodes (sends = recvs = 1).  O(p log p).  The uniform variant counts
 * the senders of supernode 0 only, O(p/sn log): for patterns that every
 * supernode runs alike (a shift under the in-order mapping). */
typedef int64_t (*cs_cost_partner_fn)(const struct cs_sched_params *prm, int64_t rank, int64_t arg);
cs_cost_step cs_cost_pattern(const struct cs_sched_params *prm, cs_cost_partner_fn partner, int64_t arg,
                             double bytes);
cs_cost_step cs_cost_uniform_pattern(const struct cs_sched_params *prm, cs_cost_partner_fn partner, int64_t arg,
                                     double bytes);

/* The legend of the formulas' symbols, one line each (for --list --models). */
extern const char *const cs_cost_legend[];

#endif
